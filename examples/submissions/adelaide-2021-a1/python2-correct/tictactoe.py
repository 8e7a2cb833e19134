#!/usr/bin/env python
# AI 2021 Assignment 1 - tic-tac-toe (minimax, alpha-beta, ply limit with E(s) = M(s) - O(s))
# written for the school server's python (2.7): python tictactoe.py STATE PATH [prune [PLY]]
import sys

BLANK = '-'
INF = 1000


def lines():
    ls = []
    for r in xrange(3):
        ls.append([r * 3 + c for c in xrange(3)])
    for c in xrange(3):
        ls.append([r * 3 + c for r in xrange(3)])
    # the diagonals: row == column, row + column == 2 (row is the integer i / 3)
    ls.append([i for i in xrange(9) if i / 3 == i % 3])
    ls.append([i for i in xrange(9) if i / 3 + i % 3 == 2])
    return ls

LINES = lines()


def won(s, p):
	for l in LINES:
		if s[l[0]] == p and s[l[1]] == p and s[l[2]] == p:
			return True
        return False


def full(s):
    return BLANK not in s


def finished(s):
    return won(s, 'x') or won(s, 'o') or full(s)


def utility(s):
    if won(s, 'x'): return 1
    if won(s, 'o'): return -1
    return 0


def E(s):
    m = 0
    o = 0
    for l in LINES:
        vals = [s[i] for i in l]
        if 'o' not in vals: m = m + 1
        if 'x' not in vals: o = o + 1
    return m - o


def successors(s, p):
    out = []
    for i in xrange(9):
        if s[i] == BLANK:
            out.append(s[:i] + p + s[i+1:])
    return out


class Searcher:
    def __init__(self, prune, ply):
        self.prune = prune
        self.ply = ply
        self.visited = []

    def node(self, s, p, depth, a, b):
        # the node goes in the list first, its value once its subtree is done
        k = len(self.visited)
        self.visited.append([s, 0])
        v = self.value(s, p, depth, a, b)
        self.visited[k][1] = v
        return v

    def value(self, s, p, depth, a, b):
        if self.ply != None:
            if depth == self.ply or finished(s):
                return E(s)
        elif finished(s):
            return utility(s)
        if p == 'x':
            best = -INF
            for c in successors(s, 'x'):
                best = max(best, self.node(c, 'o', depth + 1, a, b))
                if self.prune:
                    if best >= b: return best
                    a = max(a, best)
            return best
        best = INF
        for c in successors(s, 'o'):
            best = min(best, self.node(c, 'x', depth + 1, a, b))
            if self.prune:
                if best <= a: return best
                b = min(b, best)
        return best


def die(msg):
    print >>sys.stderr, 'error: ' + msg
    sys.exit(2)


def main():
    args = sys.argv[1:]
    if len(args) < 2 or len(args) > 4:
        die('usage: python tictactoe.py STATE PATH [prune [PLY]]')
    s = args[0]
    path = args[1]
    prune = False
    ply = None
    if len(args) > 2:
        if args[2] != 'prune':
            die("third argument must be 'prune', not '%s'" % args[2])
        prune = True
    if len(args) > 3:
        try:
            ply = int(args[3])
        except ValueError, e:
            die("bad PLY '%s'" % args[3])
        if not args[3].isdigit() or ply <= 0:
            die("bad PLY '%s'" % args[3])
    if len(s) != 9:
        die("bad state '%s'" % s)
    for ch in s:
        if ch not in 'xo-':
            die("bad state '%s'" % s)
    nx = s.count('x')
    no = s.count('o')
    if nx == no:
        p = 'x'
    elif nx == no + 1:
        p = 'o'
    else:
        die("impossible state '%s'" % s)
    xw = won(s, 'x')
    ow = won(s, 'o')
    if (xw and ow) or (xw and p == 'x') or (ow and p == 'o'):
        die("impossible state '%s'" % s)
    if finished(s):
        return

    t = Searcher(prune, ply)
    q = 'o'
    if p == 'o': q = 'x'
    a = -INF
    b = INF
    move = None
    mv = 0
    for c in successors(s, p):
        v = t.node(c, q, 1, a, b)
        if move == None or (p == 'x' and v > mv) or (p == 'o' and v < mv):
            move = c
            mv = v
        if prune:
            if p == 'x': a = max(a, v)
            else: b = min(b, v)

    f = open(path, 'w')
    for st, v in t.visited:
        f.write('%s %d\n' % (st, v))
    f.close()
    print move


main()
