"""One tic-tac-toe move: `mover.py BOARD SIDE` prints the cell to play (0-8, row by row).

BOARD is nine characters, `x`, `o` or `-`, row by row; SIDE is `x` or `o`. The move: a win if there is
one, else the cell that stops the opponent's win, else the centre, else the first empty cell.
"""
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winning_cell(board, side):
    """A cell that completes a line of `side`'s, or None."""
    for line in LINES:
        marks = [board[i] for i in line]
        if marks.count(side) == 2 and marks.count("-") == 1:
            return line[marks.index("-")]
    return None


def move(board, side):
    opponent = "o" if side == "x" else "x"
    for cell in (winning_cell(board, side), winning_cell(board, opponent)):
        if cell is not None:
            return cell
    return 4 if board[4] == "-" else board.index("-")


board, side = sys.argv[1], sys.argv[2]
print(move(board, side))
