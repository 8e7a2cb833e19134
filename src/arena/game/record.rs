//! Game records: everything one game produced (players, colours, seed, every move with its time and the
//! state after it, the result and the reason), as JSON for replays and reports.

use serde::{Deserialize, Serialize};
use std::time::Duration;

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
    /// Checked facts a seat observed (a dialogue program's opening, its answers to invalid input, its
    /// end-of-game message), for measures that grade more than the result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<Fact>,
    /// Each side's dialogue as its seat saw it (interactive programs: everything printed, each line
    /// typed marked `→ `), capped, where the seat keeps one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transcripts: Vec<Option<String>>,
}

/// One checked observation about a player, beyond its moves (WPI's rubric: it asks for the mark and
/// moves first with X, it validates the opponent's moves, it says who won).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "fact")]
pub enum Fact {
    /// The program asked what the opening script expects, then moved first exactly when it had the
    /// first side (or asked for the opponent's move first when it had the second).
    Opening {
        side: Side,
        ok: bool,
        detail: String,
    },
    /// An invalid input typed at a move prompt, and what the program did with it.
    Probe {
        side: Side,
        /// What was typed.
        sent: String,
        /// Why it is invalid, in the suite's words (`an occupied cell`).
        about: String,
        outcome: ProbeOutcome,
        detail: String,
    },
    /// The program's end-of-game message and whether the result it states is the real one.
    End {
        side: Side,
        /// The message, when the program printed one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        said: Option<String>,
        /// The result the message states, when the suite's pattern tells it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        claim: Option<GameResult>,
        right: bool,
        detail: String,
    },
    /// The conventions the grader learned to talk to a program that follows its own (it asks "play
    /// first?" instead of X or O, or numbers cells 1-9): `first/second asked as yes/no; moves as 1-9
    /// row-major`.
    Understood { side: Side, detail: String },
}

/// What a program did with an invalid input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProbeOutcome {
    /// It asked for the move again.
    Rejected,
    /// It went on as if the move were valid.
    Accepted,
    /// It crashed, hung, flooded, or closed its pipe.
    Fault,
}

impl Fact {
    /// The colour index of the player the fact is about.
    #[must_use]
    pub fn side(&self) -> Side {
        match self {
            Fact::Opening { side, .. }
            | Fact::Probe { side, .. }
            | Fact::End { side, .. }
            | Fact::Understood { side, .. } => *side,
        }
    }
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
    /// Neither side could play (both faulted before the first move): a loss for both, so that two
    /// broken entrants do not each "win" once. Serialised as `"both-lost"`; older records never hold it.
    BothLost,
}

/// Why the game ended, in a form the tournament can count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    Rules,
    MoveCap,
    Fault,
    /// The grader could not follow a player (an interactive program whose dialogue it could not
    /// establish): no one's fault yet, a person looks. `result` is `BothLost` (no result), and the
    /// game counts for no one in a tournament.
    Review,
}

impl GameRecord {
    /// The winner as a player index into `players`, or `None` for a draw or a double fault.
    #[must_use]
    pub fn winner(&self) -> Option<Side> {
        match self.result {
            GameResult::Win(s) => Some(s),
            GameResult::Draw { .. } | GameResult::BothLost => None,
        }
    }

    /// Whether `side` lost: the other side won, or neither could play.
    #[must_use]
    pub fn lost(&self, side: Side) -> bool {
        match self.result {
            GameResult::Win(s) => s != side,
            GameResult::Draw { .. } => false,
            GameResult::BothLost => true,
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
        if self.ending == Ending::Review {
            return format!(
                "{} and {}: no result, a person should look: {}",
                who(0),
                who(1),
                self.reason
            );
        }
        match self.result {
            GameResult::Win(s) => format!("{} beats {}: {}", who(s), who(1 - s), self.reason),
            GameResult::Draw { edge } => {
                let edge = edge
                    .map(|s| format!(", tie-break to {}", self.colours[s]))
                    .unwrap_or_default();
                format!("{} draws with {}: {}{edge}", who(0), who(1), self.reason)
            }
            GameResult::BothLost => {
                format!("{} and {} both lose: {}", who(0), who(1), self.reason)
            }
        }
    }
}

/// `1.05 s`, `320 ms`, `45 µs`.
#[must_use]
pub fn seconds(d: Duration) -> String {
    if d >= Duration::from_secs(1) {
        format!("{:.2} s", d.as_secs_f64())
    } else if d >= Duration::from_millis(1) {
        format!("{} ms", d.as_millis())
    } else {
        format!("{} µs", d.as_micros())
    }
}

/// Records made up by hand, for the tests of what reads them.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::{Ending, GameRecord, GameResult};

    /// A tic-tac-toe game of `me` (x) against `random` (o) with no moves, that ended so for `reason`.
    pub fn tictactoe(result: GameResult, ending: Ending, reason: &str) -> GameRecord {
        GameRecord {
            game: "tictactoe".into(),
            players: ["me".into(), "random".into()],
            colours: ["x".into(), "o".into()],
            seed: 1,
            initial: "---------".into(),
            moves: Vec::new(),
            final_state: "---------".into(),
            result,
            ending,
            reason: reason.into(),
            notes: Vec::new(),
            stderr: Vec::new(),
            facts: Vec::new(),
            transcripts: Vec::new(),
        }
    }
}
