//! In-process bot-against-bot games: no processes, no clocks, the same seeds give the same game.

use super::{Bot, Playable};
use crate::game::{Game, Outcome, Player};

/// Why a duel ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The rules ended the game.
    Rules,
    /// [`Playable::MAX_PLIES`] plies were played without a result: adjudicated a draw.
    MoveCap,
    /// This side's bot returned an illegal move (a bug in the bot): it loses.
    Illegal(Player),
}

/// A finished bot game.
#[derive(Clone, Debug)]
pub struct Duel<G: Game> {
    pub moves: Vec<G::Move>,
    pub outcome: Outcome,
    pub reason: EndReason,
    pub final_state: G,
}

/// Plays `start` to the end, `first` moving for `Player::First` and `second` for `Player::Second`.
pub fn duel<G: Playable>(start: G, first: &mut dyn Bot<G>, second: &mut dyn Bot<G>) -> Duel<G> {
    let mut g = start;
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    loop {
        if let Some(o) = g.outcome() {
            return Duel {
                moves,
                outcome: o,
                reason: EndReason::Rules,
                final_state: g,
            };
        }
        if moves.len() >= G::MAX_PLIES {
            return Duel {
                moves,
                outcome: Outcome::Draw,
                reason: EndReason::MoveCap,
                final_state: g,
            };
        }
        let side = g.to_move();
        let mv = match side {
            Player::First => first.choose(&g),
            Player::Second => second.choose(&g),
        };
        legal.clear();
        g.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Duel {
                moves,
                outcome: Outcome::Win(side.opponent()),
                reason: EndReason::Illegal(side),
                final_state: g,
            };
        }
        moves.push(mv);
        g.apply(mv);
    }
}
