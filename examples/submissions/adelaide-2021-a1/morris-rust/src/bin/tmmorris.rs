//! AI Assignment 1, part 2: Three Men's Morris with alpha-beta minimax.
//!
//! Usage: tmmorris STATE PATH PLY TURN
//!
//! Pieces move orthogonally (never diagonally); three in a row or column wins. A side whose turn it
//! is with all three pieces placed and no step to make has lost.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::exit;

const WIN: i32 = 1000;
const NEIGHBOURS: [&[usize]; 9] = [
    &[1, 3],
    &[0, 2, 4],
    &[1, 5],
    &[0, 4, 6],
    &[1, 3, 5, 7],
    &[2, 4, 8],
    &[3, 7],
    &[4, 6, 8],
    &[5, 7],
];
const LINES: [[usize; 3]; 6] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8]];
const WEIGHT: [i32; 4] = [1, 2, 5, 0];

type Board = [u8; 9];

fn winner(b: &Board) -> Option<u8> {
    LINES
        .iter()
        .find(|l| b[l[0]] != b'-' && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]])
        .map(|l| b[l[0]])
}

fn other(p: u8) -> u8 {
    if p == b'x' {
        b'o'
    } else {
        b'x'
    }
}

/// Placements in raster order while fewer than three pieces are down; then steps ordered by the
/// piece, then by the cell it steps to.
fn successors(b: &Board, p: u8) -> Vec<Board> {
    let mut out = Vec::new();
    if b.iter().filter(|&&c| c == p).count() < 3 {
        for i in 0..9 {
            if b[i] == b'-' {
                let mut c = *b;
                c[i] = p;
                out.push(c);
            }
        }
        return out;
    }
    for f in 0..9 {
        if b[f] != p {
            continue;
        }
        for &t in NEIGHBOURS[f] {
            if b[t] == b'-' {
                let mut c = *b;
                c[f] = b'-';
                c[t] = p;
                out.push(c);
            }
        }
    }
    out
}

fn mobility(b: &Board, p: u8) -> i32 {
    (0..9)
        .filter(|&f| b[f] == p)
        .map(|f| NEIGHBOURS[f].iter().filter(|&&t| b[t] == b'-').count() as i32)
        .sum()
}

/// Open lines weighted by how full they are, plus mobility; x's point of view.
fn evaluate(b: &Board) -> i32 {
    let mut score = 0;
    for l in &LINES {
        let xs = l.iter().filter(|&&i| b[i] == b'x').count();
        let os = l.iter().filter(|&&i| b[i] == b'o').count();
        if os == 0 {
            score += WEIGHT[xs];
        }
        if xs == 0 {
            score -= WEIGHT[os];
        }
    }
    score + mobility(b, b'x') - mobility(b, b'o')
}

struct Search {
    ply: i32,
    /// Each node before its children; the value is filled in after them.
    visited: Vec<(Board, i32)>,
}

impl Search {
    fn visit(&mut self, b: &Board, p: u8, depth: i32, alpha: i32, beta: i32) -> i32 {
        let me = self.visited.len();
        self.visited.push((*b, 0));
        let v = self.value(b, p, depth, alpha, beta);
        self.visited[me].1 = v;
        v
    }

    fn value(&mut self, b: &Board, p: u8, depth: i32, mut alpha: i32, mut beta: i32) -> i32 {
        if let Some(w) = winner(b) {
            return if w == b'x' { WIN - depth } else { depth - WIN };
        }
        let kids = successors(b, p);
        if kids.is_empty() {
            // Blocked: the side to move loses.
            return if p == b'x' { depth - WIN } else { WIN - depth };
        }
        if depth >= self.ply {
            return evaluate(b);
        }
        let mut best = if p == b'x' { -2 * WIN } else { 2 * WIN };
        for child in &kids {
            let v = self.visit(child, other(p), depth + 1, alpha, beta);
            if p == b'x' {
                best = best.max(v);
                if best >= beta {
                    return best;
                }
                alpha = alpha.max(best);
            } else {
                best = best.min(v);
                if best <= alpha {
                    return best;
                }
                beta = beta.min(best);
            }
        }
        best
    }

    fn best_move(&mut self, b: &Board, p: u8) -> Option<Board> {
        let (mut alpha, mut beta) = (-2 * WIN, 2 * WIN);
        let mut best: Option<(Board, i32)> = None;
        for child in successors(b, p) {
            let v = self.visit(&child, other(p), 1, alpha, beta);
            let better = match best {
                None => true,
                Some((_, bv)) => {
                    if p == b'x' {
                        v > bv
                    } else {
                        v < bv
                    }
                }
            };
            if better {
                best = Some((child, v));
            }
            if p == b'x' {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
        }
        best.map(|(b, _)| b)
    }
}

fn fail(message: String) -> ! {
    eprintln!("error: {message}");
    exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        fail("usage: tmmorris STATE PATH PLY TURN".into());
    }
    let (state, path, ply_text, turn) = (&args[1], &args[2], &args[3], &args[4]);
    let board: Board = match state.as_bytes().try_into() {
        Ok(b) if state.bytes().all(|c| matches!(c, b'x' | b'o' | b'-')) => b,
        _ => fail(format!("bad state `{state}`")),
    };
    let p = match turn.as_str() {
        "x" => b'x',
        "o" => b'o',
        _ => fail(format!("turn must be x or o, not `{turn}`")),
    };
    let ply: i32 = match ply_text.parse() {
        Ok(n) if n >= 1 => n,
        _ => fail(format!("ply must be a positive integer, not `{ply_text}`")),
    };
    if board.iter().filter(|&&c| c == b'x').count() > 3 || board.iter().filter(|&&c| c == b'o').count() > 3 {
        fail(format!("more than three pieces a side in `{state}`"));
    }
    if winner(&board).is_some() || successors(&board, p).is_empty() {
        return; // no further moves: print nothing, write nothing
    }
    let mut search = Search {
        ply: ply.min(60),
        visited: Vec::new(),
    };
    let Some(best) = search.best_move(&board, p) else { return };
    let file = File::create(path).unwrap_or_else(|e| fail(format!("cannot write `{path}`: {e}")));
    let mut out = BufWriter::new(file);
    for (b, v) in &search.visited {
        writeln!(out, "{} {v}", String::from_utf8_lossy(b)).unwrap_or_else(|e| fail(format!("cannot write `{path}`: {e}")));
    }
    out.flush().unwrap_or_else(|e| fail(format!("cannot write `{path}`: {e}")));
    println!("{}", String::from_utf8_lossy(&best));
}
