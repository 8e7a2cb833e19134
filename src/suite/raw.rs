//! The serde mirror of `suite.toml`: strict (unknown keys rejected), kebab-case, spans kept for errors.
//! Nothing here is checked beyond TOML types; `suite::load` turns it into domain types.
//! An absent `Option` field reads as `None` without `#[serde(default)]`, so only the others carry it.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::arena::config::RawArena;
use crate::config::RawLimits;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawSuite {
    pub title: Spanned<String>,
    pub seed: u64,
    #[serde(default)]
    pub limits: RawLimits,
    /// Build limits over `grader.toml`'s `[build]`.
    #[serde(default)]
    pub build_limits: RawLimits,
    #[serde(default)]
    pub languages: Vec<RawLanguage>,
    /// Credit for named reference variants a trace comparator may recognise.
    #[serde(default)]
    pub variants: BTreeMap<String, Spanned<RawVariant>>,
    #[serde(default)]
    pub groups: Vec<Spanned<RawGroup>>,
    /// Games graded by playing: the arena table (`src/arena/PROTOCOLS.md`).
    pub arena: Option<RawArena>,
    /// The name a language adapter loads, by student folder (`{entry}` in `run`).
    pub entries: Option<Spanned<RawEntries>>,
    /// Columns the instructor fills in by hand.
    #[serde(default)]
    pub manual: Vec<Spanned<RawManual>>,
    /// Each language's reference hand-in for `grader calibrate`, relative to the suite folder.
    #[serde(default)]
    pub calibrate: BTreeMap<Spanned<String>, String>,
    /// `unpredictable` (the default) or `as-written`: the names a case's files get on its command line.
    pub file_names: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawEntries {
    pub default: Option<Spanned<String>>,
    #[serde(default)]
    pub students: BTreeMap<String, Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawManual {
    pub name: Spanned<String>,
    #[serde(default)]
    pub title: String,
    pub points: Spanned<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawLanguage {
    pub name: Spanned<String>,
    pub detect: Spanned<Vec<String>>,
    #[serde(default)]
    pub build: Vec<Vec<String>>,
    pub run: Spanned<Vec<String>>,
    /// Suite files copied into the build copy before the build.
    #[serde(default)]
    pub support: Vec<Spanned<String>>,
    #[serde(default = "yes")]
    pub address_space: bool,
    /// Python versions a `python3` recipe accepts (`["3", "2"]`); absent means Python 3 only.
    pub versions: Option<Spanned<Vec<Spanned<String>>>>,
    /// More programs built in the same copy, by name (`programs.tmmorris`), for groups that name one.
    #[serde(default)]
    pub programs: BTreeMap<String, Spanned<RawProgram>>,
}

/// A second program of a recipe: Adelaide postgrads hand in `tmmorris` beside `tictactoe`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawProgram {
    /// Files (relative to the submission) that show the student attempted it.
    pub detect: Spanned<Vec<String>>,
    #[serde(default)]
    pub build: Vec<Vec<String>>,
    pub run: Spanned<Vec<String>>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawVariant {
    pub credit: Spanned<f64>,
    #[serde(default)]
    pub note: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawGroup {
    pub name: Spanned<String>,
    #[serde(default)]
    pub title: String,
    pub points: Spanned<f64>,
    pub credit: Option<Spanned<String>>,
    pub visibility: Option<Spanned<String>>,
    /// The recipe program its cases run (`programs.NAME`), instead of the main one.
    pub program: Option<Spanned<String>>,
    #[serde(default)]
    pub cases: Vec<Spanned<RawCase>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawCase {
    pub name: Spanned<String>,
    pub visibility: Option<Spanned<String>>,
    pub args: Option<Spanned<Vec<String>>>,
    pub stdin: Option<String>,
    pub stdout: Option<Spanned<RawExpect>>,
    #[serde(default)]
    pub files: BTreeMap<Spanned<String>, Spanned<RawExpect>>,
    pub limits: Option<RawLimits>,
    /// Games against a bot or itself.
    pub play: Option<Spanned<RawPlay>>,
    /// One move from a given state.
    pub position: Option<Spanned<RawPosition>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPlay {
    pub opponent: Spanned<String>,
    pub games: Spanned<u32>,
    pub measure: Spanned<String>,
    pub at_least: Option<Spanned<f64>>,
    pub game: Option<Spanned<String>>,
    pub args: Option<Vec<String>>,
    pub move_limit: Option<Spanned<String>>,
    pub transcript: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPosition {
    pub state: Spanned<String>,
    pub side: Spanned<String>,
    pub expect: Spanned<String>,
    pub game: Option<Spanned<String>>,
    pub args: Option<Vec<String>>,
    pub move_limit: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawExpect {
    pub golden: Option<Spanned<String>>,
    pub reference: Option<Spanned<String>>,
    pub compare: Option<Spanned<String>>,
    pub tolerance: Option<Spanned<f64>>,
}
