//! Connects grading to the sandbox and build modules: picks the sandbox tier and builds submissions.

use std::path::Path;
use std::sync::Arc;

use crate::build::{build, build_extra, detect_matches, BuildOutcome, Built, ExtraOutcome, Recipe};
use crate::error::Error;
use crate::sandbox::{select_or_degrade, Sandbox, SandboxError, Tier};
use crate::suite::Suite;

use super::case::Program;
use super::pipeline::{Extra, Prepare, Prepared};

/// The sandbox and builder a grading command uses.
pub struct Environment {
    pub sandbox: Arc<dyn Sandbox>,
    pub prepare: Box<dyn Prepare>,
}

/// The sandbox at `tier`. `check` (a student's own machine) may fall back to `basic` with a visible
/// notice; `run` (grading a class) refuses to go below the configured tier unless told to.
pub fn environment(tier: Tier, allow_degrade: bool) -> Result<Environment, Error> {
    let selected = match select_or_degrade(
        tier,
        allow_degrade,
        crate::toolchain::Toolchain::global().read_only_dirs(),
    ) {
        Ok(s) => s,
        Err(e @ SandboxError::Unavailable { .. }) => {
            return Err(Error::machine(anyhow::anyhow!(
                "{e}\nhint: to grade with weaker isolation anyway, pass `--sandbox basic` (see `docs/isolation.md`)"
            )))
        }
        Err(e) => return Err(Error::machine(e)),
    };
    if selected.degraded.is_some() {
        eprintln!("notice: {}", selected.notice());
    }
    let sandbox: Arc<dyn Sandbox> = Arc::from(selected.sandbox);
    // A suite's rules program runs under the same sandbox as the submissions.
    crate::arena::game::rules::use_sandbox(Arc::clone(&sandbox));
    Ok(Environment {
        sandbox,
        prepare: Box::new(Builder),
    })
}

/// Builds the second programs the suite's groups name (`programs.NAME` of the recipe that built `main`:
/// the first of `main`'s language whose detect files the submission has), in `main`'s copy.
fn extras(
    sandbox: &dyn Sandbox,
    suite: &Suite,
    submission: &Path,
    main: &Built,
) -> Result<Vec<(String, Extra)>, String> {
    let mut names: Vec<&String> = suite
        .groups
        .iter()
        .filter_map(|g| g.program.as_ref())
        .collect();
    names.dedup();
    let language = suite.languages.iter().find(|l| {
        l.name == main.language && l.detect.iter().all(|f| detect_matches(submission, f))
    });
    let mut out = Vec::new();
    for name in names {
        if out.iter().any(|(n, _): &(String, Extra)| n == name) {
            continue;
        }
        let Some(recipe) = language.and_then(|l| l.programs.iter().find(|p| &p.name == name))
        else {
            out.push((
                name.clone(),
                Extra::Absent(format!(
                    "the suite has no `{name}` recipe for {}",
                    main.language
                )),
            ));
            continue;
        };
        let extra = match build_extra(sandbox, main, recipe, &suite.build_limits) {
            Ok(ExtraOutcome::Built(b)) => Extra::Ready(Program {
                language: b.language,
                dir: b.dir,
                command: b.command,
                address_space: b.address_space,
            }),
            Ok(ExtraOutcome::Absent { missing }) => Extra::Absent(format!(
                "no {}",
                missing
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            Ok(ExtraOutcome::CompileError { log, .. }) => Extra::CompileError(log),
            Err(e) => return Err(format!("building `{name}`: {e}")),
        };
        out.push((name.clone(), extra));
    }
    Ok(out)
}

/// Replaced in a recipe's commands by the student's `[entries]` name (empty when none).
pub const ENTRY: &str = "{entry}";

/// The suite's recipes for one student: `{entry}` filled in from `[entries]`, support files as paths
/// in the suite folder.
#[must_use]
pub fn recipes(suite: &Suite, student: &str) -> Vec<Recipe> {
    let entry = suite.entries.for_student(student);
    let fill = |argv: &[String]| -> Vec<String> {
        argv.iter().map(|a| a.replace(ENTRY, &entry)).collect()
    };
    suite
        .languages
        .iter()
        .map(|l| Recipe {
            language: l.name.clone(),
            detect: l.detect.clone(),
            build: l.build.iter().map(|b| fill(b)).collect(),
            run: fill(&l.run),
            address_space: l.address_space,
            support: l.support.iter().map(|f| suite.dir.join(f)).collect(),
            python: l.python.clone(),
        })
        .collect()
}

/// Builds through `crate::build` with the suite's recipes and build limits.
struct Builder;

impl Prepare for Builder {
    fn prepare(
        &self,
        sandbox: &dyn Sandbox,
        suite: &Suite,
        submission: &Path,
        scratch: &Path,
    ) -> Prepared {
        // `[entries]` is keyed by the student's folder name (`check .` uses the real name).
        let student = submission
            .canonicalize()
            .ok()
            .and_then(|p| {
                p.file_name().map(|n| {
                    n.to_str()
                        .map_or_else(|| super::class::student_key(n), str::to_string)
                })
            })
            .unwrap_or_default();
        let recipes = recipes(suite, &student);
        match build(sandbox, &recipes, submission, scratch, &suite.build_limits) {
            Ok(BuildOutcome::Built(b)) => match extras(sandbox, suite, submission, &b) {
                Ok(extras) => Prepared::Ready {
                    program: Program {
                        language: b.language,
                        dir: b.dir,
                        command: b.command,
                        address_space: b.address_space,
                    },
                    log: b.log,
                    extras,
                    interpreter: b.interpreter.map(|i| *i),
                },
                Err(message) => Prepared::Internal { message },
            },
            Ok(BuildOutcome::CompileError { language, log, .. }) => {
                Prepared::CompileError { language, log }
            }
            Ok(BuildOutcome::NoLanguage { looked_for }) => {
                let options: Vec<String> = looked_for
                    .iter()
                    .map(|(language, files)| {
                        format!(
                            "{language} ({})",
                            files
                                .iter()
                                .map(|f| format!("`{f}`"))
                                .collect::<Vec<_>>()
                                .join(" + ")
                        )
                    })
                    .collect();
                let mut message = format!("the suite accepts {}", options.join(", "));
                let found = source_files(submission);
                if !found.is_empty() {
                    message.push_str(&format!(
                        "; found {}: name your program as the suite expects",
                        found.join(", ")
                    ));
                }
                Prepared::NoLanguage { message }
            }
            Err(e) if e.is_missing_tool() => Prepared::NotGraded {
                message: format!("{e}")
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            },
            Err(e) if !e.is_internal() => Prepared::NoLanguage {
                message: format!("{e}"),
            },
            Err(e) => Prepared::Internal {
                message: crate::error::chain_line(&e),
            },
        }
    }
}

/// Source files at the top of a submission folder that no recipe took (`MinMaxTictactoe.java`), at most
/// five, sorted, their names escaped: what a student most likely meant to hand in under another name.
fn source_files(submission: &Path) -> Vec<String> {
    const SOURCES: &[&str] = &[
        "py", "java", "c", "cpp", "cc", "rs", "scm", "ss", "pl", "js",
    ];
    let Ok(entries) = std::fs::read_dir(submission) else {
        return Vec::new();
    };
    let mut found: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| SOURCES.contains(&x))
        })
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .map(|n| format!("`{}`", crate::untrusted::one_line(&n, 100)))
        .collect();
    found.sort();
    found.truncate(5);
    found
}
