//! UT3 for the bots: the nested line evaluator, what a move hands the opponent (every move decides
//! where the opponent plays next), and an allocation-free random playout.

use super::nested;
use crate::bots::Playable;
use crate::game::{Game, Outcome, Player};
use crate::games::Ut3;
use crate::rng::Rng;

/// What `offensive` charges for each block the opponent is sent to and can complete at once: more
/// than any little-board line (16) or a won block (60), less than a second block in a big line
/// (400), so building its own lines still comes first. Measured against `random` (200 games): 0 →
/// 85.3%, 30 → 95.3%, 100 → 95.4%, 300 → 96.4%, 1,000 → 92.7% of decided games.
const GIFT: i32 = 100;

impl Ut3 {
    /// The nested line score (see `nested.rs`).
    fn lines(&self, side: Player) -> i32 {
        let (own, other) = self.cell_masks(side);
        let won_own = self.won_mask(side);
        let won_other = self.won_mask(side.opponent());
        nested::own_score(&own, &other, won_own, won_other, self.dead_blocks())
    }
}

impl Playable for Ut3 {
    const NAME: &'static str = "ut3";
    const MAX_PLIES: usize = 81;
    /// With [`Playable::threat`] looking one move ahead, weighing the opponent's best reply once
    /// against our own lines did best against `offensive` (200 games: 1 → 91.6%; 100 games: 2 → 86%,
    /// 5 → 85%).
    const DEFENCE: i32 = 1;

    fn own_score(&self, side: Player) -> i32 {
        self.lines(side)
    }

    /// Our lines, less [`GIFT`] for each block the opponent (to move) can complete at once.
    fn offence(&self, side: Player) -> i32 {
        let gift = if self.to_move() == side {
            0
        } else {
            GIFT * self.blocks_winnable_now().count_ones() as i32
        };
        self.lines(side) - gift
    }

    /// The best [`Playable::offence`] the side to move reaches with one move: what we send it to.
    fn threat(&self) -> i32 {
        let me = self.to_move();
        if self.outcome().is_some() {
            return self.lines(me);
        }
        self.moves()
            .into_iter()
            .map(|m| self.after(m).offence(me))
            .max()
            .unwrap_or(0)
    }

    fn playout(&mut self, rng: &mut Rng, max_plies: usize) -> Option<Outcome> {
        self.random_playout(rng, max_plies)
    }
}
