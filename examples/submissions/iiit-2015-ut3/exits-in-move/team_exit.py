# A random agent that checks the opponent's move first and calls sys.exit(1) when it is not a cell of
# the board, as the course's evaluator did for a bad move. The first move of a game gets (-1, -1), so
# as x it exits on its first move; as o it plays legal random moves. It also prints a debug line at
# import time, so the last line on stderr before the exit is not the reason for it.
import random
import sys

CORNER_BLOCKS = {(0, 0): [0, 1, 3], (0, 2): [1, 2, 5], (2, 0): [3, 6, 7], (2, 2): [5, 7, 8]}

print("team_exit loaded")


class TeamExit:
    def check(self, move_by_opponent):
        r, c = move_by_opponent
        if not (0 <= r <= 8 and 0 <= c <= 8):
            print("opponent's move is outside the board")
            sys.exit(1)  # flaw: (-1, -1) is the handout's "no move yet", not an error

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
        self.check(move_by_opponent)
        r, c = move_by_opponent[0] % 3, move_by_opponent[1] % 3
        blocks = CORNER_BLOCKS.get((r, c), [3 * r + c])
        cells = self.cells_in(current_board_game, board_stat, blocks)
        if not cells:
            cells = self.cells_in(current_board_game, board_stat, range(9))
        return random.choice(cells)
