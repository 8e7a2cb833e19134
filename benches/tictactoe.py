"""A plain Python tic-tac-toe minimax, written as a student would, for the solve benchmark.

Usage: python3 tictactoe.py STATE PATH  (plain minimax only; writes the pre-order trace like grader).
"""
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board):
    for a, b, c in LINES:
        if board[a] != "-" and board[a] == board[b] == board[c]:
            return board[a]
    return None


def terminal_value(board):
    w = winner(board)
    if w == "x":
        return 1
    if w == "o":
        return -1
    if "-" not in board:
        return 0
    return None


def to_move(board):
    return "x" if board.count("x") == board.count("o") else "o"


def minimax(board, visited):
    value = terminal_value(board)
    if value is not None:
        return value
    player = to_move(board)
    best = None
    for i in range(9):
        if board[i] == "-":
            child = board[:i] + player + board[i + 1:]
            slot = len(visited)
            visited.append(None)
            v = minimax(child, visited)
            visited[slot] = child + " " + str(v)
            if best is None or (player == "x" and v > best) or (player == "o" and v < best):
                best = v
    return best


def main():
    state, path = sys.argv[1], sys.argv[2]
    if terminal_value(state) is not None:
        return
    player = to_move(state)
    visited = []
    best, best_child = None, None
    for i in range(9):
        if state[i] == "-":
            child = state[:i] + player + state[i + 1:]
            slot = len(visited)
            visited.append(None)
            v = minimax(child, visited)
            visited[slot] = child + " " + str(v)
            if best is None or (player == "x" and v > best) or (player == "o" and v < best):
                best, best_child = v, child
    with open(path, "w") as f:
        f.write("\n".join(visited) + "\n")
    print(best_child)


if __name__ == "__main__":
    main()
