//! A tiny game for the arena's own tests: a running total starts at 0, each turn adds 1 or 2, and whoever
//! reaches 10 wins. Small enough to reason about by hand, with every referee outcome reachable.

use reference::{Game, Notation, Outcome, Player};

use crate::arena::game::ArenaGame;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub total: u32,
    pub to_move: Player,
    /// Set when the last move was a forfeited turn (adds 0), so tests can see it.
    pub passes: u32,
}

impl Race {
    pub fn new() -> Race {
        Race {
            total: 0,
            to_move: Player::First,
            passes: 0,
        }
    }
}

impl Game for Race {
    type Move = u32;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u32>) {
        if self.outcome().is_none() {
            out.extend([0, 1, 2]);
        }
    }

    fn apply(&mut self, mv: u32) {
        self.total += mv;
        if mv == 0 {
            self.passes += 1;
        }
        if self.total < 10 {
            self.to_move = self.to_move.opponent();
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.total >= 10 {
            Some(Outcome::Win(self.to_move))
        } else if self.passes >= 6 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
}

impl Notation for Race {
    fn encode(&self) -> String {
        format!("{}", self.total)
    }

    fn format_move(&self, mv: u32) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u32, String> {
        match text.trim().parse::<u32>() {
            Ok(n) if n <= 2 => Ok(n),
            Ok(n) => Err(format!("`{n}` is more than 2")),
            Err(_) => Err(format!("expected 1 or 2, got `{text}`")),
        }
    }
}

impl ArenaGame for Race {
    fn name(&self) -> String {
        "race".into()
    }

    fn tie_break(&self) -> Option<Player> {
        (self.total % 2 == 1).then_some(Player::Second)
    }

    fn forfeit(&self, _reply: &str) -> Option<u32> {
        Some(0)
    }
}
