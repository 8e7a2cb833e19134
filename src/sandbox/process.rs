//! A program spawned in its own process group on Unix: the `Running` shared by the `none` and `basic`
//! tiers (and reusable by any tier that starts a plain child), plus the rlimits applied before `exec`.

use std::fs::File;
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::rlimits::{Rlimit, DEFAULT_PATH};
use super::{Pipes, Running, SandboxError, Spec, Status, Usage};

/// Builds the command for `spec`: clean environment (only `spec.env`, plus `PATH` if absent), working
/// directory, piped stderr, and a new process group; [`spawn`] gives it stdin and stdout per the spec.
pub fn command(spec: &Spec) -> Command {
    let mut cmd = Command::new(&spec.program);
    cmd.args(&spec.args)
        .current_dir(&spec.workdir)
        .env_clear()
        .stderr(Stdio::piped())
        .process_group(0);
    for (key, value) in &spec.env {
        cmd.env(key, value);
    }
    if !spec.env.iter().any(|(key, _)| key == "PATH") {
        cmd.env("PATH", DEFAULT_PATH);
    }
    cmd
}

/// Makes the child apply `limits` between `fork` and `exec`.
pub fn apply_rlimits(cmd: &mut Command, limits: Vec<Rlimit>) {
    let hook = move || -> io::Result<()> {
        for r in &limits {
            let value = r.value();
            // SAFETY: setrlimit is async-signal-safe and reads a struct on our stack.
            if unsafe { libc::setrlimit(r.resource, &value) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    };
    // SAFETY: the hook only calls setrlimit and reads errno, both async-signal-safe, and allocates
    // nothing (the limits were computed before the fork).
    unsafe {
        cmd.pre_exec(hook);
    }
}

/// Makes the child die (SIGKILL) when the grader does, even of SIGKILL, on Linux. The kernel ties this
/// to the spawning *thread*: callers spawn and wait on the same thread (a grading worker), so it outlives
/// the run. What the child forks is reached by the interrupt clean-up and the reaper, not by this.
pub fn die_with_parent(cmd: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getpid has no preconditions.
        let grader = unsafe { libc::getpid() };
        let hook = move || -> io::Result<()> {
            // SAFETY: prctl and getppid are async-signal-safe system calls.
            unsafe {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // The grader died between the fork and the prctl: nobody will signal us.
                if libc::getppid() != grader {
                    libc::_exit(137);
                }
            }
            Ok(())
        };
        // SAFETY: the hook makes only async-signal-safe calls and allocates nothing.
        unsafe {
            cmd.pre_exec(hook);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

/// Starts `spec` under `limits` in a process group of its own, dying with the grader: on Linux by
/// `clone(CLONE_VM | CLONE_VFORK)` (`vfork.rs`), elsewhere by [`command`] with the limits applied
/// before exec.
/// `stderr` says where its stderr goes (a file only where the file-size limit bounds it).
pub fn spawn_limited(
    spec: &Spec,
    limits: Vec<Rlimit>,
    stderr: super::sink::Stderr,
) -> Result<GroupProcess, SandboxError> {
    #[cfg(target_os = "linux")]
    {
        let (pid, pipes) =
            super::vfork::spawn(spec, limits, stderr).map_err(|e| spawn_error(spec, e))?;
        Ok(GroupProcess::adopt(pid, pipes))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = stderr;
        let mut cmd = command(spec);
        apply_rlimits(&mut cmd, limits);
        die_with_parent(&mut cmd);
        spawn(cmd, spec)
    }
}

/// Spawns `cmd` (built by [`command`]) with stdin and stdout per `spec` (`terminal::ends`) and takes
/// over its pid and pipes.
pub fn spawn(mut cmd: Command, spec: &Spec) -> Result<GroupProcess, SandboxError> {
    let ends = super::terminal::ends(&spec.stdin).map_err(|e| spawn_error(spec, e))?;
    cmd.stdin(Stdio::from(ends.child_in))
        .stdout(Stdio::from(ends.child_out));
    let mut child = cmd.spawn().map_err(|e| spawn_error(spec, e))?;
    // The child's copies are closed with `cmd` (its `Stdio`s), so the grader holds no slave end.
    drop(cmd);
    let pid = child.id() as libc::pid_t;
    // From here on we wait with wait4 (for the child's own rusage); `std::process::Child` never reaps on
    // drop, so dropping it only closes the handles we did not take.
    let stdin = ends.ours_in.map(File::from);
    let stdout = Some(File::from(ends.ours_out));
    let stderr = child
        .stderr
        .take()
        .map(|s| File::from(std::os::fd::OwnedFd::from(s)));
    drop(child);
    Ok(GroupProcess::adopt(
        pid,
        Pipes {
            stdin,
            stdout,
            stderr,
            tty: ends.tty,
        },
    ))
}

fn spawn_error(spec: &Spec, source: io::Error) -> SandboxError {
    SandboxError::Spawn {
        program: spec.program.to_string_lossy().into_owned(),
        source,
    }
}

/// A child that leads its own process group.
///
/// The group is signalled only while the leader is unreaped (running or a zombie), so its pid, which is
/// also the group id, cannot have been reused by an unrelated process. When the leader ends, the rest of
/// its group is killed at once: background processes never outlive the program.
#[derive(Debug)]
pub struct GroupProcess {
    pid: libc::pid_t,
    pipes: Pipes,
    status: Option<Status>,
    final_usage: Option<Usage>,
    group_alive: bool,
}

impl GroupProcess {
    /// Takes over a child just started as the leader of its own group: tracked for the interrupt
    /// clean-up from here on.
    fn adopt(pid: libc::pid_t, pipes: Pipes) -> GroupProcess {
        super::cleanup::live().insert(pid);
        GroupProcess {
            pid,
            pipes,
            status: None,
            final_usage: None,
            group_alive: true,
        }
    }

    /// The leader's pid (also the process group id).
    pub fn pid(&self) -> libc::pid_t {
        self.pid
    }

    fn signal_group(&self, signal: libc::c_int) {
        if self.group_alive {
            // SAFETY: plain syscall; the group id is still reserved by our unreaped leader.
            unsafe {
                libc::killpg(self.pid, signal);
            }
        }
    }

    /// Has the leader ended? Leaves it a zombie (WNOWAIT) so the group id stays reserved.
    fn leader_ended(&self) -> Result<bool, SandboxError> {
        loop {
            // SAFETY: siginfo_t is plain data; waitid fills it.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            // SAFETY: plain syscall on our own child.
            let r = unsafe {
                libc::waitid(
                    libc::P_PID,
                    self.pid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                )
            };
            if r == -1 {
                let err = io::Error::last_os_error();
                if err.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(SandboxError::Io {
                    doing: "waiting for the program",
                    source: err,
                });
            }
            // SAFETY: waitid succeeded, so si_pid is initialised (0 when nothing has ended).
            return Ok(unsafe { info.si_pid() } != 0);
        }
    }

    /// Kills what is left of the group, then reaps the leader with its rusage.
    fn reap(&mut self) -> Result<Status, SandboxError> {
        {
            // Off the live list before the pid is released, so the cleanup never signals a reused id.
            let mut live = super::cleanup::live();
            self.signal_group(libc::SIGKILL);
            live.remove(&self.pid);
        }
        let mut raw = 0;
        // SAFETY: rusage is plain data; wait4 fills it.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: plain syscall on our own child.
            let r = unsafe { libc::wait4(self.pid, &mut raw, 0, &mut ru) };
            if r == -1 {
                let err = io::Error::last_os_error();
                if err.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                self.group_alive = false;
                return Err(SandboxError::Io {
                    doing: "reaping the program",
                    source: err,
                });
            }
            break;
        }
        self.group_alive = false;
        let status = if libc::WIFSIGNALED(raw) {
            Status::Signaled(libc::WTERMSIG(raw))
        } else {
            Status::Exited(libc::WEXITSTATUS(raw))
        };
        let cpu = timeval(ru.ru_utime) + timeval(ru.ru_stime);
        // ru_maxrss is in KiB on Linux.
        let peak = u64::try_from(ru.ru_maxrss).unwrap_or(0) * 1024;
        self.final_usage = Some(Usage {
            cpu,
            peak_memory: Some(peak),
            oom: false,
        });
        self.status = Some(status);
        Ok(status)
    }
}

fn timeval(tv: libc::timeval) -> Duration {
    Duration::from_secs(u64::try_from(tv.tv_sec).unwrap_or(0))
        + Duration::from_micros(u64::try_from(tv.tv_usec).unwrap_or(0))
}

impl Running for GroupProcess {
    fn pipes(&mut self) -> &mut Pipes {
        &mut self.pipes
    }

    fn try_wait(&mut self) -> Result<Option<Status>, SandboxError> {
        if let Some(status) = self.status {
            return Ok(Some(status));
        }
        if self.leader_ended()? {
            self.reap().map(Some)
        } else {
            Ok(None)
        }
    }

    fn terminate(&mut self) {
        self.signal_group(libc::SIGTERM);
    }

    fn kill(&mut self) {
        if self.status.is_none() {
            // Errors here mean the child is already gone; there is nothing more to do.
            let _ = self.reap();
        }
    }

    fn usage(&mut self) -> Usage {
        if let Some(usage) = self.final_usage {
            return usage;
        }
        live_usage(self.pid)
    }

    fn pids(&self) -> Vec<i32> {
        if self.status.is_some() {
            return Vec::new();
        }
        super::procfs::group_pids(self.pid)
    }

    fn group_cpu(&mut self) -> Duration {
        if self.status.is_some() {
            return self.usage().cpu;
        }
        // Each member's own and its reaped children's, which a reaped child's moves into.
        super::procfs::group_pids(self.pid)
            .into_iter()
            .map(|pid| live_usage(pid).cpu)
            .sum()
    }

    fn suspend(&mut self, stop: bool) -> bool {
        if self.status.is_some() {
            return false;
        }
        let signal = if stop { libc::SIGSTOP } else { libc::SIGCONT };
        // SAFETY: the group our unreaped leader leads; one call reaches every member at once.
        unsafe { libc::killpg(self.pid, signal) == 0 }
    }
}

impl Drop for GroupProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// CPU (self and reaped children) and peak resident memory of a live process, from `/proc`. Zero when
/// unreadable (the process just ended, or no `/proc`).
pub fn live_usage(pid: libc::pid_t) -> Usage {
    let mut usage = Usage::default();
    if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The command name may hold spaces and parentheses: fields start after the last ')'.
        if let Some(rest) = stat.rsplit_once(')').map(|(_, rest)| rest) {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            // utime, stime, cutime, cstime are fields 14..=17 of the full line, 11..=14 after ')'.
            let ticks: u64 = fields
                .get(11..15)
                .map(|f| f.iter().filter_map(|v| v.parse::<u64>().ok()).sum())
                .unwrap_or(0);
            usage.cpu = ticks_to_duration(ticks);
        }
    }
    if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
        usage.peak_memory = status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|kib| kib * 1024);
    }
    usage
}

fn ticks_to_duration(ticks: u64) -> Duration {
    // SAFETY: sysconf is a plain query.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let hz = u64::try_from(hz).ok().filter(|&hz| hz > 0).unwrap_or(100);
    Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / hz)
}
