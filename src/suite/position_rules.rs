//! The rules side of a position case's load-time check: does the state admit what the case expects?
//! (`win`: a winning move exists; `block`: the opponent threatens a win and a blocking move exists;
//! `pass`: the side has no move.) The rules live in `crate::position`; the state itself is checked by
//! `suite::position` first.

use crate::arena::game::ArenaGame;

use super::kinds::PositionExpect;

/// Whether `state` (with its side to move) can meet `expect`; the error names what is missing.
///
/// # Errors
/// The state cannot meet the expectation, in the game's words.
pub fn check<G: ArenaGame>(state: &G, expect: PositionExpect) -> Result<(), String> {
    crate::position::validate(state, expect).map_err(|e| e.to_string())
}
