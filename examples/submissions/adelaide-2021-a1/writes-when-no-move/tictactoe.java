import java.io.BufferedWriter;
import java.io.FileWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * AI Assignment 1: tic-tac-toe with minimax, alpha-beta pruning and an
 * evaluation-function cut-off.
 *
 * Usage: java tictactoe STATE PATH [prune [PLY]]
 */
public class tictactoe {

    private static final int[][] LINES = {
        {0, 1, 2}, {3, 4, 5}, {6, 7, 8},
        {0, 3, 6}, {1, 4, 7}, {2, 5, 8},
        {0, 4, 8}, {2, 4, 6}
    };

    /** A visited node; the value is filled in once its subtree is searched. */
    private static class Node {
        final String state;
        int value;

        Node(String state) {
            this.state = state;
        }
    }

    private final boolean prune;
    private final int ply; // 0 means no depth limit
    private final List<Node> visited = new ArrayList<>();

    tictactoe(boolean prune, int ply) {
        this.prune = prune;
        this.ply = ply;
    }

    static char winner(char[] b) {
        for (int[] line : LINES) {
            char c = b[line[0]];
            if (c != '-' && c == b[line[1]] && c == b[line[2]]) {
                return c;
            }
        }
        return '-';
    }

    static boolean hasLine(char[] b, char piece) {
        for (int[] line : LINES) {
            if (b[line[0]] == piece && b[line[1]] == piece && b[line[2]] == piece) {
                return true;
            }
        }
        return false;
    }

    static boolean isFull(char[] b) {
        for (char c : b) {
            if (c == '-') {
                return false;
            }
        }
        return true;
    }

    static boolean isTerminal(char[] b) {
        return winner(b) != '-' || isFull(b);
    }

    /** E(s) = M(s) - O(s). */
    static int evaluate(char[] b) {
        int m = 0;
        int o = 0;
        for (int[] line : LINES) {
            boolean xFree = true;
            boolean oFree = true;
            for (int cell : line) {
                if (b[cell] == 'o') {
                    xFree = false;
                } else if (b[cell] == 'x') {
                    oFree = false;
                }
            }
            if (xFree) {
                m++;
            }
            if (oFree) {
                o++;
            }
        }
        return m - o;
    }

    /**
     * Minimax value of board b with `turn` to move, `depth` moves from the root.
     * alpha/beta are only used when pruning is on.
     */
    int value(char[] b, char turn, int depth, int alpha, int beta) {
        boolean terminal = isTerminal(b);
        if (ply > 0 && (terminal || depth == ply)) {
            return evaluate(b);
        }
        if (terminal) {
            char w = winner(b);
            return w == 'x' ? 1 : (w == 'o' ? -1 : 0);
        }
        boolean isMax = turn == 'x';
        char other = isMax ? 'o' : 'x';
        int v = isMax ? Integer.MIN_VALUE : Integer.MAX_VALUE;
        for (int i = 0; i < 9; i++) {
            if (b[i] != '-') {
                continue;
            }
            b[i] = turn;
            Node node = new Node(new String(b));
            visited.add(node); // listed before its children
            node.value = value(b, other, depth + 1, alpha, beta);
            b[i] = '-';

            if (isMax) {
                v = Math.max(v, node.value);
                if (prune) {
                    if (v >= beta) {
                        return v;
                    }
                    alpha = Math.max(alpha, v);
                }
            } else {
                v = Math.min(v, node.value);
                if (prune) {
                    if (v <= alpha) {
                        return v;
                    }
                    beta = Math.min(beta, v);
                }
            }
        }
        return v;
    }

    /** Picks the best move from the root; ties go to the earliest blank. */
    String bestMove(char[] b, char turn) {
        boolean isMax = turn == 'x';
        char other = isMax ? 'o' : 'x';
        int alpha = Integer.MIN_VALUE;
        int beta = Integer.MAX_VALUE;
        String best = null;
        int bestValue = 0;
        for (int i = 0; i < 9; i++) {
            if (b[i] != '-') {
                continue;
            }
            b[i] = turn;
            Node node = new Node(new String(b));
            visited.add(node);
            node.value = value(b, other, 1, alpha, beta);
            b[i] = '-';
            if (best == null || (isMax ? node.value > bestValue : node.value < bestValue)) {
                best = node.state;
                bestValue = node.value;
            }
            if (prune) {
                if (isMax) {
                    alpha = Math.max(alpha, bestValue);
                } else {
                    beta = Math.min(beta, bestValue);
                }
            }
        }
        return best;
    }

    void writeVisited(String path) throws IOException {
        try (BufferedWriter out = new BufferedWriter(new FileWriter(path))) {
            for (Node n : visited) {
                out.write(n.state);
                out.write(' ');
                out.write(Integer.toString(n.value));
                out.write('\n');
            }
        }
    }

    private static void fail(String message, int code) {
        System.err.println("error: " + message);
        System.exit(code);
    }

    public static void main(String[] args) {
        if (args.length < 2 || args.length > 4) {
            fail("usage: java tictactoe STATE PATH [prune [PLY]]", 2);
        }
        String state = args[0];
        String path = args[1];
        boolean prune = false;
        int ply = 0;
        if (args.length >= 3) {
            if (!args[2].equals("prune")) {
                fail("expected 'prune' but got '" + args[2] + "'", 2);
            }
            prune = true;
        }
        if (args.length == 4) {
            try {
                ply = Integer.parseInt(args[3]);
            } catch (NumberFormatException e) {
                ply = -1;
            }
            if (ply <= 0) {
                fail("PLY must be a positive integer, got '" + args[3] + "'", 2);
            }
        }

        if (!state.matches("[xo-]{9}")) {
            fail("invalid state '" + state + "' (9 characters of x, o and -)", 2);
        }
        char[] board = state.toCharArray();
        int xs = 0;
        int os = 0;
        for (char c : board) {
            if (c == 'x') {
                xs++;
            } else if (c == 'o') {
                os++;
            }
        }
        if (xs != os && xs != os + 1) {
            fail("impossible state '" + state + "' (" + xs + " x, " + os + " o)", 2);
        }
        // the game stops at the first line of three, so nobody can have moved after it
        boolean xLine = hasLine(board, 'x');
        boolean oLine = hasLine(board, 'o');
        if ((xLine && oLine) || (xLine && xs == os) || (oLine && xs == os + 1)) {
            fail("impossible state '" + state + "' (a move was made after the game was won)", 2);
        }

        char turn = xs == os ? 'x' : 'o';
        tictactoe game = new tictactoe(prune, ply);
        String best = game.bestMove(board, turn);
        try {
            game.writeVisited(path);
        } catch (IOException e) {
            fail("cannot write '" + path + "': " + e.getMessage(), 3);
        }
        System.out.println(best);
    }
}
