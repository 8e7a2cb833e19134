//! `perfect`: plays a move that keeps the game's exact value, preferring the fastest win, for games
//! that provide a solver ([`Playable::solve`]). In a lost position (Oska n = 4 is a win for white, so
//! black starts lost) it makes the win hardest to find: the move after which the fewest of the
//! opponent's replies keep the win, then the slowest loss.

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

/// Of the replies to `next` (not over), how many keep the win for the side to move, per thousand.
fn winning_replies_permille<G: Playable>(next: &G) -> i64 {
    let them = next.to_move();
    let replies = next.moves();
    let keep = replies
        .iter()
        .filter(|&&r| {
            let after = next.after(r);
            after.outcome() == Some(Outcome::Win(them)) || value_after(&after, them) > 0
        })
        .count();
    (1000 * keep / replies.len()) as i64
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
            // Lost whatever we do: below every draw and win, fewest winning replies first, then the
            // slowest loss (|v| < 2^31, so the two keys cannot mix).
            -(1i64 << 50) + (1000 - winning_replies_permille(&next)) * (1i64 << 32) + i64::from(v)
        })
    }
}
