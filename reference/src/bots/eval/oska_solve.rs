//! The exact solution of Oska with n = 4 (16 squares), for the `perfect` bot.
//!
//! Every Oska move advances a piece and passes never come twice in a row, so the game graph has no
//! cycles and a memoised depth-first negamax gives exact values with exact distances (no retrograde
//! rounds needed). The table is built once, at first use, over every position reachable from the
//! start; positions outside it (a decoded board no game reaches) are solved on demand without being
//! stored.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::bots::solve::BASE;
use crate::game::{Game, Outcome, Player};
use crate::games::Oska;

/// The only size solved: larger boards have far too many positions.
pub const SOLVED_N: usize = 4;

/// A position's key: white's squares, black's squares (16 bits each), the side to move.
fn key(g: &Oska) -> u64 {
    let w = g.piece_mask(Player::First) as u64;
    let b = g.piece_mask(Player::Second) as u64;
    let side = u64::from(g.to_move() == Player::Second);
    w | b << 16 | side << 32
}

/// The value for the side to move, in the same scale as [`crate::bots::solve::retrograde`]:
/// `BASE − d` a win in d plies, `−(BASE − d)` a loss in d plies, 0 a draw.
fn value(g: &Oska, memo: &mut HashMap<u64, i16>) -> i32 {
    if let Some(o) = g.outcome() {
        return match o {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == g.to_move() => BASE,
            Outcome::Win(_) => -BASE,
        };
    }
    let k = key(g);
    if let Some(&v) = memo.get(&k) {
        return i32::from(v);
    }
    let mut best = i32::MIN;
    for m in g.moves() {
        let v = value(&g.after(m), memo);
        // One ply further from the end: a child lost in d is a win in d + 1, and so on.
        let mine = match v.signum() {
            -1 => -v - 1,
            1 => -(v - 1),
            _ => 0,
        };
        best = best.max(mine);
    }
    memo.insert(k, best as i16);
    best
}

fn table() -> &'static HashMap<u64, i16> {
    static TABLE: OnceLock<HashMap<u64, i16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut memo = HashMap::new();
        value(&Oska::new(SOLVED_N), &mut memo);
        memo
    })
}

/// The exact value of `g` for its side to move, or `None` for boards other than n = 4.
pub(crate) fn solve(g: &Oska) -> Option<i32> {
    if g.n() != SOLVED_N {
        return None;
    }
    if g.outcome().is_none() {
        if let Some(&v) = table().get(&key(g)) {
            return Some(i32::from(v));
        }
    }
    Some(value(g, &mut HashMap::new()))
}

/// How many positions (not over) the table holds.
#[must_use]
pub fn table_size() -> usize {
    table().len()
}
