//! Suites: strict `suite.toml` loading (raw serde structs, then checked domain types) and validation.
//!
//! A suite is a folder: `suite.toml`, docs, and `golden/` files. Loading resolves every expected output
//! (reading golden files, running reference solvers on each case's arguments), so a suite that loads is
//! ready to grade and every mistake in it is reported before any submission runs.

pub mod calibration;
mod games;
pub use games::MAX_ITEMS as MAX_RUBRIC_ITEMS;
pub mod kinds;
pub mod kit_file;
mod load;
pub mod oracle;
pub mod position;
pub mod position_rules;
pub mod raw;
pub mod validate;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::toml_file::Spanned;

use crate::arena::config::{ArenaConfig, ArenaConfigError};
use crate::build::{ExtraRecipe, PythonVersion};
use crate::config::Config;
use crate::judge::Comparator;
use crate::sandbox::Limits;
use crate::toml_file::{located, parse_toml, read_text, TomlError};
pub use kinds::{
    Entries, Kind, Manual, Measure, Opponent, Play, Position, PositionExpect, RubricItem, Run,
    Scoring,
};
use load::Loader;
use oracle::{Oracle, Solved};
use raw::{RawCase, RawExpect, RawGroup, RawSuite};

/// (program, concrete arguments, variant name).
type VariantKey = (String, Vec<String>, String);

/// The file every suite folder holds.
pub const SUITE_FILE: &str = "suite.toml";

/// What the reference solvers see for `{work}` (they never write, so any name will do; it must only
/// match between the loader, a kit's recorded variants and the judge).
pub const REFERENCE_WORK: &str = "work";

pub use kit_file::Hidden;

/// A checked suite, with every expected output resolved.
pub struct Suite {
    /// The folder name, used for result folders and the gradebook.
    pub name: String,
    pub dir: PathBuf,
    pub title: String,
    pub seed: u64,
    /// Run limits: `grader.toml`, then the suite's `[limits]`, then a case's own.
    pub limits: Limits,
    pub build_limits: Limits,
    pub languages: Vec<Language>,
    pub variants: Vec<VariantCredit>,
    pub groups: Vec<Group>,
    /// The `[arena]` table of a suite graded by playing.
    pub arena: Option<Arc<ArenaConfig>>,
    pub entries: Entries,
    /// Columns filled in by hand, never in the total.
    pub manual: Vec<Manual>,
    /// `[calibrate]`: each language's reference hand-in, resolved from the suite folder.
    pub calibrate: Vec<(String, PathBuf)>,
    /// `calibration.toml`, when `grader calibrate` has written one.
    pub calibration: Option<calibration::Calibration>,
    /// The names a run case's files get on its command line (`file-names`).
    pub file_names: FileNames,
    /// What the hidden cases carry: this suite's own, or for a kit those of the suite it was cut from.
    pub hidden: Hidden,
    /// Whether this is a student kit (`kit.toml`): its variants' outputs are recorded, never computed.
    pub kit: bool,
    oracle: Arc<dyn Oracle>,
    /// Variant outputs computed on demand (or a kit's, recorded), keyed by (program, args, variant).
    cache: Mutex<HashMap<VariantKey, Arc<Solved>>>,
}

/// `file-names`: what a run case's command line calls the files it names (`src/grade/names.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FileNames {
    /// A name per case and student that a submission cannot predict (`visited-3f09c2ab.txt`).
    #[default]
    Unpredictable,
    /// The name in the case's `args`, for a handout that fixes it.
    AsWritten,
}

/// How to build and run one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Language {
    pub name: String,
    /// Files that must all exist for this recipe to be chosen; recipes are tried in suite order, and
    /// several may share a language name (C++ from `tictactoe.cpp` or `tictactoe.cc`).
    pub detect: Vec<String>,
    pub build: Vec<Vec<String>>,
    /// `{dir}` is the built copy of the submission; `{entry}` the student's `[entries]` name.
    pub run: Vec<String>,
    /// Suite files (relative to the suite folder) copied into the build copy under their base name.
    pub support: Vec<PathBuf>,
    /// Whether RLIMIT_AS may be applied (off for the JVM).
    pub address_space: bool,
    /// More programs built in the same copy after the main one, for groups that name them.
    pub programs: Vec<ExtraRecipe>,
    /// The Python versions a `python3` recipe accepts (`versions`); empty: Python 3 only.
    pub python: Vec<PythonVersion>,
}

/// Credit a suite gives a recognised reference variant.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantCredit {
    pub name: String,
    pub description: String,
    /// Fraction of the case's credit, 0 to 1.
    pub credit: f64,
    pub note: String,
}

/// How a group turns case credits into points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CreditRule {
    /// Points × the mean of the cases' credit.
    Proportional,
    /// Full points only when every case has full credit.
    AllOrNothing,
    /// A `[[manual]]` column: the instructor's points, never computed (results show them as null).
    Manual,
}

impl CreditRule {
    /// The share of a group's points its cases' `credits` (each 0 to 1) earn under this rule.
    #[must_use]
    pub fn fraction(self, credits: &[f64]) -> f64 {
        if credits.is_empty() {
            return 0.0;
        }
        match self {
            CreditRule::Proportional => {
                credits.iter().map(|c| c.clamp(0.0, 1.0)).sum::<f64>() / credits.len() as f64
            }
            // Groups never carry it; a manual column has no cases to score.
            CreditRule::Manual => 0.0,
            CreditRule::AllOrNothing if credits.iter().all(|c| *c >= 1.0) => 1.0,
            CreditRule::AllOrNothing => 0.0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// Students may run it with `grader check`.
    Public,
    /// Only instructors' `grader run` runs it.
    Hidden,
}

pub struct Group {
    pub name: String,
    pub title: String,
    pub points: f64,
    pub credit: CreditRule,
    /// The recipe program the cases run (`programs.NAME`); `None` for the main one. A submission
    /// without it has not attempted the group: the group is reported so and left out of its total.
    pub program: Option<String>,
    pub cases: Vec<Case>,
}

pub struct Case {
    pub name: String,
    pub visibility: Visibility,
    /// Limits of each run (run cases).
    pub limits: Limits,
    pub kind: Kind,
}

impl Case {
    /// The run case's inputs and expectations, when it is one.
    #[must_use]
    pub fn run(&self) -> Option<&Run> {
        match &self.kind {
            Kind::Run(r) => Some(r),
            _ => None,
        }
    }
}

/// One expected output.
pub struct Expect {
    pub comparator: Comparator,
    /// The expected bytes (an empty expected file means "write nothing").
    pub text: Arc<str>,
    /// The golden file it came from, relative to the suite folder.
    pub golden: Option<PathBuf>,
    /// The reference solver that computes it.
    pub reference: Option<String>,
}

/// A suite that cannot be used, located in its files.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error("`{dir}` is not a suite folder: it has no `suite.toml`\nhint: a suite is a folder holding `suite.toml`; see suites/README.md")]
    NotASuite { dir: PathBuf },
    #[error(transparent)]
    Toml(#[from] TomlError),
    #[error(transparent)]
    Arena(#[from] ArenaConfigError),
    /// Several problems, in the order of the file: `grader validate` prints each as an error; other
    /// commands print them one after another.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\nerror: "))]
    Many(Vec<SuiteError>),
}

impl SuiteError {
    /// One problem as itself, more as [`SuiteError::Many`].
    #[must_use]
    pub fn many(mut problems: Vec<SuiteError>) -> SuiteError {
        // In the order of the file (the loader checks it section by section).
        problems.sort_by_key(SuiteError::line_col);
        if problems.len() == 1 {
            return problems.remove(0);
        }
        SuiteError::Many(problems)
    }

    /// Where the problem is in its file, `(line, column)`; `(0, 0)` for the file as a whole.
    fn line_col(&self) -> (usize, usize) {
        let at = match self {
            SuiteError::Toml(TomlError::Invalid { at, .. }) => at.as_str(),
            _ => return (0, 0),
        };
        let mut parts = at.rsplitn(3, ':');
        let col = parts.next().and_then(|c| c.parse().ok());
        let line = parts.next().and_then(|l| l.parse().ok());
        line.zip(col).unwrap_or((0, 0))
    }

    /// Each problem on its own.
    #[must_use]
    pub fn problems(&self) -> Vec<&SuiteError> {
        match self {
            SuiteError::Many(all) => all.iter().flat_map(SuiteError::problems).collect(),
            one => vec![one],
        }
    }
}

/// What a suite is loaded for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Grade,
    /// `grader golden`: golden files may be missing or stale.
    Golden,
    /// `grader validate`: everything checked.
    Validate,
}

/// Placeholders a case's arguments may use.
const PLACEHOLDERS: &[&str] = &["{work}"];

impl Suite {
    /// Loads and checks `dir/suite.toml`.
    pub fn load(dir: &Path, config: &Config, oracle: Arc<dyn Oracle>) -> Result<Suite, SuiteError> {
        Suite::load_with(dir, config, oracle, Mode::Grade)
    }

    /// Loads for `grader validate`: as [`Suite::load`], and what only some commands use must be
    /// there too (`[calibrate]`'s folders).
    pub fn load_strict(
        dir: &Path,
        config: &Config,
        oracle: Arc<dyn Oracle>,
    ) -> Result<Suite, SuiteError> {
        Suite::load_with(dir, config, oracle, Mode::Validate)
    }

    /// Loads for `grader golden`: a golden file that is missing (or stale) is fine when its reference
    /// solver can compute it; the expected text then comes from the reference.
    pub fn load_for_golden(
        dir: &Path,
        config: &Config,
        oracle: Arc<dyn Oracle>,
    ) -> Result<Suite, SuiteError> {
        Suite::load_with(dir, config, oracle, Mode::Golden)
    }

    fn load_with(
        dir: &Path,
        config: &Config,
        oracle: Arc<dyn Oracle>,
        mode: Mode,
    ) -> Result<Suite, SuiteError> {
        // A rules game's name, sides and bots are asked of one program, started once.
        let _keep = crate::arena::game::registry::keep_rules();
        let path = dir.join(SUITE_FILE);
        if !path.is_file() {
            return Err(SuiteError::NotASuite {
                dir: dir.to_path_buf(),
            });
        }
        let text = read_text(&path)?;
        let raw: RawSuite = parse_toml(&path, &text)?;
        let name = dir
            .canonicalize()
            .unwrap_or_else(|_| dir.to_path_buf())
            .file_name()
            .map_or_else(|| "suite".to_string(), |n| n.to_string_lossy().into_owned());
        let mut suite = Loader {
            dir,
            path: &path,
            text: &text,
            oracle: &*oracle,
            golden_optional: mode == Mode::Golden,
            strict: mode == Mode::Validate,
            problems: std::cell::RefCell::new(Vec::new()),
        }
        .suite(raw, name, config, oracle.clone())?;
        match kit_file::load(dir, &suite)? {
            Some(kit) => {
                suite.name = kit.suite;
                suite.hidden = kit.hidden;
                suite.kit = true;
                suite.cache = Mutex::new(kit.variants);
            }
            None => suite.hidden = Hidden::of(&suite),
        }
        Ok(suite)
    }

    /// Every case, with its group.
    pub fn cases(&self) -> impl Iterator<Item = (&Group, &Case)> {
        self.groups
            .iter()
            .flat_map(|g| g.cases.iter().map(move |c| (g, c)))
    }

    /// Total points on offer.
    pub fn total_points(&self) -> f64 {
        self.groups.iter().map(|g| g.points).sum()
    }

    /// The output of a named variant of the reference for this expectation's case, computed on demand
    /// (only when the golden comparison has failed) and cached. `None` where it is not known: a kit
    /// records only the variants that differ from the golden outputs, and the student build computes
    /// none.
    pub fn variant_output(
        &self,
        program: &str,
        args: &[String],
        variant: &str,
    ) -> Result<Option<Arc<Solved>>, String> {
        let key = (program.to_string(), args.to_vec(), variant.to_string());
        if let Some(hit) = self.cache.lock().expect("cache lock").get(&key) {
            return Ok(Some(hit.clone()));
        }
        if self.kit || cfg!(feature = "student") {
            return Ok(None);
        }
        let solved = Arc::new(self.oracle.solve(program, args, Some(variant))?);
        self.cache
            .lock()
            .expect("cache lock")
            .insert(key, solved.clone());
        Ok(Some(solved))
    }

    /// The reference solvers behind this suite's `reference = ...` expectations.
    pub fn oracle(&self) -> &dyn Oracle {
        self.oracle.as_ref()
    }

    /// The reference solver output for a case's arguments, as the golden behaviour.
    pub fn reference_output(&self, program: &str, args: &[String]) -> Result<Solved, String> {
        self.oracle.solve(program, args, None)
    }
}
