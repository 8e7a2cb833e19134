//! The one door every build and run goes through: a `Sandbox` spawns a command under limits and reports
//! a structured `Outcome`. It knows nothing about games, suites or grades.
//!
//! Tiers (probed at start-up, printed by `run` and `check`):
//! - `full`: namespaces, minimal root, cgroups, seccomp (Linux, where the kernel allows it);
//! - `basic`: own process group, rlimits, wall timeout with SIGTERM → grace → SIGKILL, output caps;
//! - `none`: explicit only; plain spawn, still with timeouts and caps.

pub mod basic;
pub mod cleanup;
pub mod drive;
pub mod files;
pub mod line;
#[cfg(target_os = "linux")]
pub mod linux;
pub mod pace;
pub mod process;
pub mod procfs;
pub mod reaper;
pub mod removal;
pub mod rlimits;
pub mod scratch;
pub mod sink;
pub mod terminal;
pub mod tree;
#[cfg(target_os = "linux")]
mod vfork;
pub mod watch;

pub use basic::{BasicSandbox, NoSandbox};
pub use drive::drive;
pub use files::{files_written, FilesWritten, WrittenFile};
pub use line::{over_limit, write_all, Drain, LineReader, ReadLine, Wrote};
pub use watch::{Stall, Watch};

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::path::PathBuf;
use std::time::Duration;

/// How strongly a sandbox isolates what it runs.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    None,
    Basic,
    Full,
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tier::None => "none",
            Tier::Basic => "basic",
            Tier::Full => "full",
        })
    }
}

/// Resource limits for one run. Sizes are in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// CPU time of the whole process tree (RLIMIT_CPU per process in `basic`; cgroup accounting in `full`).
    pub cpu: Duration,
    /// Wall-clock time from spawn to exit.
    pub wall: Duration,
    /// Memory of the whole tree in `full` (cgroup); per process address space or data in `basic`.
    pub memory: u64,
    /// Bytes kept of stdout and of stderr; more than this on stdout is an output-limit verdict.
    pub output: u64,
    /// Largest file the program may write (RLIMIT_FSIZE).
    pub file_size: u64,
    /// Processes/threads in the tree (cgroup pids in `full`).
    pub processes: u32,
    /// Open file descriptors per process.
    pub open_files: u64,
    /// Stack per process.
    pub stack: u64,
    /// RLIMIT_AS when set; off for the JVM, which reserves far more address space than it uses.
    pub address_space: Option<u64>,
    /// A run whose CPU time stands still this long, every process of it asleep, is stopped as idle
    /// (`watch.rs`); `None` leaves waiting to the wall limit (builds).
    pub idle: Option<Duration>,
}

/// What the program reads on stdin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stdin {
    /// `/dev/null`.
    Null,
    /// These bytes, then end of file.
    Bytes(Vec<u8>),
    /// A pipe the caller writes to (`Running::take_stdin`): for interactive players.
    Piped,
    /// A pseudo-terminal (`terminal.rs`) for programs written for a person: stdin and stdout are its
    /// slave side (`isatty` true, echo off), and `Running::take_stdin` and `take_stdout` both give its
    /// master (one to type on, one to read). Stderr stays a pipe.
    Terminal,
}

/// One command to run.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The program: an absolute path, or a name looked up on the sandbox's `PATH`.
    pub program: OsString,
    pub args: Vec<OsString>,
    /// The one writable directory; the program's working directory.
    pub workdir: PathBuf,
    /// The complete environment (nothing is inherited). Sandboxes add a default `PATH` when absent.
    pub env: Vec<(OsString, OsString)>,
    pub stdin: Stdin,
    pub limits: Limits,
    /// Extra paths the program may read (bound read-only in `full`), beyond the toolchain defaults.
    pub read_only: Vec<PathBuf>,
}

/// How the main process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Exited(i32),
    Signaled(i32),
}

/// A limit the sandbox enforced by stopping the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitHit {
    Cpu,
    Wall,
    Memory,
    Output,
    /// It used no CPU for the idle limit, asleep: waiting for something that will not come.
    Idle,
    /// It wrote the file-size limit's worth to stderr (a file in a driven run, `sink.rs`), and the
    /// kernel stopped it there.
    Stderr,
}

/// Everything the sandbox observed about one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub status: Status,
    pub cpu: Duration,
    pub wall: Duration,
    /// Peak memory of the tree where the tier can measure it (`full`: cgroup; `basic`: max RSS of the
    /// main process and its reaped children).
    pub peak_memory: Option<u64>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub stdout_truncated: bool,
    pub stderr_truncated: bool,
    /// Set when the sandbox stopped the program for a limit.
    pub limit: Option<LimitHit>,
}

impl Outcome {
    /// A clean exit (status 0) after `cpu` and `wall` that printed nothing and hit no limit.
    #[must_use]
    pub fn silent(cpu: Duration, wall: Duration) -> Self {
        Outcome {
            status: Status::Exited(0),
            cpu,
            wall,
            peak_memory: None,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stdout_truncated: false,
            stderr_truncated: false,
            limit: None,
        }
    }
}

/// Resource use of a running or finished tree, as far as the tier can tell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    pub cpu: Duration,
    pub peak_memory: Option<u64>,
    /// The kernel killed something for memory (cgroup OOM).
    pub oom: bool,
}

/// The sandbox failed to do its job: always the grader's (or the machine's) fault, never the student's.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("cannot start `{program}`")]
    Spawn {
        program: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the `{tier}` sandbox is not available here: {reason}")]
    Unavailable { tier: Tier, reason: String },
    #[error("sandbox I/O failed while {doing}")]
    Io {
        doing: &'static str,
        #[source]
        source: std::io::Error,
    },
}

/// The grader's ends of a started program's pipes, each handed out once.
#[derive(Debug, Default)]
pub struct Pipes {
    pub stdin: Option<File>,
    pub stdout: Option<File>,
    pub stderr: Option<File>,
    /// With `Stdin::Terminal`: the terminal's slave device, which the program reads (`watch.rs`).
    pub tty: Option<u64>,
}

/// A started program. Dropping it must kill and reap the whole tree.
pub trait Running: Send {
    /// The grader's ends of the program's pipes, not yet handed out.
    fn pipes(&mut self) -> &mut Pipes;
    /// The write end of stdin, once, when the spec asked for `Stdin::Piped`.
    fn take_stdin(&mut self) -> Option<File> {
        self.pipes().stdin.take()
    }
    /// The read ends of stdout and stderr, once each.
    fn take_stdout(&mut self) -> Option<File> {
        self.pipes().stdout.take()
    }
    fn take_stderr(&mut self) -> Option<File> {
        self.pipes().stderr.take()
    }
    /// Reaps the main process if it has ended, without blocking.
    fn try_wait(&mut self) -> Result<Option<Status>, SandboxError>;
    /// Asks the whole tree to stop (SIGTERM).
    fn terminate(&mut self);
    /// Stops the whole tree now (SIGKILL) and reaps what can be reaped.
    fn kill(&mut self);
    /// CPU and memory of the whole tree so far.
    fn usage(&mut self) -> Usage;
    /// [`Running::usage`]'s CPU, read as cheaply as the tier can: the watch and the pacer read it many
    /// times a second.
    fn cpu(&mut self) -> Duration {
        self.usage().cpu
    }
    /// The host pids of the run's live processes, for telling a waiting program from a working one
    /// (`watch.rs`); empty where the tier cannot tell, which turns that detection off.
    fn pids(&self) -> Vec<i32> {
        Vec::new()
    }
    /// Stops (`true`) or continues (`false`) every process of the run, for a worker waiting for a core
    /// (`pace.rs`). False where the tier cannot, which leaves the program running.
    fn suspend(&mut self, stop: bool) -> bool {
        signal_each(&self.pids(), stop)
    }
    /// CPU time of every process of the run now, to tell whether a stop held (`pace.rs`): the whole
    /// tree's where the tier counts it (`full`), else [`Running::usage`]'s.
    fn group_cpu(&mut self) -> Duration {
        self.usage().cpu
    }
}

/// Stops (`SIGSTOP`) or continues (`SIGCONT`) each of a run's processes; false when there are none.
pub(crate) fn signal_each(pids: &[i32], stop: bool) -> bool {
    let signal = if stop { libc::SIGSTOP } else { libc::SIGCONT };
    for &pid in pids {
        // SAFETY: kill has no memory-safety preconditions; the pids are the run's own.
        unsafe { libc::kill(pid, signal) };
    }
    !pids.is_empty()
}

/// Spawns programs under a tier's isolation.
pub trait Sandbox: Send + Sync {
    fn tier(&self) -> Tier;
    /// Starts `spec` and hands back the live program; the caller drives its pipes and its clock.
    fn spawn(&self, spec: &Spec) -> Result<Box<dyn Running>, SandboxError>;
    /// Runs `spec` to completion under its limits.
    fn run(&self, spec: &Spec) -> Result<Outcome, SandboxError>;
}

/// Whether a tier can run on this machine, and why not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub tier: Tier,
    /// `None` when the tier works here; otherwise the reason it does not.
    pub unavailable: Option<String>,
}

/// Which tiers work on this machine, weakest first.
pub fn probe() -> Vec<Probe> {
    [Tier::None, Tier::Basic, Tier::Full]
        .into_iter()
        .map(|tier| Probe {
            tier,
            unavailable: select(tier, &[]).err().map(|e| match e {
                SandboxError::Unavailable { reason, .. } => reason,
                other => other.to_string(),
            }),
        })
        .collect()
}

/// The sandbox for `requested`, or why this machine cannot provide it. Never silently weaker: a caller
/// that accepts a lower tier asks for it (see [`select_or_degrade`]). `read_only` are the folders a
/// program may read besides the system's (the toolchains' installation roots, from the caller: the
/// sandbox knows no toolchain); the `full` tier binds them read-only, the others need not.
pub fn select(requested: Tier, read_only: &[PathBuf]) -> Result<Box<dyn Sandbox>, SandboxError> {
    match requested {
        Tier::None => Ok(Box::new(NoSandbox)),
        Tier::Basic => Ok(Box::new(BasicSandbox)),
        #[cfg(target_os = "linux")]
        Tier::Full => Ok(Box::new(
            linux::FullSandbox::new()?.with_read_only(read_only),
        )),
        #[cfg(not(target_os = "linux"))]
        Tier::Full => Err(SandboxError::Unavailable {
            tier: Tier::Full,
            reason: "the full tier needs Linux namespaces".to_string(),
        }),
    }
}

/// A sandbox weaker than the one asked for, and why: print it (`sandbox: basic (...)`) so nobody
/// mistakes a degraded run for an isolated one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Degraded {
    pub requested: Tier,
    pub reason: String,
}

/// What [`select_or_degrade`] chose.
pub struct Selected {
    pub sandbox: Box<dyn Sandbox>,
    /// Set when the sandbox is weaker than requested.
    pub degraded: Option<Degraded>,
}

impl Selected {
    /// The start-up line: `sandbox: full`, or `sandbox: basic (full unavailable: REASON)`.
    pub fn notice(&self) -> String {
        match &self.degraded {
            None => format!("sandbox: {}", self.sandbox.tier()),
            Some(d) => format!(
                "sandbox: {} ({} unavailable: {})",
                self.sandbox.tier(),
                d.requested,
                d.reason
            ),
        }
    }
}

/// `requested` if this machine has it. Otherwise, when `allow_degrade` (a student's local `check`),
/// `basic` with the reason in `degraded`; when not (`grader run`), the `Unavailable` error, whose
/// reason the caller prints with a hint to pass `--sandbox basic` explicitly. `none` is never chosen
/// here unless requested.
pub fn select_or_degrade(
    requested: Tier,
    allow_degrade: bool,
    read_only: &[PathBuf],
) -> Result<Selected, SandboxError> {
    match select(requested, read_only) {
        Ok(sandbox) => Ok(Selected {
            sandbox,
            degraded: None,
        }),
        Err(SandboxError::Unavailable { reason, .. })
            if allow_degrade && requested > Tier::Basic =>
        {
            Ok(Selected {
                sandbox: select(Tier::Basic, read_only)?,
                degraded: Some(Degraded { requested, reason }),
            })
        }
        Err(e) => Err(e),
    }
}
