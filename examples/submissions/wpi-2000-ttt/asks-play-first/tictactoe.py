"""Tic-tac-toe against the computer (alpha-beta search over the whole game).

This hand-in follows its own interface rather than the handout's: it asks whether you want to play
first (yes/no) instead of which mark you prefer, and you pick a square by its number, 1 to 9, as shown
on the board. The first player always has X.
"""
import sys

WINS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def line_owner(sq):
    for a, b, c in WINS:
        if sq[a] in "XO" and sq[a] == sq[b] == sq[c]:
            return sq[a]
    return None


def full(sq):
    return all(s in "XO" for s in sq)


def search(sq, mover, me, alpha, beta, plies):
    """Value of the position for `me` (bigger is better, sooner wins better), and the best square."""
    owner = line_owner(sq)
    if owner is not None:
        return (20 - plies if owner == me else plies - 20), None
    if full(sq):
        return 0, None
    nxt = "O" if mover == "X" else "X"
    pick = None
    for i in (4, 0, 2, 6, 8, 1, 3, 5, 7):
        if sq[i] in "XO":
            continue
        keep = sq[i]
        sq[i] = mover
        val, _ = search(sq, nxt, me, alpha, beta, plies + 1)
        sq[i] = keep
        if mover == me and val > alpha:
            alpha, pick = val, i
        elif mover != me and val < beta:
            beta, pick = val, i
        if alpha >= beta:
            break
    if pick is None:
        # Every square was cut off: any free square keeps the bound.
        pick = next(i for i in range(9) if sq[i] not in "XO")
    return (alpha if mover == me else beta), pick


def draw_board(sq):
    out = ["", " %s | %s | %s" % tuple(sq[0:3]), "---+---+---",
           " %s | %s | %s" % tuple(sq[3:6]), "---+---+---",
           " %s | %s | %s" % tuple(sq[6:9]), ""]
    sys.stdout.write("\n".join(out) + "\n")


def question(text):
    sys.stdout.write(text)
    sys.stdout.flush()
    got = sys.stdin.readline()
    if got == "":
        sys.exit(0)
    return got.strip()


def main():
    print("Let's play tic-tac-toe! Squares are numbered 1 to 9 like this:")
    while True:
        answer = question("Would you like to play first? (yes/no) ").lower()
        if answer in ("yes", "no"):
            break
        print("Please answer yes or no.")
    user = "X" if answer == "yes" else "O"
    comp = "O" if user == "X" else "X"
    sq = [str(i + 1) for i in range(9)]
    draw_board(sq)
    mover = "X"
    while line_owner(sq) is None and not full(sq):
        if mover == user:
            while True:
                text = question("Enter your move (1-9): ")
                if not text.isdigit() or not 1 <= int(text) <= 9:
                    print("That is not a square from 1 to 9.")
                    continue
                if sq[int(text) - 1] in "XO":
                    print("Square %s is taken, pick another." % text)
                    continue
                break
            sq[int(text) - 1] = user
        else:
            _, best = search(sq, comp, comp, -100, 100, 0)
            sq[best] = comp
            print("Computer takes square %d." % (best + 1))
        draw_board(sq)
        mover = "O" if mover == "X" else "X"
    owner = line_owner(sq)
    if owner == comp:
        print("Computer wins!")
    elif owner == user:
        print("You win, congratulations!")
    else:
        print("It's a draw.")


main()
