"""CS4341 Project 1: tic-tac-toe against the computer.

You are X and move first; the computer is O. Type a move as its row and column, 1 to 3 ("2 3").
The computer searches the whole game with plain minimax (no pruning) on deep copies of the board, so
its first answer takes about a second of CPU time: on a busy machine, many seconds on the clock.
"""
import copy

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board):
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def minimax(board, turn):
    """The value of `board` for O (1 win, 0 draw, -1 loss) with `turn` to move, and O's best cell."""
    w = winner(board)
    if w is not None:
        return (1 if w == "O" else -1), None
    free = [k for k in range(9) if board[k] == "."]
    if not free:
        return 0, None
    best, where = None, None
    for k in free:
        child = copy.deepcopy(board)
        child[k] = turn
        v, _ = minimax(child, "X" if turn == "O" else "O")
        if best is None or (turn == "O" and v > best) or (turn == "X" and v < best):
            best, where = v, k
    return best, where


def show(board):
    for r in range(3):
        print(" ".join(board[3 * r:3 * r + 3]))


def read_move(board):
    while True:
        try:
            text = input("Your move (row col): ")
        except EOFError:
            raise SystemExit(0)
        parts = text.split()
        if len(parts) != 2 or not all(p in ("1", "2", "3") for p in parts):
            print("Please type a row and a column, 1 to 3.")
            continue
        k = 3 * (int(parts[0]) - 1) + int(parts[1]) - 1
        if board[k] != ".":
            print("That square is taken.")
            continue
        return k


def main():
    board = ["."] * 9
    show(board)
    while True:
        board[read_move(board)] = "X"
        if winner(board) or "." not in board:
            break
        _, k = minimax(board, "O")
        board[k] = "O"
        print("Computer plays %d %d" % (k // 3 + 1, k % 3 + 1))
        show(board)
        if winner(board) or "." not in board:
            break
    show(board)
    w = winner(board)
    print("You win!" if w == "X" else "Computer wins!" if w == "O" else "It's a draw.")


main()
