# A decent UT3 agent (IIIT 2015 mini-project 1): depth-limited alpha-beta over the handout's rules
# (corner cells open three blocks, won blocks are closed, a free move when no allowed block has room),
# with an evaluation of blocks won, lines still open on the big board, and two-in-a-rows in open blocks.
# Deterministic: a fixed depth and ties broken by move order, never by the clock.

CORNER_BLOCKS = {(0, 0): (0, 1, 3), (0, 2): (1, 2, 5), (2, 0): (3, 6, 7), (2, 2): (5, 7, 8)}
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
WIN = 1000000


def cells_of(b):
    r0, c0 = 3 * (b // 3), 3 * (b % 3)
    return [(r0 + i, c0 + j) for i in range(3) for j in range(3)]


BLOCK_CELLS = [cells_of(b) for b in range(9)]


def block_of(r, c):
    return 3 * (r // 3) + c // 3


def line_winner(marks):
    for a, b, c in LINES:
        if marks[a] != '-' and marks[a] == marks[b] == marks[c]:
            return marks[a]
    return None


class TeamDecent:
    def __init__(self):
        self.depth = 3

    def legal(self, board, stat, last):
        if last == (-1, -1):
            blocks = range(9)
        else:
            pos = (last[0] % 3, last[1] % 3)
            blocks = CORNER_BLOCKS.get(pos, (3 * pos[0] + pos[1],))
        moves = [(r, c) for b in blocks if stat[b] == '-' for (r, c) in BLOCK_CELLS[b] if board[r][c] == '-']
        if not moves:
            moves = [(r, c) for b in range(9) if stat[b] == '-' for (r, c) in BLOCK_CELLS[b] if board[r][c] == '-']
        return moves

    def play(self, board, stat, mv, me):
        """Plays mv in place; returns what to undo."""
        r, c = mv
        board[r][c] = me
        b = block_of(r, c)
        if line_winner([board[i][j] for (i, j) in BLOCK_CELLS[b]]) == me:
            stat[b] = me
            return b
        return None

    def evaluate(self, board, stat, me, you):
        score = 0
        for line in LINES:
            marks = [stat[b] for b in line]
            mine, theirs = marks.count(me), marks.count(you)
            if theirs == 0:
                score += (0, 30, 200, 0)[mine]
            if mine == 0:
                score -= (0, 30, 200, 0)[theirs]
        for b in range(9):
            if stat[b] == me:
                score += 100 + (20 if b == 4 else 0)
            elif stat[b] == you:
                score -= 100 + (20 if b == 4 else 0)
            else:
                cells = [board[i][j] for (i, j) in BLOCK_CELLS[b]]
                for line in LINES:
                    marks = [cells[k] for k in line]
                    if marks.count('-') == 1:
                        if marks.count(me) == 2:
                            score += 8
                        elif marks.count(you) == 2:
                            score -= 8
        return score

    def search(self, board, stat, last, me, you, depth, alpha, beta):
        won = line_winner(stat)
        if won is not None:
            return (WIN + depth) if won == me else -(WIN + depth)
        moves = self.legal(board, stat, last)
        if not moves:
            return 0
        if depth == 0:
            return self.evaluate(board, stat, me, you)
        best = -2 * WIN
        for mv in moves:
            closed = self.play(board, stat, mv, me)
            value = -self.search(board, stat, mv, you, me, depth - 1, -beta, -alpha)
            board[mv[0]][mv[1]] = '-'
            if closed is not None:
                stat[closed] = '-'
            if value > best:
                best = value
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best

    def move(self, current_board_game, board_stat, move_by_opponent, flag):
        board = [row[:] for row in current_board_game]
        stat = list(board_stat)
        me, you = flag, ('o' if flag == 'x' else 'x')
        moves = self.legal(board, stat, move_by_opponent)
        depth = self.depth if len(moves) <= 12 else 2
        best, best_value = moves[0], -3 * WIN
        alpha, beta = -3 * WIN, 3 * WIN
        for mv in moves:
            closed = self.play(board, stat, mv, me)
            value = -self.search(board, stat, mv, you, me, depth - 1, -beta, -alpha)
            board[mv[0]][mv[1]] = '-'
            if closed is not None:
                stat[closed] = '-'
            if value > best_value:
                best, best_value = mv, value
            if best_value > alpha:
                alpha = best_value
        return best
