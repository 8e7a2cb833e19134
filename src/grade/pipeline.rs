//! The per-submission pipeline: build once, run every selected case, score. Never fails: whatever goes
//! wrong (even the grader's own fault) becomes a verdict in the result, so one student never stops a class.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::ahead::{Ahead, FirstRan};
use super::case::{far_over, keep_faster, needs_rerun, over_twice, run_case, Program};
use super::integrity::{self, FirstRun};
use super::names::{Names, Purpose};
use super::play::Games;
use super::score::{manual_columns, score};
use crate::build::{detect_matches, Built};
use crate::judge::Verdict;
use crate::report::result::{BuildReport, BuildStatus, CaseResult, NotAttempted, SubmissionResult};
use crate::sandbox::scratch::{Bounds, Scratch};
use crate::sandbox::Sandbox;
use crate::suite::{Case, Group, Kind, Suite, Visibility};

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

/// Where a submission's runs get their folders: its own folder (the build, position cases) and, for
/// each run of a run case, a fresh folder of its own with the same bounds (a tmpfs under `full`), so
/// what one run writes never takes the room of another run of the submission, whichever runs first or
/// at once (`grade::ahead`).
#[derive(Debug)]
pub struct Rooms<'a> {
    scratch: &'a Scratch,
    bounds: Option<Bounds>,
    base: PathBuf,
    name: String,
}

impl<'a> Rooms<'a> {
    /// The rooms of the submission called `name` in `scratch` (a name no other submission there has).
    ///
    /// # Errors
    /// The submission's own folder cannot be made.
    pub fn new(scratch: &'a Scratch, name: &str, bounds: Option<Bounds>) -> std::io::Result<Self> {
        let base = scratch.sub(name, bounds)?;
        Ok(Rooms {
            scratch,
            bounds,
            base,
            name: name.to_string(),
        })
    }

    /// [`Rooms::new`], or, should the submission's folder not be made, rooms whose runs report why
    /// (the build's own attempt first).
    #[must_use]
    pub fn or_unmade(scratch: &'a Scratch, name: &str, bounds: Option<Bounds>) -> Self {
        Rooms::new(scratch, name, bounds).unwrap_or_else(|_| Rooms {
            scratch,
            bounds,
            base: scratch.path().join(name),
            name: name.to_string(),
        })
    }

    /// The submission's own folder.
    #[must_use]
    pub fn base(&self) -> &Path {
        &self.base
    }

    /// A fresh folder for one run. Should it not be made, the run's own attempt to make its work
    /// folder says why.
    fn make(&self, what: &str) -> PathBuf {
        let name = format!("{}-{what}", self.name);
        self.scratch
            .sub(&name, self.bounds)
            .unwrap_or_else(|_| self.scratch.path().join(name))
    }

    /// Removes a run's folder. A tree that will not go is left for the scratch's end.
    fn release(&self, dir: &Path) {
        let _ = self.scratch.release(dir);
    }
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
    let mut artifacts = Vec::new();
    let mut games_played = 0;
    let mut integrity_notes = Vec::new();
    let prepared = prepare.prepare(&**sandbox, suite, submission, &rooms.base().join("build"));
    let build_ms = started.elapsed().as_millis() as u64;
    let mut selected: Vec<_> = suite.cases().filter(|(_, c)| which(c.visibility)).collect();
    let mut not_attempted = Vec::new();
    for group in &suite.groups {
        let Some(name) = &group.program else { continue };
        if !selected.iter().any(|(g, _)| g.name == group.name) {
            continue;
        }
        // A program no recipe finds the files of was not attempted, whether or not the main program
        // built; one the chosen recipe lacks is absent too (the build step says why).
        let reason = match &prepared {
            Prepared::Ready { extras, .. } => match extras.iter().find(|(n, _)| n == name) {
                Some((_, Extra::Absent(reason))) => Some(reason.clone()),
                _ => None,
            },
            _ => absent(suite, name, submission),
        };
        if let Some(reason) = reason {
            not_attempted.push(NotAttempted {
                group: group.name.clone(),
                program: name.clone(),
                reason,
            });
        }
    }
    selected.retain(|(g, _)| !not_attempted.iter().any(|n| n.group == g.name));
    let built = matches!(prepared, Prepared::Ready { .. });
    let (build, cases) = match prepared {
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
                wall_ms: build_ms,
                interpreter,
            };
            // One memo of games per program: the main one, then each second program that built.
            let mut programs: Vec<(Option<&str>, Built, Games)> = vec![(
                None,
                program.built(),
                Games::new(sandbox, suite, student, program.built()),
            )];
            for (name, extra) in &extras {
                if let Extra::Ready(p) = extra {
                    programs.push((
                        Some(name.as_str()),
                        p.built(),
                        Games::new(sandbox, suite, student, p.built()),
                    ));
                }
            }
            // The integrity check runs once, on the first case it suits (`grade::integrity`).
            let mut checked = false;
            // The first case far over its CPU limit in both of its runs: once there is one, a later
            // case far over the limit keeps its one run (the machine does not explain this program).
            let mut slow: Option<String> = None;
            // A second run of a run case, in a fresh folder of its own.
            let run_again = |i: usize, group, case, program: &Program, names: &Names| {
                let again = rooms.make(&format!("case-{i}-again"));
                let (second, _) = run_case(&**sandbox, suite, group, case, program, &again, names);
                rooms.release(&again);
                second
            };
            // The first run of a run case, by whoever makes it (`grade::ahead`).
            let builts: Vec<(Option<&str>, Built)> =
                programs.iter().map(|(n, b, _)| (*n, b.clone())).collect();
            let first_run = |i: usize| -> (FirstRan, bool) {
                let (group, case) = selected[i];
                let built = builts
                    .iter()
                    .find(|(name, _)| *name == group.program.as_deref())
                    .map(|(_, b)| b)
                    .expect("only cases whose program built are run ahead");
                let program = run_program(built);
                let names = case_names(suite, group, case, student);
                let dir = rooms.make(&format!("case-{i}"));
                let (result, stdout) =
                    run_case(&**sandbox, suite, group, case, &program, &dir, &names);
                let suits = integrity::candidate(case, &result) && !needs_rerun(&result);
                // Near or over its CPU limit but not far over: run again whatever came before (far
                // over, the rule for programs far over twice decides, in case order).
                let far = result
                    .cpu_limit
                    .as_ref()
                    .is_some_and(|l| far_over(result.verdict, result.cpu_ms, l));
                let second = (needs_rerun(&result) && !far)
                    .then(|| run_again(i, group, case, &program, &names));
                (
                    FirstRan {
                        result,
                        second,
                        stdout,
                        dir: Some(dir),
                    },
                    suits,
                )
            };
            let open: Vec<bool> = selected
                .iter()
                .map(|(group, case)| {
                    matches!(case.kind, Kind::Run(_))
                        && builts
                            .iter()
                            .any(|(name, _)| *name == group.program.as_deref())
                })
                .collect();
            let blanks = selected
                .iter()
                .map(|(group, case)| super::case::blank(group, case))
                .collect();
            let ahead = Ahead::new(&open, blanks);
            let release = |dir: &Path| {
                rooms.release(dir);
            };
            let cores = crate::sandbox::pace::cores();
            let helpers = if open.iter().filter(|o| **o).count() > 1 {
                cores.as_ref().map_or(0, |c| c.count().saturating_sub(1))
            } else {
                0
            };
            let cases = ahead.alongside(cores.as_ref(), helpers, &first_run, &release, || {
                selected
                    .iter()
                    .enumerate()
                    .map(|(i, (group, case))| {
                        let chosen = programs
                            .iter_mut()
                            .find(|(name, _, _)| *name == group.program.as_deref());
                        let Some((_, built, games)) = chosen else {
                            let name = group.program.as_deref().unwrap_or_default();
                            let (verdict, summary) = match extras.iter().find(|(n, _)| n == name) {
                                Some((_, Extra::CompileError(_))) => (
                                    Verdict::CompileError,
                                    format!(
                                        "your `{name}` program did not compile (see the build log)"
                                    ),
                                ),
                                _ => (
                                    Verdict::InternalError,
                                    format!("the grader did not build program `{name}`"),
                                ),
                            };
                            let result = not_run(&[(*group, *case)], verdict, &summary).remove(0);
                            finished(&result);
                            return result;
                        };
                        let result = match &case.kind {
                            Kind::Run(_) => {
                                let program = run_program(built);
                                let names = case_names(suite, group, case, student);
                                let FirstRan {
                                    result: mut first,
                                    second,
                                    stdout,
                                    dir,
                                } = ahead.first(i, &first_run, &release);
                                let confirmed = slow.as_ref().filter(|_| {
                                    first
                                        .cpu_limit
                                        .as_ref()
                                        .is_some_and(|l| far_over(first.verdict, first.cpu_ms, l))
                                });
                                let result = if let Some(earlier) = confirmed {
                                    first.details.push(format!(
                                        "not run a second time: case `{earlier}` was already far over its CPU limit in both of its runs, which a busy machine does not explain"
                                    ));
                                    first
                                } else if needs_rerun(&first) {
                                    // Near or over its CPU limit: once more, in a fresh folder; the
                                    // faster run decides (docs in `keep_faster`).
                                    let second = second.unwrap_or_else(|| {
                                        run_again(i, group, case, &program, &names)
                                    });
                                    let kept = keep_faster(first, second);
                                    if slow.is_none() && over_twice(&kept) {
                                        slow = Some(format!("{}/{}", group.name, case.name));
                                    }
                                    kept
                                } else {
                                    if !checked && integrity::candidate(case, &first) {
                                        checked = true;
                                        // A helper keeps the folder of the first case that suits.
                                        if let Some(dir) = &dir {
                                            let other = rooms.make(&format!("case-{i}-integrity"));
                                            let ran = FirstRun {
                                                dir,
                                                names: &names,
                                                stdout: &stdout,
                                            };
                                            integrity_notes.extend(integrity::check(
                                                &**sandbox, suite, group, case, &program, student,
                                                &ran, &other,
                                            ));
                                            rooms.release(&other);
                                        }
                                        ahead.checked(&release);
                                    }
                                    first
                                };
                                if let Some(dir) = &dir {
                                    rooms.release(dir);
                                }
                                result
                            }
                            Kind::Play(p) => {
                                let (result, mut files) = games.run(group, case, p);
                                artifacts.append(&mut files);
                                result
                            }
                            Kind::Position(p) => {
                                let dir = rooms.base().join(format!("case-{i}"));
                                let result = super::position::run_position(
                                    sandbox, suite, group, case, p, built, &dir,
                                );
                                // Traces can be large; a class's worth must not pile up.
                                // A tree that will not go is left for the submission's scratch to take.
                                let _ = crate::sandbox::scratch::remove_tree(&dir);
                                result
                            }
                        };
                        finished(&result);
                        crate::sandbox::pace::yield_slot();
                        result
                    })
                    .collect::<Vec<_>>()
            });
            games_played = programs.iter().map(|(_, _, g)| g.games_played).sum();
            (build, cases)
        }
        Prepared::CompileError { language, log } => {
            let summary = format!("your {language} program did not compile");
            let build = not_built(BuildStatus::CompileError, Some(language), log, build_ms);
            (build, not_run(&selected, Verdict::CompileError, &summary))
        }
        Prepared::NoLanguage { message } => {
            let summary = format!("no program found: {message}");
            let build = not_built(BuildStatus::NoLanguage, None, message, build_ms);
            (build, not_run(&selected, Verdict::CompileError, &summary))
        }
        Prepared::NotGraded { message } => {
            let summary = format!("not graded: {message}");
            let build = not_built(BuildStatus::NotGraded, None, message, build_ms);
            (build, not_run(&selected, Verdict::NotGraded, &summary))
        }
        Prepared::Internal { message } => {
            let summary = format!("the grader could not build this submission: {message}");
            let build = not_built(BuildStatus::InternalError, None, message, build_ms);
            (build, not_run(&selected, Verdict::InternalError, &summary))
        }
    };
    if !built {
        // Cases that never ran (no build) are judged all at once.
        cases.iter().for_each(&mut *finished);
    }
    let (mut groups, total, max) = score(&suite.groups, &cases);
    groups.extend(manual_columns(&suite.manual));
    Graded {
        result: SubmissionResult {
            suite: suite.name.clone(),
            student: student.to_string(),
            sandbox: sandbox.tier(),
            build,
            cases,
            groups,
            score: total,
            max,
            not_attempted,
            integrity: integrity_notes,
            tournament: None,
            course: None,
        },
        artifacts,
        games_played,
    }
}

/// The program a run case runs.
fn run_program(built: &Built) -> Program {
    Program {
        language: built.language.clone(),
        dir: built.dir.clone(),
        command: built.command.clone(),
        address_space: built.address_space,
    }
}

/// The names of a run case's graded run: the same for whoever runs it.
fn case_names(suite: &Suite, group: &Group, case: &Case, student: &str) -> Names {
    match case.run() {
        Some(run) => Names::for_run(
            suite,
            &group.name,
            &case.name,
            student,
            run,
            Purpose::Graded,
        ),
        None => Names::as_written(),
    }
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

/// The build of a submission that has no program to run: `log` says why.
fn not_built(
    status: BuildStatus,
    language: Option<String>,
    log: String,
    wall_ms: u64,
) -> BuildReport {
    BuildReport {
        status,
        language,
        log,
        wall_ms,
        interpreter: None,
    }
}

fn not_run(
    selected: &[(&crate::suite::Group, &crate::suite::Case)],
    verdict: Verdict,
    summary: &str,
) -> Vec<CaseResult> {
    selected
        .iter()
        .map(|(g, c)| CaseResult {
            verdict,
            summary: summary.to_string(),
            ..super::case::blank(g, c)
        })
        .collect()
}
