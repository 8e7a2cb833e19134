"""CS4341 Project 1: noughts and crosses against the computer (minimax with alpha-beta pruning).

Asks whether you want to go first, then asks for the row and the column of each move at two prompts.
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
    print("  1 2 3")
    for r in range(3):
        print("%d %s" % (r + 1, " ".join(c if c != " " else "." for c in board[3 * r:3 * r + 3])))


def ask(prompt):
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.strip()


def coordinate(prompt):
    while True:
        text = ask(prompt)
        if text in ("1", "2", "3"):
            return int(text) - 1
        print("Please type 1, 2 or 3.")


def read_move(board):
    while True:
        row = coordinate("Row (1-3): ")
        col = coordinate("Column (1-3): ")
        if board[3 * row + col] == " ":
            return 3 * row + col
        print("That square is taken; choose another.")


def main():
    print("Noughts and crosses against the computer.")
    while True:
        first = ask("Would you like to go first? (y/n) ").lower()
        if first in ("y", "n"):
            break
        print("Please answer y or n.")
    human, me = ("X", "O") if first == "y" else ("O", "X")
    board = [" "] * 9
    turn = "X"
    while winner(board) is None and " " in board:
        if turn == human:
            show(board)
            board[read_move(board)] = human
        else:
            cell = best(board, me, human)
            board[cell] = me
            print("The computer takes row %d, column %d." % (cell // 3 + 1, cell % 3 + 1))
        turn = "O" if turn == "X" else "X"
    show(board)
    w = winner(board)
    print("You win!" if w == human else "The computer wins." if w == me else "It's a draw.")


main()
