//! The 3×3 raster encoding shared by the Adelaide games (`x`, `o`, `-` in reading order) and its errors.

use crate::game::Player;

/// The eight lines of three: rows, columns, then the two diagonals.
pub const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The byte a side's piece is written as: `x` for Max (`First`), `o` for Min (`Second`).
#[must_use]
pub fn symbol(player: Player) -> u8 {
    match player {
        Player::First => b'x',
        Player::Second => b'o',
    }
}

/// Why a board state, a ply or a turn given to an Adelaide solver cannot be searched. `Display` is one
/// line that names the offending value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    #[error("state `{state}` has {len} characters; expected 9 (one per cell, in reading order)")]
    Length { state: String, len: usize },
    #[error("state `{state}` has `{ch}` at position {pos}; expected `x`, `o` or `-`")]
    Character { state: String, ch: char, pos: usize },
    #[error("state `{state}` has {x} x and {o} o; x moves first, so x must have as many as o or one more")]
    Counts { state: String, x: usize, o: usize },
    #[error("state `{state}` has {count} {side}; each side has only 3 pieces")]
    TooManyPieces {
        state: String,
        side: char,
        count: usize,
    },
    #[error("state `{state}` is impossible: both x and o have a line of three")]
    BothLines { state: String },
    #[error("state `{state}` is impossible: {mover} moved after {winner} completed a line")]
    MovedAfterWin {
        state: String,
        winner: char,
        mover: char,
    },
    #[error("turn `{turn}` disagrees with state `{state}`: while pieces are placed, {expected} is to move")]
    WrongTurn {
        state: String,
        turn: char,
        expected: char,
    },
    #[error("turn `{turn}` is not `x` or `o`")]
    BadTurn { turn: String },
    #[error("ply `{ply}` is not a positive integer")]
    BadPly { ply: String },
    #[error("the search from `{state}` with ply {ply} visits more than {limit} nodes; use a smaller ply")]
    TooManyNodes { state: String, ply: u32, limit: u64 },
}

/// A checked 3×3 board: nine bytes, each `x`, `o` or `-`, with the piece counts.
pub(crate) struct Parsed {
    pub cells: [u8; 9],
    pub x: usize,
    pub o: usize,
}

/// Checks length and characters only; each game adds its own count and line rules.
pub(crate) fn parse(state: &str) -> Result<Parsed, StateError> {
    let len = state.chars().count();
    if len != 9 {
        return Err(StateError::Length {
            state: state.to_owned(),
            len,
        });
    }
    let mut cells = [b'-'; 9];
    let (mut x, mut o) = (0, 0);
    for (pos, ch) in state.chars().enumerate() {
        match ch {
            'x' => x += 1,
            'o' => o += 1,
            '-' => {}
            _ => {
                return Err(StateError::Character {
                    state: state.to_owned(),
                    ch,
                    pos,
                })
            }
        }
        cells[pos] = ch as u8;
    }
    Ok(Parsed { cells, x, o })
}

/// Whether `piece` fills any of `lines`.
#[must_use]
pub fn has_line(cells: &[u8; 9], piece: u8, lines: &[[usize; 3]]) -> bool {
    lines
        .iter()
        .any(|l| cells[l[0]] == piece && cells[l[1]] == piece && cells[l[2]] == piece)
}

/// Reads a side given as `x` or `o`.
pub fn parse_turn(turn: &str) -> Result<Player, StateError> {
    match turn {
        "x" => Ok(Player::First),
        "o" => Ok(Player::Second),
        _ => Err(StateError::BadTurn {
            turn: turn.to_owned(),
        }),
    }
}

/// Reads a ply limit: a positive integer.
pub fn parse_ply(ply: &str) -> Result<u32, StateError> {
    match ply.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(StateError::BadPly {
            ply: ply.to_owned(),
        }),
    }
}
