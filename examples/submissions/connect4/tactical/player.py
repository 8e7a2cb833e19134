"""A Connect Four player for the persistent protocol: wins when it can, blocks when it must, never
drops a disc where the opponent wins on top of it if it can help it, else prefers the middle."""
import sys

ROWS, COLS = 6, 7


def board_of(state):
    return [list(r) for r in state.split("/")]


def drop(board, col, side):
    for r in range(ROWS - 1, -1, -1):
        if board[r][col] == ".":
            b = [row[:] for row in board]
            b[r][col] = side
            return b
    return None


def wins(board, side):
    for r in range(ROWS):
        for c in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * k, c + dc * k) for k in range(4)]
                if all(0 <= y < ROWS and 0 <= x < COLS and board[y][x] == side for y, x in cells):
                    return True
    return False


def choose(board, me):
    them = "o" if me == "x" else "x"
    legal = [c for c in range(COLS) if board[0][c] == "."]
    for c in legal:
        if wins(drop(board, c, me), me):
            return c
    for c in legal:
        if wins(drop(board, c, them), them):
            return c
    safe = []
    for c in legal:
        after = drop(board, c, me)
        above = drop(after, c, them)
        if above is None or not wins(above, them):
            safe.append(c)
    pool = safe or legal
    return min(pool, key=lambda c: abs(c - 3))


for line in sys.stdin:
    kind, *rest = line.rstrip("\n").split("\t")
    if kind == "game":
        print("ready", flush=True)
    elif kind == "turn":
        side, last, state = rest
        print(choose(board_of(state), side) + 1, flush=True)
    elif kind == "end":
        break
