//! Oska for the bots: material and advancement.

use crate::bots::Playable;
use crate::game::Player;
use crate::games::Oska;

impl Playable for Oska {
    const NAME: &'static str = "oska";
    /// Above the longest possible game for n ≤ 11: every move advances a piece, passes alternate.
    const MAX_PLIES: usize = 2_000;

    /// 100 a piece, plus 10 a row each piece has advanced, plus 50 a piece already on the far row.
    fn own_score(&self, side: Player) -> i32 {
        let rows = self.rows();
        let last = rows.len() - 1;
        let mut s = 0;
        for (r, row) in rows.iter().enumerate() {
            let advanced = match side {
                Player::First => r,
                Player::Second => last - r,
            } as i32;
            let n = row.iter().filter(|&&c| c == Some(side)).count() as i32;
            s += n * (100 + 10 * advanced + if advanced == last as i32 { 50 } else { 0 });
        }
        s
    }
}
