//! What the reference crate's test binaries share: the plain game value that solvers and analyses are
//! checked against, and random play.

// Each test binary uses its own part of this module.
#![allow(dead_code)]

use reference::rng::Rng;
use reference::{Game, Outcome};

/// The value of `g` for its side to move by full negamax: 1 win, 0 draw, −1 loss. No table, no
/// pruning, no memo: slow but obviously right, the simple code the fast code is checked against.
pub fn negamax<G: Game>(g: &G) -> i32 {
    match g.outcome() {
        Some(Outcome::Draw) => 0,
        Some(Outcome::Win(p)) => {
            if p == g.to_move() {
                1
            } else {
                -1
            }
        }
        None => g
            .moves()
            .into_iter()
            .map(|m| -negamax(&g.after(m)))
            .max()
            .expect("a game not over has moves"),
    }
}

/// One of `g`'s moves, chosen uniformly by `rng`.
pub fn random_move<G: Game>(g: &G, rng: &mut Rng) -> G::Move {
    let ms = g.moves();
    ms[rng.below(ms.len())]
}

/// Plays up to `plies` random moves on `g`, stopping where the game ends.
pub fn random_walk<G: Game>(g: &mut G, rng: &mut Rng, plies: usize) {
    for _ in 0..plies {
        if g.outcome().is_some() {
            break;
        }
        let m = random_move(g, rng);
        g.apply(m);
    }
}
