// CS4341 Project 1: tic-tac-toe against the computer, minimax with alpha-beta pruning.
//
// You always move first, as X, by the number of a square (1-9, row by row). No board is shown before
// your first move; after each of the computer's moves the board is shown.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

const int LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
const int ORDER[9] = {4, 0, 2, 6, 8, 1, 3, 5, 7};
char board[9];

char winner() {
    for (const auto &l : LINES)
        if (board[l[0]] != ' ' && board[l[0]] == board[l[1]] && board[l[1]] == board[l[2]]) return board[l[0]];
    return 0;
}

bool full() {
    for (char c : board)
        if (c == ' ') return false;
    return true;
}

// Value for O (the computer) of the position with `turn` to play.
int search(char turn, int depth, int alpha, int beta) {
    char w = winner();
    if (w) return w == 'O' ? 10 - depth : depth - 10;
    if (full()) return 0;
    int best = turn == 'O' ? -100 : 100;
    for (int cell : ORDER) {
        if (board[cell] != ' ') continue;
        board[cell] = turn;
        int v = search(turn == 'O' ? 'X' : 'O', depth + 1, alpha, beta);
        board[cell] = ' ';
        if (turn == 'O') {
            best = std::max(best, v);
            alpha = std::max(alpha, best);
        } else {
            best = std::min(best, v);
            beta = std::min(beta, best);
        }
        if (alpha >= beta) break;
    }
    return best;
}

int computer_move() {
    int choice = -1, top = -1000;
    for (int cell : ORDER) {
        if (board[cell] != ' ') continue;
        board[cell] = 'O';
        int v = search('X', 1, -1000, 1000);
        board[cell] = ' ';
        if (v > top) {
            top = v;
            choice = cell;
        }
    }
    return choice;
}

void show() {
    for (int r = 0; r < 3; r++) {
        std::cout << board[3 * r] << '|' << board[3 * r + 1] << '|' << board[3 * r + 2] << '\n';
        if (r < 2) std::cout << "-+-+-\n";
    }
}

int human_move() {
    for (;;) {
        std::cout << "Enter a square (1-9): " << std::flush;
        std::string line;
        if (!std::getline(std::cin, line)) std::exit(0);
        if (line.size() == 1 && line[0] >= '1' && line[0] <= '9') {
            int cell = line[0] - '1';
            if (board[cell] == ' ') return cell;
            std::cout << "That square is taken.\n";
        } else {
            std::cout << "Type a number from 1 to 9.\n";
        }
    }
}

}  // namespace

int main() {
    std::cout << "You are X and you start. Squares are numbered 1 to 9, row by row." << std::endl;
    for (char &c : board) c = ' ';
    while (!winner() && !full()) {
        board[human_move()] = 'X';
        if (winner() || full()) break;
        board[computer_move()] = 'O';
        show();
    }
    show();
    char w = winner();
    std::cout << (w == 'X' ? "You won!" : w == 'O' ? "The computer won." : "Draw.") << std::endl;
    return 0;
}
