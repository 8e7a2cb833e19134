//! `minimax:D`: alpha-beta (negamax form) to depth D over the game's static evaluator; the root's moves
//! are shuffled by the seed, so equal-valued moves vary from game to game but never between runs.

use super::{Bot, Playable, WIN};
use crate::game::{Outcome, Player};
use crate::rng::Rng;

pub struct Minimax {
    depth: u32,
    rng: Rng,
}

impl Minimax {
    #[must_use]
    pub fn new(depth: u32, seed: u64) -> Minimax {
        Minimax {
            depth,
            rng: Rng::new(seed),
        }
    }
}

/// The value of a finished game for `side`, preferring faster wins and slower losses.
pub(crate) fn terminal_value(o: Outcome, side: Player, ply: u32) -> i32 {
    match o {
        Outcome::Draw => 0,
        Outcome::Win(p) if p == side => WIN - ply as i32,
        Outcome::Win(_) => -(WIN - ply as i32),
    }
}

/// The negamax value of `g` (a position that is not over) for its side to move. Finished children
/// are scored from the mover's side, never from a finished position's `to_move`, which the `Game`
/// trait leaves unspecified.
pub fn negamax<G: Playable>(g: &G, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
    debug_assert!(g.outcome().is_none(), "negamax on a finished position");
    if depth == 0 {
        return g.evaluate() * g.to_move().sign();
    }
    if let Some(k) = g.won_within() {
        return WIN - (ply + k) as i32;
    }
    let me = g.to_move();
    let mut best = -WIN - 1;
    let mut moves = g.search_moves();
    g.order_moves(&mut moves);
    for m in moves {
        let child = g.after(m);
        let v = match child.outcome() {
            Some(o) => terminal_value(o, me, ply + 1),
            // A game split into steps (Super-TTT's placements) moves the same side twice running.
            None if child.to_move() == me => negamax(&child, depth - 1, alpha, beta, ply + 1),
            None => -negamax(&child, depth - 1, -beta, -alpha, ply + 1),
        };
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

impl<G: Playable> Bot<G> for Minimax {
    fn name(&self) -> String {
        format!("minimax:{}", self.depth)
    }

    fn choose(&mut self, state: &G) -> G::Move {
        let mut moves = state.moves();
        for i in (1..moves.len()).rev() {
            let j = self.rng.below(i + 1);
            moves.swap(i, j);
        }
        let me = state.to_move();
        let mut best = moves[0];
        let mut alpha = -WIN - 1;
        for &m in &moves {
            let child = state.after(m);
            let v = match child.outcome() {
                Some(o) => terminal_value(o, me, 1),
                None => -negamax(&child, self.depth - 1, -WIN - 1, -alpha, 1),
            };
            if v > alpha {
                alpha = v;
                best = m;
            }
        }
        best
    }
}
