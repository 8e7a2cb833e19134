# An agent that ignores where the opponent sends it: it plays the first open cell of the first block that
# is not won, reading the board row by row. Legal on a free move, illegal as soon as the rules restrict it.


class TeamIllegal:
    def move(self, current_board_game, board_stat, move_by_opponent, flag):
        for b in range(9):
            if board_stat[b] != '-':
                continue
            for i in range(3 * (b // 3), 3 * (b // 3) + 3):
                for j in range(3 * (b % 3), 3 * (b % 3) + 3):
                    if current_board_game[i][j] == '-':
                        return (i, j)
        return (0, 0)
