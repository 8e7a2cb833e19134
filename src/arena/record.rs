//! Game records: everything one game produced (players, colours, seed, every move with its time and the
//! state after it, the result and the reason), as JSON for replays and reports.

use serde::{Deserialize, Serialize};

/// The side that won, by colour index: 0 moved first, 1 second.
pub type Side = usize;

/// One game, start to finish.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct GameRecord {
    pub game: String,
    /// The players in colour order: `players[0]` moved first.
    pub players: [String; 2],
    /// The side names in the same order (`x`, `o`; `white`, `black`).
    pub colours: [String; 2],
    pub seed: u64,
    pub initial: String,
    pub moves: Vec<MoveRecord>,
    /// The final state in the game's encoding.
    #[serde(rename = "final")]
    pub final_state: String,
    pub result: GameResult,
    pub ending: Ending,
    /// One sentence a student can act on: "o timed out after 1.05 s on move 14".
    pub reason: String,
    /// What seats observed beyond the result (a dialogue program announcing the end, or not).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The last lines each player wrote to stderr, where the seat keeps them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stderr: Vec<Option<String>>,
}

/// One turn as played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct MoveRecord {
    /// 0 or 1: which side moved.
    pub side: Side,
    /// What the player sent (trimmed), even when the referee replaced it.
    pub sent: String,
    /// The move the referee applied, in the game's notation (differs from `sent` when a placement was
    /// forfeited).
    pub applied: String,
    /// Microseconds from the request to the reply.
    pub micros: u64,
    /// The state after the move.
    pub state: String,
    /// Set when the reply was illegal or malformed and the suite forfeits instead of losing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeited: Option<String>,
}

/// How the game ended, by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameResult {
    /// Side 0 or 1 won.
    Win(Side),
    /// A draw; `edge` is the side the seed's tie-break favours, if any.
    Draw { edge: Option<Side> },
}

/// Why the game ended, in a form the tournament can count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Rules,
    MoveCap,
    Fault,
}

impl GameRecord {
    /// The winner as a player index into `players`, or `None` for a draw.
    #[must_use]
    pub fn winner(&self) -> Option<Side> {
        match self.result {
            GameResult::Win(s) => Some(s),
            GameResult::Draw { .. } => None,
        }
    }

    /// The record with every move time zeroed: what determinism promises to reproduce byte for byte.
    #[must_use]
    pub fn without_timings(&self) -> GameRecord {
        let mut r = self.clone();
        for m in &mut r.moves {
            m.micros = 0;
        }
        r
    }

    /// A one-line summary: `x (random) beats o (offensive): three in a row`.
    #[must_use]
    pub fn summary(&self) -> String {
        let who = |s: Side| format!("{} ({})", self.colours[s], self.players[s]);
        match self.result {
            GameResult::Win(s) => format!("{} beats {}: {}", who(s), who(1 - s), self.reason),
            GameResult::Draw { edge } => {
                let edge = edge
                    .map(|s| format!(", tie-break to {}", self.colours[s]))
                    .unwrap_or_default();
                format!("{} draws with {}: {}{edge}", who(0), who(1), self.reason)
            }
        }
    }
}
