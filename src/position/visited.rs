//! The `reachable` file check of position cases: a search's visited file (Adelaide Morris: one
//! `STATE VALUE` per line) is well-formed and every state in it can arise from the case's state.

use std::collections::{HashSet, VecDeque};

use reference::Player;

use crate::arena::game::ArenaGame;

/// The most positions the check explores before it gives up (Morris has about 5,700 in all).
pub const MAX_POSITIONS: usize = 1_000_000;

/// What a visited file held, when it passed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visited {
    pub lines: usize,
}

/// Why a visited file fails, in words a student understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VisitedError {
    #[error(
        "line {line} of `{file}` is `{text}`: expected a state and its value, like `{example} 3`"
    )]
    Malformed {
        file: String,
        line: usize,
        text: String,
        example: String,
    },
    #[error("line {line} of `{file}` has value `{value}`, which is not a number")]
    Value {
        file: String,
        line: usize,
        value: String,
    },
    #[error("line {line} of `{file}` lists `{state}`, which cannot arise from `{root}` with {side} to move")]
    Unreachable {
        file: String,
        line: usize,
        state: String,
        root: String,
        side: &'static str,
    },
    #[error("`{file}` is empty, but a search that finds a move visits at least one position")]
    Empty { file: String },
    #[error("the grader could not list the positions reachable from `{root}`: more than {MAX_POSITIONS}")]
    TooMany { root: String },
}

/// Every encoding reachable from `root` (itself included), either side to move.
///
/// # Errors
/// More than [`MAX_POSITIONS`] positions.
pub fn reachable<G: ArenaGame>(root: &G) -> Result<HashSet<String>, VisitedError> {
    let key = |g: &G| (g.encode(), g.to_move() == Player::First);
    let mut seen = HashSet::from([key(root)]);
    let mut queue = VecDeque::from([root.clone()]);
    let mut moves = Vec::new();
    while let Some(g) = queue.pop_front() {
        moves.clear();
        g.legal_moves(&mut moves);
        for &mv in &moves {
            let next = g.after(mv);
            if seen.insert(key(&next)) {
                if seen.len() > MAX_POSITIONS {
                    return Err(VisitedError::TooMany {
                        root: root.encode(),
                    });
                }
                queue.push_back(next);
            }
        }
    }
    Ok(seen.into_iter().map(|(s, _)| s).collect())
}

/// Checks the text of visited file `file` against the positions reachable from `root`. Each non-blank
/// line is a state in the game's encoding, whitespace, and a number (an integer or a decimal: the
/// handout leaves the evaluation to the student). Blank lines are ignored.
///
/// # Errors
/// The first bad line, or an empty file.
pub fn check<G: ArenaGame>(root: &G, file: &str, text: &str) -> Result<Visited, VisitedError> {
    let states = reachable(root)?;
    let mut lines = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        lines += 1;
        let Some((state, value)) = line.rsplit_once(char::is_whitespace) else {
            return Err(VisitedError::Malformed {
                file: file.to_string(),
                line: i + 1,
                text: line.to_string(),
                example: root.encode(),
            });
        };
        let state = state.trim_end();
        if !value.parse::<f64>().is_ok_and(f64::is_finite) {
            return Err(VisitedError::Value {
                file: file.to_string(),
                line: i + 1,
                value: value.to_string(),
            });
        }
        if !states.contains(state) {
            return Err(VisitedError::Unreachable {
                file: file.to_string(),
                line: i + 1,
                state: state.to_string(),
                root: root.encode(),
                side: G::side_name(root.to_move()),
            });
        }
    }
    if lines == 0 {
        return Err(VisitedError::Empty {
            file: file.to_string(),
        });
    }
    Ok(Visited { lines })
}
