//! Position cases: one move asked for at a given state, judged by the reference rules (`legal`, `win`,
//! `block`, `pass`), game-generic over `ArenaGame`. Validation at suite load lives here too.

pub mod ask;
pub mod visited;

use crate::arena::game::{side_named, ArenaGame};
use crate::arena::seat::ReplyForm;
pub use crate::judge::Judged;

/// What a position case expects of the move (`legal`, `win`, `block`, `pass`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// Any legal move (the game's pass when it has none).
    Legal,
    /// A move that wins at once.
    Win,
    /// A legal move after which the opponent has no winning reply.
    Block,
    /// The protocol's pass: the side has no legal move.
    Pass,
}

impl Want {
    pub const ALL: [(Want, &'static str); 4] = [
        (Want::Legal, "legal"),
        (Want::Win, "win"),
        (Want::Block, "block"),
        (Want::Pass, "pass"),
    ];

    #[must_use]
    pub fn parse(word: &str) -> Option<Want> {
        Want::ALL.iter().find(|(_, w)| *w == word).map(|(m, _)| *m)
    }
}

/// The word a suite writes for `want`.
#[must_use]
pub fn word(want: Want) -> &'static str {
    Want::ALL
        .iter()
        .find(|(w, _)| *w == want)
        .map_or("?", |(_, word)| word)
}

/// A position case that cannot be graded as written, found when the suite loads.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("unknown side `{side}` for `{game}`\nhint: the sides are `{first}` and `{second}`")]
    Side {
        side: String,
        game: String,
        first: &'static str,
        second: &'static str,
    },
    #[error("state `{state}` is not a `{game}` position: {why}")]
    State {
        state: String,
        game: String,
        why: String,
    },
    #[error("`expect = \"{want}\"` does not fit state `{state}` with {side} to move: {why}")]
    Unfit {
        want: &'static str,
        state: String,
        side: &'static str,
        why: String,
    },
}

/// Reads a case's state with its side to move, in the game `game` (the suite's arena game, which fixes
/// the family's parameters such as Oska's n).
///
/// # Errors
/// The side is not one of the game's, or the state does not parse.
pub fn read<G: ArenaGame>(game: &G, state: &str, side: &str) -> Result<G, PositionError> {
    let Some(player) = side_named::<G>(side) else {
        return Err(PositionError::Side {
            side: side.to_string(),
            game: game.name(),
            first: G::side_name(reference::Player::First),
            second: G::side_name(reference::Player::Second),
        });
    };
    let read = G::decode(state, player).map_err(|why| PositionError::State {
        state: state.to_string(),
        game: game.name(),
        why,
    })?;
    if read.name() != game.name() {
        return Err(PositionError::State {
            state: state.to_string(),
            game: game.name(),
            why: format!("it is a `{}` position", read.name()),
        });
    }
    Ok(read)
}

/// Whether `mv` is a pass: it leaves the position as it was (Oska's forced pass).
fn is_pass<G: ArenaGame>(state: &G, mv: G::Move) -> bool {
    state.after(mv).encode() == state.encode()
}

/// The moves that count as real moves (passes left out).
fn real_moves<G: ArenaGame>(state: &G) -> Vec<G::Move> {
    state
        .moves()
        .into_iter()
        .filter(|&m| !is_pass(state, m))
        .collect()
}

/// Whether `mv` wins at once for the side making it.
fn wins<G: ArenaGame>(state: &G, mv: G::Move) -> bool {
    let side = state.to_move();
    state.after(mv).outcome() == Some(reference::Outcome::Win(side))
}

/// The opponent's winning reply after `mv`, if it has one.
fn refutation<G: ArenaGame>(state: &G, mv: G::Move) -> Option<G::Move> {
    let next = state.after(mv);
    next.moves().into_iter().find(|&r| wins(&next, r))
}

/// Checks that `want` can be met at `state`: a `win` case has a winning move; a `block` case has a
/// threat (some move lets the opponent win at once), a move that blocks it, and no win of its own
/// (else it would test the win); a `pass` case has no real move; a `legal` case has a move.
///
/// # Errors
/// Why the case is unfit, naming the state and the side.
pub fn validate<G: ArenaGame>(state: &G, want: Want) -> Result<(), PositionError> {
    let moves = real_moves(state);
    let unfit = |why: String| PositionError::Unfit {
        want: word(want),
        state: state.encode(),
        side: G::side_name(state.to_move()),
        why,
    };
    match want {
        Want::Pass => {
            if let Some(&m) = moves.first() {
                return Err(unfit(format!(
                    "it has {}, e.g. `{}`",
                    legal_moves(moves.len()),
                    state.format_move(m)
                )));
            }
        }
        Want::Legal => {
            if moves.is_empty() && state.moves().is_empty() {
                return Err(unfit("it has no legal move (use `pass`)".into()));
            }
        }
        Want::Win => {
            if !moves.iter().any(|&m| wins(state, m)) {
                return Err(unfit("no move wins at once".into()));
            }
        }
        Want::Block => {
            if moves.iter().any(|&m| wins(state, m)) {
                return Err(unfit("a move wins at once (use `win`)".into()));
            }
            if !moves.iter().any(|&m| refutation(state, m).is_some()) {
                return Err(unfit("the opponent threatens no win in one".into()));
            }
            if !moves.iter().any(|&m| refutation(state, m).is_none()) {
                return Err(unfit("every move lets the opponent win at once".into()));
            }
        }
    }
    Ok(())
}

/// How a move reads in the protocol's own form: the next position for `reply = "state"`, else the move.
fn show<G: ArenaGame>(state: &G, mv: G::Move, form: ReplyForm) -> String {
    match form {
        ReplyForm::State => state.after(mv).encode(),
        ReplyForm::Move => state.format_move(mv),
    }
}

/// Judges `answer` (the program's reply, trimmed; empty when it printed nothing) at `state` against
/// `want`. Pure: the rules decide, the words name the moves as the protocol writes them.
#[must_use]
pub fn judge<G: ArenaGame>(state: &G, want: Want, form: ReplyForm, answer: &str) -> Judged {
    let answer = answer.trim();
    let side = G::side_name(state.to_move());
    let other = G::side_name(state.to_move().opponent());
    let moves = real_moves(state);
    let any_move = |m: &[G::Move]| m.first().map(|&m| show(state, m, form));

    if answer.is_empty() {
        return match (want, any_move(&moves)) {
            (Want::Pass, _) | (_, None) => Judged::ok(format!(
                "you printed nothing: {side} has no legal move here"
            )),
            (_, Some(example)) => Judged::wrong(
                format!(
                    "you printed nothing, but {side} has {} here, e.g. `{example}`",
                    legal_moves(moves.len())
                ),
                Vec::new(),
            ),
        };
    }

    let parsed = match form {
        ReplyForm::Move => state.parse_move(answer).ok(),
        ReplyForm::State => state.move_from_state(answer),
    }
    .filter(|&m| state.is_legal_move(m));
    let Some(mv) = parsed else {
        let mut details = Vec::new();
        match form {
            ReplyForm::State => details.push(state.why_not_state(answer)),
            ReplyForm::Move => {
                if let Err(why) = state.parse_move(answer) {
                    details.push(why);
                }
            }
        }
        let summary = if moves.is_empty() {
            format!("you printed `{answer}`, but {side} has no legal move here: print nothing")
        } else {
            format!(
                "you printed `{answer}`, which is not a legal move for {side} from `{}`",
                state.encode()
            )
        };
        return Judged::wrong(summary, details);
    };
    let played = show(state, mv, form);
    if is_pass(state, mv) {
        return match any_move(&moves) {
            None => Judged::ok(format!("you passed: {side} has no legal move here")),
            Some(example) => Judged::wrong(
                format!("you passed, but {side} has a legal move here, e.g. `{example}`"),
                Vec::new(),
            ),
        };
    }
    match want {
        Want::Pass => unreachable_pass(side, &played),
        Want::Legal => Judged::ok(format!("you played `{played}`, a legal move")),
        Want::Win => {
            if wins(state, mv) {
                Judged::ok(format!("you played `{played}`, which wins at once"))
            } else {
                let best = moves
                    .iter()
                    .find(|&&m| wins(state, m))
                    .map(|&m| show(state, m, form));
                match best {
                    Some(best) => Judged::wrong(
                        format!("you played `{played}`, which does not win; `{best}` wins at once"),
                        Vec::new(),
                    ),
                    None => Judged::ok(format!("you played `{played}`; no move wins here")),
                }
            }
        }
        Want::Block => match refutation(state, mv) {
            None => Judged::ok(format!(
                "you played `{played}`, after which {other} cannot win at once"
            )),
            Some(r) => {
                let after = state.after(mv);
                let threat = show(&after, r, form);
                let block = moves
                    .iter()
                    .find(|&&m| refutation(state, m).is_none())
                    .map(|&m| show(state, m, form));
                let mut summary = format!(
                    "you played `{played}`, after which {other} wins at once with `{threat}`"
                );
                if let Some(block) = block {
                    summary.push_str(&format!("; `{block}` blocks it"));
                }
                Judged::wrong(summary, Vec::new())
            }
        },
    }
}

/// A pass case answered with a legal move: validation guarantees the side has none, so this only
/// happens when a game's rules and its move list disagree; the student is not blamed.
fn unreachable_pass(side: &str, played: &str) -> Judged {
    Judged::ok(format!(
        "you played `{played}`; {side} was expected to have no legal move"
    ))
}

/// `1 legal move`, `4 legal moves`.
fn legal_moves(n: usize) -> String {
    if n == 1 {
        "1 legal move".to_string()
    } else {
        format!("{n} legal moves")
    }
}

#[cfg(test)]
mod tests;
