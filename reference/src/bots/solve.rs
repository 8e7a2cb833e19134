//! Exact values by retrograde analysis over a closed set of positions, for the `perfect` bot on the
//! small games. Works for games that can cycle (Three Men's Morris): positions never forced to a result
//! are draws.

use std::collections::HashMap;
use std::hash::Hash;

use crate::game::{Game, Outcome};

/// A win or loss this far from the end is worth `±(BASE − plies)`; draws 0.
pub const BASE: i32 = 10_000;

/// The value of every position in `positions` for its side to move: `BASE − d` for a win in `d` plies,
/// `−(BASE − d)` for a loss in `d` plies (each side playing for the quickest win and the slowest loss),
/// 0 for a draw. `positions` must hold every position reachable from each of its members.
pub fn retrograde<G: Game + Hash + Eq>(positions: Vec<G>) -> HashMap<G, i32> {
    let index: HashMap<G, usize> = positions
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, g)| (g, i))
        .collect();
    let children: Vec<Vec<usize>> = positions
        .iter()
        .map(|g| {
            g.moves()
                .into_iter()
                .map(|m| {
                    *index
                        .get(&g.after(m))
                        .expect("the position set is closed under moves")
                })
                .collect()
        })
        .collect();
    let mut value: Vec<Option<i32>> = positions
        .iter()
        .map(|g| match g.outcome() {
            None => None,
            Some(Outcome::Draw) => Some(0),
            Some(Outcome::Win(p)) if p == g.to_move() => Some(BASE),
            Some(Outcome::Win(_)) => Some(-BASE),
        })
        .collect();
    // Round k settles the positions decided in exactly k plies, so every distance is the shortest win
    // (and the longest loss) under best play.
    loop {
        let snapshot = value.clone();
        let mut changed = false;
        for i in 0..positions.len() {
            if snapshot[i].is_some() || children[i].is_empty() {
                continue;
            }
            let vals: Vec<Option<i32>> = children[i].iter().map(|&c| snapshot[c]).collect();
            let best_win = vals
                .iter()
                .flatten()
                .filter(|&&v| v < 0)
                .map(|&v| -v - 1)
                .max();
            if let Some(w) = best_win {
                value[i] = Some(w);
                changed = true;
            } else if vals.iter().all(|v| v.is_some_and(|v| v > 0)) {
                let slowest = vals
                    .iter()
                    .flatten()
                    .map(|&v| -(v - 1))
                    .max()
                    .expect("non-empty");
                value[i] = Some(slowest);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    positions
        .into_iter()
        .zip(value)
        .map(|(g, v)| (g, v.unwrap_or(0)))
        .collect()
}
