# Oska for ECS 170: call play_oska(board, colour, depth) and it prints the best next board.
#
#   >>> play_oska(['wwww', '---', '--', '---', 'bbbb'], 'w', 2)
#   ['-www', 'w--', '--', '---', 'bbbb']
#
# Rows top to bottom as strings of 'w', 'b', '-'; colour 'w' or 'b'; depth = moves to look ahead.
# When the colour cannot move it prints the board as it is (the turn passes).

WIN = 10000


def opponent(player):
    return 'b' if player == 'w' else 'w'


def column(grid, r, x):
    """Index in row r of the square at centred position x, or None off the board."""
    if r < 0 or r >= len(grid):
        return None
    width = len(grid[r])
    twice = x + width - 1
    if twice < 0 or twice % 2 or twice // 2 >= width:
        return None
    return twice // 2


def movegen(grid, player):
    """Boards (lists of lists) one move of `player` away."""
    step = 1 if player == 'w' else -1
    enemy = opponent(player)
    found = []
    for r in range(len(grid)):
        for i in range(len(grid[r])):
            if grid[r][i] != player:
                continue
            x = 2 * i - (len(grid[r]) - 1)
            for dx in (-1, 1):
                j = column(grid, r + step, x + dx)
                if j is None:
                    continue
                if grid[r + step][j] == '-':
                    new = [row[:] for row in grid]
                    new[r][i] = '-'
                    new[r + step][j] = player
                    found.append(new)
                elif grid[r + step][j] == enemy:
                    k = column(grid, r + 2 * step, x + 2 * dx)
                    if k is not None and grid[r + 2 * step][k] == '-':
                        new = [row[:] for row in grid]
                        new[r][i] = '-'
                        new[r + step][j] = '-'
                        new[r + 2 * step][k] = player
                        found.append(new)
    return found


def pieces(grid, player):
    return sum(row.count(player) for row in grid)


def home(grid, player):
    goal = len(grid) - 1 if player == 'w' else 0
    n = pieces(grid, player)
    return n > 0 and grid[goal].count(player) == n


def winner(grid):
    nw, nb = pieces(grid, 'w'), pieces(grid, 'b')
    if nb == 0:
        return 'w'
    if nw == 0:
        return 'b'
    hw, hb = home(grid, 'w'), home(grid, 'b')
    if hw and hb:
        return 'w' if nw > nb else 'b' if nb > nw else 'draw'
    if hw:
        return 'w'
    if hb:
        return 'b'
    return None


def distance(grid, player):
    last = len(grid) - 1
    return sum(grid[r].count(player) * (last - r if player == 'w' else r) for r in range(len(grid)))


def evaluate(grid, me):
    w = winner(grid)
    if w == me:
        return WIN
    if w == opponent(me):
        return -WIN
    if w == 'draw':
        return 0
    return distance(grid, opponent(me)) - distance(grid, me)


def minimax(grid, turn, me, depth):
    if depth == 0 or winner(grid) is not None:
        return evaluate(grid, me)
    children = movegen(grid, turn) or [grid]
    scores = [minimax(c, opponent(turn), me, depth - 1) for c in children]
    return max(scores) if turn == me else min(scores)


def play_oska(board, colour, depth):
    grid = [list(row) for row in board]
    moves = movegen(grid, colour)
    best, best_score = grid, None
    for m in moves:
        s = minimax(m, opponent(colour), colour, max(1, depth) - 1)
        if best_score is None or s > best_score:
            best, best_score = m, s
    print([''.join(row) for row in best])
