//! Telling a program that waits from one that works: a run asleep reading the stdin the grader feeds
//! while the grader waits for its answer (a deadlock, ended at once), and a run that uses no CPU for the
//! idle limit (ended as idle; the wall limit stays for everything else). A watch may also hold the run
//! to a CPU budget ([`Watch::cpu_until`]): a per-move limit counted in CPU time, which a loaded machine
//! does not use up.
//!
//! Both read `/proc` (Linux, `procfs.rs`) for every live process of the run (`Running::pids`) and every thread of
//! each: its state (`/proc/PID/task/TID/stat`) and the system call it sleeps in
//! (`/proc/PID/task/TID/syscall`, readable by the grader for its own children). Where any of it cannot
//! be read (another OS, a process that just ended), nothing is concluded: the run keeps to its timeout.
//!
//! Why "blocked reading our stdin" is reliable: a thread sleeping in `read(fd, ...)` where the
//! program's `fd` is the very pipe the grader writes (same pipe inode) only sleeps while that pipe is
//! empty (the kernel makes it runnable before our `write` returns), and `FIONREAD` on our end says the
//! pipe holds nothing. Nothing but our write, the pipe's end or a signal can wake that read. Every
//! other thread of every process must sleep in a wait the watch can vouch for, one that only something
//! inside the run can end: an untimed `futex` (a lock or condition another thread holds), `wait4` or
//! `waitid` (a child of the run), a `read` of an anonymous pipe (another thread's or process's of the
//! run). A thread that runs, a timed wait (`nanosleep`, a timed `futex`), `poll`, `select`, `epoll`,
//! a socket, a named FIFO, a terminal other than the one the grader types on (`Stdin::Terminal`: a
//! read of its slave counts as a read of our stdin) or any other call means "not proven": no deadlock. When all of
//! that holds at looks [`CONFIRM`] apart with the CPU time unchanged, the grader has sent nothing
//! since (it is waiting), so nothing can have moved the program: it waits for us while we wait for it.
//! A busy program is never cut: computing, it has a thread in state `R` (or CPU time that moves).
//!
//! What degrades to the plain timeout, never to a false deadlock, under each tier:
//! - `full`: the run's processes are its cgroup's, all seen; its init sleeps in `wait4`. A thread the
//!   grader may not inspect (`/proc/…/syscall` refused) leaves the look inconclusive.
//! - `basic` and `none`: the processes are found by a scan of `/proc` for the run's process group. A
//!   helper that left the group (`setsid`) is not seen; it could wake the program (a signal, a pipe
//!   they share) while the watch thinks nothing can: a contrivance that only costs the program itself,
//!   and one the `full` tier rules out. Yama's `ptrace_scope` 2 or 3, or a process made non-dumpable, hides `syscall`:
//!   inconclusive, so the timeout applies.
//! - Runtimes whose idle threads wait with timeouts (JVMs' periodic tasks, Node's event loop, Go's
//!   scheduler) are never proven blocked: their deadlocks end at the per-move limit (or the idle
//!   limit), as before. C, C++, Python, Guile and SWI-Prolog reading stdin are recognised.

use std::fs::File;
use std::time::{Duration, Instant};

use super::pace;
use super::procfs::look;
use super::Running;

/// How often a waiting run is looked at.
pub const CHECK_EVERY: Duration = Duration::from_millis(50);
/// A deadlock is only declared when two looks this far apart agree, the CPU time unchanged.
pub const CONFIRM: Duration = Duration::from_millis(100);
/// [`Watch::responsive`]'s looks: for a program on a terminal that has answered what was typed (it
/// printed since), whose next wait for input ends its turn, many times a game. It read the line it
/// answers (nothing else wakes a read of the terminal), so the confirmation only has to see the same
/// sleep twice with no CPU used between (under `full` the cgroup's counter moves with any instant it
/// ran): a millisecond, not the time a typed line may take to reach a reader. Every turn of a dialogue
/// waits this long with the program's core idle: at 4 ms the WPI examples left 20 s of their 2 cores'
/// 52 s idle, at 1 ms 11 s (26 s of wall to 22 s), with the same verdicts, also on a machine loaded
/// 4 times over. Nothing the program printed before it went back to its read is left behind, however
/// short the confirmation: a terminal hands what the program writes to the grader's end through a
/// kernel work item, and a `poll` of that end that finds nothing first runs any such pending work
/// (`n_tty_poll` calls `tty_buffer_flush_work`); `line::wait_awaiting` polls before every look, so
/// what was written before the first look is read before a second can confirm. A program of one
/// thread needs no second look (nothing else of it can act between two), so its turn ends at the
/// first look that finds it back in its read: for a C program on its own that took the median turn
/// (from its read to the grader's keys) from 2.85 ms (two looks a millisecond apart, each wait then
/// rounded up to whole milliseconds) to 0.92 ms.
const RESPONSIVE_EVERY: Duration = Duration::from_millis(15);
const RESPONSIVE_CONFIRM: Duration = Duration::from_millis(1);
/// Right after a program printed ([`Watch::heard`]), when it is most likely to be back in its read,
/// a responsive watch looks this often, for [`QUICK_FOR`]; then every [`RESPONSIVE_EVERY`] (a program
/// that thinks is not looked at hundreds of times a second). A look at once, when the output
/// arrives, found nothing sooner (the program is rarely back in its read by then).
const QUICK_EVERY: Duration = Duration::from_micros(500);
const QUICK_FOR: Duration = Duration::from_millis(30);
/// The first of those looks comes this soon after the program printed (a program for a person is
/// usually back in its read within a tenth of a millisecond of its prompt), each gap after it twice
/// the one before, up to [`QUICK_EVERY`]. These looks read the threads' states even when the CPU
/// time moved since the last check: it moved while the program printed, which is what just happened.
/// For a C program on its own that took the median turn (from its read to the grader's keys) from
/// 0.92 ms to 0.57 ms, and its ten opening games from 98 ms to 66 ms.
const QUICK_FIRST: Duration = Duration::from_micros(100);
/// CPU time a run may use per idle window and still count as idle: interpreters' and JVMs'
/// housekeeping threads wake now and then, and `/proc` counts CPU in 10 ms ticks.
pub const IDLE_SLACK: Duration = Duration::from_millis(20);

/// Why a run was stopped before its wall limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stall {
    /// Every thread asleep, one of them reading the (empty) stdin the grader writes.
    Input,
    /// No CPU used for this long, every thread asleep.
    Idle(Duration),
    /// The run's whole process tree used the CPU time it was allowed ([`Watch::cpu_until`]).
    Cpu,
}

/// Watches one run while the grader waits for it. Call [`Watch::check`] as often as convenient; it
/// looks at most every [`CHECK_EVERY`].
#[derive(Debug)]
pub struct Watch {
    idle: Option<Duration>,
    /// The CPU time last seen to move (by more than the slack), and when.
    cpu: Duration,
    since: Instant,
    next: Instant,
    /// The previous look found the run blocked on its stdin, at this CPU time.
    blocked: Option<(Instant, Duration)>,
    /// The previous look found every thread asleep.
    asleep: bool,
    /// The CPU time at the previous check: while it moves the program works, and `/proc` is not read.
    seen_cpu: Option<Duration>,
    /// How often to look, and how far apart two looks must agree on a deadlock.
    every: Duration,
    confirm: Duration,
    /// Until when a responsive watch looks often (the program printed just before), and the gap
    /// before its next look then ([`QUICK_FIRST`] up to [`QUICK_EVERY`]).
    quick_until: Option<Instant>,
    quick_gap: Duration,
    /// The CPU time of the run's whole process tree at which it is stopped (`Running::group_cpu`).
    cpu_until: Option<Duration>,
}

impl Watch {
    /// A watch from now; `idle` is the run's idle limit (`None`: only deadlocks are recognised).
    #[must_use]
    pub fn new(idle: Option<Duration>) -> Watch {
        let now = pace::now();
        Watch {
            idle,
            cpu: Duration::ZERO,
            since: now,
            next: now,
            blocked: None,
            asleep: false,
            seen_cpu: None,
            every: CHECK_EVERY,
            confirm: CONFIRM,
            quick_until: None,
            quick_gap: QUICK_FIRST,
            cpu_until: None,
        }
    }

    /// This watch, also stopping the run once its whole process tree has used `until` of CPU time in
    /// all (a per-move limit in CPU time: the caller adds the limit to what the tree used before).
    #[must_use]
    pub fn cpu_until(self, until: Option<Duration>) -> Watch {
        Watch {
            cpu_until: until,
            ..self
        }
    }

    /// A watch that looks more often and confirms sooner, for a program on a terminal (`Stdin::
    /// Terminal`) that has printed since the grader last typed: it has read what was typed, so a
    /// thread of it found reading the terminal again waits for more.
    #[must_use]
    pub fn responsive(idle: Option<Duration>) -> Watch {
        let mut watch = Watch {
            every: RESPONSIVE_EVERY,
            confirm: RESPONSIVE_CONFIRM,
            ..Watch::new(idle)
        };
        watch.heard();
        watch
    }

    /// How often this watch looks now.
    #[must_use]
    pub fn every(&self) -> Duration {
        match self.quick_until {
            Some(until) if pace::now() < until => self.quick_gap,
            _ => self.every,
        }
    }

    /// The program just printed: a responsive watch looks again at once, and often for a moment (a
    /// program for a person prints its prompt and reads).
    pub fn heard(&mut self) {
        if self.every == RESPONSIVE_EVERY {
            let now = pace::now();
            self.quick_until = Some(now + QUICK_FOR);
            self.quick_gap = QUICK_FIRST;
            self.next = self.next.min(now + QUICK_FIRST);
        }
    }

    /// Starts the idle clock again (the grader just gave the program something to do).
    pub fn reset(&mut self) {
        let now = pace::now();
        self.since = now;
        self.blocked = None;
        self.asleep = false;
    }

    /// Looks at the run (at most every [`CHECK_EVERY`]). `stdin` is the grader's end of the pipe the
    /// program reads, when the grader is now waiting for its answer; `None` when nobody writes to it.
    pub fn check(&mut self, running: &mut dyn Running, stdin: Option<&File>) -> Option<Stall> {
        let now = pace::now();
        if now < self.next {
            return None;
        }
        let quick = self.quick_until.is_some_and(|until| now < until);
        if quick {
            self.quick_gap = (self.quick_gap * 2).min(QUICK_EVERY);
        }
        self.next = now + self.every();
        if self
            .cpu_until
            .is_some_and(|until| running.group_cpu() >= until)
        {
            return Some(Stall::Cpu);
        }
        let cpu = running.cpu();
        if cpu > self.cpu + IDLE_SLACK || cpu < self.cpu {
            self.cpu = cpu;
            self.since = now;
        }
        let idle_soon = self
            .idle
            .is_some_and(|l| now + self.every >= self.since + l);
        // A program whose CPU time moved since the last check is working: no need to read every
        // thread's state (a scan of `/proc` under `basic`) to know it is not blocked. Unless it just
        // printed: that is what moved it, and it is likely back in its read.
        let working = self.seen_cpu.replace(cpu).is_some_and(|was| was != cpu);
        if (stdin.is_none() || (working && !quick)) && !idle_soon {
            self.asleep = false;
            self.blocked = None;
            return None;
        }
        let seen = look(running, stdin);
        let asleep = seen.is_some_and(|s| s.asleep);
        if let (Some(s), Some(_)) = (seen, stdin) {
            // On a terminal a thread reading it is enough: runtimes keep housekeeping threads in
            // timed waits (a JVM always does), and a program for a person does its work between reads.
            if s.asleep && s.reading && (!s.other || s.tty) && s.stdin_empty {
                // A program of one thread, back in its read of the terminal after it answered: only
                // what is typed (or a signal it arranged) can wake it, and what it printed before
                // the read is collected by the poll after this look (`line::Awaited::stalled`). A
                // second look only tells more where another thread may act between two looks.
                if s.tty && s.threads == 1 && self.every == RESPONSIVE_EVERY {
                    return Some(Stall::Input);
                }
                match self.blocked {
                    Some((at, was)) if now >= at + self.confirm && cpu == was => {
                        return Some(Stall::Input)
                    }
                    Some((_, was)) if cpu == was => {}
                    _ => self.blocked = Some((now, cpu)),
                }
            } else {
                self.blocked = None;
            }
        }
        let was_asleep = std::mem::replace(&mut self.asleep, asleep);
        match self.idle {
            Some(limit) if asleep && was_asleep && now >= self.since + limit => {
                Some(Stall::Idle(limit))
            }
            _ => None,
        }
    }
}
