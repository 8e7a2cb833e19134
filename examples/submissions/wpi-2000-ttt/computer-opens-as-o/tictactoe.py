"""CS4341 Project 1: tic-tac-toe against the computer (minimax with alpha-beta pruning).

The computer always starts, and plays O; you play X. Type a move as its row and column, 1 to 3.
"""
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
ORDER = [4, 0, 2, 6, 8, 1, 3, 5, 7]


def winner(board):
    for a, b, c in LINES:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return board[a]
    return None


def best(board, me, other):
    """Minimax with alpha-beta pruning: the cell `me` plays, preferring quick wins."""

    def search(turn, depth, alpha, beta):
        w = winner(board)
        if w is not None:
            return (10 - depth) if w == me else (depth - 10)
        if " " not in board:
            return 0
        nxt = other if turn == me else me
        value = -100 if turn == me else 100
        for cell in ORDER:
            if board[cell] != " ":
                continue
            board[cell] = turn
            v = search(nxt, depth + 1, alpha, beta)
            board[cell] = " "
            if turn == me:
                value = max(value, v)
                alpha = max(alpha, value)
            else:
                value = min(value, v)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return value

    choice, top = None, -1000
    for cell in ORDER:
        if board[cell] == " ":
            board[cell] = me
            v = search(other, 1, -1000, 1000)
            board[cell] = " "
            if v > top:
                choice, top = cell, v
    return choice


def show(board):
    for r in range(3):
        print(" " + " | ".join(board[3 * r:3 * r + 3]))
        if r < 2:
            print("---+---+---")


def ask(prompt):
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.strip()


def read_move(board):
    while True:
        parts = ask("Your move, X (row col): ").split()
        if len(parts) != 2 or not all(p in ("1", "2", "3") for p in parts):
            print("Type a row and a column, each 1 to 3.")
            continue
        cell = 3 * (int(parts[0]) - 1) + int(parts[1]) - 1
        if board[cell] != " ":
            print("Taken.")
            continue
        return cell


def main():
    print("I am O and I always start. You are X.")
    board = [" "] * 9
    turn = "O"
    while winner(board) is None and " " in board:
        if turn == "O":
            board[best(board, "O", "X")] = "O"
            show(board)
        else:
            board[read_move(board)] = "X"
        turn = "X" if turn == "O" else "O"
    show(board)
    w = winner(board)
    print("%s wins!" % w if w else "Draw.")


main()
