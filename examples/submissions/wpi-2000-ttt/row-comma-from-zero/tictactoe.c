/* Tic-tac-toe, you against the machine. The machine searches the whole game tree with minimax and
 * alpha-beta cut-offs, so it never loses.
 *
 * This hand-in keeps its own conventions: it asks whether you start (y/n), numbers rows and columns
 * from 0 and reads a move as "row,col" (e.g. "0,2" is the top-right square), and draws the board
 * with dots for empty squares. Whoever starts plays X. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char grid[3][3];

static char three_in_line(void) {
    for (int k = 0; k < 3; k++) {
        if (grid[k][0] != '.' && grid[k][0] == grid[k][1] && grid[k][1] == grid[k][2]) return grid[k][0];
        if (grid[0][k] != '.' && grid[0][k] == grid[1][k] && grid[1][k] == grid[2][k]) return grid[0][k];
    }
    if (grid[1][1] != '.' && ((grid[0][0] == grid[1][1] && grid[1][1] == grid[2][2]) ||
                              (grid[0][2] == grid[1][1] && grid[1][1] == grid[2][0])))
        return grid[1][1];
    return 0;
}

static int empty_squares(void) {
    int n = 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) n += grid[r][c] == '.';
    return n;
}

/* Score for `ai`: positive when it wins (earlier is better), negative when it loses. */
static int negamax(char side, char ai, int alpha, int beta, int *best) {
    char w = three_in_line();
    int free_left = empty_squares();
    if (w) return (w == side ? 1 : -1) * (free_left + 1);
    if (free_left == 0) return 0;
    static const int order[9] = {4, 0, 2, 6, 8, 1, 3, 5, 7};
    char other = side == 'X' ? 'O' : 'X';
    int top = -100;
    for (int i = 0; i < 9; i++) {
        int r = order[i] / 3, c = order[i] % 3;
        if (grid[r][c] != '.') continue;
        grid[r][c] = side;
        int v = -negamax(other, ai, -beta, -alpha, NULL);
        grid[r][c] = '.';
        if (v > top) {
            top = v;
            if (best) *best = order[i];
        }
        if (v > alpha) alpha = v;
        if (alpha >= beta) break;
    }
    return top;
}

static void show(void) {
    printf("\n    0 1 2\n");
    for (int r = 0; r < 3; r++) printf("  %d %c %c %c\n", r, grid[r][0], grid[r][1], grid[r][2]);
    printf("\n");
}

/* Reads a line; exits quietly when input ends. */
static void read_line(char *buf, size_t n) {
    fflush(stdout);
    if (!fgets(buf, (int)n, stdin)) exit(0);
    buf[strcspn(buf, "\r\n")] = 0;
}

int main(void) {
    char line[128];
    memset(grid, '.', sizeof grid);
    puts("TIC-TAC-TOE. Rows and columns are numbered 0 to 2.");
    for (;;) {
        printf("Do you want to start first? (y/n) ");
        read_line(line, sizeof line);
        if (!strcmp(line, "y") || !strcmp(line, "n")) break;
        puts("Type y or n.");
    }
    char you = line[0] == 'y' ? 'X' : 'O';
    char ai = you == 'X' ? 'O' : 'X';
    char turn = 'X';
    show();
    while (!three_in_line() && empty_squares() > 0) {
        if (turn == you) {
            for (;;) {
                int r, c;
                char extra;
                printf("Your move as row,col (0-2): ");
                read_line(line, sizeof line);
                if (sscanf(line, "%d,%d %c", &r, &c, &extra) != 2) {
                    puts("Write the move as row,col, for example 1,2.");
                    continue;
                }
                if (r < 0 || r > 2 || c < 0 || c > 2) {
                    puts("Rows and columns are 0, 1 or 2.");
                    continue;
                }
                if (grid[r][c] != '.') {
                    puts("That square is not free.");
                    continue;
                }
                grid[r][c] = you;
                break;
            }
        } else {
            int best = -1;
            negamax(ai, ai, -100, 100, &best);
            grid[best / 3][best % 3] = ai;
            printf("AI chose (%d, %d)\n", best / 3, best % 3);
        }
        show();
        turn = turn == 'X' ? 'O' : 'X';
    }
    char w = three_in_line();
    if (w == ai) puts("AI wins. Better luck next time.");
    else if (w == you) puts("You win!");
    else puts("Tie game.");
    return 0;
}
