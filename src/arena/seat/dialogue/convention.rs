//! The conventions a human-interface tic-tac-toe program may follow instead of its suite's script:
//! how it asks who starts (which mark, or "play first? yes/no"), how a move is typed (row and column
//! from 1 or 0, with a space or a comma, a cell 1-9 or 0-8, `A1`), learned from its prompts and the
//! board it prints. Pure text work: the dialogue seat does the talking.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use regex::Regex;

/// How a program asks who moves first, when it does not ask for a mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// `yes` / `no`.
    YesNo,
    /// `y` / `n`.
    YN,
    /// `1` (the user first) / `2`.
    OneTwo,
}

/// A question about the move order: its form, and whether "first" is asked about the program itself
/// ("Shall the computer go first?") rather than the user ("Would you like to play first?").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstQuestion {
    pub ask: Ask,
    pub about_program: bool,
}

/// A question about who starts that waits for its answer (the last line printed, ending in `?`, `:`,
/// `)` or `>`, or followed only by a `>>>` prompt).
pub fn first_question() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?im)^[^\n]*(?:\b(?:go|play|move|start|begin)s?\s+first\b|\bfirst\s+(?:move|turn|player)\b|\bwho\s+(?:goes|moves|plays|starts)\b|\bplayer\s+1\s+or\s+(?:player\s+)?2\b)[^\n]*[?:)>\]][ \t]*(?:\r?\n[ \t]*>*[ \t]*)?\z",
        )
        .expect("a valid pattern")
    })
}

impl FirstQuestion {
    /// What the question asks for, from its text.
    #[must_use]
    pub fn read(text: &str) -> FirstQuestion {
        let lower = text.to_lowercase();
        let ask = if Regex::new(r"\by\s*/\s*n\b|\(y\s+or\s+n\)|\[y/n\]")
            .is_ok_and(|r| r.is_match(&lower))
        {
            Ask::YN
        } else if !lower.contains("yes")
            && Regex::new(r"\b1\s*(?:/|or)\s*2\b").is_ok_and(|r| r.is_match(&lower))
        {
            Ask::OneTwo
        } else {
            Ask::YesNo
        };
        let about_program = Regex::new(
            r"\b(?:computer|ai|cpu|program|i|me)\b(?:\s+\w+){0,2}\s+(?:go|play|move|start|begin)s?\s+first|\bfirst\s+(?:move|turn)\s+(?:for|to|by)\s+(?:the\s+)?(?:computer|ai|cpu|program|me)\b",
        )
        .is_ok_and(|r| r.is_match(&lower));
        FirstQuestion { ask, about_program }
    }

    /// The answers to try, best first, when the user (the grader's side) is to move first or not.
    #[must_use]
    pub fn answers(self, user_first: bool) -> Vec<&'static str> {
        let yes = user_first != self.about_program;
        match (self.ask, yes) {
            (Ask::YesNo, true) => vec!["yes", "y", "Y"],
            (Ask::YesNo, false) => vec!["no", "n", "N"],
            (Ask::YN, true) => vec!["y", "Y", "yes"],
            (Ask::YN, false) => vec!["n", "N", "no"],
            (Ask::OneTwo, _) if user_first => vec!["1"],
            (Ask::OneTwo, _) => vec!["2"],
        }
    }

    /// In words: `first/second asked as yes/no`.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self.ask {
            Ask::YesNo => "first/second asked as yes/no",
            Ask::YN => "first/second asked as y/n",
            Ask::OneTwo => "first/second asked as 1 or 2",
        }
    }
}

/// How the user types a move on a 3×3 board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The suite's own `send` template (WPI: `row col`, each from 1).
    Script,
    /// Row and column from `base`, separated by a comma (`comma`) or a space.
    RowCol { base: usize, comma: bool },
    /// One cell number, row-major, from `base` (1-9 or 0-8).
    Cell { base: usize },
    /// A letter and a digit from 1: the letter names the row (`B3`: row 2, column 3), or the column;
    /// a capital (`B3`) or not (`b3`).
    Letter { row_letter: bool, small: bool },
}

/// Every format, in the fixed order they are tried after the hinted ones.
pub const ALL: [Format; 10] = [
    Format::Script,
    Format::Cell { base: 1 },
    Format::RowCol {
        base: 1,
        comma: true,
    },
    Format::RowCol {
        base: 0,
        comma: false,
    },
    Format::RowCol {
        base: 0,
        comma: true,
    },
    Format::Cell { base: 0 },
    Format::Letter {
        row_letter: true,
        small: false,
    },
    Format::Letter {
        row_letter: false,
        small: false,
    },
    Format::Letter {
        row_letter: true,
        small: true,
    },
    Format::Letter {
        row_letter: false,
        small: true,
    },
];

impl Format {
    /// A move, given its row and column from 0, as typed in this format (`None` for `Script`, which
    /// the seat fills from the suite's template).
    #[must_use]
    pub fn typed(self, row: usize, col: usize) -> Option<String> {
        Some(match self {
            Format::Script => return None,
            Format::RowCol { base, comma } => {
                let sep = if comma { "," } else { " " };
                format!("{}{sep}{}", row + base, col + base)
            }
            Format::Cell { base } => format!("{}", 3 * row + col + base),
            Format::Letter { row_letter, small } => {
                let (letter, digit) = if row_letter { (row, col) } else { (col, row) };
                let a = if small { b'a' } else { b'A' };
                format!("{}{}", char::from(a + letter as u8), digit + 1)
            }
        })
    }

    /// Inputs that are off the board in this format, for the suite's off-board probes.
    #[must_use]
    pub fn off_board(self) -> [&'static str; 2] {
        match self {
            Format::Script
            | Format::RowCol {
                base: 1,
                comma: false,
            } => ["0 2", "3 4"],
            Format::RowCol { base: 1, .. } => ["0,2", "3,4"],
            Format::RowCol { comma: false, .. } => ["3 1", "1 3"],
            Format::RowCol { .. } => ["3,1", "1,3"],
            Format::Cell { base: 1 } => ["0", "10"],
            Format::Cell { .. } => ["9", "10"],
            Format::Letter { small: false, .. } => ["D1", "A4"],
            Format::Letter { .. } => ["d1", "a4"],
        }
    }

    /// Why an off-board input is off the board, in the student's terms.
    #[must_use]
    pub fn off_board_about(self) -> &'static str {
        match self {
            Format::Script | Format::RowCol { base: 1, .. } => {
                "off the board: rows and columns are 1 to 3"
            }
            Format::RowCol { .. } => "off the board: rows and columns are 0 to 2",
            Format::Cell { base: 1 } => "off the board: cells are 1 to 9",
            Format::Cell { .. } => "off the board: cells are 0 to 8",
            Format::Letter { .. } => "off the board: rows are A to C and columns 1 to 3",
        }
    }

    /// In words: `moves as 1-9 row-major`.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Format::Script
            | Format::RowCol {
                base: 1,
                comma: false,
            } => "moves as `row col` from 1",
            Format::RowCol { base: 1, .. } => "moves as `row,col` from 1",
            Format::RowCol { comma: false, .. } => "moves as `row col` from 0",
            Format::RowCol { .. } => "moves as `row,col` from 0",
            Format::Cell { base: 1 } => "moves as 1-9 row-major",
            Format::Cell { .. } => "moves as 0-8 row-major",
            Format::Letter {
                row_letter: true,
                small: false,
            } => "moves as `A1` (letter = row)",
            Format::Letter { small: false, .. } => "moves as `A1` (letter = column)",
            Format::Letter {
                row_letter: true, ..
            } => "moves as `a1` (letter = row)",
            Format::Letter { .. } => "moves as `a1` (letter = column)",
        }
    }
}

/// The formats to try, best first: those the prompt and the printed board hint at, then every other
/// in `ALL`'s order.
#[must_use]
pub fn candidates(prompt: &str, board: Option<&Board>) -> Vec<Format> {
    let lower = prompt.to_lowercase();
    let has = |re: &str| Regex::new(re).is_ok_and(|r| r.is_match(&lower));
    let mut hinted = Vec::new();
    if has(r"\b1\s*(?:-|–|to|\.\.)\s*9\b") || board.is_some_and(|b| b.numbered == Some(1)) {
        hinted.push(Format::Cell { base: 1 });
    }
    if has(r"\b0\s*(?:-|–|to|\.\.)\s*8\b") || board.is_some_and(|b| b.numbered == Some(0)) {
        hinted.push(Format::Cell { base: 0 });
    }
    if has(r"\b[a-c]\s*[1-3]\b|\ba\s*-\s*c\b") {
        let columns = board.is_some_and(|b| b.letters == Some(false));
        // Small letters first only when the prompt writes its example in small letters.
        let small = Regex::new(r"\b[a-c][1-3]\b").is_ok_and(|r| r.is_match(prompt))
            && !Regex::new(r"\b[A-C][1-3]\b").is_ok_and(|r| r.is_match(prompt));
        for small in [small, !small] {
            for row_letter in [!columns, columns] {
                hinted.push(Format::Letter { row_letter, small });
            }
        }
    }
    let zero = has(r"\b0\s*(?:-|–|to|\.\.)\s*2\b|\b0\s*,\s*0\b|\(0\s*,|\b0\s+0\b");
    let comma = has(r"row\s*,\s*col|\d\s*,\s*\d|\bx\s*,\s*y\b");
    if zero || comma {
        hinted.push(Format::RowCol {
            base: usize::from(!zero),
            comma,
        });
    }
    let mut all = hinted;
    for f in ALL {
        if !all.contains(&f) {
            all.push(f);
        }
    }
    all
}

/// A 3×3 board read from what a program printed: each cell empty or holding a mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Row-major; `None` for an empty cell.
    pub cells: [Option<char>; 9],
    /// Empty cells show their number, counted from 0 or 1.
    pub numbered: Option<usize>,
    /// Rows (`true`) or columns (`false`) are labelled with letters.
    pub letters: Option<bool>,
}

/// One printed row: its three marks, the numbers its empty cells show, and its label.
type Row = ([Option<char>; 3], [Option<u32>; 3], Option<char>);

/// One printed row of three cells, with what its labels say.
fn board_row(line: &str) -> Option<Row> {
    let line = line.trim_end();
    if line.trim().is_empty() {
        return None;
    }
    let cell = |s: &str| -> Option<(Option<char>, Option<u32>)> {
        let t = s.trim();
        let mut chars = t.chars();
        match (chars.next(), chars.next()) {
            (None, _) => Some((None, None)),
            (Some(c), None) => match c {
                'X' | 'x' | 'O' | 'o' => Some((Some(c.to_ascii_uppercase()), None)),
                '-' | '_' | '.' | '#' | '*' => Some((None, None)),
                d if d.is_ascii_digit() => Some((None, d.to_digit(10))),
                _ => None,
            },
            _ => None,
        }
    };
    let mut label = None;
    let parts: Vec<String> = if line.contains('|') {
        let mut parts: Vec<String> = line.split('|').map(str::to_string).collect();
        // A leading or trailing frame (`| X | O |`).
        if parts.len() == 5 && parts[0].trim().is_empty() && parts[4].trim().is_empty() {
            parts = parts[1..4].to_vec();
        }
        if parts.len() != 3 {
            return None;
        }
        // A row label before the first cell (`B  X | O |  `).
        let first: Vec<&str> = parts[0].split_whitespace().collect();
        if first.len() == 2 {
            label = first[0].chars().next();
            parts[0] = first[1].to_string();
        } else if let [one] = first.as_slice() {
            // A row letter before an empty first cell (`B    | O |  `).
            if matches!(one.to_ascii_uppercase().as_str(), "A" | "B" | "C") {
                label = one.chars().next();
                parts[0] = String::new();
            }
        }
        parts
    } else {
        let mut tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() == 4 {
            label = tokens[0].chars().next();
            tokens.remove(0);
        }
        if tokens.len() != 3 {
            return None;
        }
        tokens.into_iter().map(str::to_string).collect()
    };
    let mut marks = [None; 3];
    let mut numbers = [None; 3];
    for (k, p) in parts.iter().enumerate() {
        let (m, n) = cell(p)?;
        marks[k] = m;
        numbers[k] = n;
    }
    Some((marks, numbers, label))
}

/// A line that only separates board rows (`---+---+---`), or is blank.
fn separator(line: &str) -> bool {
    line.chars().all(|c| " \t\r-+|=_~".contains(c))
}

/// The last 3×3 board in `text`: three row lines, with only separators between them. A header of
/// column labels (`  1 2 3`, `  A B C`) reads as a row too, so the last three rows are taken.
#[must_use]
pub fn read_board(text: &str) -> Option<Board> {
    let mut best: Option<Vec<Row>> = None;
    let mut run: Vec<Row> = Vec::new();
    let mut header_letters = false;
    for line in text.lines() {
        if let Some(row) = board_row(line) {
            run.push(row);
            continue;
        }
        if separator(line) && !line.is_empty() && !run.is_empty() {
            continue;
        }
        if run.len() >= 3 {
            best = Some(std::mem::take(&mut run));
        }
        run.clear();
        let t = line.trim().to_ascii_uppercase();
        header_letters = t.split_whitespace().collect::<Vec<_>>() == ["A", "B", "C"];
    }
    if run.len() >= 3 {
        best = Some(run);
    }
    let rows = best?;
    let rows = &rows[rows.len() - 3..];
    let mut cells = [None; 9];
    let mut numbers = Vec::new();
    for (r, (marks, nums, _)) in rows.iter().enumerate() {
        for c in 0..3 {
            cells[3 * r + c] = marks[c];
            if let Some(n) = nums[c] {
                numbers.push((3 * r + c, n));
            }
        }
    }
    let numbered = [0usize, 1]
        .into_iter()
        .find(|&base| !numbers.is_empty() && numbers.iter().all(|&(i, n)| n as usize == i + base));
    let row_labels: Vec<Option<char>> = rows.iter().map(|r| r.2).collect();
    let letters = if row_labels
        .iter()
        .map(|l| l.map(|c| c.to_ascii_uppercase()))
        .eq([Some('A'), Some('B'), Some('C')])
    {
        Some(true)
    } else if header_letters
        || text.lines().any(|l| {
            l.trim()
                .to_ascii_uppercase()
                .split_whitespace()
                .collect::<Vec<_>>()
                == ["A", "B", "C"]
        })
    {
        Some(false)
    } else {
        None
    };
    Some(Board {
        cells,
        numbered,
        letters,
    })
}

/// What a program's printed board says about the move that was just made on `before` (row-major
/// `true` for an occupied cell): the one new mark, when exactly one cell filled and none emptied.
#[must_use]
pub fn new_mark(before: &[bool; 9], board: &Board) -> Option<usize> {
    let mut fresh = None;
    for (i, (&was, now)) in before.iter().zip(board.cells).enumerate() {
        match (was, now.is_some()) {
            (true, false) => return None,
            (false, true) if fresh.is_some() => return None,
            (false, true) => fresh = Some(i),
            _ => {}
        }
    }
    fresh
}

/// What was learned about one program, kept for its later games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    pub first: Option<FirstQuestion>,
    pub format: Option<Format>,
}

/// Conventions learned per program (its command and folder), so that a submission's later games type
/// moves as its first game found out. A submission's games are played one after another.
fn memory() -> &'static Mutex<HashMap<String, Learned>> {
    static MEMORY: OnceLock<Mutex<HashMap<String, Learned>>> = OnceLock::new();
    MEMORY.get_or_init(Mutex::default)
}

/// What an earlier game of the program `key` learned.
#[must_use]
pub fn recall(key: &str) -> Option<Learned> {
    memory().lock().ok()?.get(key).copied()
}

/// Keeps what a game learned about the program `key`.
pub fn remember(key: &str, learned: Learned) {
    if let Ok(mut m) = memory().lock() {
        // Bounded: a long-lived process grading many classes forgets rather than grows.
        if m.len() > 4096 {
            m.clear();
        }
        m.insert(key.to_string(), learned);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_about_the_first_move_are_read_with_their_answers() {
        let q = |t: &str| {
            assert!(first_question().is_match(t), "{t}");
            FirstQuestion::read(t)
        };
        let a = q("Welcome!\nWould you like to play first? (yes/no) ");
        assert_eq!((a.ask, a.about_program), (Ask::YesNo, false));
        assert_eq!(a.answers(true)[0], "yes");
        assert_eq!(a.answers(false)[0], "no");
        let b = q("Do you want to start first? (y/n)\n");
        assert_eq!(b.ask, Ask::YN);
        let c = q("First move for AI? (Y/N)\n>>> ");
        assert!(c.about_program);
        assert_eq!(c.answers(true)[0], "n");
        let d = q("Shall the computer go first? ");
        assert!(d.about_program);
        let e = q("Are you player 1 or 2? ");
        assert_eq!(e.ask, Ask::OneTwo);
        assert_eq!(e.answers(false), ["2"]);
        assert!(!first_question().is_match("Do you want to play X or O? "));
        assert!(!first_question().is_match("I go first.\nI play 2 2\n"));
    }

    #[test]
    fn boards_in_several_styles_are_read() {
        let b = read_board("    1   2   3\n 1  X | O |  \n   ---+---+---\n 2    | X |  \n   ---+---+---\n 3    |   | O\n\nYour move: ")
            .unwrap();
        assert_eq!(
            b.cells,
            [
                Some('X'),
                Some('O'),
                None,
                None,
                Some('X'),
                None,
                None,
                None,
                Some('O')
            ]
        );
        let n =
            read_board(" 1 | 2 | 3\n---+---+---\n 4 | X | 6\n---+---+---\n 7 | 8 | O\n").unwrap();
        assert_eq!(n.numbered, Some(1));
        assert_eq!(n.cells[4], Some('X'));
        let l = read_board("   1 2 3\nA  . . X\nB  . O .\nC  . . .\n").unwrap();
        assert_eq!(l.letters, Some(true));
        assert_eq!(l.cells[2], Some('X'));
        let c = read_board("[x][ ][ ]".replace("][", "|").trim_matches(['[', ']'])).is_none();
        assert!(c, "one row is no board");
        let before = [true, false, false, false, false, false, false, false, false];
        let after = read_board("X|O|-\n-|-|-\n-|-|-\n").unwrap();
        assert_eq!(new_mark(&before, &after), Some(1));
    }

    #[test]
    fn formats_are_hinted_by_the_prompt_and_the_board() {
        assert_eq!(
            candidates("Enter your move (1-9): ", None)[0],
            Format::Cell { base: 1 }
        );
        assert_eq!(
            candidates("Your move as row,col (0-2): ", None)[0],
            Format::RowCol {
                base: 0,
                comma: true
            }
        );
        assert_eq!(
            candidates("Your move (e.g. B2): ", None)[0],
            Format::Letter {
                row_letter: true,
                small: false
            }
        );
        assert_eq!(
            candidates("Enter row and column: ", None)[0],
            Format::Script
        );
        assert_eq!(candidates("Move? ", None).len(), ALL.len());
        assert_eq!(Format::Cell { base: 1 }.typed(1, 2).as_deref(), Some("6"));
        assert_eq!(
            Format::Letter {
                row_letter: true,
                small: false
            }
            .typed(2, 0)
            .as_deref(),
            Some("C1")
        );
        let small = candidates("Your move (e.g. b2): ", None);
        assert_eq!(
            small[0],
            Format::Letter {
                row_letter: true,
                small: true
            }
        );
        assert_eq!(small[0].typed(0, 2).as_deref(), Some("a3"));
        assert_eq!(small.len(), ALL.len());
        assert_eq!(
            Format::RowCol {
                base: 0,
                comma: true
            }
            .typed(0, 2)
            .as_deref(),
            Some("0,2")
        );
    }
}
