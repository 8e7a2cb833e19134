//! Suites: strict `suite.toml` loading (raw serde structs, then checked domain types) and validation.
//!
//! A suite is a folder: `suite.toml`, docs, and `golden/` files. Loading resolves every expected output
//! (reading golden files, running reference solvers on each case's arguments), so a suite that loads is
//! ready to grade and every mistake in it is reported before any submission runs.

pub mod calibration;
mod games;
pub mod kinds;
pub mod oracle;
pub mod position;
pub mod position_rules;
pub mod raw;
pub mod validate;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use toml::Spanned;

use crate::arena::config::{ArenaConfig, ArenaConfigError};
use crate::build::{ExtraRecipe, PythonVersion};
use crate::config::{located, parse_toml, Config, TomlError};
use crate::judge::Comparator;
use crate::sandbox::Limits;
pub use kinds::{Entries, Kind, Manual, Measure, Opponent, Play, Position, PositionExpect, Run};
use oracle::{Oracle, Solved};
use raw::{RawCase, RawExpect, RawGroup, RawSuite};

/// (program, concrete arguments, variant name).
type VariantKey = (String, Vec<String>, String);

/// The file every suite folder holds.
pub const SUITE_FILE: &str = "suite.toml";

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
    oracle: Arc<dyn Oracle>,
    /// Variant outputs computed on demand, keyed by (program, args, variant).
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
}

/// Placeholders a case's arguments may use.
const PLACEHOLDERS: &[&str] = &["{work}"];

impl Suite {
    /// Loads and checks `dir/suite.toml`.
    pub fn load(dir: &Path, config: &Config, oracle: Arc<dyn Oracle>) -> Result<Suite, SuiteError> {
        Suite::load_with(dir, config, oracle, false)
    }

    /// Loads for `grader golden`: a golden file that is missing (or stale) is fine when its reference
    /// solver can compute it; the expected text then comes from the reference.
    pub fn load_for_golden(
        dir: &Path,
        config: &Config,
        oracle: Arc<dyn Oracle>,
    ) -> Result<Suite, SuiteError> {
        Suite::load_with(dir, config, oracle, true)
    }

    fn load_with(
        dir: &Path,
        config: &Config,
        oracle: Arc<dyn Oracle>,
        golden_optional: bool,
    ) -> Result<Suite, SuiteError> {
        let path = dir.join(SUITE_FILE);
        if !path.is_file() {
            return Err(SuiteError::NotASuite {
                dir: dir.to_path_buf(),
            });
        }
        let text = std::fs::read_to_string(&path).map_err(|source| TomlError::Read {
            path: path.clone(),
            source,
        })?;
        let raw: RawSuite = parse_toml(&path, &text)?;
        let name = dir
            .canonicalize()
            .unwrap_or_else(|_| dir.to_path_buf())
            .file_name()
            .map_or_else(|| "suite".to_string(), |n| n.to_string_lossy().into_owned());
        Loader {
            dir,
            path: &path,
            text: &text,
            oracle: &*oracle,
            golden_optional,
        }
        .suite(raw, name, config, oracle.clone())
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
    /// (only when the golden comparison has failed) and cached.
    pub fn variant_output(
        &self,
        program: &str,
        args: &[String],
        variant: &str,
    ) -> Result<Arc<Solved>, String> {
        let key = (program.to_string(), args.to_vec(), variant.to_string());
        if let Some(hit) = self.cache.lock().expect("cache lock").get(&key) {
            return Ok(hit.clone());
        }
        let solved = Arc::new(self.oracle.solve(program, args, Some(variant))?);
        self.cache
            .lock()
            .expect("cache lock")
            .insert(key, solved.clone());
        Ok(solved)
    }

    /// The reference solver output for a case's arguments, as the golden behaviour.
    pub fn reference_output(&self, program: &str, args: &[String]) -> Result<Solved, String> {
        self.oracle.solve(program, args, None)
    }
}

struct Loader<'a> {
    dir: &'a Path,
    path: &'a Path,
    text: &'a str,
    oracle: &'a dyn Oracle,
    golden_optional: bool,
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

impl Loader<'_> {
    /// With `[arena.marks]`, `grader run` adds a `tournament` column: no group or manual column may
    /// take the name, and the `gate` must name a group.
    fn tournament_columns(
        &self,
        raw: Option<&crate::arena::config::RawArena>,
        groups: &[Group],
        manual: &[Manual],
    ) -> Result<(), SuiteError> {
        let Some(marks) = raw.and_then(|a| a.marks.as_ref()) else {
            return Ok(());
        };
        for reserved in ["tournament", "tournament-note"] {
            if groups.iter().any(|g| g.name == reserved)
                || manual.iter().any(|m| m.name == reserved)
            {
                return self.err(
                    marks.by_rank.span(),
                    format!("a group or manual column is named `{reserved}`, the column `grader run` writes the `[arena.marks]` into\nhint: rename the group or column"),
                );
            }
        }
        if let Some(gate) = &marks.gate {
            if !groups.iter().any(|g| &g.name == gate.get_ref()) {
                let names: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
                return self.err(
                    gate.span(),
                    format!(
                        "`gate = \"{}\"` names no group of the suite\nhint: the groups are `{}`",
                        gate.get_ref(),
                        names.join("`, `")
                    ),
                );
            }
        }
        Ok(())
    }

    fn err<T>(
        &self,
        span: std::ops::Range<usize>,
        message: impl AsRef<str>,
    ) -> Result<T, SuiteError> {
        Err(located(self.path, self.text, Some(span), message.as_ref()).into())
    }

    fn name(&self, what: &str, name: &Spanned<String>) -> Result<String, SuiteError> {
        if !is_name(name.get_ref()) {
            return self.err(
                name.span(),
                format!(
                    "bad {what} name `{}`\nhint: use lowercase letters, digits and `-`",
                    name.get_ref()
                ),
            );
        }
        Ok(name.get_ref().clone())
    }

    fn suite(
        &self,
        raw: RawSuite,
        name: String,
        config: &Config,
        oracle: Arc<dyn Oracle>,
    ) -> Result<Suite, SuiteError> {
        if raw.title.get_ref().trim().is_empty() {
            return self.err(raw.title.span(), "the suite's `title` is empty");
        }
        let limits = raw.limits.apply(&config.limits, self.path, self.text)?;
        let build_limits = raw
            .build_limits
            .apply(&config.build, self.path, self.text)?;
        let mut languages = Vec::new();
        for l in raw.languages {
            let lname = self.name("language", &l.name)?;
            if l.detect.get_ref().is_empty() {
                return self.err(l.detect.span(), format!("language `{lname}` has an empty `detect` list\nhint: name the files that identify it, e.g. `[\"tictactoe.py\"]`"));
            }
            if l.run.get_ref().first().is_none_or(|p| p.is_empty()) {
                return self.err(
                    l.run.span(),
                    format!("language `{lname}` has an empty `run` command"),
                );
            }
            let python = self.python_versions(&lname, &l.run, l.versions.as_ref())?;
            let mut programs = Vec::new();
            for (pname, p) in l.programs {
                let span = p.span();
                let p = p.into_inner();
                if !is_name(&pname) {
                    return self.err(span, format!("bad program name `{pname}`\nhint: use lowercase letters, digits and `-`"));
                }
                if p.detect.get_ref().is_empty() {
                    return self.err(p.detect.span(), format!("program `{pname}` of language `{lname}` has an empty `detect` list\nhint: name the files that show a student attempted it, e.g. `[\"{pname}.py\"]`"));
                }
                if p.run.get_ref().first().is_none_or(|r| r.is_empty()) {
                    return self.err(
                        p.run.span(),
                        format!(
                            "program `{pname}` of language `{lname}` has an empty `run` command"
                        ),
                    );
                }
                programs.push(ExtraRecipe {
                    name: pname,
                    detect: p.detect.into_inner(),
                    build: p.build,
                    run: p.run.into_inner(),
                    python: python.clone(),
                });
            }
            self.detect(&lname, &l.detect)?;
            let support = self.support(&lname, &l.support)?;
            languages.push(Language {
                name: lname,
                detect: l.detect.into_inner(),
                build: l.build,
                run: l.run.into_inner(),
                support,
                address_space: l.address_space,
                programs,
                python,
            });
        }
        let known: Vec<(&str, &str)> = self.oracle.variants();
        let mut variants = Vec::new();
        for (vname, v) in raw.variants {
            let span = v.span();
            let v = v.into_inner();
            let Some((_, description)) = known.iter().find(|(n, _)| *n == vname) else {
                let names: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
                return self.err(
                    span,
                    format!(
                        "unknown variant `{vname}`\nhint: the reference solvers know: {}",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                );
            };
            let credit = *v.credit.get_ref();
            if !(0.0..=1.0).contains(&credit) {
                return self.err(
                    v.credit.span(),
                    format!("variant credit `{credit}` is not between 0 and 1"),
                );
            }
            variants.push(VariantCredit {
                name: vname,
                description: description.to_string(),
                credit,
                note: v.note,
            });
        }
        let arena = self.arena(raw.arena.as_ref())?;
        let entries = self.entries(raw.entries)?;
        let manual = self.manual(raw.manual)?;
        let calibrate = self.calibrate(raw.calibrate, &languages)?;
        let file_names = match raw.file_names {
            None => FileNames::Unpredictable,
            Some(f) => match f.get_ref().as_str() {
                "unpredictable" => FileNames::Unpredictable,
                "as-written" => FileNames::AsWritten,
                other => return self.err(f.span(), format!("unknown `file-names` value `{other}`\nhint: use `unpredictable` (the default: a name per case and student) or `as-written` (the name in `args`, for a handout that fixes it)")),
            },
        };
        let names: Vec<&str> = languages.iter().map(|l| l.name.as_str()).collect();
        let calibration = calibration::Calibration::load(self.dir, &names)?;
        // A suite with an `[arena]` and no groups is a tournament-only event (`grader play`,
        // `grader tournament`); anything else needs cases to grade.
        if raw.groups.is_empty() && arena.is_none() {
            return self.err(
                0..0,
                "the suite has no `[[groups]]`\nhint: add at least one group with cases, or an `[arena]` table for a suite graded only by tournaments",
            );
        }
        let mut groups: Vec<Group> = Vec::new();
        for g in raw.groups {
            let name_span = g.get_ref().name.span();
            if let Some(p) = &g.get_ref().program {
                if let Some(l) = languages
                    .iter()
                    .find(|l| !l.programs.iter().any(|x| &x.name == p.get_ref()))
                {
                    return self.err(p.span(), format!("group `{}` runs program `{}`, which language `{}` does not define\nhint: give every `[[languages]]` entry `programs.{} = {{ detect = [...], build = [...], run = [...] }}`", g.get_ref().name.get_ref(), p.get_ref(), l.name, p.get_ref()));
                }
            }
            let group = self.group(g.into_inner(), &limits, arena.as_ref())?;
            if manual.iter().any(|m| m.name == group.name) {
                return self.err(
                    name_span,
                    format!("group `{}` has the name of a `[[manual]]` column\nhint: grades.csv needs distinct column names", group.name),
                );
            }
            if groups.iter().any(|x| x.name == group.name) {
                return self.err(
                    name_span,
                    format!("group `{}` is declared twice", group.name),
                );
            }
            self.distinct_outputs(&groups, &group, name_span)?;
            groups.push(group);
        }
        self.tournament_columns(raw.arena.as_ref(), &groups, &manual)?;
        Ok(Suite {
            name,
            dir: self.dir.to_path_buf(),
            title: raw.title.into_inner(),
            seed: raw.seed,
            limits,
            build_limits,
            languages,
            variants,
            groups,
            arena,
            entries,
            manual,
            calibrate,
            calibration,
            file_names,
            oracle,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// `versions = ["3", "2"]`: only on a recipe run with `python3`, each `"2"` or `"3"`, once.
    fn python_versions(
        &self,
        lname: &str,
        run: &Spanned<Vec<String>>,
        versions: Option<&Spanned<Vec<Spanned<String>>>>,
    ) -> Result<Vec<PythonVersion>, SuiteError> {
        let Some(versions) = versions else {
            return Ok(Vec::new());
        };
        if run.get_ref().first().map(String::as_str) != Some("python3") {
            return self.err(versions.span(), format!("language `{lname}` sets `versions`, but its `run` command does not start with `python3`\nhint: `versions` chooses the Python interpreter; remove it, or run `python3`"));
        }
        if versions.get_ref().is_empty() {
            return self.err(
                versions.span(),
                format!("language `{lname}` has an empty `versions` list\nhint: write `[\"3\"]`, `[\"3\", \"2\"]` or `[\"2\"]`"),
            );
        }
        let mut out = Vec::new();
        for v in versions.get_ref() {
            let Some(parsed) = PythonVersion::parse(v.get_ref()) else {
                return self.err(
                    v.span(),
                    format!(
                        "unknown Python version `{}`\nhint: write `\"2\"` or `\"3\"`",
                        v.get_ref()
                    ),
                );
            };
            if out.contains(&parsed) {
                return self.err(
                    v.span(),
                    format!("Python version `{}` is listed twice", v.get_ref()),
                );
            }
            out.push(parsed);
        }
        Ok(out)
    }

    fn calibrate(
        &self,
        table: std::collections::BTreeMap<Spanned<String>, String>,
        languages: &[Language],
    ) -> Result<Vec<(String, PathBuf)>, SuiteError> {
        let mut out = Vec::new();
        for (language, folder) in table {
            if !languages.iter().any(|l| &l.name == language.get_ref()) {
                return self.err(language.span(), format!("`[calibrate]` names `{}`, which is not one of the suite's `[[languages]]`\nhint: use a language's `name`, e.g. `python = \"../../examples/submissions/SUITE/python-correct\"`", language.get_ref()));
            }
            out.push((language.into_inner(), self.dir.join(folder)));
        }
        Ok(out)
    }

    fn visibility(
        &self,
        v: &Option<Spanned<String>>,
        default: Visibility,
    ) -> Result<Visibility, SuiteError> {
        match v {
            None => Ok(default),
            Some(v) => match v.get_ref().as_str() {
                "public" => Ok(Visibility::Public),
                "hidden" => Ok(Visibility::Hidden),
                other => self.err(
                    v.span(),
                    format!("unknown visibility `{other}`\nhint: use `public` or `hidden`"),
                ),
            },
        }
    }

    fn group(
        &self,
        g: RawGroup,
        limits: &Limits,
        arena: Option<&Arc<ArenaConfig>>,
    ) -> Result<Group, SuiteError> {
        let name = self.name("group", &g.name)?;
        let points = *g.points.get_ref();
        if !(points.is_finite() && points >= 0.0) {
            return self.err(
                g.points.span(),
                format!("group points `{points}` must be zero or more"),
            );
        }
        let credit = match &g.credit {
            None => CreditRule::Proportional,
            Some(c) => match c.get_ref().as_str() {
                "proportional" => CreditRule::Proportional,
                "all-or-nothing" => CreditRule::AllOrNothing,
                other => return self.err(c.span(), format!("unknown credit rule `{other}`\nhint: use `proportional` or `all-or-nothing`")),
            },
        };
        let visibility = self.visibility(&g.visibility, Visibility::Hidden)?;
        if g.cases.is_empty() {
            return self.err(g.name.span(), format!("group `{name}` has no cases"));
        }
        let mut cases: Vec<Case> = Vec::new();
        for c in g.cases {
            let span = c.span();
            let case = self.case(c.into_inner(), visibility, limits, arena)?;
            if cases.iter().any(|x| x.name == case.name) {
                return self.err(
                    span,
                    format!("case `{}` appears twice in group `{name}`", case.name),
                );
            }
            cases.push(case);
        }
        Ok(Group {
            name,
            title: g.title,
            points,
            credit,
            program: g.program.map(Spanned::into_inner),
            cases,
        })
    }

    fn case(
        &self,
        mut c: RawCase,
        visibility: Visibility,
        limits: &Limits,
        arena: Option<&Arc<ArenaConfig>>,
    ) -> Result<Case, SuiteError> {
        let name = self.name("case", &c.name)?;
        let visibility = self.visibility(&c.visibility, visibility)?;
        let kind = match (c.play.take(), c.position.take()) {
            (Some(_), Some(p)) => {
                return self.err(p.span(), format!("case `{name}` is both a `play` and a `position` case\nhint: a case is exactly one kind: split it into two cases"));
            }
            (Some(play), None) => {
                self.no_run_keys(&name, "play", &c, false)?;
                Some(Kind::Play(self.play(&name, play, arena)?))
            }
            (None, Some(position)) => {
                self.no_run_keys(&name, "position", &c, true)?;
                Some(Kind::Position(self.position(&name, position, &c, arena)?))
            }
            (None, None) => None,
        };
        if let Some(kind) = kind {
            return Ok(Case {
                name,
                visibility,
                limits: limits.clone(),
                kind,
            });
        }
        let args_span = c.args.as_ref().map_or(c.name.span(), |a| a.span());
        let args: Vec<String> = c.args.map(Spanned::into_inner).unwrap_or_default();
        for arg in &args {
            let mut rest = arg.as_str();
            while let Some(start) = rest.find('{') {
                let end = rest[start..]
                    .find('}')
                    .map_or(rest.len(), |e| start + e + 1);
                let placeholder = &rest[start..end];
                if !PLACEHOLDERS.contains(&placeholder) {
                    return self.err(args_span.clone(), format!("unknown placeholder `{placeholder}` in case `{name}`\nhint: arguments may use {}", PLACEHOLDERS.join(", ")));
                }
                rest = &rest[end..];
            }
        }
        let limits = match &c.limits {
            Some(l) => l.apply(limits, self.path, self.text)?,
            None => limits.clone(),
        };
        // One reference run per case serves its stdout and its files.
        let mut solved: Option<Solved> = None;
        let stdout = match c.stdout {
            Some(e) => Some(self.expect(&name, &args, &args_span, e, None, &mut solved)?),
            None => None,
        };
        let mut files = Vec::new();
        for (file, e) in c.files {
            let fname = file.get_ref();
            if fname.is_empty() || fname.contains('/') || fname.starts_with('.') {
                return self.err(file.span(), format!("bad file name `{fname}`\nhint: name a file in the program's working folder, e.g. `visited.txt`"));
            }
            let expect = self.expect(&name, &args, &args_span, e, Some(fname), &mut solved)?;
            files.push((fname.clone(), expect));
        }
        if stdout.is_none() && files.is_empty() {
            return self.err(c.name.span(), format!("case `{name}` checks nothing\nhint: give `stdout` or `files.\"NAME\"` an expected output"));
        }
        Ok(Case {
            name,
            visibility,
            limits,
            kind: Kind::Run(Run {
                args,
                stdin: c.stdin.map(String::into_bytes),
                stdout,
                files,
            }),
        })
    }

    fn expect(
        &self,
        case: &str,
        args: &[String],
        args_at: &std::ops::Range<usize>,
        e: Spanned<RawExpect>,
        file: Option<&str>,
        solved: &mut Option<Solved>,
    ) -> Result<Expect, SuiteError> {
        let span = e.span();
        let e = e.into_inner();
        let comparator = match &e.compare {
            None => {
                if file.is_some() { Comparator::Trace } else { Comparator::Exact }
            }
            Some(c) => match c.get_ref().as_str() {
                "exact" => Comparator::Exact,
                "tokens" => Comparator::Tokens,
                "trace" => Comparator::Trace,
                "numeric" => Comparator::Numeric { tolerance: e.tolerance.as_ref().map_or(1e-6, |t| *t.get_ref()) },
                other => return self.err(c.span(), format!("unknown comparator `{other}`\nhint: use `exact`, `tokens`, `numeric` or `trace`")),
            },
        };
        if let Some(t) = &e.tolerance {
            if !matches!(comparator, Comparator::Numeric { .. }) {
                return self.err(
                    t.span(),
                    "`tolerance` applies only to `compare = \"numeric\"`",
                );
            }
            if !(t.get_ref().is_finite() && *t.get_ref() >= 0.0) {
                return self.err(t.span(), format!("bad tolerance `{}`", t.get_ref()));
            }
        }
        let golden = match &e.golden {
            None => None,
            Some(g) => {
                let rel = PathBuf::from(g.get_ref());
                if rel.is_absolute()
                    || rel
                        .components()
                        .any(|c| matches!(c, std::path::Component::ParentDir))
                {
                    return self.err(
                        g.span(),
                        format!(
                            "golden file `{}` must be inside the suite folder",
                            g.get_ref()
                        ),
                    );
                }
                let full = self.dir.join(&rel);
                match std::fs::read_to_string(&full) {
                    Ok(text) => Some((rel, Some(text))),
                    Err(_) if self.golden_optional && e.reference.is_some() => Some((rel, None)),
                    Err(err) => {
                        return self.err(g.span(), format!("cannot read golden file `{}`: {}\nhint: write it with `grader golden {}`", g.get_ref(), err.to_string().to_lowercase(), self.dir.display()));
                    }
                }
            }
        };
        let reference = match &e.reference {
            None => None,
            Some(r) => {
                if !self.oracle.programs().contains(&r.get_ref().as_str()) {
                    let names = self.oracle.programs().join(", ");
                    return self.err(
                        r.span(),
                        format!(
                            "unknown reference solver `{}`\nhint: the grader knows: {}",
                            r.get_ref(),
                            if names.is_empty() {
                                "none".into()
                            } else {
                                names
                            }
                        ),
                    );
                }
                Some(r.get_ref().clone())
            }
        };
        let text: Arc<str> = match (&golden, &reference) {
            (Some((_, Some(text))), _) => text.as_str().into(),
            (_, Some(program)) => {
                if solved.is_none() {
                    let concrete: Vec<String> = args.iter().map(|a| a.replace("{work}", "work")).collect();
                    match self.oracle.solve(program, &concrete, None) {
                        Ok(s) => *solved = Some(s),
                        Err(m) => return self.err(args_at.clone(), format!("the reference solver `{program}` rejects case `{case}`: {m}")),
                    }
                }
                let s = solved.as_ref().expect("solved just above");
                match file {
                    None => s.stdout.as_str().into(),
                    Some(_) => s.file.as_str().into(),
                }
            }
            (_, None) => return self.err(span, format!("an expected output of case `{case}` gives neither `golden` nor `reference`\nhint: `{{ golden = \"golden/NAME\" }}` or `{{ reference = \"tictactoe\" }}`")),
        };
        Ok(Expect {
            comparator,
            text,
            golden: golden.map(|(rel, _)| rel),
            reference,
        })
    }
}
