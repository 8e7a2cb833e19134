//! The `full` tier: each run in new user, pid, mount, network, ipc and uts namespaces, on a minimal
//! read-only root with one writable working directory, under its own cgroup, a seccomp deny-list, rlimits
//! and no capabilities, with a small init as pid 1 so the program can neither escape nor outlive the run.

mod cgroup;
mod child;
mod netns;
mod plan;
mod seccomp;
mod spawner;

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::sandbox::sink::Stderr;
use crate::sandbox::{Pipes, Running, Sandbox, SandboxError, Spec, Status, Stdin, Tier, Usage};

pub use cgroup::{clean_stale, detect as detect_cgroups, CgroupError, Version as CgroupVersion};
pub(crate) use child::mount_tmpfs;
pub use plan::TOOLCHAIN;

use cgroup::Cgroup;
use child::Stage;
use plan::Plan;
use spawner::Spawner;

/// The host uid (and gid) that root inside the sandbox is: an unprivileged id owning nothing on the host
/// but the run's working directory.
pub const SANDBOX_UID: u32 = 60999;

/// Namespaces every run gets besides its network namespace (made ahead of time by [`netns`], or at the
/// clone when none is ready).
const NAMESPACES: libc::c_int = libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWCGROUP;

/// The `full` sandbox. Cheap to share between threads; each `spawn` makes its own namespaces and group.
#[derive(Debug)]
pub struct FullSandbox {
    cgroups: cgroup::Version,
    /// Read-only binds every run gets on top of [`TOOLCHAIN`] and the spec's own.
    read_only: Vec<PathBuf>,
    /// The thread runs are cloned from, with the template root every run shares, made at the first
    /// run (or the reason it cannot be).
    spawner: OnceLock<Result<std::sync::Arc<Spawner>, String>>,
}

impl FullSandbox {
    /// Checks the machine can do it (by starting `/bin/true` once per process) and cleans cgroups left by
    /// crashed earlier runs.
    pub fn new() -> Result<FullSandbox, SandboxError> {
        probe().map_err(|reason| SandboxError::Unavailable {
            tier: Tier::Full,
            reason: reason.clone(),
        })?;
        let cgroups = cgroup::detect().map_err(unavailable)?;
        Ok(FullSandbox {
            cgroups,
            read_only: Vec::new(),
            spawner: OnceLock::new(),
        })
    }

    /// Also binds these directories read-only in every run (the toolchains' installation roots). `/`
    /// and anything holding `/etc` are refused: `/etc/shadow` must stay out of reach.
    pub fn with_read_only(mut self, dirs: &[PathBuf]) -> FullSandbox {
        for dir in dirs {
            if !Path::new("/etc").starts_with(dir) && !dir.starts_with("/etc") {
                self.read_only.push(dir.clone());
            }
        }
        self.spawner = OnceLock::new();
        self
    }
}

fn unavailable(e: impl std::fmt::Display) -> SandboxError {
    SandboxError::Unavailable {
        tier: Tier::Full,
        reason: e.to_string(),
    }
}

/// A small run (5 s, 64 MiB, 8 processes, no extra reads): what the probe starts, and the tests.
fn small_spec(program: &str, args: &[&str], workdir: &Path, stdin: Stdin) -> Spec {
    Spec {
        program: program.into(),
        args: args.iter().map(Into::into).collect(),
        workdir: workdir.to_owned(),
        env: vec![],
        stdin,
        limits: crate::sandbox::Limits {
            cpu: std::time::Duration::from_secs(5),
            wall: std::time::Duration::from_secs(5),
            memory: 64 << 20,
            output: 1 << 16,
            file_size: 1 << 20,
            processes: 8,
            open_files: 64,
            stack: 8 << 20,
            address_space: None,
            idle: None,
        },
        read_only: vec![],
    }
}

/// Whether the `full` tier works on this machine, tried once per process: the reason when it does not.
/// The first call also removes stale cgroups of dead graders.
pub fn probe() -> Result<(), &'static String> {
    static PROBE: OnceLock<Result<(), String>> = OnceLock::new();
    PROBE
        .get_or_init(|| {
            if !cfg!(target_arch = "x86_64") {
                // `seccomp::filter` denies every call of another architecture.
                return Err("the full tier's seccomp filter knows x86_64 system calls only".into());
            }
            let version = cgroup::detect().map_err(|e| e.to_string())?;
            cgroup::clean_stale(version);
            let dir = tempfile::tempdir().map_err(|e| format!("cannot make a scratch dir: {e}"))?;
            let spec = small_spec("/bin/true", &[], dir.path(), Stdin::Null);
            let sandbox = FullSandbox {
                cgroups: version,
                read_only: Vec::new(),
                spawner: OnceLock::new(),
            };
            let mut running = sandbox
                .start(&spec)
                .map_err(|e| crate::error::chain_line(&e))?;
            let mut stderr = running.take_stderr();
            let status = running.wait().map_err(|e| crate::error::chain_line(&e))?;
            drop(running);
            let mut said = Vec::new();
            if let Some(f) = stderr.as_mut() {
                let _ = f.read_to_end(&mut said);
            }
            match status {
                Status::Exited(0) => Ok(()),
                other => Err(format!(
                    "`/bin/true` ended with {other:?}: {}",
                    String::from_utf8_lossy(&said).trim()
                )),
            }
        })
        .as_ref()
        .map(|_| ())
}

/// A detached copy of the mount at `path` (not its submounts), for a run's init to attach.
fn clone_tree(path: &Path) -> io::Result<OwnedFd> {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(|_| io::Error::other(format!("`{}` contains a NUL byte", path.display())))?;
    // SAFETY: a valid C string; open_tree returns a new descriptor or -1.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_open_tree,
            libc::AT_FDCWD,
            c.as_ptr(),
            child::OPEN_TREE_CLONE | libc::O_CLOEXEC as libc::c_uint,
        )
    } as libc::c_int;
    if fd < 0 {
        let e = io::Error::last_os_error();
        return Err(io::Error::new(
            e.kind(),
            format!("`{}`: {e}", path.display()),
        ));
    }
    // SAFETY: a fresh descriptor owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors are fresh and owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn io_err(doing: &'static str) -> impl Fn(io::Error) -> SandboxError {
    move |source| SandboxError::Io { doing, source }
}

/// Gives the working directory (recursively, links not followed) to the sandbox's uid, so root inside can
/// write there; the grader, root outside, still reads everything.
fn give_workdir(dir: &Path) -> io::Result<()> {
    // The whole tree changes hands: a shared folder given by mistake would be handed to the sandbox.
    let abs = plan::absolute(dir);
    let shared = abs == Path::new("/")
        || abs == plan::absolute(&std::env::temp_dir())
        || ["/tmp", "/root", "/home", "/etc", "/var"]
            .iter()
            .any(|p| abs == Path::new(p))
        || TOOLCHAIN
            .iter()
            .any(|t| Path::new(t).starts_with(&abs) || abs.starts_with(t));
    if shared {
        return Err(io::Error::other(format!(
            "`{}` is a shared folder, not a private working directory",
            abs.display()
        )));
    }
    crate::sandbox::tree::chown_tree(dir, SANDBOX_UID, SANDBOX_UID)
}

impl FullSandbox {
    /// Starts `spec`: everything `Sandbox::spawn` does, with the concrete type (stderr a pipe).
    pub fn start(&self, spec: &Spec) -> Result<FullRunning, SandboxError> {
        self.start_with(spec, Stderr::Pipe)
    }

    /// [`FullSandbox::start`] with stderr where `stderr` says.
    fn start_with(&self, spec: &Spec, stderr: Stderr) -> Result<FullRunning, SandboxError> {
        let program = spec.program.to_string_lossy().into_owned();
        let spawn_err = |source| SandboxError::Spawn {
            program: program.clone(),
            source,
        };
        let spawner = self
            .spawner
            .get_or_init(|| Spawner::shared(&self.read_only))
            .as_ref()
            .map_err(|e| spawn_err(io::Error::other(e.clone())))?;
        let mut plan =
            Plan::new(spec, spawner.layout()).map_err(|e| spawn_err(io::Error::other(e)))?;
        give_workdir(&spec.workdir)
            .map_err(io_err("giving the working directory to the sandbox"))?;
        // Each path the run gets, as a detached copy of its mount made here on the host's side: the
        // init attaches it in its own namespace, which cannot see the host's tree.
        let trees = plan
            .trees
            .iter()
            .map(|path| clone_tree(path))
            .collect::<io::Result<Vec<OwnedFd>>>()
            .map_err(io_err("cloning a mount for the sandbox"))?;
        // The init counts towards the process limit.
        let group = Cgroup::create(self.cgroups, spec.limits.memory, spec.limits.processes + 1)
            .map_err(|e| spawn_err(io::Error::other(e)))?;

        let ends = crate::sandbox::terminal::ends(&spec.stdin)
            .map_err(io_err("creating the program's stdin and stdout"))?;
        let tty = ends.tty;
        let (stdin_r, stdin_w) = (ends.child_in, ends.ours_in);
        let (stdout_r, stdout_w) = (ends.ours_out, ends.child_out);
        let (stderr_r, stderr_w) = stderr.open().map_err(io_err("creating the stderr pipe"))?;
        let (error_r, error_w) = pipe().map_err(io_err("creating the error pipe"))?;
        let (status_r, status_w) = pipe().map_err(io_err("creating the status pipe"))?;
        let (sync_r, sync_w) = pipe().map_err(io_err("creating the sync pipe"))?;
        // On cgroup v1 the init shares the grader's memory (`CLONE_VM`, on a stack of its own): a fork
        // would copy the page tables of the whole grader at every run, milliseconds once a grading has
        // grown. Sharing the grader's memory, it must stay out of the run's memory group (the OOM killer
        // would pick it, and with it every process sharing its memory: the grader); the program joins
        // that group itself. On v1 the init and the program join their groups themselves, each a single
        // thread writing `0` to a `tasks` file (`Cgroup::join_files`: no grace period to wait out). On
        // v2, whose single group the program cannot join by itself, a fork the grader moves.
        let (joins, stack) = join_plan(&group, &mut plan)?;
        let fds = init_fds(
            [
                stdin_r.as_raw_fd(),
                stdout_w.as_raw_fd(),
                stderr_w.as_raw_fd(),
                error_w.as_raw_fd(),
                status_w.as_raw_fd(),
                sync_r.as_raw_fd(),
            ],
            joins.as_deref(),
            &trees,
        );
        let args = child::InitArgs {
            plan: &plan,
            fds: fds.as_ptr(),
            len: fds.len(),
        };

        let clone = |flags: libc::c_int| clone_init(stack.as_ref(), &args, &plan, &fds, flags);
        let ready = netns::take();
        let pid = spawner
            .clone_init(&plan.anchors, &|| clone_in_netns(ready.as_ref(), &clone))
            .map_err(spawn_err)?;
        if pid < 0 {
            return Err(spawn_err(io::Error::from_raw_os_error(-pid)));
        }
        drop((
            stdin_r, stdout_w, stderr_w, error_w, status_w, sync_r, trees, joins,
        ));
        // SAFETY: plain syscall on our child (it does the same itself; whichever runs first wins).
        unsafe { libc::setpgid(pid, pid) };
        // On SIGINT/SIGTERM the grader kills every live group: this init, hence the whole namespace.
        crate::sandbox::cleanup::live().insert(pid);
        let mut running = FullRunning {
            pid,
            status: File::from(status_r),
            pipes: Pipes {
                stdin: stdin_w.map(File::from),
                stdout: Some(File::from(stdout_r)),
                stderr: Some(File::from(stderr_r)),
                tty,
            },
            group,
            ended: None,
            init_gone: false,
            stack,
            netns: ready,
        };
        handshake(&mut running, File::from(sync_w), plan.join_self, &spawn_err)?;

        // EOF once the program has been exec'd (only then may `args`, `plan` and `fds` go).
        setup_report(File::from(error_r), &mut running, &spawn_err)?;
        Ok(running)
    }
}

/// On cgroup v1 the init and the program join their groups themselves (`Cgroup::join_files`), the
/// init on a stack of its own; the plan says which groups. `None`s on v2.
#[allow(clippy::type_complexity)]
fn join_plan(
    group: &Cgroup,
    plan: &mut Plan,
) -> Result<(Option<Vec<(&'static str, File)>>, Option<InitStack>), SandboxError> {
    let joins = group
        .join_files()
        .transpose()
        .map_err(io_err("opening the run's cgroup files"))?;
    plan.join_self = joins.is_some();
    let has = |name: &str| {
        joins
            .as_ref()
            .is_some_and(|j| j.iter().any(|(n, _)| *n == name))
    };
    plan.join_freezer = has("freezer");
    plan.join_cpu = has("cpu");
    let stack = match joins {
        Some(_) => Some(InitStack::new().map_err(io_err("mapping the sandbox init's stack"))?),
        None => None,
    };
    Ok((joins, stack))
}

/// The descriptors the init gets, in the order `child::init` numbers them: its six ends (stdin, stdout,
/// stderr, error report, status, sync), the v1 groups' `tasks` files to join, the mounts to attach.
fn init_fds(
    ends: [libc::c_int; 6],
    joins: Option<&[(&'static str, File)]>,
    trees: &[OwnedFd],
) -> Vec<libc::c_int> {
    // Unused without groups to join: any open descriptor keeps the numbering.
    let join_fd = |name: &str| {
        joins
            .and_then(|j| j.iter().find(|(n, _)| *n == name))
            .map_or(ends[0], |(_, f)| f.as_raw_fd())
    };
    let groups = ["memory", "pids", "cpuacct", "freezer", "cpu"].map(join_fd);
    ends.into_iter()
        .chain(groups)
        .chain(trees.iter().map(|t| t.as_raw_fd()))
        .collect()
}

/// On the spawner's thread: clones in a ready-made empty network namespace (`ready`), entered by that
/// thread just for the clone; otherwise in a new one made at the clone. The pid, or minus the errno.
fn clone_in_netns(
    ready: Option<&OwnedFd>,
    clone: &dyn Fn(libc::c_int) -> libc::pid_t,
) -> libc::pid_t {
    let pid = match ready {
        Some(ns) => netns::within(ns, || clone(NAMESPACES))
            .unwrap_or_else(|| clone(NAMESPACES | libc::CLONE_NEWNET)),
        None => clone(NAMESPACES | libc::CLONE_NEWNET),
    };
    if pid < 0 {
        -io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EIO)
    } else {
        pid
    }
}

/// Clones the sandbox's init with `flags`: on `stack`, sharing our memory, when there is one; else a
/// fork-like clone. The pid, or -1 with errno set.
fn clone_init(
    stack: Option<&InitStack>,
    args: &child::InitArgs,
    plan: &Plan,
    fds: &[libc::c_int],
    flags: libc::c_int,
) -> libc::pid_t {
    if let Some(stack) = stack {
        // SAFETY: the init runs `child::init_entry` on its own stack, sharing our memory; it reads
        // `args` (and what it points to) only until the program is exec'd, which `start` waits for
        // (or for the init's end) before dropping them, and its stack is unmapped only once it is
        // reaped.
        return unsafe {
            libc::clone(
                child::init_entry,
                stack.top(),
                flags | libc::CLONE_VM | libc::SIGCHLD,
                (args as *const child::InitArgs).cast_mut().cast(),
            )
        };
    }
    // SAFETY: a fork-like clone (no CLONE_VM, no new stack); the child only runs `child::init`, which
    // makes raw system calls on the plan built by `start` and never returns.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            (flags | libc::SIGCHLD) as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    } as libc::pid_t;
    if pid == 0 {
        // SAFETY: we are the child of the clone above.
        unsafe { child::init(plan, fds) };
    }
    pid
}

/// Maps the init's root to the sandbox's uid, then lets it go: it mounts the run's paths while the
/// grader puts it in its group (v2: a dear write, which waits out a grace period); it forks the
/// program only at the second byte.
fn handshake(
    running: &mut FullRunning,
    mut sync: File,
    join_self: bool,
    spawn_err: &dyn Fn(io::Error) -> SandboxError,
) -> Result<(), SandboxError> {
    let pid = running.pid;
    let map = format!("0 {SANDBOX_UID} 1\n");
    std::fs::write(format!("/proc/{pid}/uid_map"), &map).map_err(io_err("writing the uid map"))?;
    std::fs::write(format!("/proc/{pid}/gid_map"), &map).map_err(io_err("writing the gid map"))?;
    sync.write_all(&[1])
        .map_err(io_err("starting the sandbox init"))?;
    if !join_self {
        running
            .group
            .add(pid)
            .map_err(|e| spawn_err(io::Error::other(e)))?;
    }
    sync.write_all(&[2])
        .map_err(io_err("starting the sandbox init"))
}

/// Reads the init's set-up report to its end (EOF once the program has been exec'd): a stage and an
/// errno when setting up failed, the run then killed.
fn setup_report(
    mut error: File,
    running: &mut FullRunning,
    spawn_err: &dyn Fn(io::Error) -> SandboxError,
) -> Result<(), SandboxError> {
    let mut report = Vec::new();
    error
        .read_to_end(&mut report)
        .map_err(io_err("reading the sandbox set-up report"))?;
    if report.len() < 8 {
        return Ok(());
    }
    let stage = u32::from_ne_bytes(report[..4].try_into().expect("4 bytes"));
    let errno = i32::from_ne_bytes(report[4..8].try_into().expect("4 bytes"));
    running.kill();
    let doing = Stage::from_u32(stage).map_or("setting up", Stage::doing);
    let source = io::Error::from_raw_os_error(errno);
    Err(if stage == Stage::Exec as u32 {
        spawn_err(source)
    } else {
        spawn_err(io::Error::other(format!(
            "sandbox init failed {doing}: {source}"
        )))
    })
}

impl Sandbox for FullSandbox {
    fn tier(&self) -> Tier {
        Tier::Full
    }

    fn spawn(&self, spec: &Spec) -> Result<Box<dyn Running>, SandboxError> {
        Ok(Box::new(self.start(spec)?))
    }

    fn run(&self, spec: &Spec) -> Result<Outcome, SandboxError> {
        // Driven to its end: stderr goes to a file of the run's own (`sink.rs`).
        crate::sandbox::drive(Box::new(self.start_with(spec, Stderr::File)?), spec)
    }
}

use crate::sandbox::Outcome;

/// A program running in the `full` sandbox. The handle is its init: killing the init tears the whole pid
/// namespace down.
///
/// The init reports the program's status only after killing and reaping everything else in the run, so
/// a known status means no process of the run is left but the init itself, which is then only tearing
/// its namespaces down; that is left to a background thread (see [`reap_later`]) rather than waited for.
#[derive(Debug)]
pub struct FullRunning {
    pid: libc::pid_t,
    /// The init's report: 4 bytes of wait status, or EOF when the init was killed first.
    status: File,
    pipes: Pipes,
    group: Cgroup,
    /// The program's status, once known.
    ended: Option<Status>,
    /// Whether the init's pid is no longer ours to wait for (reaped, or handed to [`reap_later`]).
    init_gone: bool,
    /// The init's own stack when it shares the grader's memory: unmapped only once it is reaped.
    stack: Option<InitStack>,
    /// The ready-made network namespace the run got (if it got one), handed back when it is over.
    netns: Option<OwnedFd>,
}

impl FullRunning {
    /// Blocks until the program ends.
    pub fn wait(&mut self) -> Result<Status, SandboxError> {
        if let Some(s) = self.ended {
            return Ok(s);
        }
        let mut buf = [0u8; 4];
        let status = match self.status.read_exact(&mut buf) {
            Ok(()) => decode(i32::from_ne_bytes(buf)),
            // No report: the init itself was killed; its own status says how.
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => decode(self.reap_init()?),
            Err(source) => {
                return Err(SandboxError::Io {
                    doing: "reading the sandbox init's report",
                    source,
                })
            }
        };
        self.ended = Some(status);
        Ok(status)
    }

    /// The init's pid on the host (the program itself is pid 2 inside).
    pub fn pid(&self) -> libc::pid_t {
        self.pid
    }

    /// The host pids of every process of the run still alive.
    pub fn pids(&self) -> Vec<libc::pid_t> {
        self.group.pids()
    }

    /// Whether the init's report (or its EOF) can be read without blocking.
    fn report_ready(&self) -> Result<bool, SandboxError> {
        let mut fd = libc::pollfd {
            fd: self.status.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        loop {
            // SAFETY: one valid pollfd, no timeout.
            let r = unsafe { libc::poll(&mut fd, 1, 0) };
            if r >= 0 {
                return Ok(r > 0);
            }
            let e = io::Error::last_os_error();
            if e.raw_os_error() != Some(libc::EINTR) {
                return Err(SandboxError::Io {
                    doing: "polling the sandbox init's report",
                    source: e,
                });
            }
        }
    }

    /// Waits for the init to end and reaps it: its raw wait status.
    fn reap_init(&mut self) -> Result<i32, SandboxError> {
        self.init_gone = true;
        reap_now(self.pid, self.stack.take()).map_err(|source| SandboxError::Io {
            doing: "waiting for the sandbox init",
            source,
        })
    }
}

/// Reaps, on a background thread, inits that have reported: each is only tearing its namespaces down
/// (every process of its run is already dead), which takes a few hundred microseconds no run should
/// wait for. The pid leaves the interrupt clean-up's live list before it is reaped, as in
/// [`FullRunning::reap_init`].
fn reap_later(pid: libc::pid_t, stack: Option<InitStack>) {
    use std::sync::mpsc::{channel, Sender};
    use std::sync::Mutex;
    type Ended = (libc::pid_t, Option<InitStack>);
    static QUEUE: OnceLock<Option<Mutex<Sender<Ended>>>> = OnceLock::new();
    let queue = QUEUE.get_or_init(|| {
        let (tx, rx) = channel::<Ended>();
        std::thread::Builder::new()
            .name("grader-init-reaper".into())
            .spawn(move || {
                for (pid, stack) in rx {
                    let _ = reap_now(pid, stack);
                }
            })
            .ok()
            .map(|_| Mutex::new(tx))
    });
    let unsent = match queue {
        Some(tx) => match tx.lock() {
            Ok(tx) => tx.send((pid, stack)).err().map(|e| e.0),
            Err(_) => Some((pid, stack)),
        },
        None => Some((pid, stack)),
    };
    if let Some((pid, stack)) = unsent {
        // No thread: reap here.
        let _ = reap_now(pid, stack);
    }
}

/// Takes `pid` off the live list (once reaped, the pid may be reused), waits for it, and frees its
/// stack once it is gone (never while it may still run on it): its raw wait status.
fn reap_now(pid: libc::pid_t, stack: Option<InitStack>) -> io::Result<i32> {
    crate::sandbox::cleanup::live().remove(&pid);
    let mut raw = 0;
    loop {
        // SAFETY: waiting on a child of this process with a valid out-pointer.
        if unsafe { libc::waitpid(pid, &mut raw, 0) } >= 0 {
            drop(stack);
            return Ok(raw);
        }
        let e = io::Error::last_os_error();
        if e.raw_os_error() != Some(libc::EINTR) {
            std::mem::forget(stack);
            return Err(e);
        }
    }
}

/// The stack of an init that shares the grader's memory, with a guard page below it.
#[derive(Debug)]
struct InitStack {
    base: *mut libc::c_void,
}

// SAFETY: a mapping owned by one value; only its address is shared (with the init, which is the point).
unsafe impl Send for InitStack {}
unsafe impl Sync for InitStack {}

/// Room for `child::init`: raw system calls over the plan, a few frames deep, with a wide margin.
const INIT_STACK: usize = 256 * 1024;
const PAGE: usize = 4096;

impl InitStack {
    fn new() -> io::Result<InitStack> {
        // SAFETY: a fresh anonymous mapping; nothing else refers to it.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                INIT_STACK,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let stack = InitStack { base };
        // SAFETY: the lowest page of our own mapping: an overflow faults instead of writing below it.
        if unsafe { libc::mprotect(base, PAGE, libc::PROT_NONE) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(stack)
    }

    /// Where the stack starts (it grows down), 16-byte aligned.
    fn top(&self) -> *mut libc::c_void {
        self.base.cast::<u8>().wrapping_add(INIT_STACK).cast()
    }
}

impl Drop for InitStack {
    fn drop(&mut self) {
        // SAFETY: our own mapping, no longer used by anyone (see the callers).
        unsafe { libc::munmap(self.base, INIT_STACK) };
    }
}

fn decode(raw: i32) -> Status {
    if libc::WIFSIGNALED(raw) {
        Status::Signaled(libc::WTERMSIG(raw))
    } else {
        Status::Exited(libc::WEXITSTATUS(raw))
    }
}

impl Running for FullRunning {
    fn pipes(&mut self) -> &mut Pipes {
        &mut self.pipes
    }

    fn try_wait(&mut self) -> Result<Option<Status>, SandboxError> {
        if self.ended.is_none() && !self.report_ready()? {
            return Ok(None);
        }
        self.wait().map(Some)
    }

    fn terminate(&mut self) {
        if self.ended.is_none() {
            // SAFETY: our unreaped child; its init forwards SIGTERM to every process in the namespace.
            unsafe { libc::kill(self.pid, libc::SIGTERM) };
        }
    }

    fn kill(&mut self) {
        if self.ended.is_some() {
            // The init killed and reaped every other process of the run before reporting.
            return;
        }
        // SAFETY: our unreaped child. Its death kills the rest of the namespace.
        unsafe { libc::kill(self.pid, libc::SIGKILL) };
        self.group.kill_all();
        let _ = self.wait();
    }

    fn usage(&mut self) -> Usage {
        self.group.usage()
    }

    fn cpu(&mut self) -> std::time::Duration {
        self.group.cpu()
    }

    fn pids(&self) -> Vec<i32> {
        if self.ended.is_some() {
            return Vec::new();
        }
        self.group.pids()
    }

    fn suspend(&mut self, stop: bool) -> bool {
        if self.ended.is_some() {
            return false;
        }
        // The cgroup's freezer stops every process at once, unseen by them; signals where it is missing.
        self.group.freeze(stop) || crate::sandbox::signal_each(&self.group.pids(), stop)
    }
}

impl Drop for FullRunning {
    fn drop(&mut self) {
        self.kill();
        if !self.init_gone {
            self.init_gone = true;
            reap_later(self.pid, self.stack.take());
        }
        // Every process of the run is dead now (`kill` saw to it): its namespace is empty again.
        if let Some(ns) = self.netns.take() {
            netns::give_back(ns);
        }
    }
}

#[cfg(test)]
mod tests;
