//! `offensive` and `defensive`: one-ply greedy bots. Offensive is the handout's "moderately good
//! offensive player" (wins when it can, otherwise builds its own lines, never defends); defensive wins
//! when it can, otherwise avoids handing the opponent an immediate win and spoils the opponent's
//! prospects ([`Playable::threat`]) while building its own ([`Playable::offence`]).

use super::{best_by, Bot, Playable};
use crate::game::Outcome;
use crate::rng::Rng;

pub struct Offensive {
    rng: Rng,
}

impl Offensive {
    #[must_use]
    pub fn new(seed: u64) -> Offensive {
        Offensive {
            rng: Rng::new(seed),
        }
    }
}

/// The moves that win on the spot, if any.
fn winning<G: Playable>(state: &G, moves: &[G::Move]) -> Vec<G::Move> {
    let me = state.to_move();
    moves
        .iter()
        .copied()
        .filter(|&m| state.after(m).outcome() == Some(Outcome::Win(me)))
        .collect()
}

impl<G: Playable> Bot<G> for Offensive {
    fn name(&self) -> String {
        "offensive".into()
    }

    fn choose(&mut self, state: &G) -> G::Move {
        let moves = state.moves();
        let wins = winning(state, &moves);
        if !wins.is_empty() {
            return wins[self.rng.below(wins.len())];
        }
        let me = state.to_move();
        best_by(&moves, &mut self.rng, |m| {
            i64::from(state.after(m).offence(me))
        })
    }
}

pub struct Defensive {
    rng: Rng,
}

impl Defensive {
    #[must_use]
    pub fn new(seed: u64) -> Defensive {
        Defensive {
            rng: Rng::new(seed),
        }
    }
}

impl<G: Playable> Bot<G> for Defensive {
    fn name(&self) -> String {
        "defensive".into()
    }

    fn choose(&mut self, state: &G) -> G::Move {
        let moves = state.moves();
        let wins = winning(state, &moves);
        if !wins.is_empty() {
            return wins[self.rng.below(wins.len())];
        }
        let me = state.to_move();
        best_by(&moves, &mut self.rng, |m| {
            let next = state.after(m);
            // Never hand over a win when a safer move exists; then spoil the opponent's prospects
            // (weighted `DEFENCE` times) and build our own.
            let loses = next.outcome().is_none() && next.can_win_now();
            let penalty = if loses { -(1i64 << 40) } else { 0 };
            penalty - i64::from(G::DEFENCE) * i64::from(next.threat()) + i64::from(next.offence(me))
        })
    }
}
