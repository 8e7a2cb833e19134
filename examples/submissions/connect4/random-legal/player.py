"""A legal but aimless Connect Four player: a random column that is not full, seeded by the board so
that the same game is played the same way every run."""
import random
import sys

for line in sys.stdin:
    kind, *rest = line.rstrip("\n").split("\t")
    if kind == "game":
        print("ready", flush=True)
    elif kind == "turn":
        side, last, state = rest
        top = state.split("/")[0]
        legal = [c + 1 for c in range(7) if top[c] == "."]
        print(random.Random(state).choice(legal), flush=True)
    elif kind == "end":
        break
