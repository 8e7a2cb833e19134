# A random agent with one typo: the `if` on line 19 lacks its colon, so the file does not load.
import random

CORNER_BLOCKS = {(0, 0): [0, 1, 3], (0, 2): [1, 2, 5], (2, 0): [3, 6, 7], (2, 2): [5, 7, 8]}


class TeamSyntax:
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
            if board_stat[b] != '-'
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
        return random.choice(cells)
