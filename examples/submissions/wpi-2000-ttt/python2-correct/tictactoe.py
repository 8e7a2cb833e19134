# CS4341 project 1 -- tic-tac-toe, minimax with alpha-beta pruning (Python 2.7)
#
# You pick X or O (X goes first) and type a move as row and column, 1 to 3: `3 1` is the bottom-left
# square. The board is drawn after every move.
import sys

WINS = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
TRY = [4, 0, 2, 6, 8, 1, 3, 5, 7]


def line_of(sq):
    for a, b, c in WINS:
        if sq[a] != '.' and sq[a] == sq[b] == sq[c]:
            return sq[a]
    return None


def score(sq, me, plies):
    w = line_of(sq)
    if w == me:
        return 10 - plies
    if w:
        return plies - 10
    return 0


def search(sq, turn, me, plies, alpha, beta):
    if line_of(sq) or '.' not in sq:
        return score(sq, me, plies), -1
    nxt = {'X': 'O', 'O': 'X'}[turn]
    best = -1
    maximize = turn == me
    value = -99 if maximize else 99
    for k in TRY:
        if sq[k] != '.':
            continue
        sq[k] = turn
        v, _ = search(sq, nxt, me, plies + 1, alpha, beta)
        sq[k] = '.'
        if (maximize and v > value) or (not maximize and v < value):
            value, best = v, k
        if maximize:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
        if alpha >= beta:
            break
    return value, best


def draw(sq):
    print
    print "    1   2   3"
    for r in range(3):
        print " %d  %s | %s | %s" % (r + 1, sq[3 * r], sq[3 * r + 1], sq[3 * r + 2])
        if r < 2:
            print "   ---+---+---"
    print
    sys.stdout.flush()


def prompt(text):
    sys.stdout.write(text)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if line == '':
        sys.exit(0)
    return line.strip()


def human_move(sq):
    while 1:
        words = prompt("Your move (row column): ").replace(',', ' ').split()
        if len(words) != 2 or not (words[0].isdigit() and words[1].isdigit()):
            print "Please type a row and a column, like 3 1."
            continue
        r, c = int(words[0]), int(words[1])
        if r < 1 or r > 3 or c < 1 or c > 3:
            print "Rows and columns go from 1 to 3."
            continue
        k = 3 * (r - 1) + (c - 1)
        if sq[k] != '.':
            print "That square is already taken."
            continue
        return k


def main():
    print "Tic-tac-toe. X moves first. Type moves as row and column, e.g. 3 1."
    while 1:
        mark = prompt("Do you want to play X or O? ").upper()
        if mark in ('X', 'O'):
            break
        print "Please answer X or O."
    me = {'X': 'O', 'O': 'X'}[mark]
    sq = ['.'] * 9
    turn = 'X'
    draw(sq)
    while not line_of(sq) and '.' in sq:
        if turn == mark:
            k = human_move(sq)
            sq[k] = mark
            print "You played %d %d." % (k / 3 + 1, k % 3 + 1)
        else:
            _, k = search(sq, me, me, 0, -99, 99)
            sq[k] = me
            print "I play %d %d" % (k / 3 + 1, k % 3 + 1)
        draw(sq)
        turn = {'X': 'O', 'O': 'X'}[turn]
    w = line_of(sq)
    if w is None:
        print "The game is a draw."
    elif w == me:
        print "I win! (%s wins)" % me
    else:
        print "You win! (%s wins)" % mark
    sys.stdout.flush()


main()
