/* CS4341 Project 1: tic-tac-toe against the computer.
 *
 * The computer searches the whole game with minimax and alpha-beta pruning; its utility prefers quick
 * wins and slow losses, and it tries the centre, then corners, then edges (the heuristic move order
 * that makes the pruning cut early).
 *
 * Interface: answer X or O (X moves first); type a move as its column then its row, 1 to 3 ("3 2" is
 * column 3, row 2).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
static const int ORDER[9] = {4, 0, 2, 6, 8, 1, 3, 5, 7};

static char board[9];

static char winner(void) {
    for (int i = 0; i < 8; i++) {
        char a = board[LINES[i][0]];
        if (a != ' ' && a == board[LINES[i][1]] && a == board[LINES[i][2]]) return a;
    }
    return 0;
}

static int full(void) {
    for (int i = 0; i < 9; i++)
        if (board[i] == ' ') return 0;
    return 1;
}

static char other(char mark) { return mark == 'X' ? 'O' : 'X'; }

/* The value of the position for `me` with `turn` to move; the best move goes to *best. */
static int alphabeta(char turn, char me, int depth, int alpha, int beta, int *best) {
    char w = winner();
    if (w) return w == me ? 10 - depth : depth - 10;
    if (full()) return 0;
    int value = turn == me ? -100 : 100;
    for (int k = 0; k < 9; k++) {
        int cell = ORDER[k];
        if (board[cell] != ' ') continue;
        board[cell] = turn;
        int ignored;
        int v = alphabeta(other(turn), me, depth + 1, alpha, beta, &ignored);
        board[cell] = ' ';
        if (turn == me ? v > value : v < value) {
            value = v;
            *best = cell;
        }
        if (turn == me) {
            if (value > alpha) alpha = value;
        } else {
            if (value < beta) beta = value;
        }
        if (alpha >= beta) break;
    }
    return value;
}

static void show(void) {
    printf("\n    1   2   3\n");
    for (int r = 0; r < 3; r++) {
        printf(" %d  %c | %c | %c\n", r + 1, board[3 * r], board[3 * r + 1], board[3 * r + 2]);
        if (r < 2) printf("   ---+---+---\n");
    }
    printf("\n");
    fflush(stdout);
}

/* Reads one line; exits quietly at end of input. */
static void read_line(char *buf, size_t size) {
    fflush(stdout);
    if (!fgets(buf, (int)size, stdin)) exit(0);
}

static int read_move(void) {
    char line[256];
    for (;;) {
        printf("Enter your move (column row): ");
        read_line(line, sizeof line);
        int row, col;
        char extra;
        if (sscanf(line, "%d %d %c", &col, &row, &extra) != 2) {
            printf("Please type a column and a row, like 3 2.\n");
            continue;
        }
        if (row < 1 || row > 3 || col < 1 || col > 3) {
            printf("Rows and columns go from 1 to 3.\n");
            continue;
        }
        int cell = 3 * (row - 1) + (col - 1);
        if (board[cell] != ' ') {
            printf("Square %d %d is already taken.\n", col, row);
            continue;
        }
        return cell;
    }
}

int main(void) {
    char line[256];
    char human;
    printf("Welcome to tic-tac-toe! X moves first.\n");
    printf("Moves are typed as column then row, each 1 to 3.\n");
    for (;;) {
        printf("Which mark do you want, X or O? ");
        read_line(line, sizeof line);
        human = (char)toupper((unsigned char)line[0]);
        if ((human == 'X' || human == 'O') && (line[1] == '\n' || line[1] == '\0' || line[1] == '\r'))
            break;
        printf("Please answer X or O.\n");
    }
    char me = other(human);
    memset(board, ' ', sizeof board);
    char turn = 'X';
    show();
    while (!winner() && !full()) {
        int cell;
        if (turn == human) {
            cell = read_move();
            board[cell] = human;
        } else {
            cell = -1;
            alphabeta(me, me, 0, -100, 100, &cell);
            board[cell] = me;
            printf("Computer plays %c at column %d, row %d\n", me, cell % 3 + 1, cell / 3 + 1);
        }
        show();
        turn = other(turn);
    }
    char w = winner();
    if (!w)
        printf("Game over: it's a tie.\n");
    else if (w == me)
        printf("Game over: the computer wins.\n");
    else
        printf("Game over: you win. Congratulations!\n");
    return 0;
}
