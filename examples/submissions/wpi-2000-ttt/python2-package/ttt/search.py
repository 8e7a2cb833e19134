# Minimax with alpha-beta pruning; a quicker win scores more.
def value(board, turn, me, depth, alpha, beta):
    w = board.winner()
    if w is not None:
        return 10 - depth if w == me else depth - 10
    free = board.free()
    if not free:
        return 0
    other = 'O' if turn == 'X' else 'X'
    best = -100 if turn == me else 100
    for k in free:
        board.cells[k] = turn
        v = value(board, other, me, depth + 1, alpha, beta)
        board.cells[k] = ' '
        if turn == me:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def choose(board, me):
    other = 'O' if me == 'X' else 'X'
    pick, top = None, -1000
    for k in board.free():
        board.cells[k] = me
        v = value(board, other, me, 1, -1000, 1000)
        board.cells[k] = ' '
        if v > top:
            pick, top = k, v
    return pick
