"""Play Oska against the AI in a terminal: python3 game.py"""
from oska_ai import oska_move, moves_for, outcome, other


def show(board):
    width = len(board[0])
    for row in board:
        print(' ' * (width - len(row)) + ' '.join(row))


def ask_move(board, side, prompt):
    options = moves_for(board, side)
    for n, option in enumerate(options):
        print(n + 1, option)
    while True:
        answer = input(prompt)
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]


def main():
    board = ['wwww', '---', '--', '---', 'bbbb']
    human = 'white' if input('white or black? ').startswith('w') else 'black'
    side = 'white'
    while outcome(board) is None:
        show(board)
        if side == human:
            board = ask_move(board, side, 'your move: ')
        else:
            board = oska_move(list(board), side, 3) or board
        side = other(side)
    print(outcome(board), 'wins')


if __name__ == '__main__':
    main()
