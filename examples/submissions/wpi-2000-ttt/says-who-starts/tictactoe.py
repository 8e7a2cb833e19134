"""CS4341 Project 1: tic-tac-toe against the computer (minimax with alpha-beta pruning).

It says who starts rather than asking: you are X and always go first. A move is a square 1-9 as on a
phone's keys (1 top left, 9 bottom right), typed with no prompt: the board is shown after every move.
"""
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
ORDER = [4, 0, 2, 6, 8, 1, 3, 5, 7]


def winner(board):
    for a, b, c in LINES:
        if board[a] != "_" and board[a] == board[b] == board[c]:
            return board[a]
    return None


def score(board, turn, me, depth, alpha, beta):
    """The value of `board` for `me` with `turn` to move: quick wins are worth more."""
    w = winner(board)
    if w is not None:
        return (10 - depth) if w == me else (depth - 10)
    if "_" not in board:
        return 0
    other = "X" if turn == "O" else "O"
    value = -100 if turn == me else 100
    for cell in ORDER:
        if board[cell] != "_":
            continue
        board[cell] = turn
        v = score(board, other, me, depth + 1, alpha, beta)
        board[cell] = "_"
        if turn == me:
            value = max(value, v)
            alpha = max(alpha, v)
        else:
            value = min(value, v)
            beta = min(beta, v)
        if beta <= alpha:
            break
    return value


def best(board):
    choice, top = None, -1000
    for cell in ORDER:
        if board[cell] == "_":
            board[cell] = "O"
            v = score(board, "X", "O", 1, -1000, 1000)
            board[cell] = "_"
            if v > top:
                choice, top = cell, v
    return choice


def show(board):
    for r in range(3):
        print(" ".join(board[3 * r:3 * r + 3]) + " ")
    print()


def read_square(board):
    """The next square typed, asked again (with a reason) until it is a free one."""
    while True:
        line = sys.stdin.readline()
        if not line:
            sys.exit(0)
        text = line.strip()
        if not text.isdigit():
            print("Numbers only, 1 to 9:")
            continue
        square = int(text)
        if not 1 <= square <= 9 or board[square - 1] != "_":
            print("That square is not free. Pick again:")
            continue
        return square - 1


def main():
    print("You are X, the computer is O.")
    print("You will go first.")
    print("Squares are numbered as the keys of a phone:")
    print("1 is the top left square, 3 the top right, 9 the bottom right.")
    board = ["_"] * 9
    show(board)
    while winner(board) is None and "_" in board:
        board[read_square(board)] = "X"
        show(board)
        if winner(board) is not None or "_" not in board:
            break
        board[best(board)] = "O"
        show(board)
    w = winner(board)
    print("The winner is: %s" % w if w else "It's a tie")


main()
