"""Tic-tac-toe against the computer, at the keyboard.

You choose X or O (X moves first) and type a move as its row and column, 1 to 3: `2 3` is row 2,
column 3. The computer plays perfectly (a memoised minimax over every position).
"""
import sys
from functools import lru_cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board):
    for a, b, c in LINES:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return board[a]
    return None


def other(mark):
    return "O" if mark == "X" else "X"


def put(board, cell, mark):
    return board[:cell] + mark + board[cell + 1:]


@lru_cache(maxsize=None)
def value(board, mark):
    """The game's value for `mark`, to move on `board`: 1 a win, 0 a draw, -1 a loss."""
    if winner(board) is not None:
        return -1
    if " " not in board:
        return 0
    return max(-value(put(board, i, mark), other(mark)) for i, c in enumerate(board) if c == " ")


def best(board, mark):
    free = [i for i, c in enumerate(board) if c == " "]
    return max(free, key=lambda i: -value(put(board, i, mark), other(mark)))


def show(board):
    print()
    for r in range(3):
        print(" " + " | ".join(board[3 * r:3 * r + 3]))
        if r < 2:
            print("---+---+---")
    print()


def ask(question):
    sys.stdout.write(question)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.strip()


def read_move(board):
    """Asks until the user names a free cell; returns it (0-8, row by row)."""
    while True:
        parts = ask("Your move (row column): ").split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            print("Please type a row and a column, like 2 3.")
            continue
        row, col = int(parts[0]), int(parts[1])
        if not (1 <= row <= 3 and 1 <= col <= 3):
            print("Rows and columns go from 1 to 3.")
            continue
        cell = 3 * (row - 1) + (col - 1)
        if board[cell] != " ":
            print("That cell is taken.")
            continue
        return cell


def main():
    print("Tic-tac-toe. X moves first; type a move as its row and column, e.g. 2 3.")
    human = ""
    while human not in ("X", "O"):
        human = ask("Do you want to play X or O? ").upper()
    me = other(human)
    board = " " * 9
    turn = "X"
    show(board)
    while winner(board) is None and " " in board:
        if turn == human:
            cell = read_move(board)
            print("You played %d %d." % (cell // 3 + 1, cell % 3 + 1))
        else:
            cell = best(board, me)
            print("I play %d %d" % (cell // 3 + 1, cell % 3 + 1))
        board = put(board, cell, turn)
        show(board)
        turn = other(turn)
    w = winner(board)
    print("%s wins." % w if w else "It's a draw.")


main()
