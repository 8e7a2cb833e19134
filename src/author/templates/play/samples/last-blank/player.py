"""A tic-tac-toe player that always takes the last empty cell: legal, but it never looks ahead."""
import sys

for line in sys.stdin:
    kind, *rest = line.rstrip("\n").split("\t")
    if kind == "game":
        print("ready", flush=True)
    elif kind == "turn":
        _side, _last, board = rest
        print(board.rindex("-"), flush=True)
    elif kind == "end":
        break
