//! `perfect`: plays a move that keeps the game's exact value, preferring the fastest win, for games
//! that provide a solver ([`Playable::solve`]). In a lost position (Oska n = 4 is a win for white, so
//! black starts lost) it makes the win hardest to find: the move that gives an opponent replying at
//! random the best chance to give up the win within its next three moves, then the slowest loss.

use super::{best_by, Bot, Playable};
use crate::bots::minimax::terminal_value;
use crate::game::{Outcome, Player};

use crate::rng::Rng;

pub struct Perfect {
    rng: Rng,
}

impl Perfect {
    #[must_use]
    pub fn new(seed: u64) -> Perfect {
        Perfect {
            rng: Rng::new(seed),
        }
    }
}

/// The exact value of the position after a move, for the side that made it.
fn value_after<G: Playable>(next: &G, mover: Player) -> i32 {
    match next.outcome() {
        Some(o) => terminal_value(o, mover, 0),
        None => -next
            .solve()
            .expect("perfect is only built for boards its solver covers (`bot_for`)"),
    }
}

/// How many of the opponent's moves ahead a lost `perfect` looks for its mistakes. Against `mcts:2000`
/// as black (50 games each): the fewest winning replies (one move) won 36, two moves 49, three 50.
const TRAP_DEPTH: u32 = 3;

/// The chance that an opponent choosing uniformly among its replies to `next` goes wrong within
/// `depth` of its moves, when we keep setting the best traps: a reply that gives up the win counts 1
/// (half for a draw). Uniform choice is only a model: what matters is that a position where few
/// replies keep the win, again and again, is where a fallible player slips.
fn trap<G: Playable>(next: &G, me: Player, depth: u32) -> f64 {
    let replies = next.moves();
    let mut sum = 0.0;
    for &r in &replies {
        let after = next.after(r);
        sum += match after.outcome() {
            Some(Outcome::Win(p)) if p == me => 1.0,
            Some(Outcome::Draw) => 0.5,
            Some(_) => 0.0,
            None => {
                let v = after.solve().expect("a solved board");
                if v > 0 {
                    1.0
                } else if v == 0 {
                    0.5
                } else if depth > 1 {
                    after
                        .moves()
                        .into_iter()
                        .map(|m| {
                            let n2 = after.after(m);
                            if n2.outcome().is_some() {
                                0.0
                            } else {
                                trap(&n2, me, depth - 1)
                            }
                        })
                        .fold(0.0, f64::max)
                } else {
                    0.0
                }
            }
        };
    }
    sum / replies.len() as f64
}

impl<G: Playable> Bot<G> for Perfect {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, state: &G) -> G::Move {
        let me = state.to_move();
        let moves = state.moves();
        best_by(&moves, &mut self.rng, |m| {
            let next = state.after(m);
            let v = value_after(&next, me);
            if v >= 0 {
                return i64::from(v);
            }
            if next.outcome().is_some() {
                return -(1i64 << 60);
            }
            // Lost whatever we do: below every draw and win, the best trap first (in millionths),
            // then the slowest loss (|v| < 2^20, so the two keys cannot mix).
            let t = (trap(&next, me, TRAP_DEPTH) * 1e6).round() as i64;
            -(1i64 << 50) + t * (1i64 << 21) + i64::from(v)
        })
    }
}
