import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

/**
 * CS4341 Project 1: tic-tac-toe against the computer, minimax with alpha-beta pruning.
 *
 * <p>You choose X or O (X moves first). Squares are numbered as on a numeric keypad: 7 8 9 on the top
 * row, 1 2 3 on the bottom; an empty square shows its number.
 */
public class TicTacToe {
    private static final int[][] LINES = {
        {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}
    };
    private static final int[] ORDER = {4, 0, 2, 6, 8, 1, 3, 5, 7};
    private static final char[] board = new char[9];

    /** The keypad key of a cell (row-major from the top left). */
    private static int key(int cell) {
        return 3 * (2 - cell / 3) + cell % 3 + 1;
    }

    private static char winner() {
        for (int[] l : LINES) {
            if (board[l[0]] != ' ' && board[l[0]] == board[l[1]] && board[l[1]] == board[l[2]]) {
                return board[l[0]];
            }
        }
        return 0;
    }

    private static boolean full() {
        for (char c : board) {
            if (c == ' ') {
                return false;
            }
        }
        return true;
    }

    private static int search(char me, char turn, int depth, int alpha, int beta) {
        char w = winner();
        if (w != 0) {
            return w == me ? 10 - depth : depth - 10;
        }
        if (full()) {
            return 0;
        }
        char next = turn == 'X' ? 'O' : 'X';
        int best = turn == me ? -100 : 100;
        for (int cell : ORDER) {
            if (board[cell] != ' ') {
                continue;
            }
            board[cell] = turn;
            int v = search(me, next, depth + 1, alpha, beta);
            board[cell] = ' ';
            if (turn == me) {
                best = Math.max(best, v);
                alpha = Math.max(alpha, best);
            } else {
                best = Math.min(best, v);
                beta = Math.min(beta, best);
            }
            if (alpha >= beta) {
                break;
            }
        }
        return best;
    }

    private static int computerMove(char me) {
        char other = me == 'X' ? 'O' : 'X';
        int choice = -1;
        int top = -1000;
        for (int cell : ORDER) {
            if (board[cell] == ' ') {
                board[cell] = me;
                int v = search(me, other, 1, -1000, 1000);
                board[cell] = ' ';
                if (v > top) {
                    top = v;
                    choice = cell;
                }
            }
        }
        return choice;
    }

    private static void show() {
        for (int r = 0; r < 3; r++) {
            StringBuilder row = new StringBuilder(" ");
            for (int c = 0; c < 3; c++) {
                int cell = 3 * r + c;
                row.append(board[cell] == ' ' ? Character.forDigit(key(cell), 10) : board[cell]);
                row.append(c < 2 ? " | " : "");
            }
            System.out.println(row);
            if (r < 2) {
                System.out.println("---+---+---");
            }
        }
    }

    private static String ask(BufferedReader in, String prompt) throws IOException {
        System.out.print(prompt);
        System.out.flush();
        String line = in.readLine();
        if (line == null) {
            System.exit(0);
        }
        return line.trim();
    }

    private static int humanMove(BufferedReader in) throws IOException {
        for (;;) {
            String text = ask(in, "Your move (keypad 1-9): ");
            if (text.length() == 1 && text.charAt(0) >= '1' && text.charAt(0) <= '9') {
                int k = text.charAt(0) - '0';
                int cell = 3 * (2 - (k - 1) / 3) + (k - 1) % 3;
                if (board[cell] == ' ') {
                    return cell;
                }
                System.out.println("That square is taken.");
            } else {
                System.out.println("Type a keypad number, 1 to 9.");
            }
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        char human;
        for (;;) {
            String a = ask(in, "Do you want X or O? ").toUpperCase();
            if (a.equals("X") || a.equals("O")) {
                human = a.charAt(0);
                break;
            }
            System.out.println("Answer X or O.");
        }
        char me = human == 'X' ? 'O' : 'X';
        java.util.Arrays.fill(board, ' ');
        char turn = 'X';
        show();
        while (winner() == 0 && !full()) {
            if (turn == human) {
                board[humanMove(in)] = human;
            } else {
                int cell = computerMove(me);
                board[cell] = me;
                System.out.println("Computer: " + key(cell));
            }
            show();
            turn = turn == 'X' ? 'O' : 'X';
        }
        char w = winner();
        System.out.println(w == 0 ? "Tie game." : w == human ? "You win!" : "I win!");
    }
}
