"""Oska player for CPSC 322 (2004), in the shape of the predicate oskamaniac(Board, Colour, Depth, Next).

Usage: python3 oska.py BOARD COLOUR DEPTH
  BOARD   the board as the handout writes it, e.g. [[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]
  COLOUR  w or b: the side this program plays (and the side to move)
  DEPTH   how many moves to look ahead (MiniMax, never deeper)
Prints the board after the best move, in the same notation. With no legal move the side loses its turn,
so it prints the board unchanged.

Works for any n >= 4 (the board size comes from the first row).
"""
import sys

WIN = 10000


# ---- the board ---------------------------------------------------------------------------------------

def parse(text):
    """The handout's list of rows -> list of lists of 'w' / 'b' / 'e'."""
    text = "".join(text.split())
    if not (text.startswith("[[") and text.endswith("]]")):
        raise ValueError("board must look like [[w,w,w,w],[e,e,e],...]: " + text)
    rows = [row.split(",") for row in text[2:-2].split("],[")]
    for row in rows:
        for cell in row:
            if cell not in ("w", "b", "e"):
                raise ValueError("bad square " + repr(cell))
    return rows


def show(rows):
    return "[" + ",".join("[" + ",".join(row) + "]" for row in rows) + "]"


def other(colour):
    return "b" if colour == "w" else "w"


# ---- move generation ---------------------------------------------------------------------------------
# Rows are centred: square i of a row of k squares sits at x = 2i - (k - 1). A diagonal step goes to the
# next row (down for w, up for b) at x +- 1; a jump goes two rows on at x +- 2 over the square at x +- 1.

def square_at(rows, r, x):
    if r < 0 or r >= len(rows):
        return None
    k = len(rows[r])
    j2 = x + k - 1
    if j2 < 0 or j2 % 2 != 0 or j2 // 2 >= k:
        return None
    return j2 // 2


def successors(rows, colour):
    """Every board one legal move of `colour` away, in a fixed order."""
    forward = 1 if colour == "w" else -1
    enemy = other(colour)
    out = []
    for r, row in enumerate(rows):
        for i, cell in enumerate(row):
            if cell != colour:
                continue
            x = 2 * i - (len(row) - 1)
            for dx in (-1, 1):
                j = square_at(rows, r + forward, x + dx)
                if j is None:
                    continue
                if rows[r + forward][j] == "e":
                    new = [list(rr) for rr in rows]
                    new[r][i] = "e"
                    new[r + forward][j] = colour
                    out.append(new)
                elif rows[r + forward][j] == enemy:
                    j2 = square_at(rows, r + 2 * forward, x + 2 * dx)
                    if j2 is not None and rows[r + 2 * forward][j2] == "e":
                        new = [list(rr) for rr in rows]
                        new[r][i] = "e"
                        new[r + forward][j] = "e"
                        new[r + 2 * forward][j2] = colour
                        out.append(new)
    return out


# ---- board evaluation (static: never looks ahead) ----------------------------------------------------

def count(rows, colour):
    return sum(row.count(colour) for row in rows)


def all_home(rows, colour):
    goal = len(rows) - 1 if colour == "w" else 0
    n = count(rows, colour)
    return n > 0 and rows[goal].count(colour) == n


def winner(rows):
    """'w', 'b', 'draw', or None while the game goes on (rule 10 when both are home)."""
    nw, nb = count(rows, "w"), count(rows, "b")
    if nb == 0:
        return "w"
    if nw == 0:
        return "b"
    hw, hb = all_home(rows, "w"), all_home(rows, "b")
    if hw or hb:
        if hw and hb:
            return "w" if nw > nb else "b" if nb > nw else "draw"
        return "w" if hw else "b"
    return None


def rows_to_go(rows, colour):
    last = len(rows) - 1
    total = 0
    for r, row in enumerate(rows):
        total += row.count(colour) * (last - r if colour == "w" else r)
    return total


def evaluate(rows, me):
    won = winner(rows)
    if won == me:
        return WIN
    if won == other(me):
        return -WIN
    if won == "draw":
        return 0
    # The race to the far row: a piece is worth nothing by itself, since every capture also shortens
    # the victim's race (the handout's remark about sacrificing pieces).
    return rows_to_go(rows, other(me)) - rows_to_go(rows, me)


# ---- MiniMax -----------------------------------------------------------------------------------------

def minimax(rows, to_move, me, depth):
    if depth == 0 or winner(rows) is not None:
        return evaluate(rows, me)
    nexts = successors(rows, to_move) or [rows]  # no move: the side loses its turn
    values = [minimax(n, other(to_move), me, depth - 1) for n in nexts]
    return max(values) if to_move == me else min(values)


def best_move(rows, me, depth):
    nexts = successors(rows, me)
    if not nexts:
        return rows
    best, best_value = None, None
    for n in nexts:
        v = minimax(n, other(me), me, depth - 1)
        if best_value is None or v > best_value:
            best, best_value = n, v
    return best


def main(argv):
    if len(argv) != 4 or argv[2] not in ("w", "b"):
        sys.stderr.write("usage: oska.py BOARD w|b DEPTH\n")
        return 2
    rows = parse(argv[1])
    depth = max(1, int(argv[3]))
    print(show(best_move(rows, argv[2], depth)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
