"""Assignment 1: tic-tac-toe by minimax, with alpha-beta and a ply limit.

Written for clarity, not speed: the board is a 3x3 grid (a list of rows),
copied whole for every move, and the lines are rebuilt at every node.

Usage: python3 tictactoe.py STATE PATH [prune [PLY]]
"""
import sys


def to_grid(state):
    return [list(state[0:3]), list(state[3:6]), list(state[6:9])]


def to_state(grid):
    return "".join("".join(row) for row in grid)


def all_lines(grid):
    """The eight lines of the grid, each as a 3-character string."""
    lines = []
    for r in range(3):
        lines.append("".join(grid[r][c] for c in range(3)))
    for c in range(3):
        lines.append("".join(grid[r][c] for r in range(3)))
    lines.append("".join(grid[i][i] for i in range(3)))
    lines.append("".join(grid[i][2 - i] for i in range(3)))
    return lines


def blanks(grid):
    return [(r, c) for r in range(3) for c in range(3) if grid[r][c] == "-"]


def finished(grid):
    lines = all_lines(grid)
    return "xxx" in lines or "ooo" in lines or len(blanks(grid)) == 0


def score(grid):
    lines = all_lines(grid)
    if "xxx" in lines:
        return 1
    if "ooo" in lines:
        return -1
    return 0


def estimate(grid):
    """E(s) = lines still open for x minus lines still open for o."""
    lines = all_lines(grid)
    open_x = len([line for line in lines if "o" not in line])
    open_o = len([line for line in lines if "x" not in line])
    return open_x - open_o


def other(player):
    return "o" if player == "x" else "x"


class Minimax:
    def __init__(self, prune, ply):
        self.prune = prune
        self.ply = ply
        self.lines = []

    def successors(self, grid, player):
        result = []
        for r, c in blanks(grid):
            child = [list(row) for row in grid]
            child[r][c] = player
            result.append(child)
        return result

    def node(self, grid, player, depth, alpha, beta):
        """Value of a node the search enters; it is listed before its children."""
        slot = len(self.lines)
        self.lines.append(None)
        v = self.search(grid, player, depth, alpha, beta)
        self.lines[slot] = "%s %d\n" % (to_state(grid), v)
        return v

    def search(self, grid, player, depth, alpha, beta):
        if self.ply is not None:
            if depth == self.ply or finished(grid):
                return estimate(grid)
        elif finished(grid):
            return score(grid)
        best = None
        for child in self.successors(grid, player):
            v = self.node(child, other(player), depth + 1, alpha, beta)
            if player == "x":
                best = v if best is None else max(best, v)
                if self.prune:
                    if best >= beta:
                        return best
                    alpha = max(alpha, best)
            else:
                best = v if best is None else min(best, v)
                if self.prune:
                    if best <= alpha:
                        return best
                    beta = min(beta, best)
        return best

    def choose(self, grid, player):
        alpha, beta = float("-inf"), float("inf")
        chosen, chosen_value = None, None
        for child in self.successors(grid, player):
            v = self.node(child, other(player), 1, alpha, beta)
            better = chosen is None or (v > chosen_value if player == "x" else v < chosen_value)
            if better:
                chosen, chosen_value = child, v
            if self.prune:
                if player == "x":
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
        return chosen


def die(message):
    sys.stderr.write("error: " + message + "\n")
    sys.exit(2)


def main(argv):
    if not 2 <= len(argv) <= 4:
        die("usage: python3 tictactoe.py STATE PATH [prune [PLY]]")
    state, path = argv[0], argv[1]
    prune, ply = False, None
    if len(argv) >= 3:
        if argv[2] != "prune":
            die("the third argument must be 'prune', not '%s'" % argv[2])
        prune = True
    if len(argv) == 4:
        text = argv[3]
        if not (text.isascii() and text.isdigit()) or int(text) < 1:
            die("PLY must be a positive integer, not '%s'" % text)
        ply = int(text)
    if len(state) != 9 or set(state) - set("xo-"):
        die("bad state '%s': 9 characters of x, o and -" % state)
    xs, os_ = state.count("x"), state.count("o")
    if xs == os_:
        player = "x"
    elif xs == os_ + 1:
        player = "o"
    else:
        die("impossible state '%s': %d x and %d o" % (state, xs, os_))
    grid = to_grid(state)
    lines = all_lines(grid)
    x_won, o_won = "xxx" in lines, "ooo" in lines
    if (x_won and o_won) or (x_won and player == "x") or (o_won and player == "o"):
        die("impossible state '%s': a move after the game was won" % state)
    if finished(grid):
        return
    search = Minimax(prune, ply)
    best = search.choose(grid, player)
    with open(path, "w") as out:
        out.writelines(search.lines)
    print(to_state(best))


if __name__ == "__main__":
    main(sys.argv[1:])
