//! Telling a program that waits from one that works: a run asleep reading the stdin the grader feeds
//! while the grader waits for its answer (a deadlock, ended at once), and a run that uses no CPU for the
//! idle limit (ended as idle; the wall limit stays for everything else).
//!
//! Both read `/proc` (Linux) for every live process of the run (`Running::pids`) and every thread of
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
use super::Running;

/// How often a waiting run is looked at.
pub const CHECK_EVERY: Duration = Duration::from_millis(50);
/// A deadlock is only declared when two looks this far apart agree, the CPU time unchanged.
pub const CONFIRM: Duration = Duration::from_millis(100);
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
        self.next = now + CHECK_EVERY;
        let cpu = running.usage().cpu;
        if cpu > self.cpu + IDLE_SLACK || cpu < self.cpu {
            self.cpu = cpu;
            self.since = now;
        }
        let idle_soon = self
            .idle
            .is_some_and(|l| now + CHECK_EVERY >= self.since + l);
        // A program whose CPU time moved since the last check is working: no need to read every
        // thread's state (a scan of `/proc` under `basic`) to know it is not blocked.
        let working = self.seen_cpu.replace(cpu).is_some_and(|was| was != cpu);
        if (stdin.is_none() || working) && !idle_soon {
            self.asleep = false;
            self.blocked = None;
            return None;
        }
        let seen = look(running, stdin);
        let asleep = seen.is_some_and(|s| s.asleep);
        if let (Some(s), Some(_)) = (seen, stdin) {
            if s.asleep && s.reading && !s.other && s.stdin_empty {
                match self.blocked {
                    Some((at, was)) if now >= at + CONFIRM && cpu == was => {
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

/// What the threads of a run are doing, for lending its core (`pace.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sleep {
    /// Every thread of every process sleeps (state `S`; zombies count as asleep).
    pub asleep: bool,
    /// Sleeping threads in a wait that ends by itself (a timer, a timed futex, `poll` with a timeout)
    /// or one the watch cannot vouch for: their clocks run on while the run is stopped.
    pub timed: usize,
}

/// What every thread of the run is doing: `None` where the tier cannot tell or a process just ended.
#[cfg(target_os = "linux")]
#[must_use]
pub fn sleep_of(running: &dyn Running) -> Option<Sleep> {
    let pids = running.pids();
    if pids.is_empty() {
        return None;
    }
    let mut sleep = Sleep {
        asleep: true,
        timed: 0,
    };
    for pid in pids {
        for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
            let dir = task.ok()?.path();
            let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
            match stat.rsplit_once(')')?.1.split_whitespace().next()? {
                "S" => {}
                "Z" | "X" => continue,
                _ => {
                    sleep.asleep = false;
                    continue;
                }
            }
            let (nr, args) = syscall_of(&dir)?;
            if classify(nr, &args) == Call::Other {
                sleep.timed += 1;
            }
        }
    }
    Some(sleep)
}

#[cfg(not(target_os = "linux"))]
#[must_use]
pub fn sleep_of(_running: &dyn Running) -> Option<Sleep> {
    None
}

/// What one look at every thread of a run found.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    /// Every thread sleeps (state `S`); none runs, none is in disk sleep, none is stopped.
    asleep: bool,
    /// A thread sleeps in a read of the grader's stdin pipe.
    reading: bool,
    /// A thread sleeps in a call the watch cannot vouch for: one that may end by itself (a timer, a
    /// timed futex, poll, select) or by something outside the run (a socket, a FIFO).
    other: bool,
    /// The grader's stdin pipe holds no unread bytes.
    stdin_empty: bool,
}

#[cfg(target_os = "linux")]
fn look(running: &mut dyn Running, stdin: Option<&File>) -> Option<Seen> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;

    use std::os::unix::fs::FileTypeExt;

    let pids = running.pids();
    if pids.is_empty() {
        return None;
    }
    // A terminal (`terminal.rs`): the program reads its slave, known by device number; the grader's
    // end is the master, whose `FIONREAD` counts what the program printed, not what it has to read.
    // A whole line typed wakes a reader at once, so a thread still in `read` after two looks has none.
    let tty = stdin.and(running.pipes().tty);
    let pipe = match (stdin, tty) {
        (Some(file), None) => Some(format!("pipe:[{}]", file.metadata().ok()?.ino())),
        _ => None,
    };
    let reads_tty = |pid: i32, fd: u64| {
        tty.is_some_and(|dev| {
            std::fs::metadata(format!("/proc/{pid}/fd/{fd}"))
                .is_ok_and(|m| m.file_type().is_char_device() && m.rdev() == dev)
        })
    };
    let mut seen = Seen {
        asleep: true,
        stdin_empty: true,
        ..Seen::default()
    };
    if let (Some(file), None) = (stdin, tty) {
        let mut queued: libc::c_int = 0;
        // SAFETY: FIONREAD writes one int; the descriptor is ours (either end of a pipe answers it).
        if unsafe { libc::ioctl(file.as_raw_fd(), libc::FIONREAD, &mut queued) } != 0 {
            return None;
        }
        seen.stdin_empty = queued == 0;
    }
    for pid in pids {
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
        for task in tasks {
            let dir = task.ok()?.path();
            let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
            let state = stat.rsplit_once(')')?.1.split_whitespace().next()?;
            match state {
                "S" => {}
                // A zombie thread or process does nothing and waits for nothing.
                "Z" | "X" => continue,
                _ => {
                    seen.asleep = false;
                    return Some(seen);
                }
            }
            let (nr, args) = syscall_of(&dir)?;
            let fd_target = |fd: u64| {
                std::fs::read_link(format!("/proc/{pid}/fd/{fd}"))
                    .ok()
                    .and_then(|t| t.to_str().map(str::to_string))
            };
            match classify(nr, &args) {
                Call::Read if args.first().is_some_and(|&fd| reads_tty(pid, fd)) => {
                    seen.reading = true;
                }
                Call::Read => match args.first().and_then(|&fd| fd_target(fd)) {
                    Some(t) if pipe.as_deref() == Some(t.as_str()) => seen.reading = true,
                    // An anonymous pipe: another thread's or process's of the run writes it.
                    Some(t) if t.starts_with("pipe:[") => {}
                    _ => seen.other = true,
                },
                Call::Inner => {}
                Call::Other => seen.other = true,
            }
        }
    }
    Some(seen)
}

#[cfg(not(target_os = "linux"))]
fn look(_running: &mut dyn Running, _stdin: Option<&File>) -> Option<Seen> {
    None
}

/// The system call a thread sleeps in and its arguments, from `/proc/PID/task/TID/syscall` (`dir`).
#[cfg(target_os = "linux")]
fn syscall_of(dir: &std::path::Path) -> Option<(i64, Vec<u64>)> {
    let call = std::fs::read_to_string(dir.join("syscall")).ok()?;
    let mut fields = call.split_whitespace();
    let nr: i64 = fields.next()?.parse().ok()?;
    let args = fields
        .take(6)
        .filter_map(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok())
        .collect();
    Some((nr, args))
}

/// What a sleeping thread waits in, as far as a deadlock is concerned.
#[cfg(target_os = "linux")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    /// `read` or `readv` of a descriptor (its first argument).
    Read,
    /// A wait only the run itself can end: an untimed futex, a child's exit.
    Inner,
    /// Anything else: a timer, a timed wait, poll, select, epoll, a signal wait, or not in a call.
    Other,
}

#[cfg(target_os = "linux")]
fn classify(nr: i64, args: &[u64]) -> Call {
    if nr == libc::SYS_read || nr == libc::SYS_readv {
        return Call::Read;
    }
    // FUTEX_WAIT and FUTEX_WAIT_BITSET take their timeout as the fourth argument; null waits forever.
    let futex_op = args.get(1).map(|op| op & 0x7f);
    let untimed_futex =
        nr == libc::SYS_futex && matches!(futex_op, Some(0 | 9)) && args.get(3) == Some(&0);
    if untimed_futex || nr == libc::SYS_wait4 || nr == libc::SYS_waitid {
        return Call::Inner;
    }
    Call::Other
}

/// The pids of the process group led by `leader`, leader first, from a scan of `/proc` (the `basic`
/// and `none` tiers have no cgroup to ask).
#[cfg(target_os = "linux")]
#[must_use]
pub fn group_pids(leader: i32) -> Vec<i32> {
    let mut out = vec![leader];
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        if pid == leader {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // After the command's closing parenthesis: state, ppid, pgrp.
        let pgrp = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(2))
            .and_then(|p| p.parse::<i32>().ok());
        if pgrp == Some(leader) {
            out.push(pid);
        }
    }
    out
}

#[cfg(not(target_os = "linux"))]
#[must_use]
pub fn group_pids(_leader: i32) -> Vec<i32> {
    Vec::new()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn only_waits_the_run_itself_must_end_are_vouched_for() {
        let futex = libc::SYS_futex;
        // FUTEX_WAIT_PRIVATE (128) with no timeout: a lock another thread holds.
        assert_eq!(classify(futex, &[0x7f00, 128, 1, 0]), Call::Inner);
        // The same with a timeout, and FUTEX_WAKE: either may end by itself.
        assert_eq!(classify(futex, &[0x7f00, 128, 1, 0x7ffc]), Call::Other);
        assert_eq!(classify(futex, &[0x7f00, 1, 1, 0]), Call::Other);
        // FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, untimed.
        assert_eq!(classify(futex, &[0x7f00, 9 | 256, 1, 0]), Call::Inner);
        assert_eq!(classify(libc::SYS_wait4, &[]), Call::Inner);
        assert_eq!(classify(libc::SYS_read, &[0, 0x7f00, 1]), Call::Read);
        assert_eq!(classify(libc::SYS_clock_nanosleep, &[]), Call::Other);
        assert_eq!(classify(libc::SYS_ppoll, &[]), Call::Other);
        // Blocked outside any call (`-1` in /proc/…/syscall).
        assert_eq!(classify(-1, &[]), Call::Other);
    }
}
