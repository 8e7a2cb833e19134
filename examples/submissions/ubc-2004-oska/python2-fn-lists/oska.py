# CPSC 322 term project in Python 2.7: the handout's oskamaniac procedure with a name of my own
# (004:195-214) and the handout's own board: a list of rows, each a list of 'w', 'b' or 'e'.
#
#   >>> oskamaniac_q7([['w','w','w','w'],['e','e','e'],['e','e'],['e','e','e'],['b','b','b','b']], 'w', 2)
#
# With no legal move the side loses its turn: the board comes back unchanged.

INF = 10000


def other_q7(c):
    if c == 'w':
        return 'b'
    return 'w'


def at_q7(rows, r, x):
    if r < 0 or r >= len(rows):
        return None
    k = len(rows[r])
    t = x + k - 1
    if t < 0 or t % 2 != 0 or t / 2 >= k:
        return None
    return t / 2


def copy_q7(rows):
    return [list(row) for row in rows]


def moves_q7(rows, c):
    d = 1
    if c == 'b':
        d = -1
    foe = other_q7(c)
    out = []
    for r in xrange(len(rows)):
        for i in xrange(len(rows[r])):
            if rows[r][i] != c:
                continue
            x = 2 * i - (len(rows[r]) - 1)
            for dx in (-1, 1):
                j = at_q7(rows, r + d, x + dx)
                if j is None:
                    continue
                if rows[r + d][j] == 'e':
                    n = copy_q7(rows)
                    n[r][i] = 'e'
                    n[r + d][j] = c
                    out.append(n)
                elif rows[r + d][j] == foe:
                    j2 = at_q7(rows, r + 2 * d, x + 2 * dx)
                    if j2 is not None and rows[r + 2 * d][j2] == 'e':
                        n = copy_q7(rows)
                        n[r][i] = 'e'
                        n[r + d][j] = 'e'
                        n[r + 2 * d][j2] = c
                        out.append(n)
    return out


def count_q7(rows, c):
    total = 0
    for row in rows:
        total = total + row.count(c)
    return total


def home_q7(rows, c):
    if c == 'w':
        goal = rows[len(rows) - 1]
    else:
        goal = rows[0]
    n = count_q7(rows, c)
    return n > 0 and goal.count(c) == n


def winner_q7(rows):
    nw = count_q7(rows, 'w')
    nb = count_q7(rows, 'b')
    if nb == 0:
        return 'w'
    if nw == 0:
        return 'b'
    hw = home_q7(rows, 'w')
    hb = home_q7(rows, 'b')
    if hw and hb:
        if nw > nb:
            return 'w'
        if nb > nw:
            return 'b'
        return 'draw'
    if hw:
        return 'w'
    if hb:
        return 'b'
    return None


def togo_q7(rows, c):
    last = len(rows) - 1
    total = 0
    for r in xrange(len(rows)):
        if c == 'w':
            total = total + rows[r].count(c) * (last - r)
        else:
            total = total + rows[r].count(c) * r
    return total


def value_q7(rows, me):
    w = winner_q7(rows)
    if w == me:
        return INF
    if w == other_q7(me):
        return -INF
    if w == 'draw':
        return 0
    return togo_q7(rows, other_q7(me)) - togo_q7(rows, me)


def minimax_q7(rows, turn, me, depth):
    if depth == 0 or winner_q7(rows) is not None:
        return value_q7(rows, me)
    kids = moves_q7(rows, turn)
    if not kids:
        kids = [rows]
    vals = [minimax_q7(k, other_q7(turn), me, depth - 1) for k in kids]
    if turn == me:
        return max(vals)
    return min(vals)


def oskamaniac_q7(board, colour, depth):
    kids = moves_q7(board, colour)
    if not kids:
        print "oskamaniac_q7: %s cannot move, passing" % colour
        return board
    best = None
    best_val = None
    for k in kids:
        v = minimax_q7(k, other_q7(colour), colour, max(1, depth) - 1)
        if best_val is None or v > best_val:
            best = k
            best_val = v
    return best


if __name__ == '__main__':
    print oskamaniac_q7([['w', 'w', 'w', 'w'], ['e', 'e', 'e'], ['e', 'e'], ['e', 'e', 'e'], ['b', 'b', 'b', 'b']], 'w', 2)
