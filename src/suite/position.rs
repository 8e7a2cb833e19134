//! Load-time checks of a position case: the state parses as a position of the case's game with the
//! given side to move, then the rules checks of `position_rules` (a win exists, a threat and a block
//! exist, no move exists) run on the decoded state.

use reference::Player;

use crate::arena::game::registry::{dispatch, MakeBot, Visitor};
use crate::arena::game::ArenaGame;

use super::kinds::Position;

struct Check<'a>(&'a Position);

impl Visitor for Check<'_> {
    type Out = Result<(), String>;
    fn visit<G: ArenaGame>(self, _initial: G, _bots: MakeBot<G>) -> Self::Out
    where
        G::Move: Send + Sync,
    {
        let p = self.0;
        let side = if p.side == G::side_name(Player::First) {
            Player::First
        } else if p.side == G::side_name(Player::Second) {
            Player::Second
        } else {
            return Err(format!("unknown side `{}`", p.side));
        };
        let state = G::decode(&p.state, side)
            .map_err(|why| format!("`{}` is not a `{}` position: {why}", p.state, p.arena.game))?;
        let name = state.name();
        if name != p.arena.game {
            return Err(format!(
                "`{}` is a `{name}` position, but the case plays `{}`\nhint: set the case's `game` to `{name}`",
                p.state, p.arena.game
            ));
        }
        super::position_rules::check(&state, p.expect)
    }
}

/// Checks a position case against its game: the error says what is wrong, in the game's words.
///
/// # Errors
/// An unknown game, a state that does not parse, or a state the expectation cannot hold in.
pub fn check(position: &Position) -> Result<(), String> {
    dispatch(&position.arena.game, Check(position)).map_err(|e| e.to_string())?
}
