//! `perfect`: plays a move that keeps the game's exact value, preferring the fastest win (and, when
//! lost, the slowest loss), for games that provide a solver ([`Playable::solve`]).

use super::{best_by, Bot, Playable};
use crate::bots::minimax::terminal_value;

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

impl<G: Playable> Bot<G> for Perfect {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, state: &G) -> G::Move {
        let me = state.to_move();
        let moves = state.moves();
        best_by(&moves, &mut self.rng, |m| {
            let next = state.after(m);
            i64::from(match next.outcome() {
                Some(o) => terminal_value(o, me, 0),
                None => -next
                    .solve()
                    .expect("perfect is only built for games with a solver"),
            })
        })
    }
}
