//! UT3 for the bots: the nested line evaluator, what a move hands the opponent (every move decides
//! where the opponent plays next), and an allocation-free random playout.

use super::nested;
use crate::bots::Playable;
use crate::game::{Game, Outcome, Player};
use crate::games::tri::has_line;
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

impl Ut3 {
    /// A move completing a block that completes a big line for the side to move: (block, cell).
    fn winning_move(&self) -> Option<(usize, usize)> {
        let me = self.to_move();
        let (own, _) = self.cell_masks(me);
        let won = self.won_mask(me);
        let mut a = self.allowed_blocks();
        while a != 0 {
            let b = a.trailing_zeros() as usize;
            a &= a - 1;
            if !has_line(won | 1 << b) {
                continue;
            }
            let mut cells = self.open_cells(b);
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                if has_line(own[b] | 1 << c) {
                    return Some((b, c));
                }
            }
        }
        None
    }
}

impl Playable for Ut3 {
    const NAME: &'static str = "ut3";
    const MAX_PLIES: usize = 81;
    /// With playouts that take a win in one, `mcts:10000` against `minimax:4` (200 games): 0.7 →
    /// 95.3% of decided games (163–8, 29 draws); with uniformly random playouts, 0.7 → 90.5% and √2 →
    /// 78.8%; over 40 games, 0.35 → 94.4%.
    const EXPLORATION: f64 = 0.7;
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

    /// Random moves, except that a move winning the game at once is always taken.
    fn playout(&mut self, rng: &mut Rng, max_plies: usize) -> Option<Outcome> {
        for _ in 0..max_plies {
            if self.outcome().is_some() {
                break;
            }
            match self.winning_move() {
                Some((b, p)) => self.place(b, p),
                None => self.random_move(rng),
            }
        }
        self.outcome()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_move_agrees_with_trying_every_move() {
        let mut rng = Rng::new(8);
        let (mut wins, mut none) = (0, 0);
        for _ in 0..100 {
            let mut g = Ut3::new();
            while g.outcome().is_none() {
                let me = g.to_move();
                let ms = g.moves();
                let wins_now = |b: usize, c: usize| {
                    let mut n = g.clone();
                    n.place(b, c);
                    n.outcome() == Some(Outcome::Win(me)) && has_line(n.won_mask(me))
                };
                let any = ms.iter().any(|&m| {
                    let (b, c) = m.block_pos();
                    wins_now(b, c)
                });
                match g.winning_move() {
                    Some((b, c)) => {
                        assert!(wins_now(b, c), "({b}, {c}) does not win: {g:?}");
                        wins += 1;
                    }
                    None => {
                        assert!(!any, "missed a win: {g:?}");
                        none += 1;
                    }
                }
                g.apply(ms[rng.below(ms.len())]);
            }
        }
        assert!(wins >= 20 && none >= 1000, "{wins} wins, {none} without");
    }
}
