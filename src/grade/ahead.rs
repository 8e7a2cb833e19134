//! Run cases run ahead: while a worker grades a submission case by case, helpers holding other slots
//! (`sandbox::pace`) make the first runs of its later run cases, so one long submission (a program that
//! loops in every case) is spread over the cores that are free instead of ending its class alone.
//!
//! Why the results do not change: a run case's first run depends on nothing but the case (its own
//! folder with bounds of its own, its own names), so who makes it and when does not matter. Everything
//! that depends on the cases before it stays with the worker, in case order, as without helpers: the
//! second run of a case far over its limit (the rule that a program far over its limit twice is not run
//! twice again decides it), the integrity check on the first case it suits, and the results as they are
//! judged. A case near or over its limit but not far over is run again whatever came before, so its
//! second run goes with its first.
//!
//! A helper keeps a case's folder only while the integrity check may still want it (the case suits the
//! check and no earlier case is known to), so folders do not pile up while the worker is on a long case.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::report::result::CaseResult;
use crate::sandbox::pace::{Cores, Pacer};

/// A case's first run: its result, what it printed, and its folder (`None` once released); and its
/// second run when the first needs one whatever the cases before it gave (near or over its limit, not
/// far over: see `grade::case::needs_rerun` and the pipeline's rule for programs far over twice).
#[derive(Debug)]
pub struct FirstRan {
    pub result: CaseResult,
    pub second: Option<CaseResult>,
    pub stdout: Vec<u8>,
    pub dir: Option<PathBuf>,
}

#[derive(Debug)]
enum Step {
    /// Not a case helpers take (a play or position case, or one whose program did not build).
    Own,
    Open,
    Running,
    Ran(Box<FirstRan>),
    Taken,
}

#[derive(Debug)]
struct State {
    steps: Vec<Step>,
    /// The first case known to suit the integrity check (by its first run), if any.
    first_suited: Option<usize>,
    /// The integrity check is done (or no case is left to need it): no folder is kept.
    checked: bool,
}

/// The run cases of one submission that helpers may run ahead of its worker.
#[derive(Debug)]
pub struct Ahead {
    /// Each case's result before anything is run (an internal error until judged).
    blanks: Vec<CaseResult>,
    state: Mutex<State>,
    ran: Condvar,
    quit: AtomicBool,
}

impl Ahead {
    /// `open[i]`: whether case `i` is a run case helpers may make the first run of; `blanks[i]` its
    /// result before it is judged (`grade::case::blank`).
    #[must_use]
    pub fn new(open: &[bool], blanks: Vec<CaseResult>) -> Ahead {
        Ahead {
            blanks,
            state: Mutex::new(State {
                steps: open
                    .iter()
                    .map(|&o| if o { Step::Open } else { Step::Own })
                    .collect(),
                first_suited: None,
                checked: false,
            }),
            ran: Condvar::new(),
            quit: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The first run of case `i`: a helper's, or `run`'s here when no helper took it. While a helper
    /// makes it, this thread makes the first runs of later cases still open rather than wait idle.
    pub fn first(
        &self,
        i: usize,
        run: &dyn Fn(usize) -> (FirstRan, bool),
        release: &dyn Fn(&Path),
    ) -> FirstRan {
        let mut state = self.lock();
        loop {
            match std::mem::replace(&mut state.steps[i], Step::Taken) {
                Step::Open | Step::Own => {
                    drop(state);
                    return run(i).0;
                }
                Step::Ran(ran) => return *ran,
                Step::Running => {
                    state.steps[i] = Step::Running;
                    if let Some(j) = open_after(&state.steps, i) {
                        state.steps[j] = Step::Running;
                        drop(state);
                        let (ran, suits) = run(j);
                        self.put(j, ran, suits, release);
                        state = self.lock();
                    } else {
                        drop(state);
                        // Its core goes to whoever needs one meanwhile (the helper's program, should
                        // it wake with its slot lent, among them).
                        crate::sandbox::pace::without_slot(|| {
                            let mut state = self.lock();
                            while matches!(state.steps[i], Step::Running) {
                                state = self.ran.wait(state).unwrap_or_else(|e| e.into_inner());
                            }
                        });
                        state = self.lock();
                    }
                }
                Step::Taken => unreachable!("case {i} taken twice"),
            }
        }
    }

    /// The integrity check is done: folders kept for it are released, and no more are kept.
    pub fn checked(&self, release: &dyn Fn(&Path)) {
        let mut state = self.lock();
        state.checked = true;
        for step in &mut state.steps {
            if let Step::Ran(ran) = step {
                if let Some(dir) = ran.dir.take() {
                    release(&dir);
                }
            }
        }
    }

    /// What a helper gives for case `i` when making its run failed (a bug of the grader's): an
    /// internal error, like any the worker meets.
    fn failed(&self, i: usize) -> FirstRan {
        let mut result = self.blanks[i].clone();
        result.summary = "the grader failed while running this case (a bug in the grader)".into();
        FirstRan {
            result,
            second: None,
            stdout: Vec::new(),
            dir: None,
        }
    }

    /// For a helper: the lowest case still open, now claimed.
    fn claim(&self) -> Option<usize> {
        if self.quit.load(Ordering::SeqCst) {
            return None;
        }
        let mut state = self.lock();
        let i = state.steps.iter().position(|s| matches!(s, Step::Open))?;
        state.steps[i] = Step::Running;
        Some(i)
    }

    /// For a helper: case `i` ran; `suits` says whether the integrity check may want its folder.
    fn put(&self, i: usize, mut ran: FirstRan, suits: bool, release: &dyn Fn(&Path)) {
        let mut state = self.lock();
        let earlier = state.first_suited.is_some_and(|j| j < i);
        if !suits || state.checked || earlier {
            if let Some(dir) = ran.dir.take() {
                release(&dir);
            }
        } else {
            // The first known to suit: a later one kept until now is not wanted any more.
            state.first_suited = Some(i);
            for step in &mut state.steps[i + 1..] {
                if let Step::Ran(later) = step {
                    if let Some(dir) = later.dir.take() {
                        release(&dir);
                    }
                }
            }
        }
        state.steps[i] = Step::Ran(Box::new(ran));
        drop(state);
        self.ran.notify_all();
    }

    /// Runs `helpers` threads alongside `owner` (the worker's own pass over the cases), each holding a
    /// slot of `cores` while it makes first runs with `run` (`suits` says whether the integrity check
    /// may want a run's folder). Helpers waiting for a slot give up once `owner` is done; whatever a
    /// helper ran that `owner` did not take is released.
    pub fn alongside<R>(
        &self,
        cores: Option<&Arc<Cores>>,
        helpers: usize,
        run: &(dyn Fn(usize) -> (FirstRan, bool) + Sync),
        release: &(dyn Fn(&Path) + Sync),
        owner: impl FnOnce() -> R,
    ) -> R {
        let Some(cores) = cores.filter(|_| helpers > 0) else {
            return owner();
        };
        std::thread::scope(|scope| {
            let mut spawned = Vec::with_capacity(helpers);
            for _ in 0..helpers {
                spawned.push(scope.spawn(|| {
                    let Some(_slot) = Pacer::enter_unless(cores, &self.quit) else {
                        return;
                    };
                    while let Some(i) = self.claim() {
                        // A case left running would keep its worker waiting for ever: a bug of the
                        // grader's in the run is that case's internal error.
                        let (ran, suits) = std::panic::catch_unwind(AssertUnwindSafe(|| run(i)))
                            .unwrap_or_else(|_| (self.failed(i), false));
                        self.put(i, ran, suits, release);
                        crate::sandbox::pace::yield_slot();
                    }
                }));
            }
            let out = owner();
            self.quit.store(true, Ordering::SeqCst);
            cores.wake();
            // The helpers are joined with this worker's slot given up: one still at work, or waiting
            // for a slot after its case, needs one, and every slot may be held by a worker joining its
            // own helpers (they waited for each other for ever).
            let panicked = crate::sandbox::pace::without_slot(|| {
                spawned
                    .into_iter()
                    .filter_map(|helper| helper.join().err())
                    .last()
            });
            // As the scope's own join would: a helper's panic is the worker's, its slot taken back.
            if let Some(panic) = panicked {
                std::panic::resume_unwind(panic);
            }
            out
        })
    }
}
/// The first open case at or after `from`.
fn open_after(steps: &[Step], from: usize) -> Option<usize> {
    steps
        .iter()
        .skip(from)
        .position(|s| matches!(s, Step::Open))
        .map(|k| from + k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::Visibility;

    fn blanks(n: usize) -> Vec<CaseResult> {
        (0..n).map(|i| ran(i).result).collect()
    }

    fn ran(i: usize) -> FirstRan {
        FirstRan {
            result: CaseResult::unjudged("g", &format!("c{i}"), Visibility::Public),
            second: None,
            stdout: Vec::new(),
            dir: Some(PathBuf::from(format!("d{i}"))),
        }
    }

    /// While the worker is behind, a helper keeps only the folder of the first case known to suit the
    /// integrity check; once the check is done, none.
    #[test]
    fn only_the_folder_the_integrity_check_may_want_is_kept() {
        let ahead = Ahead::new(&[true, true, true, true, true, false], blanks(6));
        let released = Mutex::new(Vec::new());
        let release = |d: &Path| released.lock().unwrap().push(d.display().to_string());
        let claimed: Vec<usize> = std::iter::from_fn(|| ahead.claim()).collect();
        assert_eq!(
            claimed,
            [0, 1, 2, 3, 4],
            "lowest first, never a case of the worker's own"
        );
        ahead.put(3, ran(3), true, &release);
        ahead.put(4, ran(4), false, &release);
        ahead.put(1, ran(1), true, &release);
        ahead.put(2, ran(2), true, &release);
        assert_eq!(*released.lock().unwrap(), ["d4", "d3", "d2"]);
        let first = |i| ahead.first(i, &|_| unreachable!("a helper ran it"), &release);
        assert_eq!(first(1).dir, Some(PathBuf::from("d1")));
        ahead.checked(&release);
        ahead.put(0, ran(0), true, &release);
        assert_eq!(first(0).dir, None);
        assert_eq!(*released.lock().unwrap(), ["d4", "d3", "d2", "d0"]);
        // The worker's own case (not open) is run by the worker.
        assert_eq!(
            ahead.first(5, &|_| (ran(5), false), &release).dir,
            Some(PathBuf::from("d5"))
        );
    }

    /// A worker whose next case a helper is making makes later open ones itself meanwhile.
    #[test]
    fn the_worker_waiting_for_a_helper_runs_later_cases_itself() {
        let ahead = Ahead::new(&[true, true, true], blanks(3));
        assert_eq!(ahead.claim(), Some(0));
        let ran_here = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            s.spawn(|| {
                // The helper finishes case 0 once the worker has made the others.
                while ran_here.lock().unwrap().len() < 2 {
                    std::thread::yield_now();
                }
                ahead.put(0, ran(0), false, &|_| {});
            });
            let run = |i: usize| {
                ran_here.lock().unwrap().push(i);
                (ran(i), false)
            };
            let got = ahead.first(0, &run, &|_| {});
            assert_eq!(got.result.name, "c0");
            assert_eq!(ahead.first(1, &run, &|_| {}).result.name, "c1");
            assert_eq!(ahead.first(2, &run, &|_| {}).result.name, "c2");
        });
        assert_eq!(*ran_here.lock().unwrap(), [1, 2]);
    }

    /// A helper whose run fails (a bug of the grader's) gives that case an internal error; the worker
    /// does not wait for it for ever.
    #[test]
    fn a_helper_that_fails_gives_an_internal_error_not_a_hang() {
        let cores = Cores::new(2, 0);
        // Case 0 is the worker's own: were it open too, the helper could claim it first and leave the
        // worker to run case 1 (the one that panics) itself.
        let ahead = Ahead::new(&[false, true], blanks(2));
        let run = |i: usize| {
            if i == 1 {
                panic!("a bug");
            }
            // The worker's own case takes long enough for the helper to claim the other.
            while ahead.lock().steps.iter().any(|s| matches!(s, Step::Open)) {
                std::thread::yield_now();
            }
            (ran(i), false)
        };
        let got = ahead.alongside(Some(&cores), 1, &run, &|_| {}, || {
            let release = |_: &Path| {};
            [
                ahead.first(0, &run, &release),
                ahead.first(1, &run, &release),
            ]
        });
        assert_eq!(got[0].result.name, "c0");
        assert_eq!(got[1].result.verdict, crate::judge::Verdict::InternalError);
        assert!(got[1].result.summary.contains("a bug in the grader"));
        assert_eq!(cores.free(), 2);
    }
}
