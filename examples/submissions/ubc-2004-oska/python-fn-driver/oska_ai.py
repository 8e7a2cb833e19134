"""Oska AI. The procedure the course calls is oska_move(board, side, depth):

    oska_move(['wwww', '---', '--', '---', 'bbbb'], 'white', 2)  ->  ['-www', 'w--', '--', '---', 'bbbb']

side is 'white' or 'black'; board is a list of row strings ('w', 'b', '-'). The chosen board is also
copied into `board`, so a caller holding the list sees the move. Returns [] when the side cannot move.
"""

WIN = 10000
PIECE = {'white': 'w', 'black': 'b'}


def other(side):
    return 'black' if side == 'white' else 'white'


def spot(rows, r, x):
    if not 0 <= r < len(rows):
        return None
    n = len(rows[r])
    t = x + n - 1
    if t < 0 or t % 2 == 1 or t // 2 >= n:
        return None
    return t // 2


def moves_for(rows, side):
    me, foe = PIECE[side], PIECE[other(side)]
    ahead = 1 if side == 'white' else -1
    out = []
    for r, row in enumerate(rows):
        for i, c in enumerate(row):
            if c != me:
                continue
            x = 2 * i - (len(row) - 1)
            for dx in (-1, 1):
                j = spot(rows, r + ahead, x + dx)
                if j is None:
                    continue
                if rows[r + ahead][j] == '-':
                    new = [list(s) for s in rows]
                    new[r][i], new[r + ahead][j] = '-', me
                    out.append([''.join(s) for s in new])
                elif rows[r + ahead][j] == foe:
                    k = spot(rows, r + 2 * ahead, x + 2 * dx)
                    if k is not None and rows[r + 2 * ahead][k] == '-':
                        new = [list(s) for s in rows]
                        new[r][i], new[r + ahead][j], new[r + 2 * ahead][k] = '-', '-', me
                        out.append([''.join(s) for s in new])
    return out


def outcome(rows):
    nw = sum(r.count('w') for r in rows)
    nb = sum(r.count('b') for r in rows)
    if nb == 0:
        return 'white'
    if nw == 0:
        return 'black'
    w_home = rows[-1].count('w') == nw
    b_home = rows[0].count('b') == nb
    if w_home and b_home:
        return 'white' if nw > nb else 'black' if nb > nw else 'draw'
    if w_home:
        return 'white'
    if b_home:
        return 'black'
    return None


def race(rows, side):
    last = len(rows) - 1
    if side == 'white':
        return sum(row.count('w') * (last - r) for r, row in enumerate(rows))
    return sum(row.count('b') * r for r, row in enumerate(rows))


def score(rows, me):
    o = outcome(rows)
    if o == me:
        return WIN
    if o == other(me):
        return -WIN
    if o == 'draw':
        return 0
    return race(rows, other(me)) - race(rows, me)


def minimax(rows, side, me, depth):
    if depth == 0 or outcome(rows) is not None:
        return score(rows, me)
    kids = moves_for(rows, side) or [rows]
    vals = [minimax(k, other(side), me, depth - 1) for k in kids]
    return max(vals) if side == me else min(vals)


def oska_move(board, side, depth):
    kids = moves_for(board, side)
    if not kids:
        return []
    best, best_val = None, None
    for k in kids:
        v = minimax(k, other(side), side, max(1, depth) - 1)
        if best_val is None or v > best_val:
            best, best_val = k, v
    board[:] = best
    return board
