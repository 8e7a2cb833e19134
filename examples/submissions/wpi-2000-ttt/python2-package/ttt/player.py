# What the person at the keyboard types.
import sys


def line(prompt):
    try:
        return raw_input(prompt).strip()
    except EOFError:
        sys.exit(0)


def ask_mark():
    while True:
        mark = line('Do you want to play X or O? ').upper()
        if mark in ('X', 'O'):
            return mark
        print('Please type X or O.')


def ask_move(board):
    while True:
        parts = line('Your move (row col): ').split()
        if len(parts) != 2 or not all(p in ('1', '2', '3') for p in parts):
            print('Type a row and a column, each 1 to 3.')
            continue
        k = 3 * (int(parts[0]) - 1) + int(parts[1]) - 1
        if board.cells[k] != ' ':
            print('That square is taken.')
            continue
        return k
