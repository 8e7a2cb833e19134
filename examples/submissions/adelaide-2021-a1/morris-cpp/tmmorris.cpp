// AI Assignment 1, part 2: Three Men's Morris with alpha-beta minimax.
//
// Usage: ./tmmorris.bin STATE PATH PLY TURN
//
// Pieces move orthogonally (never diagonally); three in a row or column wins.
// A side whose turn it is with all three pieces placed and no step to make has lost.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace {

const int WIN = 1000;
const std::vector<std::vector<int>> NEIGHBOURS = {
    {1, 3}, {0, 2, 4}, {1, 5}, {0, 4, 6}, {1, 3, 5, 7}, {2, 4, 8}, {3, 7}, {4, 6, 8}, {5, 7}};
const int LINES[6][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}};
const int WEIGHT[4] = {1, 2, 5, 0};

char winner(const std::string &b) {
    for (const auto &l : LINES)
        if (b[l[0]] != '-' && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]]) return b[l[0]];
    return 0;
}

char other(char p) { return p == 'x' ? 'o' : 'x'; }

// Placements in raster order while fewer than three pieces are down; then steps
// ordered by the piece, then by the cell it steps to.
std::vector<std::string> successors(const std::string &b, char p) {
    std::vector<std::string> out;
    if (std::count(b.begin(), b.end(), p) < 3) {
        for (int i = 0; i < 9; i++)
            if (b[i] == '-') {
                std::string c = b;
                c[i] = p;
                out.push_back(c);
            }
        return out;
    }
    for (int f = 0; f < 9; f++) {
        if (b[f] != p) continue;
        for (int t : NEIGHBOURS[f])
            if (b[t] == '-') {
                std::string c = b;
                c[f] = '-';
                c[t] = p;
                out.push_back(c);
            }
    }
    return out;
}

int mobility(const std::string &b, char p) {
    int n = 0;
    for (int f = 0; f < 9; f++)
        if (b[f] == p)
            for (int t : NEIGHBOURS[f]) n += b[t] == '-';
    return n;
}

// Open lines weighted by how full they are, plus mobility; x's point of view.
int evaluate(const std::string &b) {
    int score = 0;
    for (const auto &l : LINES) {
        int xs = 0, os = 0;
        for (int i : l) {
            xs += b[i] == 'x';
            os += b[i] == 'o';
        }
        if (os == 0) score += WEIGHT[xs];
        if (xs == 0) score -= WEIGHT[os];
    }
    return score + mobility(b, 'x') - mobility(b, 'o');
}

class Search {
  public:
    explicit Search(int ply) : ply_(ply) {}

    std::string best_move(const std::string &b, char p) {
        int alpha = -2 * WIN, beta = 2 * WIN, best_value = 0;
        std::string best;
        for (const auto &child : successors(b, p)) {
            int v = visit(child, other(p), 1, alpha, beta);
            if (best.empty() || (p == 'x' ? v > best_value : v < best_value)) {
                best = child;
                best_value = v;
            }
            if (p == 'x') alpha = std::max(alpha, v);
            else beta = std::min(beta, v);
        }
        return best;
    }

    const std::vector<std::pair<std::string, int>> &visited() const { return visited_; }

  private:
    int ply_;
    std::vector<std::pair<std::string, int>> visited_;  // each node before its children

    int visit(const std::string &b, char p, int depth, int alpha, int beta) {
        size_t me = visited_.size();
        visited_.emplace_back(b, 0);
        int v = value(b, p, depth, alpha, beta);
        visited_[me].second = v;
        return v;
    }

    int value(const std::string &b, char p, int depth, int alpha, int beta) {
        char w = winner(b);
        if (w) return w == 'x' ? WIN - depth : depth - WIN;
        auto kids = successors(b, p);
        if (kids.empty()) return p == 'x' ? depth - WIN : WIN - depth;  // blocked: loses
        if (depth >= ply_) return evaluate(b);
        int best = p == 'x' ? -2 * WIN : 2 * WIN;
        for (const auto &child : kids) {
            int v = visit(child, other(p), depth + 1, alpha, beta);
            if (p == 'x') {
                best = std::max(best, v);
                if (best >= beta) return best;
                alpha = std::max(alpha, best);
            } else {
                best = std::min(best, v);
                if (best <= alpha) return best;
                beta = std::min(beta, best);
            }
        }
        return best;
    }
};

int fail(const std::string &message) {
    std::cerr << "error: " << message << "\n";
    return 2;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 5) return fail("usage: tmmorris.bin STATE PATH PLY TURN");
    std::string state = argv[1], path = argv[2], ply_text = argv[3], turn = argv[4];
    if (state.size() != 9 || state.find_first_not_of("xo-") != std::string::npos)
        return fail("bad state `" + state + "`");
    if (turn != "x" && turn != "o") return fail("turn must be x or o, not `" + turn + "`");
    int ply = 0;
    try {
        size_t used = 0;
        ply = std::stoi(ply_text, &used);
        if (used != ply_text.size()) ply = 0;
    } catch (const std::exception &) {
        ply = 0;
    }
    if (ply < 1) return fail("ply must be a positive integer, not `" + ply_text + "`");
    ply = std::min(ply, 60);
    if (std::count(state.begin(), state.end(), 'x') > 3 || std::count(state.begin(), state.end(), 'o') > 3)
        return fail("more than three pieces a side in `" + state + "`");
    char p = turn[0];
    if (winner(state) || successors(state, p).empty()) return 0;  // no further moves

    Search search(ply);
    std::string best = search.best_move(state, p);
    std::ofstream out(path);
    for (const auto &node : search.visited()) out << node.first << " " << node.second << "\n";
    out.close();
    std::cout << best << std::endl;
    return 0;
}
