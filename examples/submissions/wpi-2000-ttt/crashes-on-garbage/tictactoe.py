"""CS4341 Project 1: tic-tac-toe against the computer, minimax with alpha-beta pruning.

Interface: you choose X or O (X moves first); you type a move as its row and column, 1 to 3,
e.g. `2 3` for row 2, column 3. The board is shown after every move.
"""
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
# Centre first, then corners, then edges: the heuristic order alpha-beta tries moves in.
ORDER = [4, 0, 2, 6, 8, 1, 3, 5, 7]


def winner(board):
    for a, b, c in LINES:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return board[a]
    return None


def evaluate(board, me, depth):
    """Utility of a finished game for `me`, preferring quick wins and slow losses."""
    w = winner(board)
    if w == me:
        return 10 - depth
    if w is not None:
        return depth - 10
    return 0


def alphabeta(board, turn, me, depth, alpha, beta):
    w = winner(board)
    if w is not None or " " not in board:
        return evaluate(board, me, depth), None
    other = "O" if turn == "X" else "X"
    best_move = None
    if turn == me:
        value = -100
        for cell in ORDER:
            if board[cell] == " ":
                board[cell] = turn
                v, _ = alphabeta(board, other, me, depth + 1, alpha, beta)
                board[cell] = " "
                if v > value:
                    value, best_move = v, cell
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
    else:
        value = 100
        for cell in ORDER:
            if board[cell] == " ":
                board[cell] = turn
                v, _ = alphabeta(board, other, me, depth + 1, alpha, beta)
                board[cell] = " "
                if v < value:
                    value, best_move = v, cell
                beta = min(beta, value)
                if alpha >= beta:
                    break
    return value, best_move


def show(board):
    print()
    print("    1   2   3")
    for r in range(3):
        print(" %d  %s | %s | %s" % (r + 1, board[3 * r], board[3 * r + 1], board[3 * r + 2]))
        if r < 2:
            print("   ---+---+---")
    print()


def ask(prompt):
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.strip()


def read_move(board):
    while True:
        text = ask("Your move (row column): ")
        row, col = [int(p) for p in text.split()]
        if not (1 <= row <= 3 and 1 <= col <= 3):
            print("Rows and columns go from 1 to 3.")
            continue
        cell = 3 * (row - 1) + (col - 1)
        if board[cell] != " ":
            print("That square is already taken.")
            continue
        return cell


def main():
    print("Tic-tac-toe. X moves first. Type moves as row and column, e.g. 2 3.")
    while True:
        choice = ask("Do you want to play X or O? ").upper()
        if choice in ("X", "O"):
            break
        print("Please answer X or O.")
    human = choice
    me = "O" if human == "X" else "X"
    board = [" "] * 9
    turn = "X"
    show(board)
    while winner(board) is None and " " in board:
        if turn == human:
            cell = read_move(board)
            board[cell] = human
            print("You played %d %d." % (cell // 3 + 1, cell % 3 + 1))
        else:
            _, cell = alphabeta(board, me, me, 0, -100, 100)
            board[cell] = me
            print("I play %d %d" % (cell // 3 + 1, cell % 3 + 1))
        show(board)
        turn = "O" if turn == "X" else "X"
    w = winner(board)
    if w is None:
        print("The game is a draw.")
    elif w == me:
        print("I win! (%s wins)" % me)
    else:
        print("You win! (%s wins)" % human)


if __name__ == "__main__":
    main()
