"""One tic-tac-toe move: `mover.py BOARD SIDE` prints the cell to play (0-8, row by row).

Its flaw: it takes a win when it has one, else the first empty cell; it never looks at the opponent's
threats, so it does not block them.
"""
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def move(board, side):
    for line in LINES:
        marks = [board[i] for i in line]
        if marks.count(side) == 2 and marks.count("-") == 1:
            return line[marks.index("-")]
    return board.index("-")


board, side = sys.argv[1], sys.argv[2]
print(move(board, side))
