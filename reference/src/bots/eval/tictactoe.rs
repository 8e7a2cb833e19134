//! Tic-tac-toe for the bots: open lines, and an exact solver over all 5,478 positions.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::bots::solve::retrograde;
use crate::bots::Playable;
use crate::game::Player;
use crate::games::raster::{symbol, LINES};
use crate::games::tictactoe::TicTacToe;

/// Weights for an open line holding 0, 1 or 2 of the side's marks.
const LINE: [i32; 3] = [1, 4, 16];

fn table() -> &'static HashMap<TicTacToe, i32> {
    static TABLE: OnceLock<HashMap<TicTacToe, i32>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut all = Vec::new();
        for mut n in 0..3usize.pow(9) {
            let mut s = String::with_capacity(9);
            for _ in 0..9 {
                s.push(['-', 'x', 'o'][n % 3]);
                n /= 3;
            }
            if let Ok(t) = TicTacToe::from_raster(&s) {
                all.push(t);
            }
        }
        retrograde(all)
    })
}

impl Playable for TicTacToe {
    const NAME: &'static str = "tictactoe";
    const MAX_PLIES: usize = 9;
    const SOLVABLE: bool = true;

    fn own_score(&self, side: Player) -> i32 {
        let (me, them) = (symbol(side), symbol(side.opponent()));
        let c = self.cells();
        LINES
            .iter()
            .filter(|l| l.iter().all(|&i| c[i] != them))
            .map(|l| LINE[l.iter().filter(|&&i| c[i] == me).count().min(2)])
            .sum()
    }

    fn solve(&self) -> Option<i32> {
        table().get(self).copied()
    }
}
