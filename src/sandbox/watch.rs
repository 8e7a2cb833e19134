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
//! empty (the kernel wakes it, state `R`, before our `write` returns), and `FIONREAD` on our end says
//! the pipe holds nothing. When, besides, every other thread of every process sleeps in an untimed
//! wait (no `nanosleep`, no timed `futex`, `poll` or `select`, which could end on their own), no
//! thread is running, and the same holds at a second look [`CONFIRM`] later with the CPU time
//! unchanged, nothing but more input can move the program: it waits for us while we wait for it.

use std::fs::File;
use std::time::{Duration, Instant};

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
}

impl Watch {
    /// A watch from now; `idle` is the run's idle limit (`None`: only deadlocks are recognised).
    #[must_use]
    pub fn new(idle: Option<Duration>) -> Watch {
        let now = Instant::now();
        Watch {
            idle,
            cpu: Duration::ZERO,
            since: now,
            next: now,
            blocked: None,
            asleep: false,
        }
    }

    /// Starts the idle clock again (the grader just gave the program something to do).
    pub fn reset(&mut self) {
        let now = Instant::now();
        self.since = now;
        self.blocked = None;
        self.asleep = false;
    }

    /// Looks at the run (at most every [`CHECK_EVERY`]). `stdin` is the grader's end of the pipe the
    /// program reads, when the grader is now waiting for its answer; `None` when nobody writes to it.
    pub fn check(&mut self, running: &mut dyn Running, stdin: Option<&File>) -> Option<Stall> {
        let now = Instant::now();
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
        if stdin.is_none() && !idle_soon {
            self.asleep = false;
            return None;
        }
        let seen = look(running, stdin);
        let asleep = seen.is_some_and(|s| s.asleep);
        if let (Some(s), Some(_)) = (seen, stdin) {
            if s.asleep && s.reading && !s.timed && s.stdin_empty {
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

/// What one look at every thread of a run found.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    /// Every thread sleeps (state `S`); none runs, none is in disk sleep, none is stopped.
    asleep: bool,
    /// A thread sleeps in a read of the grader's stdin pipe.
    reading: bool,
    /// A thread sleeps in a wait that can end by itself (a timer, a timed futex, poll or select).
    timed: bool,
    /// The grader's stdin pipe holds no unread bytes.
    stdin_empty: bool,
}

#[cfg(target_os = "linux")]
fn look(running: &mut dyn Running, stdin: Option<&File>) -> Option<Seen> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::MetadataExt;

    let pids = running.pids();
    if pids.is_empty() {
        return None;
    }
    let pipe = match stdin {
        Some(file) => Some(format!("pipe:[{}]", file.metadata().ok()?.ino())),
        None => None,
    };
    let mut seen = Seen {
        asleep: true,
        stdin_empty: true,
        ..Seen::default()
    };
    if let Some(file) = stdin {
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
            let call = std::fs::read_to_string(dir.join("syscall")).ok()?;
            let mut fields = call.split_whitespace();
            let nr: i64 = fields.next()?.parse().ok()?;
            let args: Vec<u64> = fields
                .take(6)
                .filter_map(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok())
                .collect();
            if is_read(nr) {
                let fd = args.first()?;
                let target = std::fs::read_link(format!("/proc/{pid}/fd/{fd}")).ok();
                if pipe.is_some() && target.as_deref().and_then(|t| t.to_str()) == pipe.as_deref() {
                    seen.reading = true;
                }
            } else if is_timed(nr, &args) {
                seen.timed = true;
            }
        }
    }
    Some(seen)
}

#[cfg(not(target_os = "linux"))]
fn look(_running: &mut dyn Running, _stdin: Option<&File>) -> Option<Seen> {
    None
}

#[cfg(target_os = "linux")]
fn is_read(nr: i64) -> bool {
    nr == libc::SYS_read || nr == libc::SYS_readv
}

/// A system call that may return by itself after a while: sleeping, or waiting with a timeout. (`poll`,
/// `select` and `epoll_wait` count whatever their timeout: reading one is not worth the risk.)
#[cfg(target_os = "linux")]
fn is_timed(nr: i64, args: &[u64]) -> bool {
    let futex_timed = nr == libc::SYS_futex && args.get(3).is_some_and(|&t| t != 0);
    #[cfg(target_arch = "x86_64")]
    let legacy = [
        libc::SYS_nanosleep,
        libc::SYS_select,
        libc::SYS_poll,
        libc::SYS_epoll_wait,
        libc::SYS_pause,
    ]
    .contains(&nr);
    #[cfg(not(target_arch = "x86_64"))]
    let legacy = false;
    futex_timed
        || legacy
        || [
            libc::SYS_clock_nanosleep,
            libc::SYS_pselect6,
            libc::SYS_ppoll,
            libc::SYS_epoll_pwait,
            libc::SYS_rt_sigtimedwait,
            libc::SYS_io_getevents,
        ]
        .contains(&nr)
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
