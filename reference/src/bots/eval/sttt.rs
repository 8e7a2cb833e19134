//! Super-TTT for the bots at the level of whole turns: the nested line evaluator (what `offensive`
//! builds), what `defensive` spoils, a placement-by-placement random playout and a fast "can the side
//! to move win this turn" test. The placement-level view that `minimax:D` and `mcts:N` search is
//! `sttt_steps.rs`.

use super::nested;
use super::sttt_steps::big_lines;
use crate::bots::{Bot, Playable, SplitTurn};
use crate::game::{Game, Outcome, Player};
use crate::games::Sttt;
use crate::rng::Rng;

impl Playable for Sttt {
    const NAME: &'static str = "sttt";
    const MAX_PLIES: usize = 41;
    /// With [`Playable::threat`] netting our big lines against the opponent's: weights
    /// (opponent's, ours) of (3, 1) against `offensive` 95% of decided games over 60, (2, 1) and (1, 1)
    /// 93%; the opponent's lines alone (×1, ×3, ×10) 38–42%.
    const DEFENCE: i32 = 3;

    fn own_score(&self, side: Player) -> i32 {
        let (own, other) = self.cell_masks(side);
        let won_own = self.won_mask(side);
        let won_other = self.won_mask(side.opponent());
        nested::own_score(&own, &other, won_own, won_other, self.dead_boards())
    }

    /// The side to move's big lines by the placements they still need (`big_lines`), less a third
    /// of ours: `defensive` keeps this low, weighing the opponent's lines three times its own.
    fn threat(&self) -> i32 {
        let me = self.to_move();
        big_lines(self, me) - big_lines(self, me.opponent()) / 3
    }

    /// The placement-level evaluation at the start of the side to move's turn.
    fn evaluate(&self) -> i32 {
        self.steps().evaluate()
    }

    fn playout(&mut self, rng: &mut Rng, max_plies: usize) -> Option<Outcome> {
        self.random_playout(rng, max_plies)
    }

    fn own_bot(spec: &str, seed: u64) -> Option<Box<dyn Bot<Sttt>>> {
        super::sttt_steps::own_bot(spec, seed)
    }

    fn can_win_now(&self) -> bool {
        self.outcome().is_none() && self.placements_to_win(self.to_move()) <= 2
    }
}
