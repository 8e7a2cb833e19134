//! Waiting does not hold a core: a grading worker lends its core while the program it waits for sleeps,
//! so another submission is graded meanwhile, and a program that wakes while its core is lent is stopped
//! until a core is free, its clock stopped with it.
//!
//! The pieces:
//! - [`Cores`]: the slots shared by every worker of a run (`--jobs`), plus a cap on how many may be lent
//!   at once (each lent slot admits one more submission, with its memory).
//! - [`Pacer`]: the slot one worker holds, installed for the worker's thread by [`Pacer::enter`]. Every
//!   wait for a program on that thread (`drive.rs`, `line.rs`) lends and reclaims through it.
//! - [`now`]: the thread's clock for every program deadline and every timing of a program (move limits,
//!   wall limits, idle limits, "answered in"). It is the monotonic clock less the time the thread's
//!   programs spent stopped for want of a core; without a pacer it is the monotonic clock.
//!
//! Why verdicts do not depend on scheduling: a program only runs while its worker holds a slot, except
//! for the moment between its waking and the next look ([`LENT_LOOK`]), and the time it is stopped for
//! want of a slot is not on its clock. Lending only happens inside a wait, while every thread of the
//! program sleeps and its CPU time stands still for [`LEND_AFTER`]; the grader's own work for a
//! submission (judging, the benchmark bots' moves) is always done holding the slot.
//!
//! Timers run on while a program is stopped, so a stop is only taken off the clock of a program with
//! no thread asleep on one: a slot is lent only while at most one thread sleeps on a timer (the sleep
//! that will wake it) and every other in a wait only the run can end, and a program that, when stopped,
//! has a thread on a timer keeps the stop on its clock (a contrivance that costs only itself), unless
//! the wait had run out before it: then what the program was waited for is settled, and a program
//! asleep past its deadline timed out at the deadline, not when a slot came back.
//!
//! What a program can notice: its own reading of the time jumps across a stop (a search that times
//! itself then sees less time than it had). Only a program that slept first, and woke while another
//! submission held every core, is ever stopped.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::Running;

/// How long a program must sleep (every thread asleep, CPU time still) before its slot is lent.
pub const LEND_AFTER: Duration = Duration::from_millis(150);
/// How often a program whose slot is lent is looked at (its CPU time and its threads' states).
pub const LENT_LOOK: Duration = Duration::from_millis(10);
/// CPU time a program whose slot is lent may use (in bursts, asleep at every look) before it is
/// taken to be awake.
pub const LENT_CPU: Duration = Duration::from_millis(10);
/// How often a program that holds its slot is looked at for sleep.
const LOOK: Duration = Duration::from_millis(50);
/// CPU time a stopped program may still show across its stop for the stop to count as held: two ticks
/// of `/proc`'s accounting (`basic`); the cgroup's counter (`full`) does not move at all.
const HELD_CPU: Duration = Duration::from_millis(20);

/// The slots of a run: how many submissions are graded at once, and how many more may be admitted
/// while others wait.
#[derive(Debug)]
pub struct Cores {
    state: Mutex<State>,
    changed: Condvar,
    count: usize,
    lend_cap: usize,
}

#[derive(Debug)]
struct State {
    free: usize,
    lent: usize,
    /// Workers waiting to take back a slot they lent: they go before any new submission.
    reclaiming: usize,
    /// Workers waiting to take back a slot they gave to those ([`yield_slot`]): before new ones too.
    returning: usize,
    /// Slots taken back by reclaiming workers so far.
    served: u64,
}

impl Cores {
    /// `count` slots (at least one); at most `lend_cap` lent at once (0: never lent).
    #[must_use]
    pub fn new(count: usize, lend_cap: usize) -> Arc<Cores> {
        let count = count.max(1);
        Arc::new(Cores {
            state: Mutex::new(State {
                free: count,
                lent: 0,
                reclaiming: 0,
                returning: 0,
                served: 0,
            }),
            changed: Condvar::new(),
            count,
            lend_cap,
        })
    }

    /// How many submissions are graded at once while none waits.
    #[must_use]
    pub fn count(&self) -> usize {
        self.count
    }

    /// Slots free now (for tests).
    #[must_use]
    pub fn free(&self) -> usize {
        self.lock().free
    }

    /// The most submissions ever graded at once: the slots and those lent.
    #[must_use]
    pub fn most(&self) -> usize {
        self.count + self.lend_cap
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a free slot (after every worker taking back a lent one) and holds it.
    fn take(&self) {
        let mut state = self.lock();
        while state.free == 0 || state.reclaiming > 0 || state.returning > 0 {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.free -= 1;
    }

    /// [`Cores::take`], unless `quit` is set first (looked at whenever the slots change, and at
    /// [`Cores::wake`]): whether a slot was taken.
    fn take_unless(&self, quit: &AtomicBool) -> bool {
        let mut state = self.lock();
        loop {
            if quit.load(Ordering::SeqCst) {
                return false;
            }
            if state.free > 0 && state.reclaiming == 0 && state.returning == 0 {
                state.free -= 1;
                return true;
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Wakes every worker waiting for a slot, to look again at what it waits for.
    pub fn wake(&self) {
        let _state = self.lock();
        self.changed.notify_all();
    }

    fn give(&self) {
        self.lock().free += 1;
        self.changed.notify_all();
    }

    fn lend(&self) -> bool {
        let mut state = self.lock();
        if state.lent >= self.lend_cap {
            return false;
        }
        state.lent += 1;
        state.free += 1;
        drop(state);
        self.changed.notify_all();
        true
    }

    /// [`yield_slot`]: gives the slot to a reclaiming worker, if one waits, and takes one back once
    /// one was served, ahead of new submissions.
    fn hand_over(&self) {
        let mut state = self.lock();
        if state.reclaiming == 0 {
            return;
        }
        let served = state.served;
        state.free += 1;
        state.returning += 1;
        self.changed.notify_all();
        while state.served == served || state.free == 0 {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.free -= 1;
        state.returning -= 1;
        drop(state);
        self.changed.notify_all();
    }

    fn try_reclaim(&self) -> bool {
        let mut state = self.lock();
        if state.free == 0 {
            return false;
        }
        state.free -= 1;
        state.lent -= 1;
        true
    }

    fn reclaim(&self) {
        self.take_back(true);
    }

    /// Waits for a free slot ahead of new submissions and holds it: one this worker lent (`lent`), or
    /// one it gave up while it waited for work of another ([`without_slot`]).
    fn take_back(&self, lent: bool) {
        let mut state = self.lock();
        state.reclaiming += 1;
        while state.free == 0 {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.free -= 1;
        if lent {
            state.lent -= 1;
        }
        state.reclaiming -= 1;
        state.served += 1;
        drop(state);
        // New submissions (and a worker that handed its slot over) waited for this.
        self.changed.notify_all();
    }
}

/// One worker's slot, and the clock of the programs it runs.
#[derive(Debug)]
pub struct Pacer {
    cores: Arc<Cores>,
    lent: Cell<bool>,
    /// Time the worker's programs spent stopped for want of a slot.
    stopped: Cell<Duration>,
}

thread_local! {
    static CURRENT: RefCell<Option<Rc<Pacer>>> = const { RefCell::new(None) };
}

/// Holds a worker's slot while it lives; gives it back and uninstalls the pacer when dropped.
#[derive(Debug)]
pub struct Entered {
    pacer: Rc<Pacer>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        CURRENT.with(|c| c.borrow_mut().take());
        if !self.pacer.lent.get() {
            self.pacer.cores.give();
        } else {
            // Only a wait lends, and every wait takes its slot back before it returns; a panic in
            // between leaves it lent, which counts it back.
            let mut state = self.pacer.cores.lock();
            state.lent -= 1;
        }
    }
}

impl Pacer {
    /// Waits for a slot and installs a pacer holding it for this thread until the guard is dropped.
    #[must_use]
    pub fn enter(cores: &Arc<Cores>) -> Entered {
        cores.take();
        Pacer::install(cores)
    }

    fn install(cores: &Arc<Cores>) -> Entered {
        let pacer = Rc::new(Pacer {
            cores: Arc::clone(cores),
            lent: Cell::new(false),
            stopped: Cell::new(Duration::ZERO),
        });
        CURRENT.with(|c| *c.borrow_mut() = Some(Rc::clone(&pacer)));
        Entered { pacer }
    }

    /// [`Pacer::enter`], unless `quit` is set before a slot is free (set it, then [`Cores::wake`]).
    #[must_use]
    pub fn enter_unless(cores: &Arc<Cores>, quit: &AtomicBool) -> Option<Entered> {
        if !cores.take_unless(quit) {
            return None;
        }
        Some(Pacer::install(cores))
    }
}

/// Between two pieces of work (a submission's cases), hands this thread's slot to a worker waiting to
/// take back one it lent (a program that woke, stopped until a slot is free), and waits to take one
/// back in turn, ahead of new submissions. A woken program's turn is usually short (a move, then asleep
/// again); without this it would wait for a whole submission to end. Nothing is stopped here: only
/// the order of waiting work changes, never a verdict.
pub fn yield_slot() {
    let Some(pacer) = current() else {
        return;
    };
    if !pacer.lent.get() {
        pacer.cores.hand_over();
    }
}

/// Runs `wait` (a wait for work another thread does, no program of this thread's running) with this
/// thread's slot given up meanwhile, then takes one back ahead of new submissions: a worker waiting
/// for its helpers never holds a core idle, nor one a stopped program needs.
pub fn without_slot<R>(wait: impl FnOnce() -> R) -> R {
    let Some(pacer) = current().filter(|p| !p.lent.get()) else {
        return wait();
    };
    pacer.cores.give();
    let out = wait();
    pacer.cores.take_back(false);
    out
}

/// The slots this thread's pacer holds one of: a worker grading a submission may let helpers take
/// others for that submission's work. `None` without a pacer.
#[must_use]
pub fn cores() -> Option<Arc<Cores>> {
    current().map(|p| Arc::clone(&p.cores))
}

fn current() -> Option<Rc<Pacer>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// This thread's clock for programs: the monotonic clock less the time its programs were stopped for
/// want of a core (see the module's docs). Use it for every deadline and every timing of a program.
#[must_use]
pub fn now() -> Instant {
    let real = Instant::now();
    match current() {
        Some(p) => real.checked_sub(p.stopped.get()).unwrap_or(real),
        None => real,
    }
}

/// `now() - earlier`, never negative.
#[must_use]
pub fn since(earlier: Instant) -> Duration {
    now().saturating_duration_since(earlier)
}

/// How long this thread's programs have been stopped for want of a core so far.
#[must_use]
pub fn stopped() -> Duration {
    current().map_or(Duration::ZERO, |p| p.stopped.get())
}

/// One wait for a program on a thread that may have a pacer: call [`Wait::look`] at least every
/// [`Wait::every`] while waiting, and [`Wait::done`] when the wait is over (the program answered,
/// ended or ran out of time), before the grader computes anything.
#[derive(Debug)]
pub struct Wait {
    pacer: Option<Rc<Pacer>>,
    cpu: Option<Duration>,
    /// When the CPU time was last seen to move (real time).
    still_since: Instant,
    /// The CPU time when the slot was lent.
    cpu_at_lend: Duration,
    next: Instant,
}

impl Wait {
    #[must_use]
    pub fn start() -> Wait {
        let now = Instant::now();
        Wait {
            pacer: current().filter(|p| p.cores.lend_cap > 0),
            cpu: None,
            still_since: now,
            cpu_at_lend: Duration::ZERO,
            next: now,
        }
    }

    /// The longest the caller should wait before the next [`Wait::look`].
    #[must_use]
    pub fn every(&self) -> Duration {
        match &self.pacer {
            Some(p) if p.lent.get() => LENT_LOOK,
            Some(_) => LOOK,
            None => Duration::MAX,
        }
    }

    /// Looks at the program: lends the slot when it sleeps, takes it back when it wakes (stopping
    /// the program, and its clock, until a slot is free).
    pub fn look(&mut self, running: &mut dyn Running) {
        let Some(pacer) = self.pacer.clone() else {
            return;
        };
        let now = Instant::now();
        if now < self.next {
            return;
        }
        let cpu = running.cpu();
        let moved = self.cpu.replace(cpu).is_some_and(|was| was != cpu);
        if moved {
            self.still_since = now;
        }
        if pacer.lent.get() {
            self.next = now + LENT_LOOK;
            // Woken: a thread that runs, or CPU time used since the slot was lent (a program that
            // works in bursts too short to be seen running); a burst that ends asleep again is let be.
            let sleep = super::procfs::sleep_of(&*running);
            let used = cpu.saturating_sub(self.cpu_at_lend);
            let woke = match sleep {
                Some(s) => !s.asleep || used > LENT_CPU,
                None => moved,
            };
            if woke {
                self.reclaim(&pacer, Some(running), false);
                self.still_since = Instant::now();
            }
            return;
        }
        self.next = now + LOOK;
        // Lent only while at most one thread waits on a timer (the sleep itself) and every other in a
        // wait only the run can end: when it wakes, the thread that woke is the one that slept, and no
        // timer of the run runs on while it is stopped.
        if now >= self.still_since + LEND_AFTER
            && super::procfs::sleep_of(&*running).is_some_and(|s| s.asleep && s.timed <= 1)
            && pacer.cores.lend()
        {
            pacer.lent.set(true);
            self.cpu_at_lend = cpu;
            self.next = now + LENT_LOOK;
        }
    }

    /// The wait is over: the slot is taken back (the program, if it still runs, stopped meanwhile).
    /// `ran_out`: it ended on its deadline.
    pub fn done(mut self, running: Option<&mut dyn Running>, ran_out: bool) {
        if let Some(pacer) = self.pacer.take() {
            if pacer.lent.get() {
                self.reclaim(&pacer, running, ran_out);
            }
        }
    }

    /// Takes the slot back, the program stopped while none is free; `ran_out`: the wait ended on its
    /// deadline.
    fn reclaim(&self, pacer: &Pacer, mut running: Option<&mut dyn Running>, ran_out: bool) {
        if pacer.cores.try_reclaim() {
            pacer.lent.set(false);
            return;
        }
        // Off the clock only when no thread of the program sleeps on a timer, which would run on
        // while it is stopped (a thread that starts a timed wait the moment another wakes is a
        // contrivance that costs the program itself: its stop stays on its clock). Or when its time
        // ran out before the stop: what it was waited for is settled, and a program asleep past its
        // deadline timed out at the deadline, not when a slot came back.
        let off_clock = ran_out
            || match &running {
                Some(r) => super::procfs::sleep_of(&**r).is_some_and(|s| s.timed == 0),
                None => true,
            };
        let stopped_at = Instant::now();
        let suspended = running.as_mut().is_some_and(|r| r.suspend(true));
        let cpu_at_stop = running.as_mut().map(|r| r.group_cpu());
        pacer.cores.reclaim();
        pacer.lent.set(false);
        // And only for a stop that held: the group's CPU time did not move while it lasted (a process
        // that escaped a stop by signals, forked after its snapshot, ran on; the freezer lets none).
        let held = match (running.as_mut(), cpu_at_stop) {
            (Some(r), Some(before)) => r.group_cpu().saturating_sub(before) <= HELD_CPU,
            _ => true,
        };
        if off_clock && held {
            pacer
                .stopped
                .set(pacer.stopped.get() + stopped_at.elapsed());
        }
        if let (true, Some(running)) = (suspended, running) {
            running.suspend(false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lent_slots_admit_others_and_reclaims_go_first() {
        let cores = Cores::new(1, 1);
        // Worker 1 grades, sleeps and lends; worker 2 is admitted on the lent slot; no more is lent.
        cores.take();
        assert!(cores.lend());
        cores.take();
        assert!(!cores.lend());
        assert!(!cores.try_reclaim());
        let order = Arc::new(Mutex::new(Vec::new()));
        std::thread::scope(|s| {
            let (c, o) = (Arc::clone(&cores), Arc::clone(&order));
            // Worker 3, a new submission, starts waiting once worker 1's reclaim is queued.
            let newcomer = s.spawn(move || {
                while c.lock().reclaiming == 0 {
                    std::thread::yield_now();
                }
                c.take();
                o.lock().unwrap().push("new");
                c.give();
            });
            let (c, o) = (Arc::clone(&cores), Arc::clone(&order));
            let reclaimer = s.spawn(move || {
                c.reclaim();
                o.lock().unwrap().push("reclaim");
                c.give();
            });
            while cores.lock().reclaiming == 0 {
                std::thread::yield_now();
            }
            std::thread::sleep(Duration::from_millis(20));
            // Worker 2 finishes: its slot goes to worker 1, then worker 3.
            cores.give();
            reclaimer.join().unwrap();
            newcomer.join().unwrap();
        });
        assert_eq!(*order.lock().unwrap(), ["reclaim", "new"]);
        let state = cores.lock();
        assert_eq!((state.free, state.lent, state.reclaiming), (1, 0, 0));
    }

    /// A worker between two cases hands its slot to a worker taking back a lent one, and takes one
    /// back before a new submission; a worker waiting for its helpers holds no slot meanwhile.
    #[test]
    fn a_slot_goes_to_a_woken_program_between_cases_and_comes_back_before_newcomers() {
        let cores = Cores::new(1, 1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let entered = Pacer::enter(&cores);
        // Another worker's program slept (its slot lent, taken by us) and woke: it waits to reclaim.
        cores.lock().lent = 1;
        std::thread::scope(|s| {
            let (c, o) = (Arc::clone(&cores), Arc::clone(&order));
            let woken = s.spawn(move || {
                c.reclaim();
                o.lock().unwrap().push("woken");
                std::thread::sleep(Duration::from_millis(30));
                c.give();
            });
            while cores.lock().reclaiming == 0 {
                std::thread::yield_now();
            }
            let (c, o) = (Arc::clone(&cores), Arc::clone(&order));
            let newcomer = s.spawn(move || {
                c.take();
                o.lock().unwrap().push("new");
                c.give();
            });
            yield_slot();
            order.lock().unwrap().push("back");
            // Waiting for another thread's work, the slot is free for the newcomer.
            without_slot(|| {
                while !order.lock().unwrap().contains(&"new") {
                    std::thread::yield_now();
                }
            });
            order.lock().unwrap().push("back again");
            woken.join().unwrap();
            newcomer.join().unwrap();
        });
        assert_eq!(
            *order.lock().unwrap(),
            ["woken", "back", "new", "back again"]
        );
        drop(entered);
        assert_eq!(cores.free(), 1);
        let state = cores.lock();
        assert_eq!((state.lent, state.reclaiming, state.returning), (0, 0, 0));
    }

    #[test]
    fn without_a_pacer_the_clock_is_the_monotonic_one() {
        let before = Instant::now();
        let now = now();
        assert!(now >= before && now <= Instant::now());
        assert_eq!(stopped(), Duration::ZERO);
    }
}
