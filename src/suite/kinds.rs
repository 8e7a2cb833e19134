//! The checked kinds of case (run, play, position) and the suite-wide tables games need: entries and
//! manual columns.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::arena::config::ArenaConfig;

use super::Expect;

/// What a case does.
pub enum Kind {
    /// Run the program once with arguments and stdin; judge stdout and files.
    Run(Run),
    /// Play games against a bot (or the submission itself) through the arena.
    Play(Play),
    /// Ask for one move from a given state.
    Position(Position),
}

impl Kind {
    /// `run`, `play` or `position`, as the suite writes the kind.
    #[must_use]
    pub fn word(&self) -> &'static str {
        match self {
            Kind::Run(_) => "run",
            Kind::Play(_) => "play",
            Kind::Position(_) => "position",
        }
    }
}

/// A run case: today's `args`/`stdin`/`stdout`/`files`.
pub struct Run {
    /// Arguments with `{work}` still in place.
    pub args: Vec<String>,
    pub stdin: Option<Vec<u8>>,
    pub stdout: Option<Expect>,
    /// Files the program must write in its working directory, by name.
    pub files: Vec<(String, Expect)>,
}

/// Who the submission plays.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Opponent {
    /// A bot spec the game offers (`random`, `minimax:3`).
    Bot(String),
    /// A second copy of the submission.
    Itself,
}

impl Opponent {
    /// As the suite writes it: the spec, or `self`.
    #[must_use]
    pub fn spec(&self) -> &str {
        match self {
            Opponent::Bot(s) => s,
            Opponent::Itself => "self",
        }
    }
}

/// What a play case measures over its games, as a fraction of them. New measures (facts a dialogue
/// seat records, say) are a variant here, a word in [`Measure::parse`], and an arm in
/// `grade::play::counts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// No illegal or malformed move, crash, timeout, flood or closed pipe by the submission.
    Legal,
    Won,
    /// Won or drawn.
    NotLost,
    /// (won + drawn / 2) / games.
    Score,
    /// Dialogue programs: asked what the opening expects, then moved in turn (WPI rule 1).
    Opening,
    /// Dialogue programs: asked again after every invalid input typed at it, then finished the game
    /// (WPI item 5). The only measure whose games type the suite's `[[arena.dialogue.probe]]` inputs.
    Rejects,
    /// Dialogue programs: announced the real result at the end (WPI item 6).
    Announces,
    /// Took every win in one it had and blocked every win in one the opponent had that a move could
    /// stop (`arena::analysis`).
    Tactics,
}

impl Measure {
    /// Every measure with its word, in the order hints list them.
    pub const ALL: [(Measure, &'static str); 8] = [
        (Measure::Legal, "legal"),
        (Measure::Won, "won"),
        (Measure::NotLost, "not-lost"),
        (Measure::Score, "score"),
        (Measure::Opening, "opening"),
        (Measure::Rejects, "rejects"),
        (Measure::Announces, "announces"),
        (Measure::Tactics, "tactics"),
    ];

    #[must_use]
    pub fn parse(word: &str) -> Option<Measure> {
        Measure::ALL
            .iter()
            .find(|(_, w)| *w == word)
            .map(|(m, _)| *m)
    }

    #[must_use]
    pub fn word(self) -> &'static str {
        Measure::ALL
            .iter()
            .find(|(m, _)| *m == self)
            .map_or("?", |(_, w)| w)
    }
}

/// A play case: `games` games, colours alternating (the submission first in games 1, 3, 5, ...).
pub struct Play {
    pub opponent: Opponent,
    pub games: u32,
    pub measure: Measure,
    /// Credit 1 when the measure reaches it, else 0; without it, credit = the measure.
    pub at_least: Option<f64>,
    /// The suite's `[arena]` with the case's `game`, `args` and `move-limit` applied.
    pub arena: Arc<ArenaConfig>,
    /// A file name under the student's results folder for the games as text.
    pub transcript: Option<String>,
}

/// What a position case expects of the move (the position module owns the type).
pub use crate::position::Want as PositionExpect;

/// A position case: the program is asked once, at `state` with `side` to move.
pub struct Position {
    /// The position in the game's one-line encoding.
    pub state: String,
    /// The side to move as the game names it (`x`, `white`).
    pub side: String,
    pub expect: PositionExpect,
    /// The suite's `[arena]` with the case's `game`, `args` and `move-limit` applied.
    pub arena: Arc<ArenaConfig>,
    /// Files the program writes during the move, with the comparator named for each (checked by the
    /// position machinery).
    pub files: Vec<(String, String)>,
}

/// `[entries]`: the name a language adapter loads, by student folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entries {
    pub default: Option<String>,
    pub students: BTreeMap<String, String>,
}

impl Entries {
    /// `{entry}` for a student folder: its own, else the default, else empty.
    #[must_use]
    pub fn for_student(&self, student: &str) -> String {
        self.students
            .get(student)
            .or(self.default.as_ref())
            .cloned()
            .unwrap_or_default()
    }
}

/// A group marked by a person (`[[manual]]`): its points, how its rubric items count, and the items.
/// The marks themselves are data beside the results (`manual.toml`, `crate::marks`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Manual {
    pub name: String,
    pub title: String,
    pub points: f64,
    #[serde(default)]
    pub scoring: Scoring,
    #[serde(default)]
    pub items: Vec<RubricItem>,
}

/// How a manual group's items count, as Gradescope's rubrics do: `positive` starts from 0 and each
/// item ticked adds its points; `negative` starts from the group's points and each item ticked takes
/// its points off. Either way the group's points are kept between 0 and its maximum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    #[default]
    Positive,
    Negative,
}

/// One rubric item: a name (its key in `manual.toml`), what it says, and its points (negative for a
/// deduction under positive scoring, or a bonus under negative).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct RubricItem {
    pub name: String,
    pub text: String,
    pub points: f64,
}
