"""A flawed Connect Four player: it counts columns from 0 (`random.randrange(7)`), where the rules
count them from 1, so it sometimes answers `0`, which is no column, and never plays the rightmost.
It picks at random among the columns it believes are not full, seeded by the board so that the same
game is played the same way every run."""
import random
import sys

for line in sys.stdin:
    kind, *rest = line.rstrip("\n").split("\t")
    if kind == "game":
        print("ready", flush=True)
    elif kind == "turn":
        side, last, state = rest
        top = state.split("/")[0]
        open_cols = [c for c in range(7) if top[c] == "."]
        print(random.Random(state).choice(open_cols), flush=True)
    elif kind == "end":
        break
