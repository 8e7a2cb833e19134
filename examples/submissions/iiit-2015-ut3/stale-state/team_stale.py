# An agent that keeps its own copy of the board between calls but records only its own moves: it never
# adds the opponent's moves (nor reads current_board_game), so sooner or later it picks a cell the
# opponent already holds.

CORNER_BLOCKS = {(0, 0): [0, 1, 3], (0, 2): [1, 2, 5], (2, 0): [3, 6, 7], (2, 2): [5, 7, 8]}


class TeamStale:
    def __init__(self):
        self.board = [['-'] * 9 for _ in range(9)]

    def move(self, current_board_game, board_stat, move_by_opponent, flag):
        if move_by_opponent == (-1, -1):
            blocks = list(range(9))
        else:
            r, c = move_by_opponent[0] % 3, move_by_opponent[1] % 3
            blocks = CORNER_BLOCKS.get((r, c), [3 * r + c])
        for rounds in (blocks, list(range(9))):
            for b in rounds:
                if board_stat[b] != '-':
                    continue
                for i in range(3 * (b // 3), 3 * (b // 3) + 3):
                    for j in range(3 * (b % 3), 3 * (b % 3) + 3):
                        if self.board[i][j] == '-':
                            self.board[i][j] = flag
                            return (i, j)
        return (0, 0)
