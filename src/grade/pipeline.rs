//! The per-submission pipeline: build once, run every selected case, score. Never fails: whatever goes
//! wrong (even the grader's own fault) becomes a verdict in the result, so one student never stops a class.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use super::case::Program;
use super::cases::{self, Submission};
use super::play::Games;
pub use super::rooms::Rooms;
use super::score::{manual_columns, score};
use crate::build::detect_matches;
use crate::judge::Verdict;
use crate::report::result::{BuildReport, BuildStatus, CaseResult, NotAttempted, SubmissionResult};
use crate::sandbox::Sandbox;
use crate::suite::{Case, Group, Suite, Visibility};

/// A second program of a submission (a recipe's `programs.NAME`), as built.
#[derive(Clone, Debug)]
pub enum Extra {
    Ready(Program),
    /// The submission has none of it; the text says what was looked for. Its groups are not attempted.
    Absent(String),
    /// It did not build; the text is the trimmed build log.
    CompileError(String),
}

/// What building a submission gave.
#[derive(Clone, Debug)]
pub enum Prepared {
    Ready {
        program: Program,
        log: String,
        /// The second programs groups name, by name (only those the suite's groups use).
        extras: Vec<(String, Extra)>,
        /// The Python interpreter the main program runs under, for a Python recipe.
        interpreter: Option<crate::build::Interpreter>,
    },
    CompileError {
        language: String,
        log: String,
    },
    /// No language's files were found: says what was looked for.
    NoLanguage {
        message: String,
    },
    /// The grader's fault.
    Internal {
        message: String,
    },
    /// The machine lacks a toolchain the submission needs: says which.
    NotGraded {
        message: String,
    },
}

/// The sandbox a build runs in, adding up the CPU time of every program it runs to completion (a
/// build runs its compilers and the interpreter's checks so; nothing of a build is spawned and
/// driven), for the build's `cpu-ms`.
struct Metered<'a> {
    inner: &'a dyn Sandbox,
    cpu: std::sync::atomic::AtomicU64,
}

impl<'a> Metered<'a> {
    fn new(inner: &'a dyn Sandbox) -> Metered<'a> {
        Metered {
            inner,
            cpu: std::sync::atomic::AtomicU64::new(0),
        }
    }

    fn cpu_ms(&self) -> u64 {
        self.cpu.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Sandbox for Metered<'_> {
    fn tier(&self) -> crate::sandbox::Tier {
        self.inner.tier()
    }

    fn spawn(
        &self,
        spec: &crate::sandbox::Spec,
    ) -> Result<Box<dyn crate::sandbox::Running>, crate::sandbox::SandboxError> {
        self.inner.spawn(spec)
    }

    fn run(
        &self,
        spec: &crate::sandbox::Spec,
    ) -> Result<crate::sandbox::Outcome, crate::sandbox::SandboxError> {
        let outcome = self.inner.run(spec)?;
        let ms = u64::try_from(outcome.cpu.as_millis()).unwrap_or(u64::MAX);
        self.cpu.fetch_add(ms, std::sync::atomic::Ordering::Relaxed);
        Ok(outcome)
    }
}

/// Builds submissions for a suite. (The real one goes through `crate::build`; tests can fake it.)
pub trait Prepare: Sync {
    fn prepare(
        &self,
        sandbox: &dyn Sandbox,
        suite: &Suite,
        submission: &Path,
        scratch: &Path,
    ) -> Prepared;
}

use crate::report::result::Artifact;

/// A graded submission and the files its cases produced.
#[derive(Clone, Debug)]
pub struct Graded {
    pub result: SubmissionResult,
    pub artifacts: Vec<Artifact>,
    /// Games played (games measured twice are played once).
    pub games_played: usize,
}

/// Grades one submission folder on the cases `which` selects, calling `finished` with each case's
/// result the moment it is judged (in case order), its runs in `rooms`. With the result
/// come the artifacts (game records, transcripts) the cases produced.
#[allow(clippy::too_many_arguments)]
pub fn grade(
    sandbox: &Arc<dyn Sandbox>,
    prepare: &dyn Prepare,
    suite: &Suite,
    student: &str,
    submission: &Path,
    rooms: &Rooms,
    which: &dyn Fn(Visibility) -> bool,
    finished: &mut dyn FnMut(&CaseResult),
) -> Graded {
    let started = Instant::now();
    let metered = Metered::new(&**sandbox);
    let prepared = prepare.prepare(&metered, suite, submission, &rooms.base().join("build"));
    let spent = (started.elapsed().as_millis() as u64, metered.cpu_ms());
    let mut selected: Vec<_> = suite.cases().filter(|(_, c)| which(c.visibility)).collect();
    let not_attempted = not_attempted(suite, &prepared, submission, &selected);
    selected.retain(|(g, _)| !not_attempted.iter().any(|n| n.group == g.name));
    let (build, graded) = match prepared {
        Prepared::Ready {
            program,
            mut log,
            extras,
            interpreter,
        } => {
            for (name, extra) in &extras {
                if let Extra::CompileError(more) = extra {
                    log.push_str(&format!("\n{name}:\n{more}"));
                }
            }
            let build = BuildReport {
                status: BuildStatus::Built,
                language: Some(program.language.clone()),
                log,
                wall_ms: spent.0,
                cpu_ms: spent.1,
                interpreter,
            };
            // The main program, then each second program that built, each with its memo of games.
            let mut builts = vec![(None, program.built())];
            for (name, extra) in &extras {
                if let Extra::Ready(p) = extra {
                    builts.push((Some(name.as_str()), p.built()));
                }
            }
            let games = builts
                .iter()
                .map(|(name, built)| (*name, Games::new(sandbox, suite, student, built.clone())))
                .collect();
            let submission = Submission {
                sandbox,
                suite,
                student,
                rooms,
                selected: &selected,
                builts,
            };
            // The second programs that did not compile: their cases say so.
            let failed: Vec<&str> = extras
                .iter()
                .filter(|(_, e)| matches!(e, Extra::CompileError(_)))
                .map(|(n, _)| n.as_str())
                .collect();
            (build, submission.grade(games, &failed, finished))
        }
        unbuilt => {
            let (build, cases) = not_built(unbuilt, &selected, spent);
            // Cases that never ran (no build) are judged all at once.
            cases.iter().for_each(&mut *finished);
            let graded = cases::Graded {
                cases,
                artifacts: Vec::new(),
                games_played: 0,
                integrity: Vec::new(),
            };
            (build, graded)
        }
    };
    let (mut groups, total, max) = score(&suite.groups, &graded.cases);
    groups.extend(manual_columns(&suite.manual));
    Graded {
        result: SubmissionResult {
            suite: suite.name.clone(),
            student: student.to_string(),
            sandbox: sandbox.tier(),
            build,
            cases: graded.cases,
            groups,
            score: total,
            max,
            not_attempted,
            integrity: graded.integrity,
            tournament: None,
            course: None,
        },
        artifacts: graded.artifacts,
        games_played: graded.games_played,
    }
}

/// The groups whose program the submission does not have: a program no recipe finds the files of
/// was not attempted, whether or not the main program built; one the chosen recipe lacks is absent
/// too (the build step says why).
fn not_attempted(
    suite: &Suite,
    prepared: &Prepared,
    submission: &Path,
    selected: &[(&Group, &Case)],
) -> Vec<NotAttempted> {
    let mut out = Vec::new();
    for group in &suite.groups {
        let Some(name) = &group.program else { continue };
        if !selected.iter().any(|(g, _)| g.name == group.name) {
            continue;
        }
        let reason = match prepared {
            Prepared::Ready { extras, .. } => match extras.iter().find(|(n, _)| n == name) {
                Some((_, Extra::Absent(reason))) => Some(reason.clone()),
                _ => None,
            },
            _ => absent(suite, name, submission),
        };
        if let Some(reason) = reason {
            out.push(NotAttempted {
                group: group.name.clone(),
                program: name.clone(),
                reason,
            });
        }
    }
    out
}

/// The build report and the cases of a submission that did not build: every case says why.
fn not_built(
    prepared: Prepared,
    selected: &[(&Group, &Case)],
    (wall_ms, cpu_ms): (u64, u64),
) -> (BuildReport, Vec<CaseResult>) {
    let (status, language, log, verdict, summary) = match prepared {
        Prepared::Ready { .. } => unreachable!("a built submission is graded case by case"),
        Prepared::CompileError { language, log } => {
            let summary = format!("your {language} program did not compile");
            let verdict = Verdict::CompileError;
            (
                BuildStatus::CompileError,
                Some(language),
                log,
                verdict,
                summary,
            )
        }
        Prepared::NoLanguage { message } => {
            let summary = format!("no program found: {message}");
            let verdict = Verdict::CompileError;
            (BuildStatus::NoLanguage, None, message, verdict, summary)
        }
        Prepared::NotGraded { message } => {
            let summary = format!("not graded: {message}");
            (
                BuildStatus::NotGraded,
                None,
                message,
                Verdict::NotGraded,
                summary,
            )
        }
        Prepared::Internal { message } => {
            let summary = format!("the grader could not build this submission: {message}");
            let verdict = Verdict::InternalError;
            (BuildStatus::InternalError, None, message, verdict, summary)
        }
    };
    let build = BuildReport {
        status,
        language,
        log,
        wall_ms,
        cpu_ms,
        interpreter: None,
    };
    let cases = selected
        .iter()
        .map(|(g, c)| CaseResult {
            verdict,
            summary: summary.clone(),
            ..super::case::blank(g, c)
        })
        .collect();
    (build, cases)
}

/// Why `program` counts as not attempted when no recipe's files for it are in `submission`, or `None`
/// when some recipe finds them.
fn absent(suite: &Suite, program: &str, submission: &Path) -> Option<String> {
    let mut looked = Vec::new();
    for recipe in suite.languages.iter().flat_map(|l| &l.programs) {
        if recipe.name != program {
            continue;
        }
        if recipe.detect.iter().all(|f| detect_matches(submission, f)) {
            return None;
        }
        let files: Vec<String> = recipe.detect.iter().map(|f| format!("`{f}`")).collect();
        if !looked.contains(&files.join(" + ")) {
            looked.push(files.join(" + "));
        }
    }
    Some(format!("no {}", looked.join(", no ")))
}
