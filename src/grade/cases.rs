//! The cases of a submission that built, graded in case order by its worker while helpers make the
//! first runs of later run cases (`grade::ahead`): a run case's first and second runs, the rule for a
//! program far over its CPU limit twice, the integrity check on the first case it suits, and the play
//! and position cases, each told to the reporter the moment it is judged.

use std::path::Path;
use std::sync::Arc;

use super::ahead::{Ahead, FirstRan};
use super::case::{far_over, keep_faster, needs_rerun, over_twice, run_case, Program};
use super::integrity::{self, FirstRun};
use super::names::{Names, Purpose};
use super::play::Games;
use super::rooms::Rooms;
use crate::build::Built;
use crate::judge::Verdict;
use crate::report::result::{Artifact, CaseResult, IntegrityNote};
use crate::sandbox::Sandbox;
use crate::suite::{Case, Group, Kind, Suite};

/// What grading a built submission's cases gave.
pub struct Graded {
    pub cases: Vec<CaseResult>,
    pub artifacts: Vec<Artifact>,
    pub games_played: usize,
    pub integrity: Vec<IntegrityNote>,
}

/// One submission's cases and what they run: the same for its worker and its helpers.
pub struct Submission<'a> {
    pub sandbox: &'a Arc<dyn Sandbox>,
    pub suite: &'a Suite,
    pub student: &'a str,
    pub rooms: &'a Rooms<'a>,
    pub selected: &'a [(&'a Group, &'a Case)],
    /// Each program that built: the main one (`None`), then each second program by name.
    pub builts: Vec<(Option<&'a str>, Built)>,
}

impl Submission<'_> {
    /// The built program case `i` runs, if it built.
    fn built(&self, i: usize) -> Option<&Built> {
        let (group, _) = self.selected[i];
        self.builts
            .iter()
            .find(|(name, _)| *name == group.program.as_deref())
            .map(|(_, b)| b)
    }

    /// Whether helpers may make case `i`'s first run: a run case whose program built.
    fn open(&self, i: usize) -> bool {
        matches!(self.selected[i].1.kind, Kind::Run(_)) && self.built(i).is_some()
    }

    /// A second run of a run case, in a fresh folder of its own.
    fn run_again(&self, i: usize, program: &Program, names: &Names) -> CaseResult {
        let (group, case) = self.selected[i];
        let again = self.rooms.make(&format!("case-{i}-again"));
        let (second, _) = run_case(
            &**self.sandbox,
            self.suite,
            group,
            case,
            program,
            &again,
            names,
        );
        self.rooms.release(&again);
        second
    }

    /// The first run of run case `i`, by whoever makes it (`grade::ahead`), and whether the integrity
    /// check may want its folder.
    fn first_run(&self, i: usize) -> (FirstRan, bool) {
        let (group, case) = self.selected[i];
        let program = run_program(
            self.built(i)
                .expect("only cases whose program built are run ahead"),
        );
        let names = case_names(self.suite, group, case, self.student);
        let dir = self.rooms.make(&format!("case-{i}"));
        let (result, stdout) = run_case(
            &**self.sandbox,
            self.suite,
            group,
            case,
            &program,
            &dir,
            &names,
        );
        let suits = integrity::candidate(case, &result) && !needs_rerun(&result);
        // Near or over its CPU limit but not far over: run again whatever came before (far over, the
        // rule for programs far over twice decides, in case order).
        let far = result
            .cpu_limit
            .as_ref()
            .is_some_and(|l| far_over(result.verdict, result.cpu_ms, l));
        let second = (needs_rerun(&result) && !far).then(|| self.run_again(i, &program, &names));
        (
            FirstRan {
                result,
                second,
                stdout,
                dir: Some(dir),
            },
            suits,
        )
    }

    /// Grades every selected case in order, telling `finished` of each, with helpers on the slots
    /// that come free (`grade::ahead`).
    pub fn grade(
        &self,
        games: Vec<(Option<&str>, Games)>,
        failed: &[&str],
        finished: &mut dyn FnMut(&CaseResult),
    ) -> Graded {
        let open: Vec<bool> = (0..self.selected.len()).map(|i| self.open(i)).collect();
        let blanks = self
            .selected
            .iter()
            .map(|(group, case)| super::case::blank(group, case))
            .collect();
        let ahead = Ahead::new(&open, blanks);
        let release = |dir: &Path| self.rooms.release(dir);
        let cores = crate::sandbox::pace::cores();
        let helpers = if open.iter().filter(|o| **o).count() > 1 {
            cores.as_ref().map_or(0, |c| c.count().saturating_sub(1))
        } else {
            0
        };
        let first_run = |i: usize| self.first_run(i);
        let mut worker = Worker {
            submission: self,
            ahead: &ahead,
            games,
            checked: false,
            slow: None,
            integrity: Vec::new(),
            artifacts: Vec::new(),
        };
        let cases = ahead.alongside(cores.as_ref(), helpers, &first_run, &release, || {
            (0..self.selected.len())
                .map(|i| {
                    let result = worker.case(i, failed);
                    finished(&result);
                    // A case that ran hands its slot over; one whose program did not build ran nothing.
                    if self.built(i).is_some() {
                        crate::sandbox::pace::yield_slot();
                    }
                    result
                })
                .collect::<Vec<_>>()
        });
        Graded {
            cases,
            artifacts: worker.artifacts,
            games_played: worker.games.iter().map(|(_, g)| g.games_played).sum(),
            integrity: worker.integrity,
        }
    }
}

/// The worker's pass over the cases, in order, and what depends on the cases before.
struct Worker<'s, 'a> {
    submission: &'s Submission<'a>,
    ahead: &'s Ahead,
    /// One memo of games per program that built, as in [`Submission::builts`].
    games: Vec<(Option<&'a str>, Games<'a>)>,
    /// The integrity check ran (it runs once, on the first case it suits: `grade::integrity`).
    checked: bool,
    /// The first case far over its CPU limit in both of its runs: once there is one, a later case far
    /// over the limit keeps its one run (the machine does not explain this program).
    slow: Option<String>,
    integrity: Vec<IntegrityNote>,
    artifacts: Vec<Artifact>,
}

impl Worker<'_, '_> {
    /// Case `i`, judged.
    fn case(&mut self, i: usize, failed: &[&str]) -> CaseResult {
        let s = self.submission;
        let (group, case) = s.selected[i];
        let Some(at) = self
            .games
            .iter()
            .position(|(name, _)| *name == group.program.as_deref())
        else {
            return not_built(group, case, failed);
        };
        match &case.kind {
            Kind::Run(_) => self.run(i),
            Kind::Play(p) => {
                // This program's play cases from here on, whose games may be played at once (read
                // only at its first play case).
                let plays = s.selected[i..]
                    .iter()
                    .filter(|(g, _)| g.program == group.program)
                    .filter_map(|(_, c)| match &c.kind {
                        Kind::Play(p) => Some(p),
                        _ => None,
                    });
                self.games[at].1.play_ahead(plays);
                let (result, mut files) = self.games[at].1.run(group, case, p);
                self.artifacts.append(&mut files);
                result
            }
            Kind::Position(p) => {
                let built = s.built(i).expect("a program with games built");
                let dir = s.rooms.base().join(format!("case-{i}"));
                let result =
                    super::position::run_position(s.sandbox, s.suite, group, case, p, built, &dir);
                // Traces can be large; a class's worth must not pile up.
                // A tree that will not go is left for the submission's scratch to take.
                let _ = crate::sandbox::tree::remove_tree(&dir);
                result
            }
        }
    }

    /// Run case `i`: its first run (a helper's or its own), a second one where the rules want it, and
    /// the integrity check if it is the first case that suits.
    fn run(&mut self, i: usize) -> CaseResult {
        let s = self.submission;
        let (group, case) = s.selected[i];
        let program = run_program(s.built(i).expect("a run case's program built"));
        let names = case_names(s.suite, group, case, s.student);
        let release = |dir: &Path| s.rooms.release(dir);
        let FirstRan {
            result: mut first,
            second,
            stdout,
            dir,
        } = self.ahead.first(i, &|j| s.first_run(j), &release);
        let confirmed = self.slow.as_ref().filter(|_| {
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
            // Near or over its CPU limit: once more, in a fresh folder; the faster run decides (docs
            // in `keep_faster`).
            let second = second.unwrap_or_else(|| s.run_again(i, &program, &names));
            let kept = keep_faster(first, second);
            if self.slow.is_none() && over_twice(&kept) {
                self.slow = Some(format!("{}/{}", group.name, case.name));
            }
            kept
        } else {
            if !self.checked && integrity::candidate(case, &first) {
                self.checked = true;
                // A helper keeps the folder of the first case that suits.
                if let Some(dir) = &dir {
                    let other = s.rooms.make(&format!("case-{i}-integrity"));
                    let ran = FirstRun {
                        dir,
                        names: &names,
                        stdout: &stdout,
                    };
                    self.integrity.extend(integrity::check(
                        &**s.sandbox,
                        s.suite,
                        group,
                        case,
                        &program,
                        s.student,
                        &ran,
                        &other,
                    ));
                    s.rooms.release(&other);
                }
                self.ahead.checked(&release);
            }
            first
        };
        if let Some(dir) = &dir {
            s.rooms.release(dir);
        }
        result
    }
}

/// A case whose program did not build (a second program that failed to compile), or that the grader
/// did not build.
fn not_built(group: &Group, case: &Case, failed: &[&str]) -> CaseResult {
    let name = group.program.as_deref().unwrap_or_default();
    let (verdict, summary) = if failed.contains(&name) {
        (
            Verdict::CompileError,
            format!("your `{name}` program did not compile (see the build log)"),
        )
    } else {
        (
            Verdict::InternalError,
            format!("the grader did not build program `{name}`"),
        )
    };
    CaseResult {
        verdict,
        summary,
        ..super::case::blank(group, case)
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
