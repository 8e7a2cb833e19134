//! Super-TTT one placement at a time: the same rules as [`Sttt`], but a move is a single
//! [`Placement`] and the side to move changes only when its turn's placements are used up, so searches
//! branch 81 then 80 ways instead of over 3,240 whole turns.
//!
//! Only the bots use this view (through [`crate::bots::SplitTurn`]); the referee and the protocols
//! speak whole [`Turn`]s.

use crate::game::{Game, Notation, Outcome, Player};
use crate::games::sttt::{Placement, Sttt, Turn};

/// A Super-TTT position with the number of placements the side to move still has this turn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SttSteps {
    pub(crate) pos: Sttt,
    /// 2 at the start of a turn, 1 after its first placement.
    pub(crate) left: u8,
    /// The turn's first placement, once made (searches skip second placements that only swap the
    /// two).
    pub(crate) first: Option<Placement>,
}

impl SttSteps {
    /// The position `pos` at the start of its side to move's turn.
    #[must_use]
    pub fn at_turn_start(pos: Sttt) -> SttSteps {
        SttSteps {
            pos,
            left: 2,
            first: None,
        }
    }

    /// The whole-turn position (between turns the two views agree).
    #[must_use]
    pub fn position(&self) -> &Sttt {
        &self.pos
    }

    /// Placements the side to move still makes this turn (1 or 2).
    #[must_use]
    pub fn left(&self) -> u32 {
        u32::from(self.left)
    }
}

impl Sttt {
    /// The turn made of `first` then `second` (if any), written as [`Game::legal_moves`] lists it: a
    /// pair that reaches the same position in either order is listed smaller square first, so a bot
    /// that chose its placements one at a time must name its turn this way for it to be legal.
    #[must_use]
    pub fn turn_of(&self, first: Placement, second: Option<Placement>) -> Turn {
        if let Some(p2) = second {
            let smaller = (p2.big, p2.little) < (first.big, first.little);
            if smaller {
                let mut s = self.clone();
                s.place(p2);
                if s.placement_legal(first) {
                    return Turn {
                        first: Some(p2),
                        second: Some(first),
                    };
                }
            }
        }
        Turn {
            first: Some(first),
            second,
        }
    }
}

impl Game for SttSteps {
    type Move = Placement;

    fn to_move(&self) -> Player {
        self.pos.to_move()
    }

    /// The open squares in index order (big, then little).
    fn legal_moves(&self, out: &mut Vec<Placement>) {
        if self.pos.outcome().is_some() {
            return;
        }
        for big in 0..9u8 {
            let mut open = self.pos.open_cells(big.into());
            while open != 0 {
                out.push(Placement {
                    big,
                    little: open.trailing_zeros() as u8,
                });
                open &= open - 1;
            }
        }
    }

    /// Places a mark; the turn passes after the second placement, and (as with whole turns) when the
    /// placement ends the game, so a finished position's side to move is the loser.
    fn apply(&mut self, p: Placement) {
        debug_assert!(self.pos.placement_legal(p), "illegal placement {p:?}");
        self.pos.place(p);
        self.left -= 1;
        self.first = Some(p);
        if self.left == 0 || self.pos.outcome().is_some() {
            self.pos.end_turn();
            self.left = 2;
            self.first = None;
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }
}

impl Notation for SttSteps {
    /// The board as [`Sttt`] writes it, then how many placements the side to move has left.
    fn encode(&self) -> String {
        format!("{} {}", self.pos.encode(), self.left)
    }

    /// `(b . l)`, 1-based.
    fn format_move(&self, p: Placement) -> String {
        format!("({} . {})", p.big + 1, p.little + 1)
    }

    /// `(b . l)`, 1-based, on an open square.
    fn parse_move(&self, text: &str) -> Result<Placement, String> {
        let bad = || format!("`{}` is not an open square `(b . l)`", text.trim());
        let inner = text
            .trim()
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .ok_or_else(bad)?;
        let (b, l) = inner.split_once('.').ok_or_else(bad)?;
        let (b, l): (u8, u8) = (
            b.trim().parse().map_err(|_| bad())?,
            l.trim().parse().map_err(|_| bad())?,
        );
        if !(1..=9).contains(&b) || !(1..=9).contains(&l) {
            return Err(bad());
        }
        let p = Placement {
            big: b - 1,
            little: l - 1,
        };
        if self.pos.placement_legal(p) {
            Ok(p)
        } else {
            Err(bad())
        }
    }
}
