//! How a program wants a move typed, and what the grader believes about it. A move on a 3×3 board
//! can be typed as a row and a column (either first, from 0 or 1, rows from the top or, as `x y`
//! coordinates, from the bottom; a space or a comma between), as one cell number (row-major from 0 or
//! 1, or laid out as a numeric keypad) or as a letter and a digit. The grader ranks these by what the
//! program printed (`(1-9)`, `row col`, `A1`, a board numbering its empty cells), types the best, and
//! keeps only those that agree with the cell the program's board then shows, or that would have been
//! refused when the program refused. Pure logic.

use regex::Regex;

use super::question::Part;

/// One way of typing a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Two numbers: the row first or the column first, counted from `base`, rows counted from the
    /// bottom when `up` (`x y` coordinates); a comma or a space between.
    Pair {
        row_first: bool,
        base: u8,
        up: bool,
        comma: bool,
    },
    /// One number a cell: row-major from `base` (a phone's keys), or as a numeric keypad (`7` top left).
    Cell { base: u8, keypad: bool },
    /// A letter and a digit from 1: the letter names the row (`B3`) or the column; capitals or small.
    Letter { row_letter: bool, small: bool },
}

use Encoding::{Cell, Letter, Pair};

const fn pair(row_first: bool, base: u8, up: bool, comma: bool) -> Encoding {
    Pair {
        row_first,
        base,
        up,
        comma,
    }
}

/// Every encoding, in the order tried when nothing printed hints at one: the handout's `row column`
/// from 1 (001:28 "mark row column"), then the other common ones.
pub const ALL: [Encoding; 18] = [
    pair(true, 1, false, false),
    Cell {
        base: 1,
        keypad: false,
    },
    pair(true, 0, false, false),
    Cell {
        base: 0,
        keypad: false,
    },
    pair(false, 1, false, false),
    pair(false, 0, false, false),
    Cell {
        base: 1,
        keypad: true,
    },
    pair(true, 1, false, true),
    pair(true, 0, false, true),
    Letter {
        row_letter: true,
        small: false,
    },
    Letter {
        row_letter: false,
        small: false,
    },
    Letter {
        row_letter: true,
        small: true,
    },
    Letter {
        row_letter: false,
        small: true,
    },
    pair(false, 1, true, false),
    pair(false, 0, true, false),
    pair(false, 1, false, true),
    pair(false, 0, false, true),
    pair(false, 1, true, true),
];

impl Encoding {
    /// The row a typed row number names (`up`: counted from the bottom).
    fn row_of(self, shown: usize) -> usize {
        match self {
            Pair { up: true, .. } => 2 - shown,
            _ => shown,
        }
    }

    /// Cell `cell` (row-major from 0) typed whole.
    #[must_use]
    pub fn typed(self, cell: usize) -> String {
        let (r, c) = (cell / 3, cell % 3);
        match self {
            Pair {
                row_first,
                base,
                comma,
                ..
            } => {
                let row = self.row_of(r) + usize::from(base);
                let col = c + usize::from(base);
                let (a, b) = if row_first { (row, col) } else { (col, row) };
                let sep = if comma { "," } else { " " };
                format!("{a}{sep}{b}")
            }
            Cell { base, keypad } => {
                let n = if keypad {
                    3 * (2 - r) + c + 1
                } else {
                    cell + usize::from(base)
                };
                n.to_string()
            }
            Letter { row_letter, small } => {
                let (letter, digit) = if row_letter { (r, c) } else { (c, r) };
                let a = if small { b'a' } else { b'A' };
                format!("{}{}", char::from(a + letter as u8), digit + 1)
            }
        }
    }

    /// One coordinate of cell `cell`, for a prompt that asks for it alone; `None` when this encoding
    /// types no such part (a cell number).
    #[must_use]
    pub fn part(self, cell: usize, part: Part) -> Option<String> {
        let Pair { base, .. } = self else {
            return None;
        };
        let n = match part {
            Part::Row => self.row_of(cell / 3),
            Part::Col => cell % 3,
            Part::Whole => return Some(self.typed(cell)),
        };
        Some((n + usize::from(base)).to_string())
    }

    /// What to type for cell `cell` when the program asks for `first`: the whole move, or that
    /// coordinate and then the other one (a program asking for the row asks for the column next).
    #[must_use]
    pub fn answers(self, cell: usize, first: Part) -> Vec<(Part, String)> {
        let parts = match first {
            Part::Whole => return vec![(Part::Whole, self.typed(cell))],
            Part::Row => [Part::Row, Part::Col],
            Part::Col => [Part::Col, Part::Row],
        };
        parts
            .into_iter()
            .filter_map(|p| self.part(cell, p).map(|t| (p, t)))
            .collect()
    }

    /// The cell a typed text names in this encoding, if any.
    #[must_use]
    pub fn cell_of(self, text: &str) -> Option<usize> {
        (0..9).find(|&c| self.typed(c) == text.trim())
    }

    /// Two inputs off the board in this encoding, for the checks of input validation.
    #[must_use]
    pub fn off_board(self) -> [String; 2] {
        let two = |a: &str, b: &str| [a.to_string(), b.to_string()];
        match self {
            Pair { base: 1, comma, .. } if comma => two("0,2", "3,4"),
            Pair { base: 1, .. } => two("0 2", "3 4"),
            Pair { comma: true, .. } => two("3,1", "1,3"),
            Pair { .. } => two("3 1", "1 3"),
            Cell { base: 1, .. } => two("0", "10"),
            Cell { .. } => two("9", "10"),
            Letter { small: false, .. } => two("D1", "A4"),
            Letter { .. } => two("d1", "a4"),
        }
    }

    /// The board's bounds in this encoding's words, for an input off it: `rows and columns are 0 to 2`,
    /// `cells are 1 to 9`, `rows are A to C and columns 1 to 3`.
    #[must_use]
    pub fn bounds(self) -> String {
        match self {
            Pair { base, .. } => format!("rows and columns are {base} to {}", base + 2),
            Cell { base, .. } => format!("cells are {base} to {}", base + 8),
            Letter { row_letter, small } => {
                let letters = if small { "a to c" } else { "A to C" };
                let (lettered, numbered) = if row_letter {
                    ("rows", "columns")
                } else {
                    ("columns", "rows")
                };
                format!("{lettered} are {letters} and {numbered} 1 to 3")
            }
        }
    }

    /// One coordinate off the board, for a prompt that asks for one part.
    #[must_use]
    pub fn off_board_part(self) -> String {
        match self {
            Pair { base: 0, .. } => "3".into(),
            _ => "4".into(),
        }
    }

    /// The encoding in a student's words: ``moves typed as `row column`, each 1-3 (`2 3`)``.
    #[must_use]
    pub fn words(self) -> String {
        let example = self.typed(5);
        let how = match self {
            Pair {
                row_first,
                base,
                up,
                comma,
            } => {
                let (a, b) = if row_first {
                    ("row", "column")
                } else {
                    ("column", "row")
                };
                let from = if up { ", rows from the bottom" } else { "" };
                let sep = if comma { "," } else { " " };
                format!("`{a}{sep}{b}`, each {}-{}{from}", base, base + 2)
            }
            Cell {
                base,
                keypad: false,
            } => format!("one cell number {}-{} row by row", base, base + 8),
            Cell { .. } => "one cell number 1-9 laid out as a numeric keypad (7 top left)".into(),
            Letter { row_letter, .. } => {
                let what = if row_letter {
                    "a row letter and a column digit"
                } else {
                    "a column letter and a row digit"
                };
                what.to_string()
            }
        };
        format!("moves typed as {how}: `{example}` is row 2, column 3")
    }
}

/// What the grader believes about how a program wants a move typed: the encodings still possible,
/// best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Belief {
    pub candidates: Vec<Encoding>,
    /// The cell numbering a board printed on its empty cells (from 0 or 1, as a keypad or not).
    numbered: Option<(u32, bool)>,
}

impl Belief {
    /// Every encoding, ranked by what the program printed (`text`, with the numbering a board shows
    /// on its empty cells and the labels beside its rows and above its columns).
    #[must_use]
    pub fn new(text: &str, numbered: Option<(u32, bool)>, labels: Labels) -> Belief {
        let hints = Hints::read(text, numbered, labels);
        let score = |e: &Encoding| hints.score(*e);
        let mut candidates = ALL.to_vec();
        // Stable: among equals, `ALL`'s order.
        candidates.sort_by_key(|e| -score(e));
        Belief {
            candidates,
            numbered,
        }
    }

    /// A belief already settled (remembered from an earlier game).
    #[must_use]
    pub fn known(encoding: Encoding) -> Belief {
        Belief {
            candidates: vec![encoding],
            numbered: None,
        }
    }

    /// The encoding to type in now.
    #[must_use]
    pub fn best(&self) -> Option<Encoding> {
        self.candidates.first().copied()
    }

    /// Whether every encoding still possible types every cell alike: nothing more to learn.
    #[must_use]
    pub fn settled(&self) -> bool {
        let Some(first) = self.best() else {
            return false;
        };
        self.candidates
            .iter()
            .all(|e| (0..9).all(|c| e.typed(c) == first.typed(c)))
    }

    /// `text` was typed and the program's board showed the mark on `landed`: keep the encodings that
    /// read it so.
    /// A board numbering its empty cells, seen after the opening.
    pub fn numbered_by(&mut self, numbering: Option<(u32, bool)>) {
        if self.numbered.is_none() {
            self.numbered = numbering;
        }
    }

    /// A cell number that lands where the board's own numbering puts it settles which numbering
    /// (`5` is the centre on a phone's keys and on a keypad alike; the board's `7` in the corner says
    /// which).
    pub fn landed(&mut self, text: &str, landed: usize) {
        self.candidates.retain(|e| e.cell_of(text) == Some(landed));
        if let Some((base, keypad)) = self.numbered {
            let shown = Cell {
                base: base as u8,
                keypad,
            };
            if self.candidates.contains(&shown) {
                self.candidates
                    .retain(|e| !matches!(e, Cell { .. }) || *e == shown);
            }
        }
    }

    /// The parts of a move were typed at two prompts and the mark landed on `landed`.
    /// A program that asks for the parts apart never sees the separator: encodings that type every
    /// part alike are one.
    pub fn landed_parts(&mut self, parts: &[(Part, String)], landed: usize) {
        self.candidates.retain(|e| {
            parts
                .iter()
                .all(|(p, t)| e.part(landed, *p).as_deref() == Some(t.as_str()))
        });
        let signature = |e: &Encoding| -> Vec<Option<String>> {
            (0..9)
                .flat_map(|c| [e.part(c, Part::Row), e.part(c, Part::Col)])
                .collect()
        };
        let mut seen = Vec::new();
        self.candidates.retain(|e| {
            let s = signature(e);
            let new = !seen.contains(&s);
            seen.push(s);
            new
        });
    }

    /// `text` was typed and the program refused it, asking again with no mark placed: drop the
    /// encodings in which it names an empty cell (the program would have taken it).
    pub fn refused(&mut self, text: &str, empty: &[bool; 9]) {
        self.candidates
            .retain(|e| e.cell_of(text).is_none_or(|c| !empty[c]));
    }
}

/// Labels a board prints beside its rows or above its columns, as the hints they are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    /// Rows or columns numbered from 0 (`0 1 2`) or from 1.
    pub base: Option<u8>,
    /// Rows lettered (`A B C` beside them).
    pub row_letters: bool,
    /// Columns lettered (`A B C` above them).
    pub col_letters: bool,
}

/// What the program printed that points at an encoding, read once.
struct Hints {
    numbered: Option<(u32, bool)>,
    labels: Labels,
    cells_1_9: bool,
    cells_0_8: bool,
    keypad: bool,
    letters: bool,
    small_letters: bool,
    zero: bool,
    one: bool,
    /// `row` before `col` (`Some(true)`), after it, or not both there.
    row_first: Option<bool>,
    xy: bool,
    up: bool,
    comma: bool,
}

impl Hints {
    fn read(text: &str, numbered: Option<(u32, bool)>, labels: Labels) -> Hints {
        let lower = text.to_lowercase();
        let has = |re: &str| Regex::new(re).is_ok_and(|r| r.is_match(&lower));
        let row_at = lower.find("row");
        let col_at = lower.find("col");
        Hints {
            numbered,
            labels,
            cells_1_9: has(r"\b1\s*(-|–|to|\.\.|through)\s*9\b"),
            cells_0_8: has(r"\b0\s*(-|–|to|\.\.|through)\s*8\b"),
            keypad: has(r"num\s*pad|number\s*pad|keypad|numeric\s+key"),
            letters: has(r"\b[a-c]\s?[1-3]\b") && has(r"[a-c][1-3]|letter|\ba\s*-\s*c\b"),
            small_letters: Regex::new(r"\b[a-c][1-3]\b").is_ok_and(|r| r.is_match(text)),
            zero: has(r"\b0\s*(-|–|to|\.\.)\s*2\b|\(0\s*,\s*0\)|\b0\s+0\b")
                || labels.base == Some(0),
            one: has(r"\b1\s*(-|–|to|\.\.)\s*3\b|\[1\s*-\s*3\]") || labels.base == Some(1),
            row_first: row_at.zip(col_at).map(|(r, c)| r < c),
            xy: has(r"\bx\s*(,|and|\s)\s*y\b|\bcoordinates?\b"),
            up: has(r"\bbottom\b|left\s+to\s+right|from\s+the\s+bottom"),
            comma: has(r"\d\s*,\s*\d|row\s*,\s*col|\bx\s*,\s*y\b|\(\s*row\s*,"),
        }
    }

    /// How strongly the hints point at `e` (higher first).
    fn score(&self, e: Encoding) -> i32 {
        match e {
            Cell { base, keypad } => self.cell_score(base, keypad),
            Pair {
                row_first,
                base,
                up,
                comma,
            } => {
                let mut s = 0;
                if let Some(order) = self.row_first {
                    s += if row_first == order { 30 } else { 10 };
                }
                if self.xy && !row_first {
                    s += 12;
                }
                if (base == 0 && self.zero) || (base == 1 && self.one) {
                    s += 25;
                }
                if up && self.up {
                    s += 30;
                }
                s += match (comma, self.comma) {
                    (true, true) => 20,
                    (true, false) => -5,
                    _ => 0,
                };
                s
            }
            Letter { row_letter, small } => {
                let mut s = 0;
                if self.letters || self.labels.row_letters || self.labels.col_letters {
                    s += 35;
                    if small == self.small_letters {
                        s += 3;
                    }
                }
                if self.labels.row_letters && row_letter || self.labels.col_letters && !row_letter {
                    s += 10;
                }
                s
            }
        }
    }

    fn cell_score(&self, base: u8, pad: bool) -> i32 {
        let mut s = 0;
        if let Some((b, p)) = self.numbered {
            s += if u32::from(base) == b && pad == p {
                60
            } else {
                -20
            };
        }
        if pad && self.keypad {
            s += 50;
        }
        if !pad && base == 1 && self.cells_1_9 && !self.keypad {
            s += 40;
        }
        if pad && self.cells_1_9 {
            s += 5;
        }
        if base == 0 && self.cells_0_8 {
            s += 40;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_encoding_types_every_cell_and_reads_it_back() {
        for e in ALL {
            let typed: Vec<String> = (0..9).map(|c| e.typed(c)).collect();
            for (c, t) in typed.iter().enumerate() {
                assert_eq!(e.cell_of(t), Some(c), "{e:?} {t}");
            }
            for off in e.off_board() {
                assert_eq!(e.cell_of(&off), None, "{e:?} {off}");
            }
        }
        assert_eq!(pair(true, 1, false, false).typed(5), "2 3");
        assert_eq!(pair(false, 1, true, false).typed(0), "1 3");
        assert_eq!(
            Cell {
                base: 1,
                keypad: true
            }
            .typed(0),
            "7"
        );
        assert_eq!(
            Letter {
                row_letter: true,
                small: false
            }
            .typed(5),
            "B3"
        );
        assert_eq!(
            pair(false, 0, false, false).part(5, Part::Row).unwrap(),
            "1"
        );
        assert_eq!(pair(false, 1, true, false).part(0, Part::Row).unwrap(), "3");
    }

    #[test]
    fn hints_rank_what_the_program_printed() {
        let best = |text: &str| Belief::new(text, None, Labels::default()).best().unwrap();
        assert_eq!(best("Your move (row col): "), pair(true, 1, false, false));
        assert_eq!(
            best("Enter your move (1-9): "),
            Cell {
                base: 1,
                keypad: false
            }
        );
        assert_eq!(
            best("Use numpad (1..9): "),
            Cell {
                base: 1,
                keypad: true
            }
        );
        assert_eq!(
            best("Where will you move? (0 - 8): "),
            Cell {
                base: 0,
                keypad: false
            }
        );
        assert_eq!(
            best("Enter row and column (0-2): "),
            pair(true, 0, false, false)
        );
        assert_eq!(
            best("Enter your move (Column #, Row #): "),
            pair(false, 1, false, false)
        );
        assert_eq!(
            best("Enter a move like b2: "),
            Letter {
                row_letter: true,
                small: true
            }
        );
        assert_eq!(best("Move as row,col: "), pair(true, 1, false, true));
        let guide = Belief::new("Go: ", Some((1, true)), Labels::default());
        assert_eq!(
            guide.best().unwrap(),
            Cell {
                base: 1,
                keypad: true
            }
        );
        let lettered = Labels {
            col_letters: true,
            ..Labels::default()
        };
        assert_eq!(
            Belief::new("Your move: ", None, lettered).best().unwrap(),
            Letter {
                row_letter: false,
                small: false
            }
        );
    }

    #[test]
    fn the_board_settles_the_belief() {
        let mut b = Belief::new("Your move: ", None, Labels::default());
        assert!(!b.settled());
        // `1 2` meant row 1, column 2; the mark showed on row 2, column 1: the column comes first.
        b.landed("1 2", 3);
        assert_eq!(b.best(), Some(pair(false, 1, false, false)));
        // `2 3` then landed on row 3, column 2: the same reading, and the rows are not from the bottom.
        b.landed("2 3", 7);
        assert!(b.settled(), "{b:?}");
        // `5` lands in the centre on a phone's keys and a keypad alike: the board's numbering decides.
        let mut centre = Belief::new("Cell: ", None, Labels::default());
        centre.landed("5", 4);
        assert!(!centre.settled(), "{centre:?}");
        let mut numbered = Belief::new("Cell: ", Some((1, false)), Labels::default());
        numbered.landed("5", 4);
        assert_eq!(
            (numbered.settled(), numbered.best()),
            (
                true,
                Some(Cell {
                    base: 1,
                    keypad: false
                })
            )
        );
        // Asked for apart, a row `1` and a column `3` on row 1, column 3: the separator never shows.
        let mut parts = Belief::new("Row: ", None, Labels::default());
        parts.candidates.retain(|e| e.part(0, Part::Row).is_some());
        parts.landed_parts(&[(Part::Row, "1".into()), (Part::Col, "3".into())], 2);
        assert!(parts.settled(), "{parts:?}");
        // A refused cell number drops the encodings that would have taken it.
        let mut c = Belief::new("Move: ", None, Labels::default());
        c.refused("5", &[true; 9]);
        assert!(c.candidates.iter().all(|e| !matches!(e, Cell { .. })));
    }

    #[test]
    fn an_input_off_the_board_is_described_in_the_programs_own_terms() {
        let cases = [
            (pair(true, 1, false, false), "rows and columns are 1 to 3"),
            (pair(false, 0, false, true), "rows and columns are 0 to 2"),
            (
                Cell {
                    base: 1,
                    keypad: true,
                },
                "cells are 1 to 9",
            ),
            (
                Cell {
                    base: 0,
                    keypad: false,
                },
                "cells are 0 to 8",
            ),
            (
                Letter {
                    row_letter: true,
                    small: false,
                },
                "rows are A to C and columns 1 to 3",
            ),
            (
                Letter {
                    row_letter: false,
                    small: true,
                },
                "columns are a to c and rows 1 to 3",
            ),
        ];
        for (encoding, words) in cases {
            assert_eq!(encoding.bounds(), words, "{encoding:?}");
            // And each input typed as off the board is off it in those terms.
            for off in encoding.off_board() {
                assert_eq!(encoding.cell_of(&off), None, "{encoding:?} {off}");
            }
        }
    }
}
