"""Forgets the diagonals. Prints who won a tic-tac-toe board given as nine characters (x, o, -), row by row."""
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8)]

board = sys.argv[1]
for a, b, c in LINES:
    if board[a] != "-" and board[a] == board[b] == board[c]:
        print(board[a])
        break
else:
    print("none" if "-" in board else "draw")
