//! Oska for the bots: the race to the far row.
//!
//! Every move advances a piece, so both sides race at the same pace; what decides the race is the
//! rows still to go. A piece is worth nothing by itself: a capture shortens the victim's race (the
//! handout's remark on sacrifices), and measured against `random` any positive piece value made
//! minimax weaker (`examples/ladder.rs`). Elimination is caught by the search as a terminal position.

use super::oska_solve;
use crate::bots::Playable;
use crate::game::Player;
use crate::games::Oska;

impl Playable for Oska {
    const NAME: &'static str = "oska";
    /// Above the longest possible game for n ≤ 11: every move advances a piece, passes alternate.
    const MAX_PLIES: usize = 2_000;
    /// n = 4 only: see [`Playable::solvable`].
    const SOLVABLE: bool = true;

    /// Minus ten for each row between one of `side`'s pieces and the far row.
    fn own_score(&self, side: Player) -> i32 {
        -10 * self.rows_to_go(side) as i32
    }

    fn solve(&self) -> Option<i32> {
        oska_solve::solve(self)
    }

    fn solvable(&self) -> bool {
        self.n() == oska_solve::SOLVED_N
    }
}
