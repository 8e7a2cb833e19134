//! The `Game` trait every seed game implements, and the small types it speaks in.

use std::fmt;

/// One of the two sides. `First` moves first at the start of a game: `x` (Max) in tic-tac-toe, Three
/// Men's Morris, Super-TTT and UT3; white in Oska.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    First,
    Second,
}

impl Player {
    /// The other side.
    #[must_use]
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// +1 for `First` (Max), -1 for `Second` (Min): the sign of a value from this side's point of view.
    #[must_use]
    pub fn sign(self) -> i32 {
        match self {
            Player::First => 1,
            Player::Second => -1,
        }
    }

    /// 0 for `First`, 1 for `Second`, for indexing per-side arrays.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The utility from Max's (`First`'s) point of view: 1, 0 or -1, as in the Adelaide handout.
    #[must_use]
    pub fn utility(self) -> i32 {
        match self {
            Outcome::Win(p) => p.sign(),
            Outcome::Draw => 0,
        }
    }
}

/// The rules of a two-player, perfect-information, turn-based game.
///
/// Implementations are pure: no I/O, no randomness, no interior mutability. `legal_moves` yields moves in
/// a fixed, documented order (for the Adelaide games: the raster order of the cells involved), because
/// searches break ties by that order and golden traces depend on it.
pub trait Game: Clone + fmt::Debug {
    /// A move, small and copyable. Games with a "pass" include it as a move value when it is forced.
    type Move: Copy + Eq + fmt::Debug;

    /// The side to move. Meaningless (but still defined) once `outcome` is `Some`.
    fn to_move(&self) -> Player;

    /// Appends the legal moves, in the game's defined order, to `out` (which is not cleared). Appends
    /// nothing when the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays `mv`, which must be one of `legal_moves`; the side to move changes as the rules say.
    fn apply(&mut self, mv: Self::Move);

    /// `Some` once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The position after `mv`, leaving `self` untouched.
    #[must_use]
    fn after(&self, mv: Self::Move) -> Self {
        let mut next = self.clone();
        next.apply(mv);
        next
    }

    /// The legal moves as a fresh vector.
    #[must_use]
    fn moves(&self) -> Vec<Self::Move> {
        let mut out = Vec::new();
        self.legal_moves(&mut out);
        out
    }

    /// Whether `mv` is one of `legal_moves` (checking a replayed record's moves). A game whose list is
    /// long (Super-TTT's pairs of placements, thousands a turn) answers without making it.
    #[must_use]
    fn is_legal_move(&self, mv: Self::Move) -> bool {
        self.moves().contains(&mv)
    }
}

/// A one-line text form of positions and moves that mirrors the seed's own data structure (the raster
/// string for the Adelaide games, the handout's list notation for Oska, ...). The arena's protocols and
/// the golden files speak it.
pub trait Notation: Game {
    /// The position as one line (no newline).
    fn encode(&self) -> String;
    /// A move as the protocol writes it (no newline).
    fn format_move(&self, mv: Self::Move) -> String;
    /// Reads a move written by a player, in this position. The error says what is wrong in words a
    /// student understands ("cell 4 is taken", "expected two numbers, got `a7`").
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;
}
