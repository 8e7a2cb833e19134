//! What the class-scale benchmarks share: the classes they grade (the hostile C corpus as Adelaide
//! hand-ins), a `grader` run timed with its own CPU apart from its programs', the CPU floor a class's
//! results set, and results folders compared with their timings masked.

#![allow(dead_code)]

pub mod floor;
pub mod same;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::Instant;

/// The hostile C programs of `tests/hostile` graded as Adelaide hand-ins (issue 31's corpus):
/// spinners, a fork bomb, threads, memory bombs, floods, a sleeper, programs that snoop, connect,
/// leave a daemon, ptrace or kill, close or ignore their stdin. The six others there (`outside`,
/// `escape_ns`, `deep`, `tinyfiles`, `locked`, `cmdline`) attack the machine rather than cost time.
pub const HOSTILE_C: &[&str] = &[
    "loop",
    "sleep",
    "threads",
    "forkbomb",
    "membomb",
    "memspread",
    "stdout_flood",
    "stderr_flood",
    "bigfile",
    "snoop",
    "connect",
    "daemon",
    "ptrace",
    "killer",
    "close_stdin",
    "ignore_stdin",
];

/// Writes the hostile C class into `class` (one folder per program: its source as `tictactoe.c` and
/// a Makefile that builds `tictactoe.bin`, which the Adelaide suite's C recipe runs) and returns it.
pub fn hostile_c_class(root: &Path, class: &Path) -> PathBuf {
    for name in HOSTILE_C {
        let folder = class.join(name.replace('_', "-"));
        std::fs::create_dir_all(&folder).unwrap();
        let source = root.join("tests/hostile").join(format!("{name}.c"));
        std::fs::copy(&source, folder.join("tictactoe.c"))
            .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        std::fs::write(
            folder.join("Makefile"),
            "tictactoe: tictactoe.c\n\tcc -O1 -pthread -o tictactoe.bin tictactoe.c\n",
        )
        .unwrap();
    }
    class.to_path_buf()
}

/// What one command cost: its wall time, its own CPU (every thread of it), and the CPU of the
/// processes it waited for (for `grader`: every build and run, sandbox inits included).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cost {
    pub wall: f64,
    pub own_cpu: f64,
    pub children_cpu: f64,
}

/// Runs `command` to its end and says what it cost. The process is waited for without being reaped
/// first (`WNOWAIT`), so its `/proc/PID/stat` still holds its own and its children's CPU apart.
pub fn run_costed(command: &mut Command) -> (ExitStatus, Cost) {
    let started = Instant::now();
    let mut child = command.spawn().expect("the command starts");
    let pid = child.id();
    // SAFETY: waitid on our own child with a zeroed siginfo to fill; WNOWAIT leaves it unreaped.
    let r = unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT)
    };
    assert_eq!(r, 0, "waitid: {}", std::io::Error::last_os_error());
    let wall = started.elapsed().as_secs_f64();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let status = child.wait().expect("the command is reaped");
    // Fields after the command name's closing parenthesis: utime, stime, cutime, cstime are the
    // 14th to 17th of the line (the 12th to 15th after it), in clock ticks.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: Vec<f64> = after
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|t| t.parse().unwrap_or(0.0))
        .collect();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let tick = |i: usize| ticks.get(i).copied().unwrap_or(0.0) / hz;
    (
        status,
        Cost {
            wall,
            own_cpu: tick(0) + tick(1),
            children_cpu: tick(2) + tick(3),
        },
    )
}

/// The machine's 1-minute load average and what it is, for every printed measurement.
pub fn load() -> String {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    format!(
        "{cores} cores, load average {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// Waits, up to `most`, for the machine to settle after an earlier measurement: until the 1-minute
/// load average is under 1 (the hostile corpus leaves it above 20, with the kernel still reclaiming
/// what its programs held). The seconds waited.
pub fn settle(most: std::time::Duration) -> f64 {
    let started = std::time::Instant::now();
    let one_minute = || {
        std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next()?.parse::<f64>().ok())
    };
    while started.elapsed() < most && one_minute().is_some_and(|l| l >= 1.0) {
        std::thread::sleep(std::time::Duration::from_secs(2));
    }
    started.elapsed().as_secs_f64()
}

/// Every file below `root` (not the folders; a link is listed, never followed).
#[must_use]
pub fn files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                todo.push(entry.path());
            } else {
                files.push(entry.path());
            }
        }
    }
    files
}

/// Copies the folder `from` into `to`, subfolders and all.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
