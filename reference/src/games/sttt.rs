//! Super-Tic-Tac-Toe (Minnesota CSci 1901, 2004): two placements a turn on nine little boards.
//!
//! Rules (see `reference/rules/sttt.md`): a turn is two placements (one when a single open square is
//! left), applied in order; a placement that wins a little board closes it at once; the game ends the
//! moment a side holds three big squares in a line, or as a draw when no open square is left. A turn is
//! the [`Game::Move`] ([`Turn`]); the referee applies what a player sent with [`Sttt::apply_lenient`],
//! which forfeits illegal placements instead of rejecting the turn.

use crate::game::{Game, Notation, Outcome, Player};
use crate::games::decode::DecodeError;
use crate::games::sexpr::{self, Sx};
use crate::games::tri::{self, has_line, LINES};
use crate::rng::Rng;

/// One placement: big square and little square, both `0..9` here (the handout writes them 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    pub big: u8,
    pub little: u8,
}

impl Placement {
    fn index(self) -> usize {
        usize::from(self.big) * 9 + usize::from(self.little)
    }
    fn from_index(i: usize) -> Placement {
        Placement {
            big: (i / 9) as u8,
            little: (i % 9) as u8,
        }
    }
}

/// A turn: up to two placements, applied in order. In [`Game::legal_moves`] both are present, except
/// when the first ends the game or leaves no open square (then `second` is `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    pub first: Option<Placement>,
    pub second: Option<Placement>,
}

/// One placement as a player wrote it, before legality is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawPlacement {
    /// `()`: no placement (allowed only when a single open square is left).
    Empty,
    /// `(b . l)` with the numbers as written (1-based, maybe out of range).
    At(i64, i64),
    /// Anything else.
    Malformed(String),
}

/// Why a placement was forfeited (rule 7 of the handout).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Forfeit {
    #[error("ill-formatted placement `{0}`")]
    Malformed(String),
    #[error("placement `({0} . {1})` is outside the board (indices are 1..9)")]
    Outside(i64, i64),
    #[error("square `({0} . {1})` is already occupied")]
    Occupied(i64, i64),
    #[error("big square `{0}` is already won")]
    BoardWon(i64),
    #[error("empty placement `()` while an open square was left")]
    Empty,
    #[error("the game was already over before the turn")]
    GameOver,
}

/// What [`Sttt::apply_lenient`] did with each of the two placements of a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnReport {
    /// Per placement: `Ok` with the square taken, or the reason it was forfeited. `Ok(None)`: nothing to
    /// place (an allowed `()`, or anything after the first placement ended the game).
    pub placements: [Result<Option<Placement>, Forfeit>; 2],
}

impl TurnReport {
    /// The forfeits, with the placement's position (0 or 1) in the turn.
    #[must_use]
    pub fn forfeits(&self) -> Vec<(usize, &Forfeit)> {
        self.placements
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().err().map(|f| (i, f)))
            .collect()
    }
}

/// A Super-TTT position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sttt {
    /// Per side, per little board: the squares that side holds.
    cells: [[u16; 9]; 2],
    /// Per side: the big squares (little boards) that side has won.
    won: [u16; 2],
    to_move: Player,
    outcome: Option<Outcome>,
}

impl Default for Sttt {
    fn default() -> Self {
        Sttt::new()
    }
}

impl Sttt {
    /// The empty board, `x` (`Player::First`) to move.
    #[must_use]
    pub fn new() -> Sttt {
        Sttt {
            cells: [[0; 9]; 2],
            won: [0; 2],
            to_move: Player::First,
            outcome: None,
        }
    }

    /// Who holds a little square.
    #[must_use]
    pub fn square(&self, p: Placement) -> Option<Player> {
        [Player::First, Player::Second]
            .into_iter()
            .find(|s| self.cells[s.index()][usize::from(p.big)] >> p.little & 1 == 1)
    }

    /// Who has won big square `big` (`0..9`).
    #[must_use]
    pub fn big_winner(&self, big: usize) -> Option<Player> {
        [Player::First, Player::Second]
            .into_iter()
            .find(|s| self.won[s.index()] >> big & 1 == 1)
    }

    /// The side holding three big squares in a line, if any (the game's winner).
    #[must_use]
    pub fn line_winner(&self) -> Option<Player> {
        [Player::First, Player::Second]
            .into_iter()
            .find(|s| has_line(self.won[s.index()]))
    }

    /// Open squares of little board `b` (zero once it is won).
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
    pub(crate) fn dead_boards(&self) -> u16 {
        tri::dead_boards(&self.cells, self.won)
    }

    /// How many open squares are left on the whole board.
    #[must_use]
    pub fn open_count(&self) -> u32 {
        (0..9).map(|b| self.open_cells(b).count_ones()).sum()
    }

    /// Is this placement legal for the side to move right now?
    #[must_use]
    pub fn placement_legal(&self, p: Placement) -> bool {
        self.outcome.is_none()
            && p.big < 9
            && p.little < 9
            && self.open_cells(p.big.into()) >> p.little & 1 == 1
    }

    /// Places one mark for the side to move without changing turns; updates wins and the outcome.
    #[inline]
    pub(crate) fn place(&mut self, p: Placement) {
        let me = self.to_move.index();
        let b = usize::from(p.big);
        self.cells[me][b] |= 1 << p.little;
        if has_line(self.cells[me][b]) {
            self.won[me] |= 1 << b;
            if has_line(self.won[me]) {
                self.outcome = Some(Outcome::Win(self.to_move));
                return;
            }
        }
        // No open cell anywhere: stops at the first board with one, not a count of them all.
        if (0..9).all(|b| self.open_cells(b) == 0) {
            self.outcome = Some(Outcome::Draw);
        }
    }

    /// Random placements, two a turn, until the game ends or `max_turns` turns are played, without
    /// allocating.
    pub(crate) fn random_playout(&mut self, rng: &mut Rng, max_turns: usize) -> Option<Outcome> {
        for _ in 0..max_turns {
            for _ in 0..2 {
                if self.outcome.is_some() {
                    return self.outcome;
                }
                let mut k = rng.below(self.open_count() as usize) as u32;
                for b in 0..9 {
                    let cells = self.open_cells(b);
                    let c = cells.count_ones();
                    if k < c {
                        self.place(Placement {
                            big: b as u8,
                            little: tri::nth_bit(cells, k) as u8,
                        });
                        break;
                    }
                    k -= c;
                }
            }
            if self.outcome.is_none() {
                self.end_turn();
            }
        }
        self.outcome
    }

    /// The fewest placements `side` needs to hold three big squares in a line (at least 3 when far
    /// off): each little board is independent, so the costs of a line's boards add up.
    #[must_use]
    pub fn placements_to_win(&self, side: Player) -> u32 {
        let costs = self.board_costs(side);
        LINES
            .iter()
            .map(|&l| line_cost(&costs, l))
            .min()
            .unwrap_or(FAR)
    }

    /// Per little board, the fewest placements `side` needs to win it: 0 when won, [`FAR`] when
    /// closed or every line in it is blocked. An array, not a Vec: searches ask at every node.
    pub(crate) fn board_costs(&self, side: Player) -> [u32; 9] {
        let (own, other) = self.cell_masks(side);
        let won_own = self.won_mask(side);
        let closed = won_own | self.won_mask(side.opponent()) | self.dead_boards();
        let mut costs = [FAR; 9];
        for (b, c) in costs.iter_mut().enumerate() {
            if won_own >> b & 1 == 1 {
                *c = 0;
            } else if closed >> b & 1 == 0 {
                *c = board_cost(own[b], other[b]);
            }
        }
        costs
    }

    /// Ends the turn: the other side moves next.
    pub(crate) fn end_turn(&mut self) {
        self.to_move = self.to_move.opponent();
    }

    /// Applies a turn as the referee does: placement by placement, in order, each illegal one forfeited
    /// (not a loss). The turn passes to the other side even when both placements are forfeited (and,
    /// as after every move of every game here, when the turn ends the game).
    pub fn apply_lenient(&mut self, raw: &[RawPlacement; 2]) -> TurnReport {
        if self.outcome.is_some() {
            return TurnReport {
                placements: [Err(Forfeit::GameOver), Err(Forfeit::GameOver)],
            };
        }
        let mut results: [Result<Option<Placement>, Forfeit>; 2] = [Ok(None), Ok(None)];
        for (i, r) in raw.iter().enumerate() {
            results[i] = self.try_place(r, raw);
        }
        self.end_turn();
        TurnReport {
            placements: results,
        }
    }

    fn try_place(
        &mut self,
        r: &RawPlacement,
        both: &[RawPlacement; 2],
    ) -> Result<Option<Placement>, Forfeit> {
        match *r {
            RawPlacement::Malformed(ref s) => Err(Forfeit::Malformed(s.clone())),
            RawPlacement::Empty => {
                // `()` is the handout's way to make the rare one-placement turn; it costs nothing when no
                // second placement is possible, and forfeits an opportunity otherwise.
                let other_placed = both.iter().any(|o| matches!(o, RawPlacement::At(..)));
                if self.outcome.is_some()
                    || (self.open_count() <= 1 && other_placed)
                    || self.open_count() == 0
                {
                    Ok(None)
                } else {
                    Err(Forfeit::Empty)
                }
            }
            RawPlacement::At(b, l) => {
                if self.outcome.is_some() {
                    // The first placement ended the game: the second is moot, not forfeited.
                    return Ok(None);
                }
                if !(1..=9).contains(&b) || !(1..=9).contains(&l) {
                    return Err(Forfeit::Outside(b, l));
                }
                let p = Placement {
                    big: (b - 1) as u8,
                    little: (l - 1) as u8,
                };
                if self.big_winner(p.big.into()).is_some() {
                    return Err(Forfeit::BoardWon(b));
                }
                if self.square(p).is_some() {
                    return Err(Forfeit::Occupied(b, l));
                }
                self.place(p);
                Ok(Some(p))
            }
        }
    }

    /// Reads a turn as a player wrote it, `((b . l) (b . l))`, never failing: whatever cannot be read
    /// becomes [`RawPlacement::Malformed`] (a forfeited placement).
    #[must_use]
    pub fn parse_lenient(text: &str) -> [RawPlacement; 2] {
        let bad = || RawPlacement::Malformed(text.trim().to_owned());
        let Ok(Sx::List(items)) = sexpr::parse(text) else {
            return [bad(), bad()];
        };
        if items.len() != 2 {
            return [bad(), bad()];
        }
        let one = |sx: &Sx| -> RawPlacement {
            match sx {
                Sx::List(v) if v.is_empty() => RawPlacement::Empty,
                Sx::List(v) => match &v[..] {
                    [Sx::Atom(b), Sx::Dot, Sx::Atom(l)] => {
                        match (b.parse::<i64>(), l.parse::<i64>()) {
                            (Ok(b), Ok(l)) => RawPlacement::At(b, l),
                            _ => RawPlacement::Malformed(show(sx)),
                        }
                    }
                    _ => RawPlacement::Malformed(show(sx)),
                },
                _ => RawPlacement::Malformed(show(sx)),
            }
        };
        [one(&items[0]), one(&items[1])]
    }

    /// Reads the board line [`Notation::encode`] writes (the handout's `(big (little ...) ...)`, quotes
    /// optional), with the side to move given separately as the AI's `who` argument is.
    ///
    /// # Errors
    /// When the list is malformed, a square is not `()`, `x` or `o`, or the marks cannot arise in a game.
    pub fn decode(line: &str, to_move: Player) -> Result<Sttt, DecodeError> {
        let sx = sexpr::parse(line).map_err(|e| DecodeError::syntax(e, line))?;
        let Sx::List(items) = sx else {
            return Err(DecodeError::syntax("expected a list headed `big`", line));
        };
        if items.len() != 10 || items[0] != Sx::Atom("big".into()) {
            return Err(DecodeError::syntax(
                "expected `(big` followed by nine little boards",
                line,
            ));
        }
        let mut g = Sttt::new();
        for (b, little) in items[1..].iter().enumerate() {
            let Sx::List(sq) = little else {
                return Err(DecodeError::syntax(
                    format!("big square {} is not a list", b + 1),
                    line,
                ));
            };
            if sq.len() != 10 || sq[0] != Sx::Atom("little".into()) {
                return Err(DecodeError::syntax(
                    format!(
                        "big square {} is not `(little` followed by nine squares",
                        b + 1
                    ),
                    line,
                ));
            }
            for (l, s) in sq[1..].iter().enumerate() {
                let side = match s {
                    Sx::List(v) if v.is_empty() => continue,
                    Sx::Atom(a) if a == "x" => Player::First,
                    Sx::Atom(a) if a == "o" => Player::Second,
                    other => {
                        return Err(DecodeError::BadCell {
                            found: show(other),
                            place: format!("square ({} . {})", b + 1, l + 1),
                            expected: "`()`, `x`, `o`",
                        })
                    }
                };
                g.cells[side.index()][b] |= 1 << l;
            }
        }
        for b in 0..9 {
            let x = has_line(g.cells[0][b]);
            let o = has_line(g.cells[1][b]);
            if x && o {
                return Err(DecodeError::Impossible(format!(
                    "little board {} has a line for both `x` and `o`",
                    b + 1
                )));
            }
            if x {
                g.won[0] |= 1 << b;
            } else if o {
                g.won[1] |= 1 << b;
            }
        }
        g.to_move = to_move;
        match (has_line(g.won[0]), has_line(g.won[1])) {
            (true, true) => {
                return Err(DecodeError::Impossible(
                    "both `x` and `o` hold three big squares in a line".into(),
                ))
            }
            (true, false) => g.outcome = Some(Outcome::Win(Player::First)),
            (false, true) => g.outcome = Some(Outcome::Win(Player::Second)),
            (false, false) if g.open_count() == 0 => g.outcome = Some(Outcome::Draw),
            _ => {}
        }
        Ok(g)
    }

    /// Every open square, in index order (big, then little).
    fn open_squares(&self) -> impl Iterator<Item = Placement> + '_ {
        (0..81)
            .map(Placement::from_index)
            .filter(|p| self.open_cells(p.big.into()) >> p.little & 1 == 1)
    }
}

/// A little board's cost when it cannot be won.
pub(crate) const FAR: u32 = 9;

/// The fewest placements needed to win a little board in play holding `own` and `other`: [`FAR`]
/// when every line in it is blocked.
#[inline]
pub(crate) fn board_cost(own: u16, other: u16) -> u32 {
    LINES
        .iter()
        .filter(|&&l| l & other == 0)
        .map(|&l| 3 - (l & own).count_ones())
        .min()
        .unwrap_or(FAR)
}

/// The placements a big line (a mask of little boards) still needs, given each board's cost.
#[inline]
pub(crate) fn line_cost(costs: &[u32; 9], line: u16) -> u32 {
    (0..9)
        .filter(|b| line >> b & 1 == 1)
        .map(|b| costs[b])
        .sum()
}

fn show(sx: &Sx) -> String {
    match sx {
        Sx::Atom(a) => a.clone(),
        Sx::Dot => ".".into(),
        Sx::List(v) => format!("({})", v.iter().map(show).collect::<Vec<_>>().join(" ")),
    }
}

impl Game for Sttt {
    type Move = Turn;

    fn to_move(&self) -> Player {
        self.to_move
    }

    /// Ordered by first placement, then second (squares in index order: big, then little). A pair whose
    /// two orders reach the same position is listed once, smaller square first.
    fn legal_moves(&self, out: &mut Vec<Turn>) {
        if self.outcome.is_some() {
            return;
        }
        let firsts: Vec<Placement> = self.open_squares().collect();
        for &p1 in &firsts {
            let mut s1 = self.clone();
            s1.place(p1);
            if s1.outcome.is_some() {
                out.push(Turn {
                    first: Some(p1),
                    second: None,
                });
                continue;
            }
            for p2 in s1.open_squares() {
                if p2.index() < p1.index() {
                    // Listed already as (p2, p1) unless p2 first would close p1's board.
                    let mut s2 = self.clone();
                    s2.place(p2);
                    if s2.placement_legal(p1) {
                        continue;
                    }
                }
                out.push(Turn {
                    first: Some(p1),
                    second: Some(p2),
                });
            }
        }
    }

    /// `legal_moves`' rule for one turn: a legal first placement; then none if it ended the game, else
    /// a second legal after it, listed in the smaller-square-first order unless taking the second first
    /// would close the first's board.
    fn is_legal_move(&self, mv: Turn) -> bool {
        let Some(p1) = mv.first else {
            return false;
        };
        if !self.placement_legal(p1) {
            return false;
        }
        let mut s1 = self.clone();
        s1.place(p1);
        if s1.outcome.is_some() {
            return mv.second.is_none();
        }
        let Some(p2) = mv.second else {
            return false;
        };
        if !s1.placement_legal(p2) {
            return false;
        }
        if p2.index() < p1.index() {
            let mut s2 = self.clone();
            s2.place(p2);
            return !s2.placement_legal(p1);
        }
        true
    }

    fn apply(&mut self, mv: Turn) {
        for p in [mv.first, mv.second].into_iter().flatten() {
            debug_assert!(self.placement_legal(p), "illegal Super-TTT placement {p:?}");
            self.place(p);
        }
        // The turn passes even when it ends the game, as in every other game here: searches read the
        // loser as the side to move of a finished position.
        self.end_turn();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

impl Notation for Sttt {
    /// `(big (little x () ...) ...)`: the handout's board list as a Scheme system prints it.
    fn encode(&self) -> String {
        let mut s = String::from("(big");
        for b in 0..9u8 {
            s.push_str(" (little");
            for l in 0..9u8 {
                s.push_str(match self.square(Placement { big: b, little: l }) {
                    Some(Player::First) => " x",
                    Some(Player::Second) => " o",
                    None => " ()",
                });
            }
            s.push(')');
        }
        s.push(')');
        s
    }

    /// `((b . l) (b . l))`, 1-based, `()` for a missing placement.
    fn format_move(&self, mv: Turn) -> String {
        let one = |p: Option<Placement>| match p {
            Some(p) => format!("({} . {})", p.big + 1, p.little + 1),
            None => "()".into(),
        };
        format!("({} {})", one(mv.first), one(mv.second))
    }

    /// A strict reading: the turn must be fully legal (the referee uses [`Sttt::parse_lenient`] and
    /// [`Sttt::apply_lenient`] instead, which forfeit bad placements).
    fn parse_move(&self, text: &str) -> Result<Turn, String> {
        let raw = Sttt::parse_lenient(text);
        let mut probe = self.clone();
        let report = probe.apply_lenient(&raw);
        if let Some((i, f)) = report.forfeits().first() {
            return Err(format!("placement {} of `{}`: {f}", i + 1, text.trim()));
        }
        let placed: Vec<Placement> = report
            .placements
            .iter()
            .filter_map(|r| r.clone().ok().flatten())
            .collect();
        let turn = match placed[..] {
            [a, b] => Turn {
                first: Some(a),
                second: Some(b),
            },
            [a] => Turn {
                first: Some(a),
                second: None,
            },
            _ => return Err(format!("`{}` places nothing", text.trim())),
        };
        let legal = self.moves();
        if legal.contains(&turn) {
            return Ok(turn);
        }
        let swapped = Turn {
            first: turn.second,
            second: turn.first,
        };
        if legal.contains(&swapped) {
            return Ok(swapped);
        }
        Err(format!("`{}` is not a complete legal turn", text.trim()))
    }
}

#[cfg(test)]
mod legal_move_tests {
    use super::*;
    use crate::rng::Rng;

    /// Every turn `is_legal_move` accepts is listed by `legal_moves` and the other way round, over
    /// random games: every listed turn, then random turns (any squares, either order, a missing or
    /// out-of-range placement), legal or not.
    #[test]
    fn one_turn_is_legal_exactly_when_the_list_holds_it() {
        let mut rng = Rng::new(31);
        let mut checked = [0usize; 2];
        for _ in 0..12 {
            let mut g = Sttt::new();
            while g.outcome().is_none() {
                let listed = g.moves();
                for &mv in &listed {
                    assert!(
                        g.is_legal_move(mv),
                        "{mv:?} listed but refused in {}",
                        g.encode()
                    );
                }
                let square = |rng: &mut Rng| match rng.below(12) {
                    0 => None,
                    1 => Some(Placement { big: 9, little: 0 }),
                    _ => Some(Placement::from_index(rng.below(81))),
                };
                for _ in 0..300 {
                    let mv = Turn {
                        first: square(&mut rng),
                        second: square(&mut rng),
                    };
                    let legal = listed.contains(&mv);
                    assert_eq!(g.is_legal_move(mv), legal, "{mv:?} in {}", g.encode());
                    checked[usize::from(legal)] += 1;
                }
                g.apply(listed[rng.below(listed.len())]);
            }
        }
        // Both answers were exercised, many times.
        assert!(checked[0] > 1000 && checked[1] > 20, "{checked:?}");
    }
}
