//! What every thread of a run is doing, read from `/proc` (Linux): whether all sleep, in which system
//! call each sleeps (`/proc/PID/task/TID/syscall`, readable by the grader for its own children), and
//! which of those waits only the run itself can end. The deadlock and idle watch (`watch.rs`) and the
//! core lending (`pace.rs`) decide from these looks; where anything cannot be read (another OS, a
//! process that just ended, a thread the grader may not inspect) a look says nothing (`None`), and
//! nothing is concluded from it. `watch.rs` says why each reading can be trusted.

use std::fs::File;

use super::Running;

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
            let stat = read_proc_record(&dir.join("stat")).ok()?;
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
pub(super) struct Seen {
    /// Every thread sleeps (state `S`); none runs, none is in disk sleep, none is stopped.
    pub(super) asleep: bool,
    /// A thread sleeps in a read of the grader's stdin pipe.
    pub(super) reading: bool,
    /// A thread sleeps in a call the watch cannot vouch for: one that may end by itself (a timer, a
    /// timed futex, poll, select) or by something outside the run (a socket, a FIFO).
    pub(super) other: bool,
    /// The grader's stdin pipe holds no unread bytes.
    pub(super) stdin_empty: bool,
    /// The program reads a terminal (`Stdin::Terminal`), not a pipe.
    pub(super) tty: bool,
    /// Threads seen that have not ended (zombies left out): every one asleep when `asleep`.
    pub(super) threads: usize,
}

#[cfg(target_os = "linux")]
pub(super) fn look(running: &mut dyn Running, stdin: Option<&File>) -> Option<Seen> {
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
        tty: tty.is_some(),
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
            let stat = read_proc_record(&dir.join("stat")).ok()?;
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
            seen.threads += 1;
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
pub(super) fn look(_running: &mut dyn Running, _stdin: Option<&File>) -> Option<Seen> {
    None
}

/// The system call a thread sleeps in and its arguments, from `/proc/PID/task/TID/syscall` (`dir`).
#[cfg(target_os = "linux")]
fn syscall_of(dir: &std::path::Path) -> Option<(i64, Vec<u64>)> {
    let call = read_proc_record(&dir.join("syscall")).ok()?;
    let mut fields = call.split_whitespace();
    let nr: i64 = fields.next()?.parse().ok()?;
    let args = fields
        .take(6)
        .filter_map(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok())
        .collect();
    Some((nr, args))
}

/// A `/proc` file of one record: a process's or thread's `stat`, a thread's `syscall`. The kernel
/// writes such a file whole at the first read (`single_open`), so one read that returns less than it
/// asked for holds all of it: open, read, close, for each thread of a run at each look of the watch
/// and each process of a scan of `/proc`, where `fs::read_to_string` asks the size (`statx`, which
/// says 0 for these), reads in small probes, and once more for the end. Hand-written: no crate reads
/// a kernel file by that rule.
pub(super) fn read_proc_record(path: &std::path::Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut file = File::open(path)?;
    let mut buf = [0u8; 4096];
    let n = file.read(&mut buf)?;
    let mut bytes = buf[..n].to_vec();
    if n == buf.len() {
        file.read_to_end(&mut bytes)?;
    }
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
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
        let Ok(stat) = read_proc_record(format!("/proc/{pid}/stat").as_ref()) else {
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
    fn a_proc_record_is_read_whole_in_one_read_and_a_longer_file_to_its_end() {
        use std::io::Write;
        // A thread blocked reading an empty pipe: its `syscall` file stands still while it waits.
        let (mut reader, mut writer) = std::io::pipe().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let blocked = std::thread::spawn(move || {
            // SAFETY: gettid has no preconditions.
            tx.send(unsafe { libc::gettid() }).unwrap();
            let mut byte = [0u8; 1];
            std::io::Read::read(&mut reader, &mut byte).unwrap()
        });
        let tid = rx.recv().unwrap();
        let dir = std::path::PathBuf::from(format!("/proc/self/task/{tid}"));
        let mut found = None;
        for _ in 0..2500 {
            let call = std::fs::read_to_string(dir.join("syscall")).unwrap();
            if call.starts_with(&format!("{} ", libc::SYS_read)) {
                found = Some(call);
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let call = found.expect("the thread never blocked in read");
        assert_eq!(read_proc_record(&dir.join("syscall")).unwrap(), call);
        let stat = read_proc_record(&dir.join("stat")).unwrap();
        assert!(
            stat.starts_with(&format!("{tid} (")) && stat.ends_with('\n'),
            "{stat}"
        );
        writer.write_all(b"x").unwrap();
        assert_eq!(blocked.join().unwrap(), 1);
        // Longer than one read's buffer: read on to the end.
        let long = tempfile::NamedTempFile::new().unwrap();
        let text: String = (0..1000).map(|i| format!("{i:07}\n")).collect();
        std::fs::write(long.path(), &text).unwrap();
        assert_eq!(read_proc_record(long.path()).unwrap(), text);
    }

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
