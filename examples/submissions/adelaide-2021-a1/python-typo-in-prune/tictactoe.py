"""AI Assignment 1 - tic-tac-toe with minimax, alpha-beta pruning and early
termination using the evaluation function E(s) = M(s) - O(s).

Usage: python3 tictactoe.py STATE PATH [prune [PLY]]
"""
import sys

WIN_LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),             # diagonals
]
INFINITY = float("inf")


def winner(board):
    """Return 'x' or 'o' if someone has three in a row, else None."""
    for a, b, c in WIN_LINES:
        if board[a] != "-" and board[a] == board[b] == board[c]:
            return board[a]
    return None


def has_line(board, piece):
    return any(all(board[i] == piece for i in line) for line in WIN_LINES)


def game_over(board):
    return winner(board) is not None or "-" not in board


def utility(board):
    w = winner(board)
    if w == "x":
        return 1
    if w == "o":
        return -1
    return 0


def evaluate(board):
    """E(s): winning lines still possible for Max minus those possible for Min."""
    max_lines = sum(1 for line in WIN_LINES if all(board[i] != "o" for i in line))
    min_lines = sum(1 for line in WIN_LINES if all(board[i] != "x" for i in line))
    return max_lines - min_lines


def children(board, player):
    """Successors in raster order of the blank that gets filled."""
    for i, cell in enumerate(board):
        if cell == "-":
            yield board[:i] + player + board[i + 1:]


class Search:
    def __init__(self, prune=False, ply=None):
        self.prune = prune
        self.ply = ply
        # [state, value] pairs; a node is added before its children are searched
        # (so the file lists it first) and its value is filled in afterwards
        self.visited = []

    def visit(self, child, player, depth, alpha, beta):
        entry = [child, None]
        self.visited.append(entry)
        entry[1] = self.value(child, player, depth, alpha, beta)
        return entry[1]

    def value(self, board, player, depth, alpha, beta):
        if self.ply is not None and (depth == self.ply or game_over(board)):
            # early termination: E(s) is used even if the game has ended
            return evaluate(board)
        if game_over(board):
            return utility(board)

        if player == "x":
            v = -INFINITY
            for child in children(board, "x"):
                v = max(v, self.visit(child, "o", depth + 1, alpha, beta))
                if self.prune:
                    if v >= beta:
                        return v
                    alpha = max(alpha, v)
        else:
            v = INFINITY
            for child in children(board, "o"):
                v = min(v, self.visit(child, "x", depth + 1, alpha, beta))
                if self.prune:
                    if v <= alpha:
                        return v
                    beta = min(beta, vaule)
        return v

    def best_move(self, board, player):
        opponent = "o" if player == "x" else "x"
        alpha, beta = -INFINITY, INFINITY
        best, best_value = None, None
        for child in children(board, player):
            v = self.visit(child, opponent, 1, alpha, beta)
            # only a strictly better value wins, so ties keep the earliest blank
            if best is None or (v > best_value if player == "x" else v < best_value):
                best, best_value = child, v
            if self.prune:
                if player == "x":
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
        return best


def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(2)


def main(args):
    if len(args) < 2 or len(args) > 4:
        fail("usage: python3 tictactoe.py STATE PATH [prune [PLY]]")
    state, path = args[0], args[1]
    prune = False
    ply = None
    if len(args) >= 3:
        if args[2] != "prune":
            fail("expected 'prune' but got '%s'" % args[2])
        prune = True
    if len(args) == 4:
        if not (args[3].isascii() and args[3].isdigit()) or int(args[3]) <= 0:
            fail("PLY must be a positive integer, got '%s'" % args[3])
        ply = int(args[3])

    if len(state) != 9 or any(c not in "xo-" for c in state):
        fail("invalid state '%s' (expected 9 characters from x, o, -)" % state)
    xs, os_ = state.count("x"), state.count("o")
    if xs == os_:
        player = "x"  # Max always starts
    elif xs == os_ + 1:
        player = "o"
    else:
        fail("impossible state '%s' (%d x and %d o)" % (state, xs, os_))
    # the game ends at the first line of three, so nobody moves after it
    x_line, o_line = has_line(state, "x"), has_line(state, "o")
    if (x_line and o_line) or (x_line and player == "x") or (o_line and player == "o"):
        fail("impossible state '%s' (a move was made after the game was won)" % state)

    if game_over(state):
        return  # no further moves: print nothing, write nothing

    search = Search(prune, ply)
    best = search.best_move(state, player)

    with open(path, "w") as f:
        f.writelines("%s %d\n" % (s, v) for s, v in search.visited)
    print(best)


if __name__ == "__main__":
    main(sys.argv[1:])
