//! UT3, the IIIT 2015 Ultimate tic-tac-toe variant with the corner rule and the abandon rule.
//!
//! Rules (see `reference/rules/ut3.md`): one placement per turn; a non-corner cell sends the opponent to
//! the block at that cell's position; a corner cell lets the opponent choose among three blocks (the corner
//! block of that corner and its two edge neighbours); won blocks are closed; when none of the allowed blocks
//! has an open cell the move is free; three won blocks in a line win; a full board without that is a draw,
//! which the suite scores with [`Ut3::blocks_won`] and then [`Ut3::corner_cells`].

use crate::game::{Game, Notation, Outcome, Player};
use crate::games::decode::DecodeError;
use crate::games::tri::{self, has_line, FULL};
use crate::rng::Rng;

/// A placement: row and column on the 9×9 board, both `0..9`, as the handout's `(row, col)` tuple.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ut3Move {
    pub row: u8,
    pub col: u8,
}

impl Ut3Move {
    /// The block (`0..9`, row-major) and the position inside it (`0..9`, row-major).
    #[must_use]
    pub fn block_pos(self) -> (usize, usize) {
        let (r, c) = (usize::from(self.row), usize::from(self.col));
        ((r / 3) * 3 + c / 3, (r % 3) * 3 + c % 3)
    }

    #[must_use]
    pub fn from_block_pos(block: usize, pos: usize) -> Ut3Move {
        Ut3Move {
            row: ((block / 3) * 3 + pos / 3) as u8,
            col: ((block % 3) * 3 + pos % 3) as u8,
        }
    }
}

/// The blocks a move in cell position `pos` (of any block) sends the opponent to, as a mask. Corner
/// positions follow the course referee (INDEX.md): top-left → {0,1,3}, top-right → {1,2,5},
/// bottom-left → {3,6,7}, bottom-right → {5,7,8}.
const TARGETS: [u16; 9] = [
    1 << 0 | 1 << 1 | 1 << 3,
    1 << 1,
    1 << 1 | 1 << 2 | 1 << 5,
    1 << 3,
    1 << 4,
    1 << 5,
    1 << 3 | 1 << 6 | 1 << 7,
    1 << 7,
    1 << 5 | 1 << 7 | 1 << 8,
];

/// Corner positions inside a block, as a 9-bit mask.
const CORNERS: u16 = 1 << 0 | 1 << 2 | 1 << 6 | 1 << 8;

/// A UT3 position: the board, the blocks won, the last move and the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ut3 {
    /// Per side, per block: the cells that side holds.
    cells: [[u16; 9]; 2],
    /// Per side: the blocks that side has won.
    won: [u16; 2],
    /// The blocks the side to move may play in (after the abandon and free-move rules).
    allowed: u16,
    /// The blocks neither won nor full (kept up to date because playouts ask every ply).
    open: u16,
    last: Option<Ut3Move>,
    to_move: Player,
    outcome: Option<Outcome>,
}

impl Default for Ut3 {
    fn default() -> Self {
        Ut3::new()
    }
}

impl Ut3 {
    /// The empty board, `x` (`Player::First`) to move anywhere.
    #[must_use]
    pub fn new() -> Ut3 {
        Ut3 {
            cells: [[0; 9]; 2],
            won: [0; 2],
            allowed: FULL,
            open: FULL,
            last: None,
            to_move: Player::First,
            outcome: None,
        }
    }

    /// The previous move, `None` at the start (the handout's `(-1, -1)`).
    #[must_use]
    pub fn last_move(&self) -> Option<Ut3Move> {
        self.last
    }

    /// Who holds cell `(row, col)`.
    #[must_use]
    pub fn cell(&self, row: usize, col: usize) -> Option<Player> {
        let m = Ut3Move {
            row: row as u8,
            col: col as u8,
        };
        let (b, p) = m.block_pos();
        [Player::First, Player::Second]
            .into_iter()
            .find(|s| self.cells[s.index()][b] >> p & 1 == 1)
    }

    /// Who has won block `block` (`0..9`, row-major): the handout's `board_stat` entry.
    #[must_use]
    pub fn block_winner(&self, block: usize) -> Option<Player> {
        [Player::First, Player::Second]
            .into_iter()
            .find(|s| self.won[s.index()] >> block & 1 == 1)
    }

    /// How many blocks `side` has won: the first draw tie-break of the handout's scoring.
    #[must_use]
    pub fn blocks_won(&self, side: Player) -> u32 {
        self.won[side.index()].count_ones()
    }

    /// How many corner cells (of all 81 cells, the four corners of every block) `side` holds: the second
    /// draw tie-break.
    #[must_use]
    pub fn corner_cells(&self, side: Player) -> u32 {
        self.cells[side.index()]
            .iter()
            .map(|m| (m & CORNERS).count_ones())
            .sum()
    }

    /// The side the handout's draw scoring favours (2 points against 1): more blocks won, then more
    /// corner cells; `None` when both tie (1 point each). Meaningful for a drawn game.
    #[must_use]
    pub fn draw_tiebreak(&self) -> Option<Player> {
        let key = |p: Player| (self.blocks_won(p), self.corner_cells(p));
        match key(Player::First).cmp(&key(Player::Second)) {
            std::cmp::Ordering::Greater => Some(Player::First),
            std::cmp::Ordering::Less => Some(Player::Second),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The blocks the side to move may play in, as a mask (bit `b` = block `b`).
    #[must_use]
    pub fn allowed_blocks(&self) -> u16 {
        self.allowed
    }

    /// Empty cells of block `b` (zero for a won block).
    #[inline]
    pub(crate) fn open_cells(&self, b: usize) -> u16 {
        tri::open_cells(&self.cells, self.won, b)
    }

    /// Per little board, the squares `side` holds and the squares the other side holds.
    pub(crate) fn cell_masks(&self, side: Player) -> ([u16; 9], [u16; 9]) {
        (
            self.cells[side.index()],
            self.cells[side.opponent().index()],
        )
    }

    pub(crate) fn won_mask(&self, side: Player) -> u16 {
        self.won[side.index()]
    }

    /// Boards closed without a winner: full, nobody's line.
    pub(crate) fn dead_blocks(&self) -> u16 {
        tri::dead_boards(&self.cells, self.won)
    }

    /// The allowed blocks in which the side to move can complete a line with its next move.
    #[must_use]
    pub fn blocks_winnable_now(&self) -> u16 {
        let own = &self.cells[self.to_move.index()];
        let mut out = 0;
        let mut a = self.allowed;
        while a != 0 {
            let b = a.trailing_zeros() as usize;
            a &= a - 1;
            let mut cells = self.open_cells(b);
            while cells != 0 {
                let c = cells.trailing_zeros();
                cells &= cells - 1;
                if has_line(own[b] | 1 << c) {
                    out |= 1 << b;
                    break;
                }
            }
        }
        out
    }

    /// Blocks that are neither won nor full, computed from scratch.
    fn compute_open(&self) -> u16 {
        (0..9)
            .filter(|&b| self.open_cells(b) != 0)
            .fold(0, |m, b| m | 1 << b)
    }

    /// Plays block `b`, position `p` without checking legality (the caller did).
    #[inline]
    pub(crate) fn place(&mut self, b: usize, p: usize) {
        let me = self.to_move.index();
        self.cells[me][b] |= 1 << p;
        if has_line(self.cells[me][b]) {
            self.won[me] |= 1 << b;
            self.open &= !(1 << b);
            if has_line(self.won[me]) {
                self.outcome = Some(Outcome::Win(self.to_move));
            }
        } else if self.cells[0][b] | self.cells[1][b] == FULL {
            self.open &= !(1 << b);
        }
        self.last = Some(Ut3Move::from_block_pos(b, p));
        self.to_move = self.to_move.opponent();
        let open = self.open;
        if self.outcome.is_none() && open == 0 {
            self.outcome = Some(Outcome::Draw);
        }
        let target = TARGETS[p] & open;
        self.allowed = if target == 0 { open } else { target };
    }

    /// Plays one uniformly random legal move (the game must not be over), without allocating: the
    /// step of the bots' playouts.
    pub(crate) fn random_move(&mut self, rng: &mut Rng) {
        let a = self.allowed;
        if a & (a - 1) == 0 {
            // One block allowed (every non-corner move): no need to weigh blocks.
            let b = a.trailing_zeros() as usize;
            let cells = self.open_cells(b);
            let k = rng.below(cells.count_ones() as usize) as u32;
            self.place(b, tri::nth_bit(cells, k));
            return;
        }
        let mut open = [0u16; 9];
        let mut total = 0;
        let mut a = a;
        while a != 0 {
            let b = a.trailing_zeros() as usize;
            a &= a - 1;
            open[b] = self.open_cells(b);
            total += open[b].count_ones();
        }
        let mut k = rng.below(total as usize) as u32;
        for (b, &cells) in open.iter().enumerate() {
            let c = cells.count_ones();
            if k < c {
                self.place(b, tri::nth_bit(cells, k));
                return;
            }
            k -= c;
        }
    }

    /// Whether `mv` is legal here (inside the board, empty, in an allowed block, game not over).
    #[must_use]
    pub fn is_legal(&self, mv: Ut3Move) -> bool {
        if self.outcome.is_some() || mv.row >= 9 || mv.col >= 9 {
            return false;
        }
        let (b, p) = mv.block_pos();
        self.allowed >> b & 1 == 1 && self.open_cells(b) >> p & 1 == 1
    }

    /// Reads the line [`Notation::encode`] writes: `CELLS STAT ROW,COL FLAG`.
    ///
    /// # Errors
    /// When the line is malformed or the position cannot arise in a game.
    pub fn decode(line: &str) -> Result<Ut3, DecodeError> {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [cells, stat, last, flag] = parts[..] else {
            return Err(DecodeError::syntax(
                format!(
                    "expected 4 fields (cells, board_stat, last move, flag), found {}",
                    parts.len()
                ),
                line,
            ));
        };
        if cells.chars().count() != 81 {
            return Err(DecodeError::syntax(
                format!(
                    "the cells field has {} characters, not 81",
                    cells.chars().count()
                ),
                line,
            ));
        }
        let mut g = Ut3::cells_of(cells)?;
        g.check_stat(stat, line)?;
        let played = g.check_turn(flag, line)?;
        g.last = g.last_of(last, line, played)?;
        let open = g.compute_open();
        g.open = open;
        for s in [Player::First, Player::Second] {
            if has_line(g.won[s.index()]) {
                g.outcome = Some(Outcome::Win(s));
            }
        }
        if g.outcome.is_none() && open == 0 {
            g.outcome = Some(Outcome::Draw);
        }
        g.allowed = match g.last {
            None => FULL,
            Some(m) => {
                let t = TARGETS[m.block_pos().1] & open;
                if t == 0 {
                    open
                } else {
                    t
                }
            }
        };
        Ok(g)
    }

    /// The cells field: each block's marks and the blocks each side has won.
    fn cells_of(cells: &str) -> Result<Ut3, DecodeError> {
        let mut g = Ut3::new();
        for (i, ch) in cells.chars().enumerate() {
            let side = match ch {
                '-' => continue,
                'x' => Player::First,
                'o' => Player::Second,
                other => {
                    return Err(DecodeError::BadCell {
                        found: other.to_string(),
                        place: format!("row {}, col {}", i / 9, i % 9),
                        expected: "`-`, `x`, `o`",
                    })
                }
            };
            let m = Ut3Move {
                row: (i / 9) as u8,
                col: (i % 9) as u8,
            };
            let (b, p) = m.block_pos();
            g.cells[side.index()][b] |= 1 << p;
        }
        for s in [Player::First, Player::Second] {
            for b in 0..9 {
                if has_line(g.cells[s.index()][b]) {
                    g.won[s.index()] |= 1 << b;
                }
            }
        }
        Ok(g)
    }

    /// The board_stat field agrees with the cells.
    fn check_stat(&self, stat: &str, line: &str) -> Result<(), DecodeError> {
        if stat.chars().count() != 9 {
            return Err(DecodeError::syntax(
                "the board_stat field must have 9 characters",
                line,
            ));
        }
        let expect: String = (0..9)
            .map(|b| match self.block_winner(b) {
                Some(Player::First) => 'x',
                Some(Player::Second) => 'o',
                None => '-',
            })
            .collect();
        if stat != expect {
            return Err(DecodeError::Impossible(format!(
                "board_stat `{stat}` does not match the cells, which give `{expect}`"
            )));
        }
        Ok(())
    }

    /// The flag field, the side to move, agrees with the marks' counts. The number of marks played.
    fn check_turn(&mut self, flag: &str, line: &str) -> Result<u32, DecodeError> {
        let xs: u32 = self.cells[0].iter().map(|m| m.count_ones()).sum();
        let os: u32 = self.cells[1].iter().map(|m| m.count_ones()).sum();
        self.to_move = match flag {
            "x" => Player::First,
            "o" => Player::Second,
            other => {
                return Err(DecodeError::syntax(
                    format!("flag `{other}` is not `x` or `o`"),
                    line,
                ))
            }
        };
        let expected_side = if xs == os {
            Player::First
        } else if xs == os + 1 {
            Player::Second
        } else {
            return Err(DecodeError::Impossible(format!(
                "{xs} x and {os} o on the board"
            )));
        };
        if self.to_move != expected_side {
            return Err(DecodeError::Impossible(format!(
                "with {xs} x and {os} o it is not `{flag}`'s turn"
            )));
        }
        Ok(xs + os)
    }

    /// The last move field: `-1,-1` on an empty board, else a cell of the side that just moved.
    fn last_of(&self, last: &str, line: &str, played: u32) -> Result<Option<Ut3Move>, DecodeError> {
        let (r, c) = last
            .split_once(',')
            .and_then(|(r, c)| Some((r.trim().parse::<i32>().ok()?, c.trim().parse::<i32>().ok()?)))
            .ok_or_else(|| {
                DecodeError::syntax(format!("last move `{last}` is not `ROW,COL`"), line)
            })?;
        if (r, c) == (-1, -1) {
            if played != 0 {
                return Err(DecodeError::Impossible(
                    "last move `-1,-1` on a non-empty board".into(),
                ));
            }
        } else {
            if !(0..9).contains(&r) || !(0..9).contains(&c) {
                return Err(DecodeError::Impossible(format!(
                    "last move `{r},{c}` is off the board"
                )));
            }
            let m = Ut3Move {
                row: r as u8,
                col: c as u8,
            };
            if self.cell(r as usize, c as usize) != Some(self.to_move.opponent()) {
                return Err(DecodeError::Impossible(format!(
                    "last move `{r},{c}` is not a cell of the side that just moved"
                )));
            }
            return Ok(Some(m));
        }
        Ok(None)
    }
}

impl Game for Ut3 {
    type Move = Ut3Move;

    fn to_move(&self) -> Player {
        self.to_move
    }

    /// Row-major order of the 9×9 board.
    fn legal_moves(&self, out: &mut Vec<Ut3Move>) {
        if self.outcome.is_some() {
            return;
        }
        for row in 0..9u8 {
            for col in 0..9u8 {
                let m = Ut3Move { row, col };
                let (b, p) = m.block_pos();
                if self.allowed >> b & 1 == 1 && self.open_cells(b) >> p & 1 == 1 {
                    out.push(m);
                }
            }
        }
    }

    fn apply(&mut self, mv: Ut3Move) {
        debug_assert!(self.is_legal(mv), "illegal UT3 move {mv:?}");
        let (b, p) = mv.block_pos();
        self.place(b, p);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

fn mark(p: Option<Player>) -> char {
    match p {
        Some(Player::First) => 'x',
        Some(Player::Second) => 'o',
        None => '-',
    }
}

impl Notation for Ut3 {
    /// `CELLS STAT ROW,COL FLAG`: the 81 cells of `current_board_game` row-major (`-`, `x`, `o`), the 9
    /// entries of `board_stat`, `move_by_opponent` (`-1,-1` at the start) and the `flag` of the side to
    /// move, separated by single spaces.
    fn encode(&self) -> String {
        let mut s = String::with_capacity(81 + 9 + 12);
        for r in 0..9 {
            for c in 0..9 {
                s.push(mark(self.cell(r, c)));
            }
        }
        s.push(' ');
        for b in 0..9 {
            s.push(mark(self.block_winner(b)));
        }
        match self.last {
            None => s.push_str(" -1,-1 "),
            Some(m) => s.push_str(&format!(" {},{} ", m.row, m.col)),
        }
        s.push(mark(Some(self.to_move)));
        s
    }

    /// `(row, col)`, as the Python `move` returns it.
    fn format_move(&self, mv: Ut3Move) -> String {
        format!("({}, {})", mv.row, mv.col)
    }

    /// Accepts `(r, c)`, `r,c` or `r c`.
    fn parse_move(&self, text: &str) -> Result<Ut3Move, String> {
        let t = text.trim();
        let t = t
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(t);
        let nums: Vec<&str> = t
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect();
        let [r, c] = nums[..] else {
            return Err("expected `(row, col)`".into());
        };
        let (Ok(r), Ok(c)) = (r.parse::<i64>(), c.parse::<i64>()) else {
            return Err("expected two whole numbers".into());
        };
        if !(0..9).contains(&r) || !(0..9).contains(&c) {
            return Err(format!(
                "`({r}, {c})` is off the board (rows and columns are 0..8)"
            ));
        }
        let m = Ut3Move {
            row: r as u8,
            col: c as u8,
        };
        if self.outcome.is_some() {
            return Err("the game is over".into());
        }
        let (b, p) = m.block_pos();
        if self.cell(r as usize, c as usize).is_some() {
            return Err(format!("cell `({r}, {c})` is taken"));
        }
        if self.block_winner(b).is_some() {
            return Err(format!("block {b} is already won (abandon rule)"));
        }
        if self.allowed >> b & 1 == 0 {
            let list: Vec<String> = (0..9)
                .filter(|i| self.allowed >> i & 1 == 1)
                .map(|i| i.to_string())
                .collect();
            return Err(format!(
                "block {b} is not allowed: the last move sends play to block(s) {}",
                list.join(", ")
            ));
        }
        debug_assert!(self.open_cells(b) >> p & 1 == 1);
        Ok(m)
    }
}
