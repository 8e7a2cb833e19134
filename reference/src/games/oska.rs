//! Oska (UBC CPSC 322, 2004) for any n from 4 to 11: diagonal forward steps and single capturing jumps.
//!
//! Rules (see `reference/rules/oska.md`): n pieces a side on 2n−3 rows (n, n−1, …, 2, …, n−1, n
//! squares); white starts on the top row and moves first, downwards; black moves upwards. A move is a
//! diagonal step forward to an empty square, or a forward jump over an adjacent enemy piece to the empty
//! square beyond, capturing it (one capture a turn, never forced). A side with no move passes. A side wins
//! when the other has no pieces left, or when all its own remaining pieces stand on the far row; when a
//! move leaves both sides in that state, rule 10 gives the game to the side with more pieces (equal: a
//! draw). If neither side can move, the game ends and is scored the same way.

use std::sync::OnceLock;

use crate::game::{Game, Notation, Outcome, Player};
use crate::games::decode::DecodeError;

/// The largest `n` supported: the board (n² + n − 4 squares) must fit in 128 bits.
pub const MAX_N: usize = 11;

/// An Oska size this build cannot play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "oska needs 4 to {MAX_N} pieces a side, got `{0}`\nhint: write `oska:N` with 4 <= N <= {MAX_N}"
)]
pub struct OskaSizeError(pub usize);

/// A move: a piece goes from one square to another (squares numbered `0..` in reading order, top row
/// first, left to right), or the forced pass of a side that cannot move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OskaMove {
    Move { from: u8, to: u8 },
    Pass,
}

/// The fixed shape of a board of size `n`: rows, and where each square's steps and jumps lead.
#[derive(Debug)]
struct Geometry {
    /// Per row: first square and length.
    rows: Vec<(usize, usize)>,
    /// Per side, per square: squares a step forward reaches.
    steps: [Vec<Vec<u8>>; 2],
    /// Per side, per square: `(over, to)` of each forward jump.
    jumps: [Vec<Vec<(u8, u8)>>; 2],
    /// The top row (white's start, black's goal) and the bottom row.
    top: u128,
    bottom: u128,
}

impl Geometry {
    fn build(n: usize) -> Geometry {
        let nrows = 2 * n - 3;
        let mut rows = Vec::with_capacity(nrows);
        let mut start = 0;
        for r in 0..nrows {
            let len = r.abs_diff(n - 2) + 2;
            rows.push((start, len));
            start += len;
        }
        let cells = start;
        // Doubled horizontal coordinate: square i of a row of k squares sits at x = 2i − (k − 1), so a
        // diagonal step changes x by ±1 and a jump by ±2, whatever the rows' lengths.
        let at = |r: isize, x: isize| -> Option<usize> {
            if r < 0 || r >= nrows as isize {
                return None;
            }
            let (s, k) = rows[r as usize];
            let j2 = x + k as isize - 1;
            (j2 >= 0 && j2 % 2 == 0 && (j2 / 2) < k as isize).then(|| s + (j2 / 2) as usize)
        };
        let mut steps = [vec![Vec::new(); cells], vec![Vec::new(); cells]];
        let mut jumps = [vec![Vec::new(); cells], vec![Vec::new(); cells]];
        for (r, &(s, k)) in rows.iter().enumerate() {
            for i in 0..k {
                let x = 2 * i as isize - (k as isize - 1);
                for (side, dir) in [(0, 1isize), (1, -1isize)] {
                    for dx in [-1isize, 1] {
                        if let Some(to) = at(r as isize + dir, x + dx) {
                            steps[side][s + i].push(to as u8);
                            if let Some(to2) = at(r as isize + 2 * dir, x + 2 * dx) {
                                jumps[side][s + i].push((to as u8, to2 as u8));
                            }
                        }
                    }
                }
            }
        }
        let row_mask = |(s, k): (usize, usize)| (s..s + k).fold(0u128, |m, i| m | 1 << i);
        Geometry {
            top: row_mask(rows[0]),
            bottom: row_mask(rows[nrows - 1]),
            rows,
            steps,
            jumps,
        }
    }
}

fn geometry(n: usize) -> &'static Geometry {
    static GEOMS: [OnceLock<Geometry>; MAX_N + 1] = [const { OnceLock::new() }; MAX_N + 1];
    GEOMS[n].get_or_init(|| Geometry::build(n))
}

/// An Oska position. White is `Player::First`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Oska {
    n: u8,
    /// Per side: the squares its pieces stand on.
    pieces: [u128; 2],
    to_move: Player,
    outcome: Option<Outcome>,
}

impl Oska {
    /// The start position with `n` pieces a side, white to move, or an error for `n` outside `4..=11`.
    ///
    /// # Errors
    /// `n` below 4 or above [`MAX_N`].
    pub fn try_new(n: usize) -> Result<Oska, OskaSizeError> {
        if (4..=MAX_N).contains(&n) {
            Ok(Oska::new(n))
        } else {
            Err(OskaSizeError(n))
        }
    }

    /// The start position with `n` pieces a side, white to move.
    ///
    /// # Panics
    /// When `n` is outside `4..=11` (see [`MAX_N`]).
    #[must_use]
    pub fn new(n: usize) -> Oska {
        assert!(
            (4..=MAX_N).contains(&n),
            "Oska needs 4 <= n <= {MAX_N}, got {n}"
        );
        let g = geometry(n);
        Oska {
            n: n as u8,
            pieces: [g.top, g.bottom],
            to_move: Player::First,
            outcome: None,
        }
    }

    /// Pieces a side.
    #[must_use]
    pub fn n(&self) -> usize {
        usize::from(self.n)
    }

    fn geo(&self) -> &'static Geometry {
        geometry(self.n())
    }

    /// Number of squares on the board.
    #[must_use]
    pub fn squares(&self) -> usize {
        let g = self.geo();
        let (s, k) = g.rows[g.rows.len() - 1];
        s + k
    }

    /// Row lengths, top first.
    #[must_use]
    pub fn row_lengths(&self) -> Vec<usize> {
        self.geo().rows.iter().map(|r| r.1).collect()
    }

    /// Who stands on square `sq`.
    #[must_use]
    pub fn at(&self, sq: usize) -> Option<Player> {
        [Player::First, Player::Second]
            .into_iter()
            .find(|s| self.pieces[s.index()] >> sq & 1 == 1)
    }

    /// How many pieces `side` has left (rule 10 compares these).
    #[must_use]
    pub fn pieces_left(&self, side: Player) -> u32 {
        self.pieces[side.index()].count_ones()
    }

    /// The far row for `side`: the opponent's starting row.
    fn goal(&self, side: Player) -> u128 {
        match side {
            Player::First => self.geo().bottom,
            Player::Second => self.geo().top,
        }
    }

    /// Do all of `side`'s remaining pieces (at least one) stand on the opponent's starting row?
    #[must_use]
    pub fn all_home(&self, side: Player) -> bool {
        let p = self.pieces[side.index()];
        p != 0 && p & !self.goal(side) == 0
    }

    /// The total number of rows `side`'s pieces still have to cross to reach the far row.
    #[must_use]
    pub fn rows_to_go(&self, side: Player) -> u32 {
        let g = self.geo();
        let last = g.rows.len() - 1;
        let own = self.pieces[side.index()];
        g.rows
            .iter()
            .enumerate()
            .map(|(r, &(s, k))| {
                let on_row = (own >> s & ((1u128 << k) - 1)).count_ones();
                let to_go = if side == Player::First { last - r } else { r };
                on_row * to_go as u32
            })
            .sum()
    }

    /// The squares `side`'s pieces stand on, one bit per square in reading order (for solvers that
    /// key positions by their pieces).
    #[must_use]
    pub fn piece_mask(&self, side: Player) -> u128 {
        self.pieces[side.index()]
    }

    /// The rows from the top, each square's piece (`None` for empty).
    #[must_use]
    pub fn rows(&self) -> Vec<Vec<Option<Player>>> {
        self.geo()
            .rows
            .iter()
            .map(|&(s, k)| (s..s + k).map(|i| self.at(i)).collect())
            .collect()
    }

    /// Calls `f` with each real move (not a pass) of `side`, in (from, to) order.
    #[inline]
    fn for_each_move(&self, side: Player, mut f: impl FnMut(u8, u8)) {
        let g = self.geo();
        let own = self.pieces[side.index()];
        let other = self.pieces[side.opponent().index()];
        let empty = !(own | other);
        let mut rest = own;
        while rest != 0 {
            let from = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut tos = [0u8; 4];
            let mut k = 0;
            for &to in &g.steps[side.index()][from] {
                if empty >> to & 1 == 1 {
                    tos[k] = to;
                    k += 1;
                }
            }
            for &(over, to) in &g.jumps[side.index()][from] {
                if other >> over & 1 == 1 && empty >> to & 1 == 1 {
                    tos[k] = to;
                    k += 1;
                }
            }
            let tos = &mut tos[..k];
            tos.sort_unstable();
            for &to in tos.iter() {
                f(from as u8, to);
            }
        }
    }

    /// How many moves `side` would have if it were its turn (passes not counted).
    #[must_use]
    pub fn mobility(&self, side: Player) -> u32 {
        let mut k = 0;
        self.for_each_move(side, |_, _| k += 1);
        k
    }

    /// How many capturing jumps `side` would have if it were its turn.
    #[must_use]
    pub fn capture_count(&self, side: Player) -> u32 {
        let g = self.geo();
        let mut k = 0;
        self.for_each_move(side, |from, to| {
            if !g.steps[side.index()][usize::from(from)].contains(&to) {
                k += 1;
            }
        });
        k
    }

    /// How many of `side`'s pieces off the far row have no move (blocked in front).
    #[must_use]
    pub fn stuck(&self, side: Player) -> u32 {
        let mut free = 0u128;
        self.for_each_move(side, |from, _| free |= 1 << from);
        (self.pieces[side.index()] & !self.goal(side) & !free).count_ones()
    }

    /// The rows each of `side`'s pieces still has to cross, in square order.
    #[must_use]
    pub fn piece_rows_to_go(&self, side: Player) -> Vec<u32> {
        let g = self.geo();
        let last = g.rows.len() - 1;
        let own = self.pieces[side.index()];
        let mut out = Vec::new();
        for (r, &(s, k)) in g.rows.iter().enumerate() {
            let to_go = if side == Player::First { last - r } else { r } as u32;
            for i in s..s + k {
                if own >> i & 1 == 1 {
                    out.push(to_go);
                }
            }
        }
        out
    }

    fn can_move(&self, side: Player) -> bool {
        let g = self.geo();
        let own = self.pieces[side.index()];
        let other = self.pieces[side.opponent().index()];
        let empty = !(own | other);
        let mut rest = own;
        while rest != 0 {
            let from = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if g.steps[side.index()][from]
                .iter()
                .any(|&to| empty >> to & 1 == 1)
                || g.jumps[side.index()][from]
                    .iter()
                    .any(|&(over, to)| other >> over & 1 == 1 && empty >> to & 1 == 1)
            {
                return true;
            }
        }
        false
    }

    /// The result by rule 10's count: more pieces wins, equal is a draw.
    fn by_count(&self) -> Outcome {
        let (w, b) = (
            self.pieces_left(Player::First),
            self.pieces_left(Player::Second),
        );
        match w.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::First),
            std::cmp::Ordering::Less => Outcome::Win(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// Decides whether the game is over after a move (or in a decoded position).
    fn settle(&mut self) {
        let (w, b) = (self.pieces[0], self.pieces[1]);
        self.outcome = if b == 0 {
            Some(Outcome::Win(Player::First))
        } else if w == 0 {
            Some(Outcome::Win(Player::Second))
        } else {
            match (self.all_home(Player::First), self.all_home(Player::Second)) {
                (true, true) => Some(self.by_count()),
                (true, false) => Some(Outcome::Win(Player::First)),
                (false, true) => Some(Outcome::Win(Player::Second)),
                (false, false) => {
                    if !self.can_move(self.to_move) && !self.can_move(self.to_move.opponent()) {
                        Some(self.by_count())
                    } else {
                        None
                    }
                }
            }
        };
    }

    /// Reads the handout's board list (`[[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]`, spaces allowed)
    /// with the side to move given separately, as the predicate's `Colour` argument is.
    ///
    /// # Errors
    /// When the list is malformed, its shape is not an Oska board for some n in 4..=11, a square is not
    /// `w`, `b` or `e`, or a side has more than n pieces.
    pub fn decode(line: &str, to_move: Player) -> Result<Oska, DecodeError> {
        let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        let inner = compact
            .strip_prefix("[[")
            .and_then(|s| s.strip_suffix("]]"))
            .ok_or_else(|| {
                DecodeError::syntax("expected a list of rows `[[...],...,[...]]`", line)
            })?;
        let rows: Vec<Vec<&str>> = inner.split("],[").map(|r| r.split(',').collect()).collect();
        let n = rows[0].len();
        if !(4..=MAX_N).contains(&n) {
            return Err(DecodeError::syntax(
                format!("the first row has {n} squares; n must be 4..={MAX_N}"),
                line,
            ));
        }
        let g = geometry(n);
        let lens: Vec<usize> = rows.iter().map(Vec::len).collect();
        let want: Vec<usize> = g.rows.iter().map(|r| r.1).collect();
        if lens != want {
            return Err(DecodeError::syntax(
                format!(
                    "row lengths {lens:?} are not an Oska board of n = {n}, which has {want:?}"
                ),
                line,
            ));
        }
        let mut pieces = [0u128; 2];
        for (r, row) in rows.iter().enumerate() {
            for (i, &cell) in row.iter().enumerate() {
                let sq = g.rows[r].0 + i;
                match cell {
                    "w" => pieces[0] |= 1 << sq,
                    "b" => pieces[1] |= 1 << sq,
                    "e" => {}
                    other => {
                        return Err(DecodeError::BadCell {
                            found: other.to_owned(),
                            place: format!("row {}, square {}", r + 1, i + 1),
                            expected: "`w`, `b`, `e`",
                        })
                    }
                }
            }
        }
        for (s, name) in [(0, "w"), (1, "b")] {
            if pieces[s].count_ones() as usize > n {
                return Err(DecodeError::Impossible(format!(
                    "{} `{name}` pieces on a board for n = {n}",
                    pieces[s].count_ones()
                )));
            }
        }
        if pieces == [0, 0] {
            return Err(DecodeError::Impossible("no pieces on the board".into()));
        }
        let mut o = Oska {
            n: n as u8,
            pieces,
            to_move,
            outcome: None,
        };
        o.settle();
        Ok(o)
    }
}

impl Game for Oska {
    type Move = OskaMove;

    fn to_move(&self) -> Player {
        self.to_move
    }

    /// Ordered by origin square, then destination (reading order); `[Pass]` when the side is blocked.
    fn legal_moves(&self, out: &mut Vec<OskaMove>) {
        if self.outcome.is_some() {
            return;
        }
        let before = out.len();
        self.for_each_move(self.to_move, |from, to| {
            out.push(OskaMove::Move { from, to })
        });
        if out.len() == before {
            out.push(OskaMove::Pass);
        }
    }

    fn apply(&mut self, mv: OskaMove) {
        let me = self.to_move.index();
        if let OskaMove::Move { from, to } = mv {
            let g = self.geo();
            if let Some(&(over, _)) = g.jumps[me][usize::from(from)].iter().find(|j| j.1 == to) {
                if !g.steps[me][usize::from(from)].contains(&to) {
                    self.pieces[1 - me] &= !(1u128 << over);
                }
            }
            debug_assert!(self.pieces[me] >> from & 1 == 1, "no piece on {from}");
            self.pieces[me] &= !(1u128 << from);
            self.pieces[me] |= 1u128 << to;
        }
        self.to_move = self.to_move.opponent();
        self.settle();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

impl Notation for Oska {
    /// `[[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]`: the handout's list of rows, top first.
    fn encode(&self) -> String {
        let rows: Vec<String> = self
            .rows()
            .iter()
            .map(|row| {
                let cells: Vec<&str> = row
                    .iter()
                    .map(|c| match c {
                        Some(Player::First) => "w",
                        Some(Player::Second) => "b",
                        None => "e",
                    })
                    .collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        format!("[{}]", rows.join(","))
    }

    /// The board after the move, as the predicate's fourth argument (a pass leaves it unchanged).
    fn format_move(&self, mv: OskaMove) -> String {
        let mut next = self.clone();
        next.apply(mv);
        next.encode()
    }

    /// A board one legal move away from this one.
    fn parse_move(&self, text: &str) -> Result<OskaMove, String> {
        let side = if self.to_move == Player::First {
            "w"
        } else {
            "b"
        };
        let next = Oska::decode(text, self.to_move.opponent()).map_err(|e| e.to_string())?;
        if next.n != self.n {
            return Err(format!(
                "the board is for n = {}, but this game has n = {}",
                next.n, self.n
            ));
        }
        self.moves()
            .into_iter()
            .find(|&m| self.after(m).pieces == next.pieces)
            .ok_or_else(|| {
                format!(
                    "`{}` is not one legal move of `{side}` away from the current board",
                    text.trim()
                )
            })
    }
}
