//! Tic-tac-toe with the Adelaide raster encoding (`x`, `o`, `-`) and E(s) = M(s) − O(s).
//!
//! A move is the index (0..8, reading order) of the blank it fills; legal moves come in raster order,
//! which is the child order the handout requires. In `Notation` a move is written as that cell number;
//! `parse_move` also accepts the 9-character board that results from the move.

use crate::game::{Game, Notation, Outcome, Player};
use crate::games::raster::{self, has_line, symbol, StateError, LINES};

/// A tic-tac-toe position: a bit mask of each side's cells (bit i = cell i in reading order) and the
/// side to move (derivable from the counts; stored so search does not recount). Six bytes, and line
/// tests and move generation take a few instructions: the solver visits and keeps half a million
/// positions for the blank board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    masks: [u16; 2],
    to_move: Player,
}

/// The eight lines as bit masks.
const LINE_MASKS: [u16; 8] = {
    let mut m = [0u16; 8];
    let mut i = 0;
    while i < 8 {
        m[i] = (1 << LINES[i][0]) | (1 << LINES[i][1]) | (1 << LINES[i][2]);
        i += 1;
    }
    m
};

const FULL: u16 = 0x1FF;

/// For each 9-bit mask, a value whose byte i is 1 when bit i is set.
static SPREAD: [u128; 512] = {
    let mut t = [0u128; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 9 {
            if m >> i & 1 == 1 {
                t[m] |= 1 << (8 * i);
            }
            i += 1;
        }
        m += 1;
    }
    t
};

fn mask_has_line(mask: u16) -> bool {
    HAS_LINE[usize::from(mask)]
}

/// Whether each 9-bit mask holds a line: one lookup per side in the search's hottest test.
static HAS_LINE: [bool; 512] = {
    let mut t = [false; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < LINE_MASKS.len() {
            if m as u16 & LINE_MASKS[i] == LINE_MASKS[i] {
                t[m] = true;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

impl Default for TicTacToe {
    fn default() -> Self {
        TicTacToe {
            masks: [0; 2],
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
        let mask = |piece| {
            (0..9)
                .filter(|&i| p.cells[i] == piece)
                .fold(0u16, |m, i| m | 1 << i)
        };
        Ok(TicTacToe {
            masks: [mask(b'x'), mask(b'o')],
            to_move,
        })
    }

    /// The nine cells as raster bytes (`x`, `o`, `-`).
    #[must_use]
    pub fn cells(&self) -> [u8; 9] {
        // Byte i of SPREAD[m] is bit i of m: the raster is then one multiply-add per side, with no
        // carries between bytes since every result byte is at most `x`.
        let blank = u128::from(b'-') * SPREAD[FULL as usize];
        let x = u128::from(b'x' - b'-') * SPREAD[usize::from(self.masks[0])];
        let o = u128::from(b'o' - b'-') * SPREAD[usize::from(self.masks[1])];
        let bytes = (blank + x + o).to_le_bytes();
        let mut cells = [0u8; 9];
        cells.copy_from_slice(&bytes[..9]);
        cells
    }

    /// How many cells are blank.
    #[must_use]
    pub fn blanks(&self) -> u32 {
        9 - (self.masks[0] | self.masks[1]).count_ones()
    }

    /// Cell `i` (0..8, reading order) as a raster byte.
    #[must_use]
    pub fn cell(&self, i: usize) -> u8 {
        if self.masks[0] >> i & 1 == 1 {
            b'x'
        } else if self.masks[1] >> i & 1 == 1 {
            b'o'
        } else {
            b'-'
        }
    }

    /// The side with a line of three, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Player> {
        if mask_has_line(self.masks[0]) {
            Some(Player::First)
        } else if mask_has_line(self.masks[1]) {
            Some(Player::Second)
        } else {
            None
        }
    }
}

/// The handout's evaluation E(s) = M(s) − O(s): lines still open to x (no `o` in them) minus lines still
/// open to o (no `x`). Empty lines count for both sides and cancel. Part of the answer: not in the
/// student build.
#[cfg(not(feature = "student"))]
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
        let mut blanks = !(self.masks[0] | self.masks[1]) & FULL;
        while blanks != 0 {
            out.push(blanks.trailing_zeros() as u8);
            blanks &= blanks - 1;
        }
    }

    fn apply(&mut self, mv: u8) {
        debug_assert_eq!(self.cell(usize::from(mv)), b'-', "cell {mv} is taken");
        self.masks[self.to_move.index()] |= 1 << mv;
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(p) => Some(Outcome::Win(p)),
            None if self.masks[0] | self.masks[1] == FULL => Some(Outcome::Draw),
            None => None,
        }
    }
}

impl Notation for TicTacToe {
    fn encode(&self) -> String {
        self.cells().iter().map(|&b| char::from(b)).collect()
    }

    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        let text = text.trim();
        let cell = if text.len() == 9 {
            let next = text.as_bytes();
            let changed: Vec<usize> = (0..9).filter(|&i| next[i] != self.cell(i)).collect();
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
                _ => return Err("expected a cell number 0..8".into()),
            }
        };
        if self.outcome().is_some() {
            return Err("the game is over".to_owned());
        }
        if self.cell(cell) != b'-' {
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
        assert_eq!(evaluate(&s.cells()), -2);
        assert_eq!(evaluate(&TicTacToe::new().cells()), 0);
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
