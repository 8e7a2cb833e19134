//! The serde mirror of `suite.toml`: strict (unknown keys rejected), kebab-case, spans kept for errors.
//! Nothing here is checked beyond TOML types; `suite::load` turns it into domain types.
//! An absent `Option` field reads as `None` without `#[serde(default)]`, so only the others carry it.
//! The same types give the file's JSON Schema (`grader schema suite`): each doc comment is a key's
//! description there, and the `schemars` attributes say the forms `suite::load` checks.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::arena::config::RawArena;
use crate::config::RawLimits;
use crate::toml_file::form;
use crate::toml_file::Spanned;

/// `suite.toml`: one assignment's tests (suites/README.md).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "suite.toml", transform = require_languages)]
pub struct RawSuite {
    /// Shown in tables and reports.
    #[schemars(length(min = 1))]
    pub title: Spanned<String>,
    /// The suite's seed for anything random (games, file names).
    pub seed: u64,
    /// Limits of each run, over `grader.toml`'s `[limits]`.
    #[serde(default)]
    pub limits: RawLimits,
    /// Limits of each build command, over `grader.toml`'s `[build]`.
    #[serde(default)]
    pub build_limits: RawLimits,
    /// How a submission is built and run, tried in order: the first whose `detect` files all exist wins.
    #[serde(default)]
    #[schemars(length(min = 1))]
    pub languages: Vec<RawLanguage>,
    /// Credit for named reference variants a trace comparator may recognise.
    #[serde(default)]
    pub variants: BTreeMap<String, Spanned<RawVariant>>,
    /// The graded groups, each with its cases.
    #[serde(default)]
    pub groups: Vec<Spanned<RawGroup>>,
    /// Games graded by playing: the arena table (`src/arena/PROTOCOLS.md`).
    pub arena: Option<RawArena>,
    /// The name a language adapter loads, by student folder (`{entry}` in `run`).
    pub entries: Option<Spanned<RawEntries>>,
    /// Columns the instructor fills in by hand.
    #[serde(default)]
    pub manual: Vec<Spanned<RawManual>>,
    /// Each language's reference hand-in for `grader calibrate`, a folder relative to the suite folder.
    #[serde(default)]
    pub calibrate: BTreeMap<Spanned<String>, String>,
    /// `unpredictable` (the default) or `as-written`: the names a case's files get on its command line.
    #[schemars(extend("enum" = ["unpredictable", "as-written"]))]
    pub file_names: Option<Spanned<String>>,
}

/// `languages` reads as empty when absent (so `suite::load` can say what to add), but the schema
/// requires it beside `groups`: a graded suite without a recipe would fail every student's build
/// (an editor says so at once). A file of `[arena]` alone names a game for `play` and `tournament`.
fn require_languages(schema: &mut schemars::Schema) {
    schema.insert(
        "dependencies".into(),
        serde_json::json!({ "groups": ["languages"] }),
    );
}

/// `[entries]`: the name a language adapter loads (`{entry}`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawEntries {
    /// For every student the `students` table does not name.
    pub default: Option<Spanned<String>>,
    /// By student folder name.
    #[serde(default)]
    pub students: BTreeMap<String, Spanned<String>>,
}

/// `[[manual]]`: a group a person marks (`grader review`), in the total and the maximum.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawManual {
    /// The grades.csv column.
    #[schemars(with = "form::Name")]
    pub name: Spanned<String>,
    /// What the column marks, in words: shown beside its name on the review page.
    #[serde(default)]
    pub title: String,
    /// Shown as `/points (manual)`; part of the maximum.
    #[schemars(range(min = 0, max = 10000))]
    pub points: Spanned<f64>,
    /// `positive` (the default: from 0, items add) or `negative` (from `points`, items take off).
    #[schemars(extend("enum" = ["positive", "negative"]))]
    pub scoring: Option<Spanned<String>>,
    /// The rubric: what a person ticks.
    #[serde(default)]
    pub items: Vec<Spanned<RawItem>>,
}

/// One rubric item of a `[[manual]]` group.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawItem {
    /// Its key in `manual.toml`.
    #[schemars(with = "form::Name")]
    pub name: Spanned<String>,
    /// What the item says (the handout's line where it gives one).
    pub text: String,
    /// Points added when ticked (negative: taken off); not 0.
    #[schemars(range(min = -1000000, max = 1000000))]
    pub points: Spanned<f64>,
}

/// `[[languages]]`: a recipe to build and run a submission.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawLanguage {
    /// Several recipes may share a name (C++ from `tictactoe.cpp` or `tictactoe.cc`).
    #[schemars(with = "form::Name")]
    pub name: Spanned<String>,
    /// File names or globs (`*.scm`) that must each match a file in the submission's top folder.
    #[schemars(length(min = 1))]
    pub detect: Spanned<Vec<String>>,
    /// Commands (argv lists) run in a scratch copy of the submission, in order.
    #[serde(default)]
    pub build: Vec<Vec<String>>,
    /// The command that runs the built program; `{dir}` is the built copy, `{entry}` the adapter's entry.
    #[schemars(length(min = 1))]
    pub run: Spanned<Vec<String>>,
    /// Suite files copied into the build copy before the build.
    #[serde(default)]
    pub support: Vec<Spanned<String>>,
    /// `false` for no address-space limit (the JVM reserves much more than it uses).
    #[serde(default = "yes")]
    pub address_space: bool,
    /// Python versions a `python3` recipe accepts (`["3", "2"]`); absent means Python 3 only.
    #[schemars(with = "Option<Vec<form::PythonVersion>>")]
    pub versions: Option<Spanned<Vec<Spanned<String>>>>,
    /// More programs built in the same copy, by name (`programs.tmmorris`), for groups that name one.
    #[serde(default)]
    pub programs: BTreeMap<String, Spanned<RawProgram>>,
}

/// A second program of a recipe: Adelaide postgrads hand in `tmmorris` beside `tictactoe`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawProgram {
    /// Files (relative to the submission) that show the student attempted it.
    #[schemars(length(min = 1))]
    pub detect: Spanned<Vec<String>>,
    /// Commands (argv lists) run after the recipe's own build, in the same copy.
    #[serde(default)]
    pub build: Vec<Vec<String>>,
    /// The command that runs it; `{dir}` is the built copy.
    #[schemars(length(min = 1))]
    pub run: Spanned<Vec<String>>,
}

fn yes() -> bool {
    true
}

/// `[variants]`: the credit a named variant of the reference earns.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawVariant {
    /// A fraction of the case, from 0 to 1.
    #[schemars(range(min = 0, max = 1))]
    pub credit: Spanned<f64>,
    /// Told to the student whose output is this variant.
    #[serde(default)]
    pub note: String,
}

/// `[[groups]]`: a graded group of cases, a column of grades.csv.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawGroup {
    /// The grades.csv column.
    #[schemars(with = "form::Name")]
    pub name: Spanned<String>,
    /// What the group grades, in words: shown beside its name in the student kit's guide and reports.
    #[serde(default)]
    pub title: String,
    /// The group's weight.
    #[schemars(range(min = 0, max = 10000))]
    pub points: Spanned<f64>,
    /// `proportional` (the default: points × mean case credit) or `all-or-nothing`.
    #[schemars(extend("enum" = ["proportional", "all-or-nothing"]))]
    pub credit: Option<Spanned<String>>,
    /// The default of its cases: `public` or `hidden` (the default).
    #[schemars(extend("enum" = ["public", "hidden"]))]
    pub visibility: Option<Spanned<String>>,
    /// The recipe program its cases run (`programs.NAME`), instead of the main one.
    pub program: Option<Spanned<String>>,
    /// Its cases, at least one: each a run, a `play` or a `position` case.
    #[serde(default)]
    #[schemars(length(min = 1))]
    pub cases: Vec<Spanned<RawCase>>,
}

/// `[[groups.cases]]`: a run case (`args`, `stdin`, `stdout`, `files`), a `play` case or a `position`
/// case.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawCase {
    /// Unique in its group; results and `grader verify` call the case `group/name`.
    #[schemars(with = "form::Name")]
    pub name: Spanned<String>,
    /// `public` or `hidden`; the group's when absent.
    #[schemars(extend("enum" = ["public", "hidden"]))]
    pub visibility: Option<Spanned<String>>,
    /// The program's arguments; `{work}` is the run's writable folder (its working directory).
    pub args: Option<Spanned<Vec<String>>>,
    /// Given on standard input (otherwise it is empty).
    pub stdin: Option<String>,
    /// The expected standard output.
    pub stdout: Option<Spanned<RawExpect>>,
    /// Files the program must write in `{work}`, by name.
    #[serde(default)]
    pub files: BTreeMap<Spanned<String>, Spanned<RawExpect>>,
    /// Limits over the suite's, for this case.
    pub limits: Option<RawLimits>,
    /// Games against a bot or itself.
    pub play: Option<Spanned<RawPlay>>,
    /// One move from a given state.
    pub position: Option<Spanned<RawPosition>>,
}

/// `play = { ... }`: games against a bot or itself, scored by a measure.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPlay {
    /// A bot of the game (`random`, `perfect`, ...) or `self`.
    pub opponent: Spanned<String>,
    /// Games played; colours alternate, the submission moving first in games 1, 3, ...
    #[schemars(range(min = 1))]
    pub games: Spanned<u32>,
    /// What is measured over the games (suites/README.md, "Play cases").
    #[schemars(extend("enum" = ["legal", "won", "not-lost", "score", "opening", "rejects", "announces", "tactics"]))]
    pub measure: Spanned<String>,
    /// Credit 1 when the measure reaches it, else 0; without it, credit is the measure.
    #[schemars(range(min = 0, max = 1))]
    pub at_least: Option<Spanned<f64>>,
    /// The suite's game with other parameters (`oska:5`).
    pub game: Option<Spanned<String>>,
    /// Replaces `[arena].args` for this case.
    pub args: Option<Vec<String>>,
    /// Replaces `[arena].move-limit` for this case.
    #[schemars(with = "Option<form::DurationOrNone>")]
    pub move_limit: Option<Spanned<String>>,
    /// A plain file name: the games as text, saved in the student's results folder.
    pub transcript: Option<Spanned<String>>,
}

/// `position = { ... }`: one move asked at a given state, judged by the rules.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPosition {
    /// The position in the game's one-line encoding.
    pub state: Spanned<String>,
    /// The side to move as the game names it (`x`, `white`).
    pub side: Spanned<String>,
    /// `legal`, `win`, `block` or `pass`.
    #[schemars(extend("enum" = ["legal", "win", "block", "pass"]))]
    pub expect: Spanned<String>,
    /// The suite's game with other parameters (`oska:5`).
    pub game: Option<Spanned<String>>,
    /// Replaces `[arena].args` for this case.
    pub args: Option<Vec<String>>,
    /// Replaces `[arena].move-limit` for this case.
    #[schemars(with = "Option<form::DurationOrNone>")]
    pub move_limit: Option<Spanned<String>>,
}

/// An expected output: where its bytes come from and how to compare.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawExpect {
    /// A file in the suite folder (no `..`).
    pub golden: Option<Spanned<String>>,
    /// A reference solver that computes it from the case's `args`.
    #[schemars(extend("enum" = ["tictactoe", "tmmorris"]))]
    pub reference: Option<Spanned<String>>,
    /// `exact` (stdout's default), `tokens`, `numeric` or `trace` (files' default).
    #[schemars(extend("enum" = ["exact", "tokens", "numeric", "trace", "reachable"]))]
    pub compare: Option<Spanned<String>>,
    /// For `numeric`: absolute or relative, default `1e-6`.
    #[schemars(range(min = 0))]
    pub tolerance: Option<Spanned<f64>>,
}
