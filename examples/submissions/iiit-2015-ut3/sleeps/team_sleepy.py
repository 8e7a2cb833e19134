# A random agent that thinks for 7 s on its third move whenever it plays x, past the handout's 6 s limit
# (as o it plays in time, so it also shows that a slow game does not spoil the next one).
import random
import time

CORNER_BLOCKS = {(0, 0): [0, 1, 3], (0, 2): [1, 2, 5], (2, 0): [3, 6, 7], (2, 2): [5, 7, 8]}


class TeamSleepy:
    def __init__(self):
        self.turns = 0

    def allowed_blocks(self, move_by_opponent):
        if move_by_opponent == (-1, -1):
            return list(range(9))
        r, c = move_by_opponent[0] % 3, move_by_opponent[1] % 3
        if (r, c) in CORNER_BLOCKS:
            return CORNER_BLOCKS[(r, c)]
        return [3 * r + c]

    def cells_in(self, current_board_game, board_stat, blocks):
        cells = []
        for b in blocks:
            if board_stat[b] != '-':
                continue
            for i in range(3 * (b // 3), 3 * (b // 3) + 3):
                for j in range(3 * (b % 3), 3 * (b % 3) + 3):
                    if current_board_game[i][j] == '-':
                        cells.append((i, j))
        return cells

    def move(self, current_board_game, board_stat, move_by_opponent, flag):
        cells = self.cells_in(current_board_game, board_stat, self.allowed_blocks(move_by_opponent))
        if not cells:
            cells = self.cells_in(current_board_game, board_stat, range(9))
        self.turns += 1
        if self.turns == 3 and flag == 'x':
            time.sleep(7)  # flaw: past the 6 s limit on its third move
        return random.choice(cells)
