"""AI Assignment 1, part 2 - Three Men's Morris with alpha-beta minimax.

Usage: python3 tmmorris.py STATE PATH PLY TURN

Pieces move orthogonally (never diagonally); three in a row or column wins. A side
whose turn it is with all three pieces placed and no step to make has lost.
"""
import sys

NEIGHBOURS = [[1, 3], [0, 2, 4], [1, 5], [0, 4, 6], [1, 3, 5, 7],
              [2, 4, 8], [3, 7], [4, 6, 8], [5, 7]]
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8),   # rows
         (0, 3, 6), (1, 4, 7), (2, 5, 8)]   # columns
WIN = 1000
WEIGHT = (1, 2, 5, 0)


def winner(board):
    for a, b, c in LINES:
        if board[a] != "-" and board[a] == board[b] == board[c]:
            return board[a]
    return None


def other(player):
    return "o" if player == "x" else "x"


def successors(board, player):
    """Placements in raster order; once three are down, steps in raster order of
    the piece, then of the cell it steps to."""
    if board.count(player) < 3:
        return [board[:i] + player + board[i + 1:] for i in range(9) if board[i] == "-"]
    out = []
    for f in range(9):
        if board[f] != player:
            continue
        for t in NEIGHBOURS[f]:
            if board[t] == "-":
                cells = list(board)
                cells[f], cells[t] = "-", player
                out.append("".join(cells))
    return out


def mobility(board, player):
    return sum(1 for f in range(9) if board[f] == player
               for t in NEIGHBOURS[f] if board[t] == "-")


def evaluate(board):
    """Open lines weighted by how full they are, plus mobility; x's point of view."""
    score = 0
    for line in LINES:
        xs = sum(1 for i in line if board[i] == "x")
        os_ = sum(1 for i in line if board[i] == "o")
        if os_ == 0:
            score += WEIGHT[xs]
        if xs == 0:
            score -= WEIGHT[os_]
    return score + mobility(board, "x") - mobility(board, "o")


class Search:
    def __init__(self, ply):
        self.ply = ply
        self.visited = []  # [state, value]; a node is listed before its children

    def value(self, board, player, depth, alpha, beta):
        w = winner(board)
        if w is not None:
            return WIN - depth if w == "x" else depth - WIN
        moves = successors(board, player)
        if not moves:  # blocked: the side to move loses
            return depth - WIN if player == "x" else WIN - depth
        if depth >= self.ply:
            return evaluate(board)
        best = -WIN * 2 if player == "x" else WIN * 2
        for child in moves:
            v = self.visit(child, other(player), depth + 1, alpha, beta)
            if player == "x":
                best = max(best, v)
                if best >= beta:
                    return best
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                if best <= alpha:
                    return best
                beta = min(beta, best)
        return best

    def visit(self, board, player, depth, alpha, beta):
        entry = [board, None]
        self.visited.append(entry)
        entry[1] = self.value(board, player, depth, alpha, beta)
        return entry[1]

    def best_move(self, board, player):
        alpha, beta = -WIN * 2, WIN * 2
        best, best_value = None, None
        for child in successors(board, player):
            v = self.visit(child, other(player), 1, alpha, beta)
            if best is None or (v > best_value if player == "x" else v < best_value):
                best, best_value = child, v
            if player == "x":
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
        return best


def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) != 5:
        fail("usage: tmmorris.py STATE PATH PLY TURN")
    state, path, ply_text, turn = argv[1:]
    if len(state) != 9 or any(c not in "xo-" for c in state):
        fail("state `%s` must be 9 characters of x, o and -" % state)
    if turn not in ("x", "o"):
        fail("turn `%s` must be x or o" % turn)
    try:
        ply = int(ply_text)
    except ValueError:
        fail("ply `%s` is not a number" % ply_text)
    if ply < 1:
        fail("ply `%s` must be at least 1" % ply_text)
    if state.count("x") > 3 or state.count("o") > 3:
        fail("state `%s` has more than three pieces a side" % state)
    if winner(state) is not None or not successors(state, turn):
        return  # no further moves: print nothing, write nothing
    search = Search(ply)
    best = search.best_move(state, turn)
    with open(path, "w") as out:
        for board, value in search.visited:
            out.write("%s %d\n" % (board, value))
    print(best)


if __name__ == "__main__":
    main(sys.argv)
