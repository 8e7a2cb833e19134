//! `random`: a uniformly random legal move, the bottom rung of every ladder.

use super::{Bot, Playable};
use crate::rng::Rng;

pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    #[must_use]
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Rng::new(seed),
        }
    }
}

impl<G: Playable> Bot<G> for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &G) -> G::Move {
        let moves = state.moves();
        moves[self.rng.below(moves.len())]
    }
}
