//! AI Assignment 1: tic-tac-toe with minimax, alpha-beta pruning and
//! early termination with E(s) = M(s) - O(s).
//!
//! Usage: tictactoe STATE PATH [prune [PLY]]

use std::env;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::process;

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

type Board = [u8; 9];

fn winner(b: &Board) -> Option<u8> {
    LINES
        .iter()
        .find(|l| b[l[0]] != b'-' && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]])
        .map(|l| b[l[0]])
}

fn has_line(b: &Board, piece: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&i| b[i] == piece))
}

fn is_terminal(b: &Board) -> bool {
    winner(b).is_some() || !b.contains(&b'-')
}

fn utility(b: &Board) -> i32 {
    match winner(b) {
        Some(b'x') => 1,
        Some(_) => -1,
        None => 0,
    }
}

/// E(s): lines Max can still complete minus lines Min can still complete.
fn evaluate(b: &Board) -> i32 {
    let open_for = |blocker: u8| {
        LINES
            .iter()
            .filter(|l| l.iter().all(|&i| b[i] != blocker))
            .count() as i32
    };
    open_for(b'o') - open_for(b'x')
}

fn other(player: u8) -> u8 {
    if player == b'x' {
        b'o'
    } else {
        b'x'
    }
}

struct Search {
    prune: bool,
    ply: Option<u32>,
    /// Nodes in the order they were reached; the value is patched in after
    /// the node's own subtree has been searched.
    visited: Vec<(Board, i32)>,
}

impl Search {
    /// Adds `child` to the visited list, searches it and returns its value.
    fn visit(&mut self, child: Board, to_move: u8, depth: u32, alpha: i32, beta: i32) -> i32 {
        let slot = self.visited.len();
        self.visited.push((child, 0));
        let v = self.value(child, to_move, depth, alpha, beta);
        self.visited[slot].1 = v;
        v
    }

    fn value(
        &mut self,
        mut b: Board,
        to_move: u8,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let terminal = is_terminal(&b);
        if let Some(ply) = self.ply {
            // early termination uses E(s) even for finished games
            if terminal || depth == ply {
                return evaluate(&b);
            }
        }
        if terminal {
            return utility(&b);
        }

        let maximising = to_move == b'x';
        let mut v = if maximising { i32::MIN } else { i32::MAX };
        for i in 0..9 {
            if b[i] != b'-' {
                continue;
            }
            b[i] = to_move;
            let child_value = self.visit(b, other(to_move), depth + 1, alpha, beta);
            b[i] = b'-';
            if maximising {
                v = v.max(child_value);
                if self.prune {
                    if v >= beta {
                        return v;
                    }
                    alpha = alpha.max(v);
                }
            } else {
                v = v.min(child_value);
                if self.prune {
                    if v <= alpha {
                        return v;
                    }
                    beta = beta.min(v);
                }
            }
        }
        v
    }

    /// The best successor of the root. Ties go to the earliest blank because
    /// only a strictly better value replaces the current best.
    fn best_move(&mut self, mut b: Board, player: u8) -> Board {
        let mut alpha = i32::MIN;
        let mut beta = i32::MAX;
        let mut best: Option<(Board, i32)> = None;
        for i in 0..9 {
            if b[i] != b'-' {
                continue;
            }
            b[i] = player;
            let v = self.visit(b, other(player), 1, alpha, beta);
            let better = match best {
                None => true,
                Some((_, bv)) => {
                    if player == b'x' {
                        v > bv
                    } else {
                        v < bv
                    }
                }
            };
            if better {
                best = Some((b, v));
            }
            b[i] = b'-';
            if self.prune {
                if player == b'x' {
                    alpha = alpha.max(v);
                } else {
                    beta = beta.min(v);
                }
            }
        }
        best.expect("a non-terminal board has a move").0
    }
}

fn die(message: &str) -> ! {
    eprintln!("error: {message}");
    process::exit(2);
}

fn write_visited(path: &str, visited: &[(Board, i32)]) -> io::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    for (board, value) in visited {
        out.write_all(board)?;
        writeln!(out, " {value}")?;
    }
    out.flush()
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    if args.len() < 2 || args.len() > 4 {
        die("usage: tictactoe STATE PATH [prune [PLY]]");
    }
    let state = &args[0];
    let path = &args[1];
    let prune = match args.get(2).map(String::as_str) {
        None => false,
        Some("prune") => true,
        Some(other) => die(&format!("expected `prune`, got `{other}`")),
    };
    let ply = match args.get(3) {
        None => None,
        Some(p) => match p.parse::<u32>() {
            Ok(n) if n > 0 && !p.starts_with('+') => Some(n),
            _ => die(&format!("PLY must be a positive integer, got `{p}`")),
        },
    };

    let board: Board = match <[u8; 9]>::try_from(state.as_bytes()) {
        Ok(b) if b.iter().all(|c| b"xo-".contains(c)) => b,
        _ => die(&format!(
            "invalid state `{state}` (need 9 characters of x, o, -)"
        )),
    };
    let xs = board.iter().filter(|&&c| c == b'x').count();
    let os = board.iter().filter(|&&c| c == b'o').count();
    let player = if xs == os {
        b'x'
    } else if xs == os + 1 {
        b'o'
    } else {
        die(&format!("impossible state `{state}` ({xs} x and {os} o)"))
    };
    // play stops at the first line of three, so no move can follow it
    let (x_line, o_line) = (has_line(&board, b'x'), has_line(&board, b'o'));
    if (x_line && o_line) || (x_line && player == b'x') || (o_line && player == b'o') {
        die(&format!("impossible state `{state}` (a move was made after the game was won)"));
    }

    if is_terminal(&board) {
        return; // no further moves: print nothing, write nothing
    }

    let mut search = Search {
        prune,
        ply,
        visited: Vec::new(),
    };
    let best = search.best_move(board, player);
    if let Err(e) = write_visited(path, &search.visited) {
        eprintln!("error: cannot write `{path}`: {e}");
        process::exit(3);
    }
    println!("{}", String::from_utf8_lossy(&best));
}
