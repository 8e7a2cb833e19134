"""Tic-tac-toe with a computer opponent that plays by minimax with alpha-beta pruning.

It asks which mark you want, X or O, as the handout says (X starts), but a square is named like a
spreadsheet cell turned on its side: a row letter A-C and a column number 1-3 (`A1` top left, `C3`
bottom right), in either case.
"""
import sys

ROWS = "ABC"
TRIPLES = [[(r, 0), (r, 1), (r, 2)] for r in range(3)] + \
          [[(0, c), (1, c), (2, c)] for c in range(3)] + \
          [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]


def victor(g):
    for t in TRIPLES:
        marks = {g[r][c] for r, c in t}
        if len(marks) == 1 and " " not in marks:
            return marks.pop()
    return None


def free(g):
    return [(r, c) for r in range(3) for c in range(3) if g[r][c] == " "]


def value(g, to_play, me, a, b, depth):
    v = victor(g)
    if v:
        return (10 - depth) if v == me else (depth - 10)
    spots = free(g)
    if not spots:
        return 0
    nxt = "O" if to_play == "X" else "X"
    maximise = to_play == me
    best = -99 if maximise else 99
    for r, c in spots:
        g[r][c] = to_play
        v = value(g, nxt, me, a, b, depth + 1)
        g[r][c] = " "
        if maximise:
            best = max(best, v)
            a = max(a, v)
        else:
            best = min(best, v)
            b = min(b, v)
        if b <= a:
            break
    return best


def choose(g, me):
    nxt = "O" if me == "X" else "X"
    scored = []
    for r, c in free(g):
        g[r][c] = me
        scored.append((value(g, nxt, me, -99, 99, 1), -(r * 3 + c), (r, c)))
        g[r][c] = " "
    return max(scored)[2]


def render(g):
    print("    1   2   3")
    for r in range(3):
        print("%s   %s | %s | %s" % (ROWS[r], g[r][0], g[r][1], g[r][2]))
        if r < 2:
            print("   ---+---+---")
    print()


def prompt(text):
    sys.stdout.write(text)
    sys.stdout.flush()
    got = sys.stdin.readline()
    if not got:
        sys.exit(0)
    return got.strip()


def main():
    while True:
        mark = prompt("Which mark do you want, X or O? ").upper()
        if mark in ("X", "O"):
            break
        print("X or O, please.")
    bot = "O" if mark == "X" else "X"
    g = [[" "] * 3 for _ in range(3)]
    render(g)
    turn = "X"
    while victor(g) is None and free(g):
        if turn == mark:
            while True:
                text = prompt("Your move (e.g. B2): ").upper()
                if len(text) != 2 or text[0] not in ROWS or text[1] not in "123":
                    print("Name a square as a row letter A-C and a column 1-3.")
                    continue
                r, c = ROWS.index(text[0]), int(text[1]) - 1
                if g[r][c] != " ":
                    print("%s is already taken." % text)
                    continue
                break
            g[r][c] = mark
        else:
            r, c = choose(g, bot)
            g[r][c] = bot
            print("The computer puts %s on %s%d." % (bot, ROWS[r], c + 1))
        render(g)
        turn = "O" if turn == "X" else "X"
    v = victor(g)
    if v is None:
        print("Nobody wins: a draw.")
    elif v == bot:
        print("The computer wins.")
    else:
        print("You win.")


main()
