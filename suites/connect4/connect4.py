#!/usr/bin/env python3
"""Connect Four's rules, as a rules program for the grader (docs/rules-programs.md).

The grader writes one request a line and reads one reply a line, fields separated by tabs:

    rules 1              -> rules 1 connect4
    start                -> STATE STATUS MOVE...
    apply STATE MOVE     -> STATE STATUS MOVE...
    render STATE         -> ROW|ROW|...        (top row first, one character a cell)

STATE is the board, six rows of seven cells from the top, joined by `/`: `.` empty, `x` the first
player's disc, `o` the second's. STATUS is the side to move (`x` or `o`, followed by its legal moves:
the columns `1`..`7` that are not full, left to right), or `x-won`, `o-won`, `draw`. The program keeps
no memory between requests: every answer depends on the request alone.
"""
import sys

ROWS, COLS, LINE = 6, 7, 4
EMPTY = "." * COLS


def parse(state):
    rows = state.split("/")
    if len(rows) != ROWS or any(len(r) != COLS or set(r) - set(".xo") for r in rows):
        raise ValueError("not a 6x7 board of `.`, `x`, `o`: " + state[:80])
    return [list(r) for r in rows]


def winner(board):
    for r in range(ROWS):
        for c in range(COLS):
            me = board[r][c]
            if me == ".":
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (LINE - 1), c + dc * (LINE - 1)
                if 0 <= end_r < ROWS and 0 <= end_c < COLS and all(
                    board[r + dr * k][c + dc * k] == me for k in range(LINE)
                ):
                    return me
    return None


def report(board):
    state = "/".join("".join(r) for r in board)
    won = winner(board)
    if won:
        return state + "\t" + won + "-won"
    moves = [str(c + 1) for c in range(COLS) if board[0][c] == "."]
    if not moves:
        return state + "\tdraw"
    discs = sum(r.count("x") + r.count("o") for r in board)
    side = "x" if discs % 2 == 0 else "o"
    return "\t".join([state, side] + moves)


def apply(state, move):
    board = parse(state)
    if winner(board):
        raise ValueError("the game is over")
    if move not in [str(c + 1) for c in range(COLS)]:
        raise ValueError("not a column 1..7: " + move[:20])
    col = int(move) - 1
    discs = sum(r.count("x") + r.count("o") for r in board)
    side = "x" if discs % 2 == 0 else "o"
    for r in range(ROWS - 1, -1, -1):
        if board[r][col] == ".":
            board[r][col] = side
            return report(board)
    raise ValueError("column %s is full" % move)


def answer(fields):
    if fields[0] == "rules":
        return "rules\t1\tconnect4"
    if fields[0] == "start":
        return report([list(EMPTY) for _ in range(ROWS)])
    if fields[0] == "apply" and len(fields) == 3:
        return apply(fields[1], fields[2])
    if fields[0] == "render" and len(fields) == 2:
        return "|".join("".join(r) for r in parse(fields[1]))
    raise ValueError("unknown request: " + fields[0][:20])


def main():
    for line in sys.stdin:
        try:
            reply = answer(line.rstrip("\n").split("\t"))
        except ValueError as e:
            reply = "error\t" + str(e)
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
