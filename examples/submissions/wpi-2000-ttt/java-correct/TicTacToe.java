// CS4341 Project 1: tic-tac-toe against the computer, minimax with alpha-beta pruning.
//
// Interface: answer X or O when asked (X moves first); type each move as its row and column,
// 1 to 3, separated by a space ("2 3" is row 2, column 3). The board is shown after every move.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class TicTacToe {
    static final int[][] LINES = {
        {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}
    };
    // Heuristic move order: centre, corners, edges.
    static final int[] ORDER = {4, 0, 2, 6, 8, 1, 3, 5, 7};

    final char[] board = "         ".toCharArray();
    final BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    int bestMove;

    char winner() {
        for (int[] l : LINES) {
            char a = board[l[0]];
            if (a != ' ' && a == board[l[1]] && a == board[l[2]]) return a;
        }
        return 0;
    }

    boolean full() {
        for (char c : board) if (c == ' ') return false;
        return true;
    }

    static char other(char m) {
        return m == 'X' ? 'O' : 'X';
    }

    int alphaBeta(char turn, char me, int depth, int alpha, int beta) {
        char w = winner();
        if (w != 0) return w == me ? 10 - depth : depth - 10;
        if (full()) return 0;
        int value = turn == me ? -100 : 100;
        int best = -1;
        for (int cell : ORDER) {
            if (board[cell] != ' ') continue;
            board[cell] = turn;
            int v = alphaBeta(other(turn), me, depth + 1, alpha, beta);
            board[cell] = ' ';
            if (turn == me ? v > value : v < value) {
                value = v;
                best = cell;
            }
            if (turn == me) alpha = Math.max(alpha, value);
            else beta = Math.min(beta, value);
            if (alpha >= beta) break;
        }
        if (depth == 0) bestMove = best;
        return value;
    }

    void show() {
        StringBuilder s = new StringBuilder("\n    1   2   3\n");
        for (int r = 0; r < 3; r++) {
            s.append(String.format(" %d  %c | %c | %c%n", r + 1, board[3 * r], board[3 * r + 1], board[3 * r + 2]));
            if (r < 2) s.append("   ---+---+---\n");
        }
        System.out.println(s);
    }

    String ask(String prompt) throws IOException {
        System.out.print(prompt);
        System.out.flush();
        String line = in.readLine();
        if (line == null) System.exit(0);
        return line.trim();
    }

    int readMove() throws IOException {
        while (true) {
            String[] parts = ask("Where do you play? (row column): ").split("[\\s,]+");
            int row, col;
            try {
                if (parts.length != 2) throw new NumberFormatException();
                row = Integer.parseInt(parts[0]);
                col = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                System.out.println("Type a row and a column, for example 2 3.");
                continue;
            }
            if (row < 1 || row > 3 || col < 1 || col > 3) {
                System.out.println("Rows and columns are numbered 1 to 3.");
                continue;
            }
            int cell = 3 * (row - 1) + col - 1;
            if (board[cell] != ' ') {
                System.out.println("That square is taken.");
                continue;
            }
            return cell;
        }
    }

    void play() throws IOException {
        System.out.println("Tic-tac-toe: three in a row wins. X moves first.");
        char human;
        while (true) {
            String a = ask("Do you want to be 'X' or 'O'? ").toUpperCase();
            if (a.equals("X") || a.equals("O")) {
                human = a.charAt(0);
                break;
            }
            System.out.println("Answer X or O.");
        }
        char me = other(human);
        char turn = 'X';
        show();
        while (winner() == 0 && !full()) {
            if (turn == human) {
                board[readMove()] = human;
            } else {
                alphaBeta(me, me, 0, -100, 100);
                board[bestMove] = me;
                System.out.println("My move: " + (bestMove / 3 + 1) + " " + (bestMove % 3 + 1));
            }
            show();
            turn = other(turn);
        }
        char w = winner();
        if (w == 0) System.out.println("Draw: nobody wins.");
        else System.out.println(w + " wins" + (w == me ? " - I win!" : " - you win!"));
        System.out.flush();
    }

    public static void main(String[] args) throws IOException {
        new TicTacToe().play();
    }
}
