//! Three Men's Morris under the Adelaide rules: placement, then orthogonal steps; rows and columns win.
//!
//! Rules and the gaps the handout leaves, decided here:
//! - x (Max) places first; a side places while it has fewer than 3 pieces on the board, then steps one
//!   of its pieces to an orthogonally adjacent empty cell. Three in a row or column wins (diagonals do
//!   not count).
//! - A side to move with no legal step loses (as in Nine Men's Morris). It cannot happen during placement.
//! - The side to move is given (after placement it cannot be read off the board); while pieces are still
//!   being placed it must agree with the counts (x to move when x and o have as many pieces).
//! - Move order: placements in raster order of the cell; steps in raster order of the piece moved, then
//!   of the cell it moves to. Ties go to the earliest move.
//! - Search (see `adelaide::tmmorris`): a position repeated on the current search path (same board, same
//!   side to move) is a draw, a leaf valued 0, so the search ends even with a huge ply limit.
//! - Values: a win reached `d` moves below the root is worth ±(10,000 − d), so nearer wins are preferred
//!   and farther losses; no path is 10,000 moves long (fewer than 6,000 positions exist and none repeats
//!   on a path). Leaves at the ply limit take [`evaluate`], which stays within ±42.

use crate::game::{Game, Notation, Outcome, Player};
use crate::games::raster::{self, has_line, symbol, StateError, LINES};
#[cfg(not(feature = "student"))]
use crate::search::Evaluator;

/// Rows and columns: the Morris lines (no diagonals).
pub const MORRIS_LINES: [[usize; 3]; 6] =
    [LINES[0], LINES[1], LINES[2], LINES[3], LINES[4], LINES[5]];

/// The value of a win at the root; a win `d` moves down is worth `WIN - d`.
pub const WIN: i32 = 10_000;

/// Orthogonal neighbours of each cell, in raster order.
const NEIGHBOURS: [&[u8]; 9] = [
    &[1, 3],
    &[0, 2, 4],
    &[1, 5],
    &[0, 4, 6],
    &[1, 3, 5, 7],
    &[2, 4, 8],
    &[3, 7],
    &[4, 6, 8],
    &[5, 7],
];

/// A Morris move: put a new piece on a cell, or step a piece from one cell to an adjacent one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MorrisMove {
    Place(u8),
    Step(u8, u8),
}

/// A Three Men's Morris position: the raster bytes and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Morris {
    cells: [u8; 9],
    to_move: Player,
}

impl Default for Morris {
    fn default() -> Self {
        Morris {
            cells: [b'-'; 9],
            to_move: Player::First,
        }
    }
}

impl Morris {
    /// The empty board, x to move.
    #[must_use]
    pub fn new() -> Morris {
        Morris::default()
    }

    /// Reads a raster string with the side to move. Rejects wrong length or characters, more than 3
    /// pieces a side, counts other than x = o or x = o + 1, both sides with a line, and a side to move
    /// that contradicts the counts while pieces are being placed.
    pub fn from_raster(state: &str, turn: Player) -> Result<Morris, StateError> {
        let p = raster::parse(state)?;
        for (side, count) in [('x', p.x), ('o', p.o)] {
            if count > 3 {
                return Err(StateError::TooManyPieces {
                    state: state.to_owned(),
                    side,
                    count,
                });
            }
        }
        if p.x != p.o && p.x != p.o + 1 {
            return Err(StateError::Counts {
                state: state.to_owned(),
                x: p.x,
                o: p.o,
            });
        }
        if has_line(&p.cells, b'x', &MORRIS_LINES) && has_line(&p.cells, b'o', &MORRIS_LINES) {
            return Err(StateError::BothLines {
                state: state.to_owned(),
            });
        }
        if p.x + p.o < 6 {
            let expected = if p.x == p.o {
                Player::First
            } else {
                Player::Second
            };
            if turn != expected {
                return Err(StateError::WrongTurn {
                    state: state.to_owned(),
                    turn: char::from(symbol(turn)),
                    expected: char::from(symbol(expected)),
                });
            }
        }
        Ok(Morris {
            cells: p.cells,
            to_move: turn,
        })
    }

    /// The nine cells as raster bytes.
    #[must_use]
    pub fn cells(&self) -> &[u8; 9] {
        &self.cells
    }

    fn count(&self, piece: u8) -> usize {
        self.cells.iter().filter(|&&c| c == piece).count()
    }

    /// Whether `player` still places pieces rather than stepping them.
    #[must_use]
    pub fn placing(&self, player: Player) -> bool {
        self.count(symbol(player)) < 3
    }

    /// The steps `player`'s pieces could make to an adjacent empty cell.
    #[must_use]
    pub fn mobility(&self, player: Player) -> i32 {
        let piece = symbol(player);
        let mut n = 0;
        for (from, near) in NEIGHBOURS.iter().enumerate() {
            if self.cells[from] == piece {
                n += near
                    .iter()
                    .filter(|&&t| self.cells[usize::from(t)] == b'-')
                    .count() as i32;
            }
        }
        n
    }

    /// Every legal position (board and side to move) of the game: about 5,700, for exhaustive solving.
    #[must_use]
    pub fn all_positions() -> Vec<Morris> {
        let mut out = Vec::new();
        for mut n in 0..3usize.pow(9) {
            let mut s = [b'-'; 9];
            for c in &mut s {
                *c = [b'-', b'x', b'o'][n % 3];
                n /= 3;
            }
            let text: String = s.iter().map(|&b| char::from(b)).collect();
            for turn in [Player::First, Player::Second] {
                if let Ok(m) = Morris::from_raster(&text, turn) {
                    out.push(m);
                }
            }
        }
        out
    }
}

/// The reference evaluation, from x's point of view. For each row and column (not diagonals): a line
/// with no o scores +1, +2 or +5 for 0, 1 or 2 x in it; a line with no x scores −1, −2 or −5 likewise
/// for o (an empty line cancels). Then add x's mobility minus o's (possible steps to an adjacent empty
/// cell), which matters once pieces move. The range is within ±(6·5 + 12) = ±42. Part of the answer:
/// not in the student build.
#[cfg(not(feature = "student"))]
#[must_use]
pub fn evaluate(state: &Morris) -> i32 {
    const WEIGHT: [i32; 4] = [1, 2, 5, 0];
    let c = &state.cells;
    let mut e = 0;
    for l in &MORRIS_LINES {
        let count = |p: u8| l.iter().filter(|&&i| c[i] == p).count();
        let (x, o) = (count(b'x'), count(b'o'));
        if o == 0 {
            e += WEIGHT[x];
        }
        if x == 0 {
            e -= WEIGHT[o];
        }
    }
    e + state.mobility(Player::First) - state.mobility(Player::Second)
}

/// Finished games as ±(`WIN` − depth), leaves at the ply limit by [`evaluate`].
#[cfg(not(feature = "student"))]
#[derive(Clone, Copy, Debug, Default)]
pub struct MorrisEval;

#[cfg(not(feature = "student"))]
impl Evaluator<Morris> for MorrisEval {
    fn terminal(&self, _: &Morris, outcome: Outcome, depth: u32) -> i32 {
        // Depth stays below WIN: no position repeats on a search path (module docs).
        outcome.utility() * (WIN - depth.min(WIN as u32 - 1) as i32)
    }
    fn horizon(&self, state: &Morris) -> i32 {
        evaluate(state)
    }
}

impl Game for Morris {
    type Move = MorrisMove;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<MorrisMove>) {
        if self.winner().is_some() {
            return;
        }
        self.pseudo_moves(out);
    }

    fn apply(&mut self, mv: MorrisMove) {
        let piece = symbol(self.to_move);
        match mv {
            MorrisMove::Place(c) => {
                debug_assert_eq!(self.cells[usize::from(c)], b'-');
                self.cells[usize::from(c)] = piece;
            }
            MorrisMove::Step(f, t) => {
                debug_assert_eq!(self.cells[usize::from(f)], piece);
                debug_assert_eq!(self.cells[usize::from(t)], b'-');
                self.cells[usize::from(f)] = b'-';
                self.cells[usize::from(t)] = piece;
            }
        }
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(p) = self.winner() {
            return Some(Outcome::Win(p));
        }
        if !self.placing(self.to_move) && self.mobility(self.to_move) == 0 {
            return Some(Outcome::Win(self.to_move.opponent()));
        }
        None
    }
}

impl Morris {
    /// The side with a row or column, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Player> {
        if has_line(&self.cells, b'x', &MORRIS_LINES) {
            Some(Player::First)
        } else if has_line(&self.cells, b'o', &MORRIS_LINES) {
            Some(Player::Second)
        } else {
            None
        }
    }

    fn pseudo_moves(&self, out: &mut Vec<MorrisMove>) {
        if self.placing(self.to_move) {
            out.extend(
                (0..9u8)
                    .filter(|&i| self.cells[usize::from(i)] == b'-')
                    .map(MorrisMove::Place),
            );
            return;
        }
        let piece = symbol(self.to_move);
        for from in 0..9u8 {
            if self.cells[usize::from(from)] != piece {
                continue;
            }
            for &to in NEIGHBOURS[usize::from(from)] {
                if self.cells[usize::from(to)] == b'-' {
                    out.push(MorrisMove::Step(from, to));
                }
            }
        }
    }
}

impl Morris {
    /// Why `board`, printed as the position after this side's move, is not one legal move from here,
    /// in the rules' words. Says nothing useful (an empty string) when `board` is in fact legal.
    #[must_use]
    pub fn explain_successor(&self, board: &str) -> String {
        let side = char::from(symbol(self.to_move));
        let other = char::from(symbol(self.to_move.opponent()));
        let bytes = board.as_bytes();
        if bytes.len() != 9 || !bytes.iter().all(|b| matches!(b, b'x' | b'o' | b'-')) {
            return format!("`{board}` is not a board: expected 9 characters of `x`, `o` and `-`");
        }
        if let Some(p) = self.winner() {
            let won = char::from(symbol(p));
            return format!("the game is already over: {won} has three in a row");
        }
        if bytes == self.cells {
            return format!("the board is unchanged: {side} did not move");
        }
        let (own, theirs) = (symbol(self.to_move), symbol(self.to_move.opponent()));
        let changed = |piece: u8| (0..9).any(|i| (self.cells[i] == piece) != (bytes[i] == piece));
        if changed(theirs) {
            return format!("{other}'s pieces changed: only {side} moves now");
        }
        let removed: Vec<usize> = (0..9)
            .filter(|&i| self.cells[i] == own && bytes[i] != own)
            .collect();
        let added: Vec<usize> = (0..9)
            .filter(|&i| self.cells[i] != own && bytes[i] == own)
            .collect();
        let placing = self.placing(self.to_move);
        let on_board = self.count(own);
        match (removed.as_slice(), added.as_slice()) {
            ([], [_]) if !placing => format!(
                "{side} placed a fourth piece: with 3 on the board, {side} must step one of them to an adjacent empty cell"
            ),
            ([f], [t]) if placing => format!(
                "{side} moved a piece from cell {f} to cell {t}, but still has pieces to place ({on_board} of 3 on the board)"
            ),
            ([f], [t]) => {
                let (dr, dc) = ((f / 3).abs_diff(t / 3), (f % 3).abs_diff(t % 3));
                if dr == 1 && dc == 1 {
                    format!("{side} stepped diagonally from cell {f} to cell {t}: steps go up, down, left or right")
                } else {
                    format!("{side} moved from cell {f} to cell {t}, which is not next to it: a step goes to an adjacent cell")
                }
            }
            (_, added) if added.len() > 1 => {
                format!("{side} put {} new pieces on the board in one move", added.len())
            }
            _ => format!("{side}'s pieces changed in a way no single move makes"),
        }
    }
}

impl Notation for Morris {
    fn encode(&self) -> String {
        self.cells.iter().map(|&b| char::from(b)).collect()
    }

    /// `"4"` for a placement on cell 4; `"1 4"` for a step from cell 1 to cell 4.
    fn format_move(&self, mv: MorrisMove) -> String {
        match mv {
            MorrisMove::Place(c) => c.to_string(),
            MorrisMove::Step(f, t) => format!("{f} {t}"),
        }
    }

    /// Accepts the `format_move` forms, or the 9-character board the move leads to.
    fn parse_move(&self, text: &str) -> Result<MorrisMove, String> {
        let text = text.trim();
        let moves = self.moves();
        if moves.is_empty() {
            return Err("the game is over".to_owned());
        }
        if text.len() == 9 {
            return moves
                .iter()
                .copied()
                .find(|&m| self.after(m).cells[..] == *text.as_bytes())
                .ok_or_else(|| {
                    format!(
                        "board `{text}` is not one legal move from `{}`",
                        self.encode()
                    )
                });
        }
        let numbers: Result<Vec<u8>, _> = text.split_whitespace().map(str::parse::<u8>).collect();
        let mv = match numbers.as_deref() {
            Ok([c]) => MorrisMove::Place(*c),
            Ok([f, t]) => MorrisMove::Step(*f, *t),
            _ => return Err("expected a cell number or two cell numbers".into()),
        };
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(format!(
                "`{text}` is not a legal move in `{}`",
                self.encode()
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_successors_are_explained() {
        let m = Morris::from_raster("xo-ox-o-x", Player::First).unwrap();
        assert_eq!(
            m.explain_successor("-o-oxxo-x"),
            "x moved from cell 0 to cell 5, which is not next to it: a step goes to an adjacent cell"
        );
        assert_eq!(
            m.explain_successor("xoxo--o-x"),
            "x stepped diagonally from cell 4 to cell 2: steps go up, down, left or right"
        );
        assert!(m
            .explain_successor("xoxox-o-x")
            .starts_with("x placed a fourth piece"));
        assert_eq!(
            m.explain_successor("xo-ox-o-x"),
            "the board is unchanged: x did not move"
        );
        assert_eq!(
            m.explain_successor("xo-ox-o-"),
            "`xo-ox-o-` is not a board: expected 9 characters of `x`, `o` and `-`"
        );
        assert_eq!(
            m.explain_successor("x--ox-o-x"),
            "o's pieces changed: only x moves now"
        );
        let p = Morris::from_raster("x---o----", Player::First).unwrap();
        assert_eq!(
            p.explain_successor("-x--o----"),
            "x moved a piece from cell 0 to cell 1, but still has pieces to place (1 of 3 on the board)"
        );
    }

    #[test]
    fn diagonals_do_not_win() {
        let m = Morris::from_raster("x-o-x-o-x", Player::Second).unwrap();
        assert_eq!(m.outcome(), None);
        let m = Morris::from_raster("xxxoo----", Player::Second).unwrap();
        assert_eq!(m.outcome(), Some(Outcome::Win(Player::First)));
    }

    #[test]
    fn steps_are_orthogonal_and_ordered() {
        let m = Morris::from_raster("xo-ox-o-x", Player::First).unwrap();
        let moves: Vec<String> = m.moves().iter().map(|&mv| m.format_move(mv)).collect();
        assert_eq!(moves, ["4 5", "4 7", "8 5", "8 7"]);
    }

    #[test]
    fn a_blocked_side_loses() {
        let m = Morris::from_raster("xxoxo-o--", Player::First).unwrap();
        assert_eq!(m.outcome(), Some(Outcome::Win(Player::Second)));
    }

    #[test]
    fn placement_turn_must_match_counts() {
        let err = Morris::from_raster("x--------", Player::First).unwrap_err();
        assert_eq!(
            err.to_string(),
            "turn `x` disagrees with state `x--------`: while pieces are placed, o is to move"
        );
        assert!(Morris::from_raster("xxxx-oooo", Player::First).is_err());
    }

    #[test]
    fn evaluation_is_symmetric_and_bounded() {
        for m in Morris::all_positions() {
            let flipped: String = m
                .cells
                .iter()
                .map(|&c| match c {
                    b'x' => 'o',
                    b'o' => 'x',
                    _ => '-',
                })
                .collect();
            assert!(evaluate(&m).abs() <= 42);
            let cells: [u8; 9] = flipped.as_bytes().try_into().unwrap();
            let f = Morris {
                cells,
                to_move: m.to_move.opponent(),
            };
            assert_eq!(evaluate(&f), -evaluate(&m), "{}", m.encode());
        }
    }
}
