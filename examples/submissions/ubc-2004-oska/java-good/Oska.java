import java.util.ArrayList;
import java.util.List;

/**
 * Oska player for CPSC 322 (2004), in the shape of the predicate oskamaniac(Board, Colour, Depth, Next).
 *
 * <pre>java Oska BOARD COLOUR DEPTH</pre>
 *
 * BOARD is the handout's list of rows, COLOUR w or b (the side to move), DEPTH how many moves MiniMax
 * looks ahead. Prints the board after the best move; with no legal move the side loses its turn and the
 * board is printed unchanged. Any n >= 4.
 *
 * Rows are centred: square i of a row of k squares sits at x = 2i - (k - 1). A step goes one row forward
 * (down for w, up for b) to x +- 1; a jump two rows to x +- 2, over an enemy piece at x +- 1.
 */
public class Oska {
    static final int WIN = 10000;

    static char[][] parse(String text) {
        String s = text.replaceAll("\\s", "");
        if (!s.startsWith("[[") || !s.endsWith("]]")) {
            throw new IllegalArgumentException("not a board: " + text);
        }
        String[] rows = s.substring(2, s.length() - 2).split("\\],\\[");
        char[][] board = new char[rows.length][];
        for (int r = 0; r < rows.length; r++) {
            String[] cells = rows[r].split(",");
            board[r] = new char[cells.length];
            for (int i = 0; i < cells.length; i++) {
                board[r][i] = cells[i].charAt(0);
            }
        }
        return board;
    }

    static String show(char[][] b) {
        StringBuilder sb = new StringBuilder("[");
        for (int r = 0; r < b.length; r++) {
            sb.append(r == 0 ? "[" : ",[");
            for (int i = 0; i < b[r].length; i++) {
                if (i > 0) sb.append(',');
                sb.append(b[r][i]);
            }
            sb.append(']');
        }
        return sb.append(']').toString();
    }

    static char other(char c) {
        return c == 'w' ? 'b' : 'w';
    }

    // ---- move generation ----

    static int squareAt(char[][] b, int r, int x) {
        if (r < 0 || r >= b.length) return -1;
        int j2 = x + b[r].length - 1;
        if (j2 < 0 || j2 % 2 != 0 || j2 / 2 >= b[r].length) return -1;
        return j2 / 2;
    }

    static char[][] copy(char[][] b) {
        char[][] c = new char[b.length][];
        for (int r = 0; r < b.length; r++) c[r] = b[r].clone();
        return c;
    }

    static List<char[][]> successors(char[][] b, char c) {
        int f = c == 'w' ? 1 : -1;
        List<char[][]> out = new ArrayList<>();
        for (int r = 0; r < b.length; r++) {
            for (int i = 0; i < b[r].length; i++) {
                if (b[r][i] != c) continue;
                int x = 2 * i - (b[r].length - 1);
                for (int dx = -1; dx <= 1; dx += 2) {
                    int j = squareAt(b, r + f, x + dx);
                    if (j < 0) continue;
                    if (b[r + f][j] == 'e') {
                        char[][] n = copy(b);
                        n[r][i] = 'e';
                        n[r + f][j] = c;
                        out.add(n);
                    } else if (b[r + f][j] == other(c)) {
                        int j2 = squareAt(b, r + 2 * f, x + 2 * dx);
                        if (j2 >= 0 && b[r + 2 * f][j2] == 'e') {
                            char[][] n = copy(b);
                            n[r][i] = 'e';
                            n[r + f][j] = 'e';
                            n[r + 2 * f][j2] = c;
                            out.add(n);
                        }
                    }
                }
            }
        }
        return out;
    }

    // ---- board evaluation (static) ----

    static int count(char[][] b, char c) {
        int n = 0;
        for (char[] row : b) for (char x : row) if (x == c) n++;
        return n;
    }

    static boolean allHome(char[][] b, char c) {
        char[] goal = c == 'w' ? b[b.length - 1] : b[0];
        int home = 0;
        for (char x : goal) if (x == c) home++;
        int n = count(b, c);
        return n > 0 && home == n;
    }

    /** 'w', 'b', 'd' for a draw, or 0 while the game goes on. */
    static char winner(char[][] b) {
        int nw = count(b, 'w'), nb = count(b, 'b');
        if (nb == 0) return 'w';
        if (nw == 0) return 'b';
        boolean hw = allHome(b, 'w'), hb = allHome(b, 'b');
        if (hw && hb) return nw > nb ? 'w' : nb > nw ? 'b' : 'd';
        if (hw) return 'w';
        if (hb) return 'b';
        return 0;
    }

    static int rowsToGo(char[][] b, char c) {
        int t = 0;
        for (int r = 0; r < b.length; r++)
            for (char x : b[r]) if (x == c) t += c == 'w' ? b.length - 1 - r : r;
        return t;
    }

    static int evaluate(char[][] b, char me) {
        char w = winner(b);
        if (w == me) return WIN;
        if (w == other(me)) return -WIN;
        if (w == 'd') return 0;
        return rowsToGo(b, other(me)) - rowsToGo(b, me);
    }

    // ---- MiniMax ----

    static int minimax(char[][] b, char toMove, char me, int depth) {
        if (depth == 0 || winner(b) != 0) return evaluate(b, me);
        List<char[][]> next = successors(b, toMove);
        if (next.isEmpty()) next.add(b); // no move: the side loses its turn
        int best = 0;
        for (int k = 0; k < next.size(); k++) {
            int v = minimax(next.get(k), other(toMove), me, depth - 1);
            if (k == 0 || (toMove == me ? v > best : v < best)) best = v;
        }
        return best;
    }

    public static void main(String[] args) {
        if (args.length != 3 || !(args[1].equals("w") || args[1].equals("b"))) {
            System.err.println("usage: java Oska BOARD w|b DEPTH");
            System.exit(2);
        }
        char[][] board = parse(args[0]);
        char me = args[1].charAt(0);
        int depth = Math.max(1, Integer.parseInt(args[2]));
        List<char[][]> next = successors(board, me);
        if (next.isEmpty()) {
            System.out.println(show(board));
            return;
        }
        char[][] best = null;
        int bestValue = 0;
        for (char[][] n : next) {
            int v = minimax(n, other(me), me, depth - 1);
            if (best == null || v > bestValue) {
                best = n;
                bestValue = v;
            }
        }
        System.out.println(show(best));
    }
}
