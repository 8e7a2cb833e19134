/* A greedy UT3 player in C over the grader's persistent protocol (src/arena/PROTOCOLS.md).
 *
 * Reads `game ...` (answers `ready`), then `turn <side> <last> <CELLS STAT ROW,COL FLAG>` lines and
 * answers `(row, col)`. Strategy, first that applies: win the game; win a block; a move that does not
 * send the opponent where it can win a block at once; the first legal move. Deterministic. */
#include <stdio.h>
#include <string.h>

static const int LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static char board[9][9];
static char stat[9];

static char line_winner(const char m[9]) {
    for (int k = 0; k < 8; k++) {
        char a = m[LINES[k][0]];
        if (a != '-' && a == m[LINES[k][1]] && a == m[LINES[k][2]]) return a;
    }
    return 0;
}

static void block_cells(int b, char out[9]) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out[3 * i + j] = board[3 * (b / 3) + i][3 * (b % 3) + j];
}

/* Blocks the next player may use after a move at (r, c); -1 for (-1, -1). Returns a bit mask. */
static int targets(int r, int c) {
    if (r < 0) return 0x1ff;
    int i = r % 3, j = c % 3;
    if (i == 0 && j == 0) return 1 << 0 | 1 << 1 | 1 << 3;
    if (i == 0 && j == 2) return 1 << 1 | 1 << 2 | 1 << 5;
    if (i == 2 && j == 0) return 1 << 3 | 1 << 6 | 1 << 7;
    if (i == 2 && j == 2) return 1 << 5 | 1 << 7 | 1 << 8;
    return 1 << (3 * i + j);
}

static int legal(int lr, int lc, int moves[81][2]) {
    int n = 0;
    for (int pass = 0; pass < 2 && n == 0; pass++) {
        int mask = pass == 0 ? targets(lr, lc) : 0x1ff;
        for (int r = 0; r < 9; r++)
            for (int c = 0; c < 9; c++) {
                int b = 3 * (r / 3) + c / 3;
                if ((mask >> b & 1) && stat[b] == '-' && board[r][c] == '-') {
                    moves[n][0] = r;
                    moves[n][1] = c;
                    n++;
                }
            }
    }
    return n;
}

/* Does playing (r, c) as `me` win its block? */
static int wins_block(int r, int c, char me) {
    char cells[9];
    int b = 3 * (r / 3) + c / 3;
    board[r][c] = me;
    block_cells(b, cells);
    board[r][c] = '-';
    return line_winner(cells) == me;
}

static int wins_game(int r, int c, char me) {
    if (!wins_block(r, c, me)) return 0;
    char s[9];
    memcpy(s, stat, 9);
    s[3 * (r / 3) + c / 3] = me;
    return line_winner(s) == me;
}

static void choose(int lr, int lc, char me, int *out_r, int *out_c) {
    char you = me == 'x' ? 'o' : 'x';
    int moves[81][2], n = legal(lr, lc, moves);
    int best = -1, best_score = -1;
    for (int k = 0; k < n; k++) {
        int r = moves[k][0], c = moves[k][1], score = 0;
        if (wins_game(r, c, me)) score = 1000;
        else {
            if (wins_block(r, c, me)) score += 100;
            board[r][c] = me;
            int replies[81][2], m = legal(r, c, replies), danger = 0;
            for (int q = 0; q < m && !danger; q++)
                if (wins_block(replies[q][0], replies[q][1], you)) danger = 1;
            board[r][c] = '-';
            if (!danger) score += 10;
        }
        if (score > best_score) {
            best_score = score;
            best = k;
        }
    }
    *out_r = best < 0 ? 0 : moves[best][0];
    *out_c = best < 0 ? 0 : moves[best][1];
}

int main(void) {
    static char line[4096];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "game\t", 5) == 0) {
            printf("ready\n");
        } else if (strncmp(line, "turn\t", 5) == 0) {
            char *state = strrchr(line, '\t') + 1;
            char cells[82], st[10], me;
            int lr, lc;
            if (sscanf(state, "%81s %9s %d,%d %c", cells, st, &lr, &lc, &me) != 5) return 2;
            for (int r = 0; r < 9; r++) memcpy(board[r], cells + 9 * r, 9);
            memcpy(stat, st, 9);
            int r, c;
            choose(lr, lc, me, &r, &c);
            printf("(%d, %d)\n", r, c);
        } else if (strncmp(line, "end\t", 4) == 0) {
            break;
        }
    }
    return 0;
}
