//! The rules side of a position case's load-time check: does the state admit what the case expects?
//! (`win`: a winning move exists; `block`: the opponent threatens a win and a blocking move exists;
//! `pass`: the side has no move.) The hook the position machinery fills in; until then only the state
//! itself is checked (by `suite::position`).

use crate::arena::game::ArenaGame;

use super::kinds::PositionExpect;

/// Whether `state` (with its side to move) can meet `expect`; the error names what is missing.
///
/// # Errors
/// Never yet: the rules checks are not built yet.
pub fn check<G: ArenaGame>(state: &G, expect: PositionExpect) -> Result<(), String> {
    let _ = (state, expect);
    Ok(())
}
