# One game: the user picks a mark, X moves first, the computer searches every move.
from board import Board
from player import ask_mark, ask_move
from search import choose


def main():
    user = ask_mark()
    computer = 'O' if user == 'X' else 'X'
    board = Board()
    turn = 'X'
    while not board.over():
        if turn == user:
            board.show()
            board.cells[ask_move(board)] = user
        else:
            k = choose(board, computer)
            board.cells[k] = computer
            print('I play %d %d' % (k // 3 + 1, k % 3 + 1))
        turn = 'O' if turn == 'X' else 'X'
    board.show()
    w = board.winner()
    if w is None:
        print('A draw.')
    elif w == user:
        print('You win.')
    else:
        print('I win.')
