//! Oska's `minimax:D`: alpha-beta (negamax) to depth D with iterative deepening and a transposition
//! table, so deep searches stay cheap.
//!
//! Oska positions recur through many move orders (pieces advance independently), and at n = 4 a
//! search of 10 or more plies from the middle game reaches the end, where the table turns it into an
//! exact solver of what remains. The values are those of plain alpha-beta at the same depth; only the
//! work and, among equal-valued moves, the one played differ. The root's moves are shuffled by the seed
//! and each deepening re-sorts them by the last values (stably), so ties vary from game to game but
//! never between runs.

use std::collections::HashMap;

use crate::bots::minimax::terminal_value;
use crate::bots::{Bot, Playable, WIN};
use crate::game::{Game, Player};
use crate::games::{Oska, OskaMove};
use crate::rng::Rng;

/// Values beyond this are wins or losses a known number of plies away.
const MATE: i32 = WIN / 2;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true value is at least the stored one (the search was cut off above `beta`).
    Lower,
    /// The true value is at most the stored one (every move failed low).
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    value: i32,
    bound: Bound,
    best: OskaMove,
}

type Key = (u128, u128, bool);

fn key(g: &Oska) -> Key {
    (
        g.piece_mask(Player::First),
        g.piece_mask(Player::Second),
        g.to_move() == Player::Second,
    )
}

/// Win and loss values count plies from the root; the table stores them counted from the position.
fn to_table(v: i32, ply: u32) -> i32 {
    if v > MATE {
        v + ply as i32
    } else if v < -MATE {
        v - ply as i32
    } else {
        v
    }
}

fn from_table(v: i32, ply: u32) -> i32 {
    if v > MATE {
        v - ply as i32
    } else if v < -MATE {
        v + ply as i32
    } else {
        v
    }
}

/// One search: its table lives as long as one move's deepening.
pub(crate) struct Search {
    table: HashMap<Key, Entry>,
    /// Positions searched (for benchmarks and tests).
    pub(crate) nodes: u64,
}

impl Search {
    pub(crate) fn new() -> Search {
        Search {
            table: HashMap::new(),
            nodes: 0,
        }
    }

    /// The negamax value of `g` (not over) for its side to move, searched `depth` plies; exact inside
    /// `(alpha, beta)`, a bound outside it.
    pub(crate) fn negamax(
        &mut self,
        g: &Oska,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return g.evaluate() * g.to_move().sign();
        }
        let k = key(g);
        let mut first = None;
        if let Some(e) = self.table.get(&k) {
            first = Some(e.best);
            if e.depth >= depth {
                let v = from_table(e.value, ply);
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower if v >= beta => return v,
                    Bound::Upper if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let alpha0 = alpha;
        let me = g.to_move();
        let mut moves = g.moves();
        order(g, &mut moves, first);
        let mut best = -WIN - 1;
        let mut best_move = moves[0];
        for m in moves {
            let child = g.after(m);
            let v = match child.outcome() {
                Some(o) => terminal_value(o, me, ply + 1),
                None => -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1),
            };
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(
            k,
            Entry {
                depth,
                value: to_table(best, ply),
                bound,
                best: best_move,
            },
        );
        best
    }
}

/// The table's move first, then captures (they change the race most), the rest in the rules' order.
fn order(g: &Oska, moves: &mut [OskaMove], first: Option<OskaMove>) {
    let them = g.to_move().opponent();
    let before = g.pieces_left(them);
    moves.sort_by_key(|&m| {
        if Some(m) == first {
            0
        } else if g.after(m).pieces_left(them) < before {
            1
        } else {
            2
        }
    });
}

/// Oska's `minimax:D` bot.
pub(crate) struct OskaMinimax {
    depth: u32,
    rng: Rng,
}

impl OskaMinimax {
    pub(crate) fn new(depth: u32, seed: u64) -> OskaMinimax {
        OskaMinimax {
            depth,
            rng: Rng::new(seed),
        }
    }
}

/// Each root move's value searched to `depth`, deepening one ply at a time; the moves come back
/// sorted best first (stably, so equal values keep the seeded order).
pub(crate) fn root_values(
    state: &Oska,
    moves: Vec<OskaMove>,
    depth: u32,
    search: &mut Search,
) -> Vec<(OskaMove, i32)> {
    let me = state.to_move();
    let mut scored: Vec<(OskaMove, i32)> = moves.into_iter().map(|m| (m, 0)).collect();
    for d in 1..=depth {
        let mut alpha = -WIN - 1;
        for entry in &mut scored {
            let child = state.after(entry.0);
            let v = match child.outcome() {
                Some(o) => terminal_value(o, me, 1),
                None => -search.negamax(&child, d - 1, -WIN - 1, -alpha, 1),
            };
            // A move that fails low is only known to be no better than the best so far.
            entry.1 = v;
            alpha = alpha.max(v);
        }
        scored.sort_by_key(|e| std::cmp::Reverse(e.1));
        if scored[0].1 > MATE {
            break;
        }
    }
    scored
}

impl Bot<Oska> for OskaMinimax {
    fn name(&self) -> String {
        format!("minimax:{}", self.depth)
    }

    fn choose(&mut self, state: &Oska) -> OskaMove {
        let mut moves = state.moves();
        for i in (1..moves.len()).rev() {
            let j = self.rng.below(i + 1);
            moves.swap(i, j);
        }
        let mut search = Search::new();
        let scored = root_values(state, moves, self.depth, &mut search);
        if scored[0].1 >= -MATE || self.depth < 3 {
            return scored[0].0;
        }
        // Every move loses against best play as far as the search sees: play the one that leaves
        // the opponent the fewest replies keeping its win (then the slowest loss), so that a
        // fallible opponent has the most chances to go wrong.
        let me = state.to_move();
        let mut best = scored[0];
        let mut best_key = (i64::MIN, i32::MIN);
        for &(m, v) in &scored {
            let next = state.after(m);
            if next.outcome().is_some() {
                continue;
            }
            let replies = next.moves();
            let keep = replies
                .iter()
                .filter(|&&r| {
                    let after = next.after(r);
                    match after.outcome() {
                        Some(o) => terminal_value(o, me, 2) < -MATE,
                        None => {
                            search.negamax(&after, self.depth - 2, -WIN - 1, WIN + 1, 2) < -MATE
                        }
                    }
                })
                .count();
            let k = (-((1000 * keep / replies.len()) as i64), v);
            if k > best_key {
                best_key = k;
                best = (m, v);
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::minimax::negamax;

    /// Positions (not over) from random games of size `n`.
    fn positions(n: usize, games: usize, seed: u64) -> Vec<Oska> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut g = Oska::new(n);
            while g.outcome().is_none() {
                out.push(g.clone());
                let ms = g.moves();
                g.apply(ms[rng.below(ms.len())]);
            }
        }
        out
    }

    /// The plain alpha-beta value of the best move, searched `depth` plies from the root.
    fn plain_best(g: &Oska, depth: u32) -> i32 {
        let me = g.to_move();
        g.moves()
            .into_iter()
            .map(|m| {
                let c = g.after(m);
                match c.outcome() {
                    Some(o) => terminal_value(o, me, 1),
                    None => -negamax(&c, depth - 1, -WIN - 1, WIN + 1, 1),
                }
            })
            .max()
            .unwrap()
    }

    #[test]
    fn the_table_search_finds_the_plain_alpha_beta_value() {
        for (n, depth, games) in [(4, 5, 12), (4, 7, 4), (5, 4, 4)] {
            for g in positions(n, games, 9) {
                let mut s = Search::new();
                let got = root_values(&g, g.moves(), depth, &mut s)[0].1;
                // A win found early stops the deepening: the same win, found at a lower depth.
                assert_eq!(got, plain_best(&g, depth), "n = {n}, depth {depth}: {g:?}");
            }
        }
    }

    #[test]
    fn the_table_saves_work_on_deep_searches() {
        let g = Oska::new(4);
        let mut s = Search::new();
        root_values(&g, g.moves(), 9, &mut s);
        let mut plain = 0u64;
        fn count(g: &Oska, depth: u32, plain: &mut u64) {
            *plain += 1;
            if depth == 0 {
                return;
            }
            for m in g.moves() {
                let c = g.after(m);
                if c.outcome().is_none() {
                    count(&c, depth - 1, plain);
                }
            }
        }
        for m in g.moves() {
            count(&g.after(m), 8, &mut plain);
        }
        assert!(
            s.nodes * 5 < plain,
            "{} nodes searched against {plain} in the full tree",
            s.nodes
        );
    }
}
