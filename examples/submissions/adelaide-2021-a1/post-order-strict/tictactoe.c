/*
 * Artificial Intelligence, Assignment 1 (Semester 1 2021)
 * Tic-tac-toe with minimax, alpha-beta pruning and early termination.
 *
 * Usage: ./tictactoe.bin [state] [path] [prune [ply]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INF 1000

/* the 8 winning lines of the board, as raster indices */
static const int LINES[8][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, /* rows */
    {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, /* columns */
    {0, 4, 8}, {2, 4, 6}             /* diagonals */
};

/* One line of the visited file. A node is added once its value is known,
 * i.e. after all of its children. */
typedef struct {
    char state[10];
    int value;
} Visited;

static Visited *visited = NULL;
static size_t num_visited = 0;
static size_t cap_visited = 0;

static int use_prune = 0;
static int max_ply = -1; /* -1 means search to the end of the game */

static void add_visited(const char *board, int value)
{
    if (num_visited == cap_visited) {
        cap_visited = cap_visited ? cap_visited * 2 : 1024;
        visited = realloc(visited, cap_visited * sizeof(Visited));
        if (visited == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(3);
        }
    }
    memcpy(visited[num_visited].state, board, 9);
    visited[num_visited].state[9] = '\0';
    visited[num_visited].value = value;
    num_visited++;
}

/* returns 'x' or 'o' if that player has three in a line, otherwise 0 */
static char winner(const char *board)
{
    for (int i = 0; i < 8; i++) {
        char c = board[LINES[i][0]];
        if (c != '-' && c == board[LINES[i][1]] && c == board[LINES[i][2]])
            return c;
    }
    return 0;
}

static int is_full(const char *board)
{
    return strchr(board, '-') == NULL;
}

/* does `piece` have three in a line anywhere on the board? */
static int has_line(const char *board, char piece)
{
    for (int i = 0; i < 8; i++) {
        if (board[LINES[i][0]] == piece && board[LINES[i][1]] == piece && board[LINES[i][2]] == piece)
            return 1;
    }
    return 0;
}

/* E(s) = M(s) - O(s): lines still open for Max minus lines still open for Min */
static int evaluate(const char *board)
{
    int m = 0, o = 0;
    for (int i = 0; i < 8; i++) {
        int has_x = 0, has_o = 0;
        for (int j = 0; j < 3; j++) {
            if (board[LINES[i][j]] == 'x') has_x = 1;
            if (board[LINES[i][j]] == 'o') has_o = 1;
        }
        if (!has_o) m++;
        if (!has_x) o++;
    }
    return m - o;
}

static int utility(const char *board)
{
    char w = winner(board);
    if (w == 'x') return 1;
    if (w == 'o') return -1;
    return 0;
}

/* Minimax value of board with `player` to move, `depth` moves below the root.
 * Without pruning alpha and beta are ignored. */
static int search(char *board, char player, int depth, int alpha, int beta)
{
    int terminal = winner(board) != 0 || is_full(board);

    if (max_ply > 0 && (terminal || depth == max_ply))
        return evaluate(board); /* early termination: use E(s) even at end states */
    if (terminal)
        return utility(board);

    char next = (player == 'x') ? 'o' : 'x';
    int best = (player == 'x') ? -INF : INF;

    for (int i = 0; i < 9; i++) {
        if (board[i] != '-')
            continue;
        board[i] = player;
        int v = search(board, next, depth + 1, alpha, beta);
        add_visited(board, v);
        board[i] = '-';

        if (player == 'x') {
            if (v > best) best = v;
            if (use_prune) {
                if (best > beta) return best;
                if (best > alpha) alpha = best;
            }
        } else {
            if (v < best) best = v;
            if (use_prune) {
                if (best < alpha) return best;
                if (best < beta) beta = best;
            }
        }
    }
    return best;
}

static void usage(void)
{
    fprintf(stderr, "usage: ./tictactoe.bin [state] [path] [prune [ply]]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5)
        usage();

    const char *state = argv[1];
    const char *path = argv[2];

    if (argc >= 4) {
        if (strcmp(argv[3], "prune") != 0) {
            fprintf(stderr, "error: unknown option '%s' (expected 'prune')\n", argv[3]);
            usage();
        }
        use_prune = 1;
    }
    if (argc == 5) {
        char *end;
        long p = strtol(argv[4], &end, 10);
        if (*argv[4] == '\0' || *end != '\0' || p <= 0 || p > 1000) {
            fprintf(stderr, "error: ply must be a positive integer, got '%s'\n", argv[4]);
            exit(2);
        }
        max_ply = (int)p;
    }

    /* check the board is something that can happen in a real game */
    if (strlen(state) != 9) {
        fprintf(stderr, "error: state '%s' must have exactly 9 characters\n", state);
        return 2;
    }
    int nx = 0, no = 0;
    for (int i = 0; i < 9; i++) {
        if (state[i] == 'x') nx++;
        else if (state[i] == 'o') no++;
        else if (state[i] != '-') {
            fprintf(stderr, "error: state '%s' has an invalid character '%c'\n", state, state[i]);
            return 2;
        }
    }
    char player;
    if (nx == no) {
        player = 'x'; /* Max always moves first */
    } else if (nx == no + 1) {
        player = 'o';
    } else {
        fprintf(stderr, "error: state '%s' is impossible (%d x and %d o)\n", state, nx, no);
        return 2;
    }
    /* nobody can move once the game is won, so some finished boards can't happen either */
    int x_line = has_line(state, 'x'), o_line = has_line(state, 'o');
    if ((x_line && o_line) || (x_line && player == 'x') || (o_line && player == 'o')) {
        fprintf(stderr, "error: state '%s' is impossible (a move was made after the game was won)\n", state);
        return 2;
    }

    /* no further moves: quit without printing or writing anything */
    if (winner(state) || is_full(state))
        return 0;

    char board[10];
    memcpy(board, state, 10);
    char next = (player == 'x') ? 'o' : 'x';
    int alpha = -INF, beta = INF;
    int best_value = 0, best_move = -1;

    /* the root: like search() but remembers which move was best; only a strictly
     * better value replaces the best move, so ties go to the earliest blank */
    for (int i = 0; i < 9; i++) {
        if (board[i] != '-')
            continue;
        board[i] = player;
        int v = search(board, next, 1, alpha, beta);
        add_visited(board, v);
        board[i] = '-';

        if (best_move < 0 || (player == 'x' ? v > best_value : v < best_value)) {
            best_value = v;
            best_move = i;
        }
        if (use_prune) {
            if (player == 'x' && best_value > alpha) alpha = best_value;
            if (player == 'o' && best_value < beta) beta = best_value;
        }
    }

    FILE *out = fopen(path, "w");
    if (out == NULL) {
        perror(path);
        return 3;
    }
    for (size_t i = 0; i < num_visited; i++)
        fprintf(out, "%s %d\n", visited[i].state, visited[i].value);
    if (fclose(out) != 0) {
        perror(path);
        return 3;
    }

    board[best_move] = player;
    printf("%s\n", board);
    free(visited);
    return 0;
}
