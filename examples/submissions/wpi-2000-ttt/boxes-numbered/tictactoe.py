"""CS4341 Project 1: tic-tac-toe against the computer (minimax with alpha-beta pruning).

You choose X or O (X moves first). The board is drawn in boxes; an empty square shows its number, and
you pick a square by that number, 1 to 9.
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
    rule = "+-------+-------+-------+"
    blank = "|       |       |       |"
    for r in range(3):
        print(rule)
        print(blank)
        cells = [board[3 * r + c] if board[3 * r + c] != " " else str(3 * r + c + 1) for c in range(3)]
        print("|   %s   |   %s   |   %s   |" % tuple(cells))
        print(blank)
    print(rule)


def ask(prompt):
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.strip()


def read_move(board):
    while True:
        text = ask("Pick a square (1-9): ")
        if not text.isdigit() or not 1 <= int(text) <= 9:
            print("Squares are numbered 1 to 9.")
        elif board[int(text) - 1] != " ":
            print("Square %s is taken." % text)
        else:
            return int(text) - 1


def main():
    while True:
        human = ask("Do you want to be X or O? ").upper()
        if human in ("X", "O"):
            break
        print("Please answer X or O.")
    me = "O" if human == "X" else "X"
    board = [" "] * 9
    turn = "X"
    show(board)
    while winner(board) is None and " " in board:
        if turn == human:
            board[read_move(board)] = human
        else:
            cell = best(board, me, human)
            board[cell] = me
            print("Computer plays square %d." % (cell + 1))
        show(board)
        turn = "O" if turn == "X" else "X"
    w = winner(board)
    print("%s wins!" % w if w else "It's a draw.")


main()
