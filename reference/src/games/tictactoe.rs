//! Tic-tac-toe with the Adelaide raster encoding (`x`, `o`, `-`) and E(s) = M(s) − O(s).
//!
//! A move is the index (0..8, reading order) of the blank it fills; legal moves come in raster order,
//! which is the child order the handout requires. In `Notation` a move is written as that cell number;
//! `parse_move` also accepts the 9-character board that results from the move.

use crate::game::{Game, Notation, Outcome, Player};
use crate::games::raster::{self, has_line, symbol, StateError, LINES};

/// A tic-tac-toe position: the nine cells as the raster bytes `x`, `o`, `-`, and the side to move
/// (always derivable from the counts; stored so search does not recount).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    cells: [u8; 9],
    to_move: Player,
}

impl Default for TicTacToe {
    fn default() -> Self {
        TicTacToe {
            cells: [b'-'; 9],
            to_move: Player::First,
        }
    }
}

impl TicTacToe {
    /// The empty board, x to move.
    #[must_use]
    pub fn new() -> TicTacToe {
        TicTacToe::default()
    }

    /// Reads a raster string, rejecting every board that cannot arise in play: wrong length or
    /// characters, piece counts other than x = o or x = o + 1, both sides with a line, or a move made
    /// after the game was won. Exactly the 5,478 reachable positions pass.
    pub fn from_raster(state: &str) -> Result<TicTacToe, StateError> {
        let p = raster::parse(state)?;
        if p.x != p.o && p.x != p.o + 1 {
            return Err(StateError::Counts {
                state: state.to_owned(),
                x: p.x,
                o: p.o,
            });
        }
        let x_line = has_line(&p.cells, b'x', &LINES);
        let o_line = has_line(&p.cells, b'o', &LINES);
        if x_line && o_line {
            return Err(StateError::BothLines {
                state: state.to_owned(),
            });
        }
        let moved_after = |winner, mover| StateError::MovedAfterWin {
            state: state.to_owned(),
            winner,
            mover,
        };
        if x_line && p.x == p.o {
            return Err(moved_after('x', 'o'));
        }
        if o_line && p.x == p.o + 1 {
            return Err(moved_after('o', 'x'));
        }
        let to_move = if p.x == p.o {
            Player::First
        } else {
            Player::Second
        };
        Ok(TicTacToe {
            cells: p.cells,
            to_move,
        })
    }

    /// The nine cells as raster bytes.
    #[must_use]
    pub fn cells(&self) -> &[u8; 9] {
        &self.cells
    }

    /// The side with a line of three, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Player> {
        if has_line(&self.cells, b'x', &LINES) {
            Some(Player::First)
        } else if has_line(&self.cells, b'o', &LINES) {
            Some(Player::Second)
        } else {
            None
        }
    }
}

/// The handout's evaluation E(s) = M(s) − O(s): lines still open to x (no `o` in them) minus lines still
/// open to o (no `x`). Empty lines count for both sides and cancel.
#[must_use]
pub fn evaluate(cells: &[u8; 9]) -> i32 {
    let mut e = 0;
    for l in &LINES {
        let has = |p: u8| cells[l[0]] == p || cells[l[1]] == p || cells[l[2]] == p;
        let (x, o) = (has(b'x'), has(b'o'));
        if !o {
            e += 1;
        }
        if !x {
            e -= 1;
        }
    }
    e
}

impl Game for TicTacToe {
    type Move = u8;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.outcome().is_some() {
            return;
        }
        out.extend((0..9u8).filter(|&i| self.cells[usize::from(i)] == b'-'));
    }

    fn apply(&mut self, mv: u8) {
        debug_assert_eq!(self.cells[usize::from(mv)], b'-', "cell {mv} is taken");
        self.cells[usize::from(mv)] = symbol(self.to_move);
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(p) => Some(Outcome::Win(p)),
            None if !self.cells.contains(&b'-') => Some(Outcome::Draw),
            None => None,
        }
    }
}

impl Notation for TicTacToe {
    fn encode(&self) -> String {
        self.cells.iter().map(|&b| char::from(b)).collect()
    }

    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        let text = text.trim();
        let cell = if text.len() == 9 {
            let next = text.as_bytes();
            let changed: Vec<usize> = (0..9).filter(|&i| next[i] != self.cells[i]).collect();
            match changed[..] {
                [i] if next[i] == symbol(self.to_move) => i,
                _ => {
                    return Err(format!(
                        "board `{text}` is not `{}` with one `{}` added",
                        self.encode(),
                        char::from(symbol(self.to_move))
                    ))
                }
            }
        } else {
            match text.parse::<usize>() {
                Ok(i) if i < 9 => i,
                _ => return Err(format!("expected a cell number 0..8, got `{text}`")),
            }
        };
        if self.outcome().is_some() {
            return Err("the game is over".to_owned());
        }
        if self.cells[cell] != b'-' {
            return Err(format!("cell {cell} is taken"));
        }
        Ok(cell as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_matches_the_handout_example() {
        let s = TicTacToe::from_raster("---xo----").unwrap();
        assert_eq!(evaluate(s.cells()), -2);
        assert_eq!(evaluate(TicTacToe::new().cells()), 0);
    }

    #[test]
    fn moves_come_in_raster_order() {
        let s = TicTacToe::from_raster("oo--xx---").unwrap();
        let next: Vec<String> = s.moves().iter().map(|&m| s.after(m).encode()).collect();
        assert_eq!(
            next,
            [
                "oox-xx---",
                "oo-xxx---",
                "oo--xxx--",
                "oo--xx-x-",
                "oo--xx--x"
            ]
        );
    }

    #[test]
    fn exactly_the_reachable_positions_parse() {
        let mut accepted = 0;
        for mut n in 0..3usize.pow(9) {
            let s: String = (0..9)
                .map(|_| {
                    let c = ['-', 'x', 'o'][n % 3];
                    n /= 3;
                    c
                })
                .collect();
            if TicTacToe::from_raster(&s).is_ok() {
                accepted += 1;
            }
        }
        assert_eq!(accepted, 5_478);
    }

    #[test]
    fn impossible_boards_are_named() {
        let err = |s: &str| TicTacToe::from_raster(s).unwrap_err().to_string();
        assert_eq!(
            err("oxx"),
            "state `oxx` has 3 characters; expected 9 (one per cell, in reading order)"
        );
        assert!(err("oxxxo-oX-").contains("`X` at position 7"));
        assert!(err("xx-------").contains("2 x and 0 o"));
        assert!(err("xxxooo---").contains("both x and o"));
        assert!(err("xxxoo-o--").contains("o moved after x"));
    }

    #[test]
    fn parse_move_reads_cells_and_boards() {
        let s = TicTacToe::from_raster("oxxxo-ox-").unwrap();
        assert_eq!(s.parse_move("8"), Ok(8));
        assert_eq!(s.parse_move("oxxxo-oxo"), Ok(8));
        assert!(s.parse_move("0").unwrap_err().contains("taken"));
        assert!(s.parse_move("oxxxoxox-").is_err());
    }
}
