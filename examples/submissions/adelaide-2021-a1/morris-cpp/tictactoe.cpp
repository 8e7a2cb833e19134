// AI Assignment 1 - tic-tac-toe using minimax (+ alpha-beta, + evaluation cut-off)
// Written following the MAX-VALUE / MIN-VALUE functions from the AIMA textbook.
//
//   ./tictactoe.bin STATE PATH [prune [PLY]]

#include <climits>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

const int kLines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                          {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

struct VisitedNode {
    std::string state;
    int value;
};

class TicTacToe {
  public:
    TicTacToe(bool prune, int ply) : prune_(prune), ply_(ply) {}

    // Returns the board after the best move for `player`.
    std::string decide(const std::string& root, char player) {
        std::string best;
        int bestValue = 0;
        int alpha = INT_MIN, beta = INT_MAX;
        for (int i = 0; i < 9; ++i) {
            if (root[i] != '-') continue;
            std::string child = root;
            child[i] = player;
            int v = (player == 'x') ? childValue(child, 'o', 1, alpha, beta)
                                    : childValue(child, 'x', 1, alpha, beta);
            // strict comparison: on a tie the earlier blank stays the best move
            if (best.empty() || (player == 'x' ? v > bestValue : v < bestValue)) {
                best = child;
                bestValue = v;
            }
            if (prune_) {
                if (player == 'x') alpha = std::max(alpha, bestValue);
                else beta = std::min(beta, bestValue);
            }
        }
        return best;
    }

    const std::vector<VisitedNode>& visited() const { return visited_; }

    static char winner(const std::string& s) {
        for (const auto& line : kLines) {
            if (s[line[0]] != '-' && s[line[0]] == s[line[1]] && s[line[1]] == s[line[2]])
                return s[line[0]];
        }
        return ' ';
    }

    static bool hasLine(const std::string& s, char piece) {
        for (const auto& line : kLines) {
            if (s[line[0]] == piece && s[line[1]] == piece && s[line[2]] == piece) return true;
        }
        return false;
    }

    static bool gameOver(const std::string& s) {
        return winner(s) != ' ' || s.find('-') == std::string::npos;
    }

  private:
    bool prune_;
    int ply_;  // 0 = no limit
    std::vector<VisitedNode> visited_;

    // Records the child in the visited list (before its own children, so the
    // file is in the order nodes were reached) then searches it.
    int childValue(const std::string& child, char toMove, int depth, int alpha, int beta) {
        std::size_t index = visited_.size();
        visited_.push_back({child, 0});
        int v = (toMove == 'x') ? maxValue(child, depth, alpha, beta)
                                : minValue(child, depth, alpha, beta);
        visited_[index].value = v;
        return v;
    }

    bool cutoff(const std::string& s, int depth) const {
        return gameOver(s) || (ply_ > 0 && depth >= ply_);
    }

    // Utility of a leaf: the real result, or E(s) when the ply limit is in use
    // (the handout says to use E(s) even for finished games in that case).
    int leafValue(const std::string& s) const {
        if (ply_ > 0) return evaluate(s);
        char w = winner(s);
        if (w == 'x') return 1;
        if (w == 'o') return -1;
        return 0;
    }

    static int evaluate(const std::string& s) {
        int maxLines = 0, minLines = 0;
        for (const auto& line : kLines) {
            bool blockedForMax = false, blockedForMin = false;
            for (int k = 0; k < 3; ++k) {
                if (s[line[k]] == 'o') blockedForMax = true;
                if (s[line[k]] == 'x') blockedForMin = true;
            }
            if (!blockedForMax) ++maxLines;
            if (!blockedForMin) ++minLines;
        }
        return maxLines - minLines;
    }

    int maxValue(const std::string& s, int depth, int alpha, int beta) {
        if (cutoff(s, depth)) return leafValue(s);
        int v = INT_MIN;
        for (int i = 0; i < 9; ++i) {
            if (s[i] != '-') continue;
            std::string child = s;
            child[i] = 'x';
            v = std::max(v, childValue(child, 'o', depth + 1, alpha, beta));
            if (prune_) {
                if (v >= beta) return v;
                alpha = std::max(alpha, v);
            }
        }
        return v;
    }

    int minValue(const std::string& s, int depth, int alpha, int beta) {
        if (cutoff(s, depth)) return leafValue(s);
        int v = INT_MAX;
        for (int i = 0; i < 9; ++i) {
            if (s[i] != '-') continue;
            std::string child = s;
            child[i] = 'o';
            v = std::min(v, childValue(child, 'x', depth + 1, alpha, beta));
            if (prune_) {
                if (v <= alpha) return v;
                beta = std::min(beta, v);
            }
        }
        return v;
    }
};

int usage() {
    std::cerr << "usage: ./tictactoe.bin STATE PATH [prune [PLY]]" << std::endl;
    return 2;
}

}  // namespace

int main(int argc, char* argv[]) {
    if (argc < 3 || argc > 5) return usage();
    std::string state = argv[1];
    std::string path = argv[2];
    bool prune = false;
    int ply = 0;
    if (argc >= 4) {
        if (std::string(argv[3]) != "prune") {
            std::cerr << "error: expected 'prune' but got '" << argv[3] << "'" << std::endl;
            return usage();
        }
        prune = true;
    }
    if (argc == 5) {
        std::string p = argv[4];
        bool digits = !p.empty() && p.size() <= 4 && p.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || std::stoi(p) <= 0) {
            std::cerr << "error: PLY must be a positive integer, got '" << p << "'" << std::endl;
            return 2;
        }
        ply = std::stoi(p);
    }

    if (state.size() != 9 || state.find_first_not_of("xo-") != std::string::npos) {
        std::cerr << "error: invalid state '" << state << "' (need 9 characters of x, o, -)" << std::endl;
        return 2;
    }
    int xs = 0, os = 0;
    for (char c : state) {
        if (c == 'x') ++xs;
        if (c == 'o') ++os;
    }
    if (xs != os && xs != os + 1) {
        std::cerr << "error: impossible state '" << state << "': " << xs << " x and " << os << " o" << std::endl;
        return 2;
    }

    // after a win nobody moves again, so these boards can't come up in a real game
    bool xLine = TicTacToe::hasLine(state, 'x'), oLine = TicTacToe::hasLine(state, 'o');
    if ((xLine && oLine) || (xLine && xs == os) || (oLine && xs == os + 1)) {
        std::cerr << "error: impossible state '" << state << "': a move was made after the game was won" << std::endl;
        return 2;
    }

    // game already finished: nothing to print or write
    if (TicTacToe::gameOver(state)) return 0;

    char player = (xs == os) ? 'x' : 'o';
    TicTacToe game(prune, ply);
    std::string best = game.decide(state, player);

    std::ofstream out(path);
    if (!out) {
        std::cerr << "error: cannot open '" << path << "' for writing" << std::endl;
        return 3;
    }
    for (const auto& node : game.visited()) out << node.state << ' ' << node.value << '\n';
    out.close();
    if (!out) {
        std::cerr << "error: failed writing '" << path << "'" << std::endl;
        return 3;
    }

    std::cout << best << std::endl;
    return 0;
}
