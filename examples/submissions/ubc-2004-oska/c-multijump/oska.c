/* FLAW (for the grader's tests): after a jump, keeps jumping with the same piece while it can, as in
 * checkers (the handout allows a single capture a turn).
 *
 * Oska player for CPSC 322 (2004), in the shape of the predicate oskamaniac(Board, Colour, Depth, Next).
 *
 *   ./oska BOARD COLOUR DEPTH
 *
 * BOARD is the handout's list of rows ([[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]), COLOUR w or b (the
 * side to move, played by this program), DEPTH the moves MiniMax looks ahead. Prints the board after the
 * best move; with no legal move the side loses its turn and the board is printed unchanged. Any n >= 4.
 *
 * Rows are centred: square i of a row of k squares sits at x = 2i - (k - 1). A step goes one row forward
 * (down for w, up for b) to x +- 1; a jump two rows to x +- 2, over an enemy piece at x +- 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXROWS 32
#define MAXLEN 16
#define WIN 10000

typedef struct {
    int rows;
    int len[MAXROWS];
    char cell[MAXROWS][MAXLEN];
} Board;

static char other(char c) { return c == 'w' ? 'b' : 'w'; }

static int parse(const char *text, Board *b) {
    int depth = 0, r = -1;
    memset(b, 0, sizeof *b);
    for (const char *p = text; *p; p++) {
        if (*p == '[') {
            depth++;
            if (depth == 2) {
                r = b->rows++;
                if (r >= MAXROWS) return -1;
            }
        } else if (*p == ']') {
            depth--;
        } else if (*p == 'w' || *p == 'b' || *p == 'e') {
            if (depth != 2 || b->len[r] >= MAXLEN) return -1;
            b->cell[r][b->len[r]++] = *p;
        } else if (*p != ',' && *p != ' ') {
            return -1;
        }
    }
    return b->rows >= 5 ? 0 : -1;
}

static void show(const Board *b) {
    putchar('[');
    for (int r = 0; r < b->rows; r++) {
        putchar('[');
        for (int i = 0; i < b->len[r]; i++) {
            if (i) putchar(',');
            putchar(b->cell[r][i]);
        }
        putchar(']');
        if (r + 1 < b->rows) putchar(',');
    }
    printf("]\n");
}

/* ---- move generation ---- */

static int square_at(const Board *b, int r, int x) {
    if (r < 0 || r >= b->rows) return -1;
    int j2 = x + b->len[r] - 1;
    if (j2 < 0 || j2 % 2 != 0 || j2 / 2 >= b->len[r]) return -1;
    return j2 / 2;
}

/* Fills out[] with every board one legal move of c away, in a fixed order; returns how many. */
static int successors(const Board *b, char c, Board *out) {
    int f = c == 'w' ? 1 : -1, n = 0;
    for (int r = 0; r < b->rows; r++)
        for (int i = 0; i < b->len[r]; i++) {
            if (b->cell[r][i] != c) continue;
            int x = 2 * i - (b->len[r] - 1);
            for (int dx = -1; dx <= 1; dx += 2) {
                int j = square_at(b, r + f, x + dx);
                if (j < 0) continue;
                if (b->cell[r + f][j] == 'e') {
                    out[n] = *b;
                    out[n].cell[r][i] = 'e';
                    out[n].cell[r + f][j] = c;
                    n++;
                } else if (b->cell[r + f][j] == other(c)) {
                    int j2 = square_at(b, r + 2 * f, x + 2 * dx);
                    if (j2 >= 0 && b->cell[r + 2 * f][j2] == 'e') {
                        out[n] = *b;
                        out[n].cell[r][i] = 'e';
                        out[n].cell[r + f][j] = 'e';
                        out[n].cell[r + 2 * f][j2] = c;
                        /* Keep jumping from where the piece landed. */
                        int rr = r + 2 * f, xx = x + 2 * dx, more = 1;
                        while (more) {
                            more = 0;
                            for (int ddx = -1; ddx <= 1 && !more; ddx += 2) {
                                int over = square_at(&out[n], rr + f, xx + ddx);
                                int land = square_at(&out[n], rr + 2 * f, xx + 2 * ddx);
                                if (over >= 0 && land >= 0 && out[n].cell[rr + f][over] == other(c) &&
                                    out[n].cell[rr + 2 * f][land] == 'e') {
                                    int from = square_at(&out[n], rr, xx);
                                    out[n].cell[rr][from] = 'e';
                                    out[n].cell[rr + f][over] = 'e';
                                    out[n].cell[rr + 2 * f][land] = c;
                                    rr += 2 * f;
                                    xx += 2 * ddx;
                                    more = 1;
                                }
                            }
                        }
                        n++;
                    }
                }
            }
        }
    return n;
}

/* ---- board evaluation (static) ---- */

static int count(const Board *b, char c) {
    int n = 0;
    for (int r = 0; r < b->rows; r++)
        for (int i = 0; i < b->len[r]; i++) n += b->cell[r][i] == c;
    return n;
}

static int all_home(const Board *b, char c) {
    int goal = c == 'w' ? b->rows - 1 : 0, n = count(b, c), home = 0;
    for (int i = 0; i < b->len[goal]; i++) home += b->cell[goal][i] == c;
    return n > 0 && home == n;
}

/* 'w', 'b', 'd' (draw) or 0 while the game goes on. */
static char winner(const Board *b) {
    int nw = count(b, 'w'), nb = count(b, 'b');
    if (nb == 0) return 'w';
    if (nw == 0) return 'b';
    int hw = all_home(b, 'w'), hb = all_home(b, 'b');
    if (hw && hb) return nw > nb ? 'w' : nb > nw ? 'b' : 'd';
    if (hw) return 'w';
    if (hb) return 'b';
    return 0;
}

static int rows_to_go(const Board *b, char c) {
    int t = 0;
    for (int r = 0; r < b->rows; r++)
        for (int i = 0; i < b->len[r]; i++)
            if (b->cell[r][i] == c) t += c == 'w' ? b->rows - 1 - r : r;
    return t;
}

static int evaluate(const Board *b, char me) {
    char w = winner(b);
    if (w == me) return WIN;
    if (w == other(me)) return -WIN;
    if (w == 'd') return 0;
    return rows_to_go(b, other(me)) - rows_to_go(b, me);
}

/* ---- MiniMax ---- */

static int minimax(const Board *b, char to_move, char me, int depth) {
    if (depth == 0 || winner(b)) return evaluate(b, me);
    Board next[64];
    int n = successors(b, to_move, next);
    if (n == 0) { /* no move: the side loses its turn */
        next[0] = *b;
        n = 1;
    }
    int best = 0;
    for (int k = 0; k < n; k++) {
        int v = minimax(&next[k], other(to_move), me, depth - 1);
        if (k == 0 || (to_move == me ? v > best : v < best)) best = v;
    }
    return best;
}

int main(int argc, char **argv) {
    Board b;
    if (argc != 4 || (strcmp(argv[2], "w") && strcmp(argv[2], "b")) || parse(argv[1], &b)) {
        fprintf(stderr, "usage: oska BOARD w|b DEPTH\n");
        return 2;
    }
    char me = argv[2][0];
    int depth = atoi(argv[3]);
    if (depth < 1) depth = 1;
    Board next[64];
    int n = successors(&b, me, next);
    if (n == 0) {
        show(&b);
        return 0;
    }
    int best = 0, best_value = 0;
    for (int k = 0; k < n; k++) {
        int v = minimax(&next[k], other(me), me, depth - 1);
        if (k == 0 || v > best_value) {
            best = k;
            best_value = v;
        }
    }
    show(&next[best]);
    return 0;
}
