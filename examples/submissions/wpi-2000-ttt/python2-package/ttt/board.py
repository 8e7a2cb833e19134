# The board: nine cells, row by row, each ' ', 'X' or 'O'.
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class Board(object):
    def __init__(self):
        self.cells = [' '] * 9

    def free(self):
        return [k for k in xrange(9) if self.cells[k] == ' ']

    def winner(self):
        for a, b, c in LINES:
            if self.cells[a] != ' ' and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return None

    def over(self):
        return self.winner() is not None or not self.free()

    def show(self):
        print('    1   2   3')
        for r in xrange(3):
            row = self.cells[3 * r:3 * r + 3]
            print('%d   %s' % (r + 1, ' | '.join(row)))
            if r < 2:
                print('   ---+---+---')
