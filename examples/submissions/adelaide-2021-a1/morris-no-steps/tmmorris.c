/* AI Assignment 1, part 2: Three Men's Morris with alpha-beta minimax.
 *
 * Usage: ./tmmorris.bin STATE PATH PLY TURN
 *
 * Pieces move orthogonally (never diagonally); three in a row or column wins.
 * A side whose turn it is with all three pieces placed and no step to make has lost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIN 1000
#define MAX_NODES 4000000

static const int NEIGHBOURS[9][5] = {
    {1, 3, -1}, {0, 2, 4, -1}, {1, 5, -1}, {0, 4, 6, -1}, {1, 3, 5, 7, -1},
    {2, 4, 8, -1}, {3, 7, -1}, {4, 6, 8, -1}, {5, 7, -1}};
static const int LINES[6][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8},
                                {0, 3, 6}, {1, 4, 7}, {2, 5, 8}};
static const int WEIGHT[4] = {1, 2, 5, 0};

typedef struct {
    char board[10];
    int value;
} Node;

static Node *visited;
static long n_visited;
static int ply_limit;

static char winner(const char *b) {
    for (int i = 0; i < 6; i++) {
        const int *l = LINES[i];
        if (b[l[0]] != '-' && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]]) return b[l[0]];
    }
    return 0;
}

static char other(char p) { return p == 'x' ? 'o' : 'x'; }

static int count(const char *b, char p) {
    int n = 0;
    for (int i = 0; i < 9; i++) n += b[i] == p;
    return n;
}

/* Successors in raster order: placements while fewer than three pieces are down.
 * TODO: moving a piece once all three are down. */
static int successors(const char *b, char p, char out[][10]) {
    int n = 0;
    if (count(b, p) < 3) {
        for (int i = 0; i < 9; i++)
            if (b[i] == '-') {
                memcpy(out[n], b, 10);
                out[n++][i] = p;
            }
    }
    return n;
}

static int mobility(const char *b, char p) {
    int n = 0;
    for (int f = 0; f < 9; f++)
        if (b[f] == p)
            for (int k = 0; NEIGHBOURS[f][k] >= 0; k++) n += b[NEIGHBOURS[f][k]] == '-';
    return n;
}

/* Open lines weighted by how full they are, plus mobility; x's point of view. */
static int evaluate(const char *b) {
    int score = 0;
    for (int i = 0; i < 6; i++) {
        int xs = 0, os = 0;
        for (int k = 0; k < 3; k++) {
            xs += b[LINES[i][k]] == 'x';
            os += b[LINES[i][k]] == 'o';
        }
        if (os == 0) score += WEIGHT[xs];
        if (xs == 0) score -= WEIGHT[os];
    }
    return score + mobility(b, 'x') - mobility(b, 'o');
}

static int visit(const char *b, char p, int depth, int alpha, int beta);

static int value(const char *b, char p, int depth, int alpha, int beta) {
    char w = winner(b);
    if (w) return w == 'x' ? WIN - depth : depth - WIN;
    char kids[24][10];
    int n = successors(b, p, kids);
    if (n == 0) return p == 'x' ? depth - WIN : WIN - depth; /* blocked: loses */
    if (depth >= ply_limit) return evaluate(b);
    int best = p == 'x' ? -2 * WIN : 2 * WIN;
    for (int i = 0; i < n; i++) {
        int v = visit(kids[i], other(p), depth + 1, alpha, beta);
        if (p == 'x') {
            if (v > best) best = v;
            if (best >= beta) return best;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best <= alpha) return best;
            if (best < beta) beta = best;
        }
    }
    return best;
}

/* Lists the node before its children; its value is filled in afterwards. */
static int visit(const char *b, char p, int depth, int alpha, int beta) {
    if (n_visited >= MAX_NODES) {
        fprintf(stderr, "error: more than %d visited nodes; use a smaller ply\n", MAX_NODES);
        exit(3);
    }
    long me = n_visited++;
    memcpy(visited[me].board, b, 10);
    visited[me].value = value(b, p, depth, alpha, beta);
    return visited[me].value;
}

static void fail(const char *message, const char *value) {
    fprintf(stderr, "error: %s `%s`\n", message, value);
    exit(2);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s STATE PATH PLY TURN\n", argv[0]);
        return 2;
    }
    const char *state = argv[1], *path = argv[2], *turn = argv[4];
    if (strlen(state) != 9 || strspn(state, "xo-") != 9) fail("bad state", state);
    if (strcmp(turn, "x") != 0 && strcmp(turn, "o") != 0) fail("turn must be x or o, not", turn);
    char *end;
    long ply = strtol(argv[3], &end, 10);
    if (*argv[3] == '\0' || *end != '\0' || ply < 1) fail("ply must be a positive integer, not", argv[3]);
    if (ply > 60) ply = 60;
    ply_limit = (int)ply;
    if (count(state, 'x') > 3 || count(state, 'o') > 3) fail("more than three pieces a side in", state);

    char board[10], p = turn[0];
    memcpy(board, state, 10);
    char kids[24][10];
    int n = winner(board) ? 0 : successors(board, p, kids);
    if (n == 0) return 0; /* no further moves: print nothing, write nothing */

    visited = malloc(sizeof(Node) * MAX_NODES);
    if (!visited) return 3;
    int alpha = -2 * WIN, beta = 2 * WIN, best = -1, best_value = 0;
    for (int i = 0; i < n; i++) {
        int v = visit(kids[i], other(p), 1, alpha, beta);
        if (best < 0 || (p == 'x' ? v > best_value : v < best_value)) {
            best = i;
            best_value = v;
        }
        if (p == 'x' && v > alpha) alpha = v;
        if (p == 'o' && v < beta) beta = v;
    }
    FILE *out = fopen(path, "w");
    if (!out) fail("cannot write", path);
    for (long i = 0; i < n_visited; i++) fprintf(out, "%s %d\n", visited[i].board, visited[i].value);
    fclose(out);
    printf("%s\n", kids[best]);
    return 0;
}
