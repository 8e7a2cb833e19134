//! Three Men's Morris for the bots: open rows and columns plus mobility, and an exact solver by
//! retrograde analysis over every legal position (the game can cycle; unforced positions are draws).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::bots::solve::retrograde;
use crate::bots::Playable;
use crate::game::Player;
use crate::games::raster::symbol;
use crate::games::tmmorris::{Morris, MORRIS_LINES};

/// Weights for an open row or column holding 0, 1 or 2 of the side's pieces.
const LINE: [i32; 3] = [1, 2, 5];

fn table() -> &'static HashMap<Morris, i32> {
    static TABLE: OnceLock<HashMap<Morris, i32>> = OnceLock::new();
    TABLE.get_or_init(|| retrograde(Morris::all_positions()))
}

impl Playable for Morris {
    const NAME: &'static str = "morris";
    /// The game can cycle: a duel this long is adjudicated a draw.
    const MAX_PLIES: usize = 200;
    /// Random play rarely ends a Morris game once pieces move: capped playouts count as draws.
    const PLAYOUT_PLIES: usize = 40;
    const SOLVABLE: bool = true;

    fn own_score(&self, side: Player) -> i32 {
        let (me, them) = (symbol(side), symbol(side.opponent()));
        let c = self.cells();
        let lines: i32 = MORRIS_LINES
            .iter()
            .filter(|l| l.iter().all(|&i| c[i] != them))
            .map(|l| LINE[l.iter().filter(|&&i| c[i] == me).count().min(2)])
            .sum();
        lines + self.mobility(side)
    }

    fn solve(&self) -> Option<i32> {
        table().get(self).copied()
    }
}
