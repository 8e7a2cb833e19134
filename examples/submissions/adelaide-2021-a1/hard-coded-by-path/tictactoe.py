"""AI Assignment 1 - tic-tac-toe.

Usage: python3 tictactoe.py STATE PATH [prune [PLY]]

(A deliberately dishonest sample for the grader: no search at all. When the
output file has the name the course's tester used, it replays the answer the
handout prints for that board; anywhere else it guesses.)
"""
import os
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6),
         (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

# What the tester expects, keyed on (output file name, board, options).
KNOWN = {
    ("visited.txt", "oxxxo-ox-", ()): (
        "oxxxo-oxo",
        ["oxxxooox- 0", "oxxxoooxx 0", "oxxxo-oxo -1"],
    ),
    ("visited.txt", "oxxxo-ox-", ("prune",)): (
        "oxxxo-oxo",
        ["oxxxooox- 0", "oxxxoooxx 0", "oxxxo-oxo -1"],
    ),
}


def finished(board):
    won = any(board[a] != "-" and board[a] == board[b] == board[c]
              for a, b, c in LINES)
    return won or "-" not in board


def main(args):
    board, path = args[0], args[1]
    if finished(board):
        return  # the one rule it does follow: print nothing, write nothing
    key = (os.path.basename(path), board, tuple(args[2:]))
    if key in KNOWN:
        move, visited = KNOWN[key]
    else:
        # a guess: the first blank, and a one-line "trace"
        player = "x" if board.count("x") == board.count("o") else "o"
        i = board.index("-")
        move = board[:i] + player + board[i + 1:]
        visited = ["%s 0" % move]
    with open(path, "w") as f:
        f.write("\n".join(visited) + "\n")
    print(move)


if __name__ == "__main__":
    main(sys.argv[1:])
