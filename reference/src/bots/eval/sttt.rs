//! Super-TTT for the bots: the nested line evaluator, a placement-by-placement random playout and a
//! fast "can the side to move win this turn" test.

use super::nested;
use crate::bots::Playable;
use crate::game::{Game, Outcome, Player};
use crate::games::Sttt;
use crate::rng::Rng;

impl Playable for Sttt {
    const NAME: &'static str = "sttt";
    const MAX_PLIES: usize = 41;

    fn own_score(&self, side: Player) -> i32 {
        let (own, other) = self.cell_masks(side);
        let won_own = self.won_mask(side);
        let won_other = self.won_mask(side.opponent());
        nested::own_score(&own, &other, won_own, won_other, self.dead_boards())
    }

    fn playout(&mut self, rng: &mut Rng, max_plies: usize) -> Option<Outcome> {
        self.random_playout(rng, max_plies)
    }

    fn can_win_now(&self) -> bool {
        self.outcome().is_none() && self.placements_to_win(self.to_move()) <= 2
    }
}
