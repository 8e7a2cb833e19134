//! What the `full` sandbox builds, computed before it is built: the [`Layout`] of the template root every
//! run shares (toolchains bound read-only, devices, empty mount points: built once by the
//! [`spawner`](super::spawner)), and each run's [`Plan`]: its own mounts on top of that template
//! (scratch tmpfs, the working directory), the command line, rlimits and the seccomp program. A run's
//! init may not allocate (it is a copy of a multi-threaded process), so it only walks its plan.

use std::ffi::{CString, OsStr, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use super::seccomp;
use crate::sandbox::{Limits, Spec};

/// Toolchain trees bound read-only at their own paths when they exist. Symbolic links among them (Debian's
/// `/bin -> usr/bin`) are recreated as links.
pub const TOOLCHAIN: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/java-17-openjdk",
    "/usr/lib/jvm",
    "/root/.pyenv/versions",
    "/root/.cargo",
    "/root/.rustup",
];

/// Device nodes bound from the host.
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

/// The empty host directory the template's tmpfs is mounted over, inside the spawner's own mount
/// namespace (so nothing is ever mounted on the host).
pub const ROOT: &str = "/tmp/.grader-sandbox-root";

/// The descriptor number, in a run's init, of the first mount tree the grader cloned for it (0–10 are
/// taken, see `child`).
pub const FIRST_SOURCE_FD: usize = 11;

/// At most this many trees a run (its working directory and its own read-only paths).
pub const MAX_TREES: usize = 32;

/// A run's tmpfs over a template directory, holding the mount points of its own paths (sealed
/// read-only once they are mounted).
const ANCHOR_OPTIONS: &str = "size=64k,mode=0755";

const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Private scratch space: `/tmp` and `/dev/shm` are tmpfs, charged to the run's memory cgroup.
const SCRATCH: [(&str, &str); 2] = [
    ("/tmp", "size=64m,mode=1777"),
    ("/dev/shm", "size=16m,mode=1777"),
];

/// One step of building the template, before its `pivot_root`. Paths are prefixed with [`ROOT`].
#[derive(Clone, Debug)]
pub enum Step {
    Mkdir(CString),
    /// An empty file to bind a file onto.
    Touch(CString),
    Symlink {
        target: CString,
        link: CString,
    },
    /// A bind of a host path.
    Bind {
        source: CString,
        target: CString,
        /// Flags for the read-only (or nosuid) remount that follows the bind; a bind alone ignores them.
        remount: Option<libc::c_ulong>,
    },
}

/// One of a run's own mounts, made by its init inside its copy of the template. Paths are the
/// sandbox's (the host's, for what is bound).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunStep {
    Tmpfs {
        target: CString,
        options: CString,
    },
    Mkdir(CString),
    Touch(CString),
    /// Attaches the mount tree the grader cloned as descriptor `fd`, then remounts it with `remount`.
    Move {
        fd: libc::c_int,
        target: CString,
        remount: libc::c_ulong,
    },
    /// Makes an anchor's tmpfs read-only once the mount points in it are used.
    Seal(CString),
}

/// A path the template must have (an empty directory, or an empty file when `dir` is false) for a
/// run's mounts; the spawner makes it once, on first need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchor {
    pub path: PathBuf,
    pub dir: bool,
}

/// The child's whole job, precomputed.
pub struct Plan {
    /// Host paths the grader clones as mount trees, in order: descriptor `FIRST_SOURCE_FD + i` in the
    /// init.
    pub trees: Vec<PathBuf>,
    pub mounts: Vec<RunStep>,
    /// What the template needs for `mounts`.
    pub anchors: Vec<Anchor>,
    pub workdir: CString,
    pub program: CString,
    _argv: Vec<CString>,
    _env: Vec<CString>,
    /// Null-terminated pointer arrays into `_argv` and `_env`, ready for `execve`.
    pub argv: Vec<*const libc::c_char>,
    pub envp: Vec<*const libc::c_char>,
    pub rlimits: Vec<(libc::c_int, libc::rlim_t)>,
    pub filter: Vec<libc::sock_filter>,
    /// The stack (its spare capacity) the program's side of the init's `vfork`-like clone runs on until
    /// `execve` (the init's own stack stays the init's). Only the raw calls of `child::program` run there.
    pub program_stack: Vec<u8>,
    /// The highest capability number this kernel knows: the bounding set is emptied up to it.
    pub cap_last: libc::c_int,
    /// Whether the init joins the run's pids and cpuacct groups itself (`child::FD_PIDS_TASKS`,
    /// `child::FD_CPUACCT_TASKS`) and the program its memory group (`child::FD_MEMORY_TASKS`) before
    /// `execve`: cgroup v1, whose init shares the grader's memory and so stays out of that group.
    pub join_self: bool,
    /// Whether the program also joins the run's v1 freezer group (`child::FD_FREEZER_TASKS`), where the
    /// machine has that hierarchy.
    pub join_freezer: bool,
    /// Whether the init also joins the run's v1 `cpu` group (`child::FD_CPU_TASKS`), where the machine
    /// mounts it apart from `cpuacct`.
    pub join_cpu: bool,
}

/// `/proc/sys/kernel/cap_last_cap`, read once; 63 (every possible bit) when unreadable.
fn cap_last() -> libc::c_int {
    static LAST: std::sync::OnceLock<libc::c_int> = std::sync::OnceLock::new();
    *LAST.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/kernel/cap_last_cap")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .filter(|n| (0..=63).contains(n))
            .unwrap_or(63)
    })
}

/// Room for `child::program`: a few frames of raw system calls, with a generous margin.
const PROGRAM_STACK: usize = 256 * 1024;

/// A spec the plan cannot be made from.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("`{0}` contains a NUL byte")]
    Nul(String),
    #[error("program `{0}` not found on the sandbox's PATH")]
    NotFound(String),
    #[error("cannot inspect `{path}`")]
    Inspect {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("more than {MAX_TREES} paths to bind into one run")]
    TooMany,
}

fn cstring(bytes: &[u8]) -> Result<CString, PlanError> {
    CString::new(bytes).map_err(|_| PlanError::Nul(String::from_utf8_lossy(bytes).into_owned()))
}

fn in_root(path: &Path) -> Result<CString, PlanError> {
    let mut bytes = ROOT.as_bytes().to_vec();
    bytes.extend_from_slice(path.as_os_str().as_bytes());
    cstring(&bytes)
}

/// `path` made absolute (against the grader's working directory) and free of `.` and `..`, without
/// following links: the path the program will see.
pub fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_owned()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut out = PathBuf::from("/");
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => out.push(n),
            _ => {}
        }
    }
    out
}

/// Flags a remount must keep: a user namespace may not clear flags the host mount has.
fn locked_flags(path: &Path) -> libc::c_ulong {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return 0;
    };
    // SAFETY: `c` is a valid C string and `st` a properly sized out-parameter.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return 0;
    }
    let f = st.f_flag as libc::c_ulong;
    let map = [
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ];
    map.iter()
        .filter(|(st, _)| f & st != 0)
        .fold(0, |acc, (_, ms)| acc | ms)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    ReadOnly,
    Writable,
}

/// What the plan needs to know of a path on the host.
#[derive(Clone, Debug)]
struct Found {
    /// The target when the path itself is a symbolic link.
    link: Option<PathBuf>,
    /// Whether it is (or leads to) a directory.
    is_dir: bool,
    locked: libc::c_ulong,
}

fn inspect_now(path: &Path) -> Result<Option<Found>, PlanError> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(None);
    };
    let link = if meta.file_type().is_symlink() {
        Some(
            std::fs::read_link(path).map_err(|source| PlanError::Inspect {
                path: path.to_owned(),
                source,
            })?,
        )
    } else {
        None
    };
    let is_dir = std::fs::metadata(path).map(|m| m.is_dir()).unwrap_or(false);
    Ok(Some(Found {
        link,
        is_dir,
        locked: locked_flags(path),
    }))
}

/// [`inspect_now`], looked up once per process for the [`TOOLCHAIN`] trees (installed before a grading
/// starts, and stat'ed a dozen times over at every run otherwise) and every time for anything else.
fn inspect(path: &Path) -> Result<Option<Found>, PlanError> {
    type Known = Vec<(&'static str, Option<Found>)>;
    static TOOLCHAIN_FOUND: std::sync::OnceLock<Known> = std::sync::OnceLock::new();
    if !TOOLCHAIN.iter().any(|t| Path::new(t) == path) {
        return inspect_now(path);
    }
    let known = TOOLCHAIN_FOUND.get_or_init(|| {
        TOOLCHAIN
            .iter()
            // A toolchain path that cannot be read now is treated as absent, as it is at every run.
            .map(|t| (*t, inspect_now(Path::new(t)).ok().flatten()))
            .collect()
    });
    Ok(known
        .iter()
        .find(|(t, _)| Path::new(t) == path)
        .and_then(|(_, f)| f.clone()))
}

/// The template root every run of one sandbox shares: devices, toolchains and the sandbox's own
/// read-only trees, and empty mount points for a run's scratch space, with what they made and bound.
/// Built once per sandbox by its spawner; each run mounts its own paths on a copy.
#[derive(Clone, Debug)]
pub struct Layout {
    pub steps: Vec<Step>,
    /// Directories that exist in the template because we made them or mounted them.
    made: Vec<PathBuf>,
    bound: Vec<(PathBuf, Access)>,
    linked: Vec<PathBuf>,
}

impl Layout {
    /// The shared steps, with `read_only` bound besides the [`TOOLCHAIN`].
    pub fn new(read_only: &[PathBuf]) -> Result<Layout, PlanError> {
        let mut layout = Layout {
            steps: Vec::new(),
            made: vec![PathBuf::from("/")],
            bound: Vec::new(),
            linked: Vec::new(),
        };
        for (dir, _) in SCRATCH {
            layout.mkdirs(Path::new(dir))?;
        }
        for dev in DEVICES {
            let host = Path::new("/dev").join(dev);
            if host.exists() {
                layout.steps.push(Step::Touch(in_root(&host)?));
                layout.steps.push(Step::Bind {
                    source: cstring(host.as_os_str().as_bytes())?,
                    target: in_root(&host)?,
                    remount: None,
                });
            }
        }
        for (link, target) in [
            ("/dev/fd", "/proc/self/fd"),
            ("/dev/stdin", "/proc/self/fd/0"),
            ("/dev/stdout", "/proc/self/fd/1"),
            ("/dev/stderr", "/proc/self/fd/2"),
        ] {
            layout.steps.push(Step::Symlink {
                target: cstring(target.as_bytes())?,
                link: in_root(Path::new(link))?,
            });
        }
        layout.mkdirs(Path::new("/proc"))?;
        layout.add(
            TOOLCHAIN
                .iter()
                .map(|p| (PathBuf::from(p), Access::ReadOnly))
                .chain(read_only.iter().map(|p| (absolute(p), Access::ReadOnly)))
                .collect(),
        )?;
        Ok(layout)
    }

    fn mkdirs(&mut self, dir: &Path) -> Result<(), PlanError> {
        let mut ancestors: Vec<&Path> = dir.ancestors().collect();
        ancestors.reverse();
        for a in ancestors {
            if !self.made.iter().any(|m| m == a) {
                self.steps.push(Step::Mkdir(in_root(a)?));
                self.made.push(a.to_owned());
            }
        }
        Ok(())
    }

    /// Binds `wanted`, parents before children; later, deeper paths are mounted over earlier ones.
    fn add(&mut self, mut wanted: Vec<(PathBuf, Access)>) -> Result<(), PlanError> {
        // The stable sort keeps the working directory after an equal read-only path, so it wins.
        wanted.sort_by_key(|w| w.0.components().count());
        for (path, access) in wanted {
            let Some(found) = inspect(&path)? else {
                continue;
            };
            if self.linked.iter().any(|l| path.starts_with(l)) {
                continue;
            }
            if let (Some(target), Access::ReadOnly, true) = (
                &found.link,
                access,
                TOOLCHAIN.iter().any(|t| Path::new(t) == path),
            ) {
                let target = target.clone();
                if let Some(parent) = path.parent() {
                    self.mkdirs(parent)?;
                }
                self.steps.push(Step::Symlink {
                    target: cstring(target.as_os_str().as_bytes())?,
                    link: in_root(&path)?,
                });
                self.linked.push(path);
                continue;
            }
            match covering(&self.bound, &path) {
                Some((_, a)) if *a == access => continue,
                Some(_) => {}
                None => {
                    if found.is_dir {
                        self.mkdirs(&path)?;
                    } else {
                        if let Some(parent) = path.parent() {
                            self.mkdirs(parent)?;
                        }
                        self.steps.push(Step::Touch(in_root(&path)?));
                    }
                }
            }
            let base = libc::MS_REMOUNT | libc::MS_BIND | libc::MS_NOSUID | libc::MS_NODEV;
            let remount = match access {
                Access::ReadOnly => base | libc::MS_RDONLY,
                Access::Writable => base,
            } | found.locked;
            self.steps.push(Step::Bind {
                source: cstring(path.as_os_str().as_bytes())?,
                target: in_root(&path)?,
                remount: Some(remount),
            });
            self.bound.push((path, access));
        }
        Ok(())
    }
}

/// A run's own mounts on its copy of the template: fresh scratch tmpfs, then its read-only paths and its
/// writable working directory (a run's paths are never above a toolchain's: see `give_workdir`), each the
/// tree the grader cloned for it. A path's mount point is made in the scratch tmpfs when the path is
/// there, and otherwise in a fresh tmpfs over its *anchor*: its shallowest ancestor the template lacks
/// (an empty directory the spawner adds to the template once). Anchors are sealed read-only at the end,
/// so the program can write only where it could before: its working directory and the scratch space.
fn run_mounts(
    layout: &Layout,
    workdir: &Path,
    read_only: &[PathBuf],
) -> Result<RunMounts, PlanError> {
    let mut points = Points::default();
    for (dir, options) in SCRATCH {
        points.steps.push(RunStep::Tmpfs {
            target: cstring(dir.as_bytes())?,
            options: cstring(options.as_bytes())?,
        });
    }
    let mut wanted: Vec<(PathBuf, Access)> = read_only
        .iter()
        .map(|p| (absolute(p), Access::ReadOnly))
        .collect();
    wanted.push((absolute(workdir), Access::Writable));
    // The stable sort keeps the working directory after an equal read-only path, so it wins.
    wanted.sort_by_key(|w| w.0.components().count());

    let mut trees: Vec<PathBuf> = Vec::new();
    let mut mounted: Vec<(PathBuf, Access)> = Vec::new();
    for (path, access) in wanted {
        let Some(found) = inspect(&path)? else {
            continue;
        };
        if layout.linked.iter().any(|l| path.starts_with(l)) {
            continue;
        }
        match covering(layout.bound.iter().chain(&mounted), &path) {
            Some((_, a)) if *a == access => continue,
            // Inside a tree already there: the path exists in it.
            Some(_) => {}
            None => {
                if !points.make(layout, &path, found.is_dir)? {
                    // The path is one of the template's own directories.
                    continue;
                }
            }
        }
        if trees.len() == MAX_TREES {
            return Err(PlanError::TooMany);
        }
        let base = libc::MS_REMOUNT | libc::MS_BIND | libc::MS_NOSUID | libc::MS_NODEV;
        let remount = match access {
            Access::ReadOnly => base | libc::MS_RDONLY,
            Access::Writable => base,
        } | found.locked;
        points.steps.push(RunStep::Move {
            fd: (FIRST_SOURCE_FD + trees.len()) as libc::c_int,
            target: cstring(path.as_os_str().as_bytes())?,
            remount,
        });
        trees.push(path.clone());
        mounted.push((path, access));
    }
    for anchor in &points.sealed {
        points
            .steps
            .push(RunStep::Seal(cstring(anchor.as_os_str().as_bytes())?));
    }
    Ok(RunMounts {
        trees,
        steps: points.steps,
        anchors: points.anchors,
    })
}

/// The mount points [`run_mounts`] makes, as it makes them.
#[derive(Default)]
struct Points {
    steps: Vec<RunStep>,
    anchors: Vec<Anchor>,
    /// Anchors under a tmpfs of their own, sealed read-only at the end.
    sealed: Vec<PathBuf>,
    /// Directories already made in a tmpfs of this run.
    made: Vec<PathBuf>,
}

impl Points {
    /// The mount point for `path`, which no tree covers yet: in the scratch tmpfs when it is there,
    /// else over its anchor. False when the path is one of the template's own directories (nothing to
    /// mount on).
    fn make(&mut self, layout: &Layout, path: &Path, is_dir: bool) -> Result<bool, PlanError> {
        let scratch = SCRATCH
            .iter()
            .map(|(d, _)| Path::new(*d))
            .find(|d| path.starts_with(d) && path != *d);
        let base = match scratch {
            Some(d) => d.to_owned(),
            None => {
                let Some(anchor) = path
                    .ancestors()
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .find(|a| !layout.made.iter().any(|m| m == a))
                else {
                    return Ok(false);
                };
                let anchor = anchor.to_owned();
                if anchor == path {
                    if !self.anchors.iter().any(|a| a.path == anchor) {
                        self.anchors.push(Anchor {
                            path: anchor.clone(),
                            dir: is_dir,
                        });
                    }
                    return Ok(true);
                }
                if !self.sealed.contains(&anchor) {
                    self.anchors.push(Anchor {
                        path: anchor.clone(),
                        dir: true,
                    });
                    self.steps.push(RunStep::Tmpfs {
                        target: cstring(anchor.as_os_str().as_bytes())?,
                        options: cstring(ANCHOR_OPTIONS.as_bytes())?,
                    });
                    self.sealed.push(anchor.clone());
                }
                anchor
            }
        };
        // Mount points from below `base` down to the path.
        let mut chain: Vec<&Path> = path
            .ancestors()
            .skip(1)
            .take_while(|a| *a != base)
            .collect();
        chain.reverse();
        for dir in chain {
            if !self.made.iter().any(|m| m == dir) {
                self.steps
                    .push(RunStep::Mkdir(cstring(dir.as_os_str().as_bytes())?));
                self.made.push(dir.to_owned());
            }
        }
        let target = cstring(path.as_os_str().as_bytes())?;
        self.steps.push(if is_dir {
            self.made.push(path.to_owned());
            RunStep::Mkdir(target)
        } else {
            RunStep::Touch(target)
        });
        Ok(true)
    }
}

/// What [`run_mounts`] plans: see the fields of the same names in [`Plan`].
struct RunMounts {
    trees: Vec<PathBuf>,
    steps: Vec<RunStep>,
    anchors: Vec<Anchor>,
}

/// Finds `program` the way `execvp` would, on the host side (the sandbox sees the same paths).
fn resolve(program: &OsStr, path_var: &OsStr, workdir: &Path) -> Result<PathBuf, PlanError> {
    let p = Path::new(program);
    if program.as_bytes().contains(&b'/') {
        return Ok(if p.is_absolute() {
            p.to_owned()
        } else {
            workdir.join(p)
        });
    }
    for dir in std::env::split_paths(path_var) {
        let candidate = dir.join(p);
        if let Ok(meta) = std::fs::metadata(&candidate) {
            use std::os::unix::fs::PermissionsExt;
            if meta.is_file() && meta.permissions().mode() & 0o111 != 0 {
                return Ok(candidate);
            }
        }
    }
    Err(PlanError::NotFound(program.to_string_lossy().into_owned()))
}

/// The rlimits every process of the run gets. CPU: SIGXCPU at the limit (rounded up to a second), SIGKILL
/// a second later; the cgroup total is checked by the driver.
pub fn rlimits(limits: &Limits) -> Vec<(libc::c_int, libc::rlim_t)> {
    let cpu = limits.cpu.as_secs() + u64::from(limits.cpu.subsec_nanos() > 0);
    let mut out = vec![
        (libc::RLIMIT_CPU as libc::c_int, cpu.max(1)),
        (libc::RLIMIT_FSIZE as libc::c_int, limits.file_size),
        (libc::RLIMIT_NOFILE as libc::c_int, limits.open_files),
        (libc::RLIMIT_STACK as libc::c_int, limits.stack),
        (libc::RLIMIT_CORE as libc::c_int, 0),
    ];
    if let Some(a) = limits.address_space {
        out.push((libc::RLIMIT_AS as libc::c_int, a));
    }
    out
}

impl Plan {
    /// The plan for `spec` on top of the sandbox's shared `layout`.
    pub fn new(spec: &Spec, layout: &Layout) -> Result<Plan, PlanError> {
        let workdir = absolute(&spec.workdir);
        let mut env: Vec<(OsString, OsString)> = spec.env.clone();
        if !env.iter().any(|(k, _)| k == "PATH") {
            env.push(("PATH".into(), DEFAULT_PATH.into()));
        }
        let path_var = env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        let program = resolve(&spec.program, &path_var, &workdir)?;
        let mut argv = vec![cstring(spec.program.as_bytes())?];
        for a in &spec.args {
            argv.push(cstring(a.as_bytes())?);
        }
        let env: Vec<CString> = env
            .iter()
            .map(|(k, v)| {
                let mut kv = k.as_bytes().to_vec();
                kv.push(b'=');
                kv.extend_from_slice(v.as_bytes());
                cstring(&kv)
            })
            .collect::<Result<_, _>>()?;
        let ptrs = |v: &[CString]| {
            v.iter()
                .map(|c| c.as_ptr())
                .chain(std::iter::once(std::ptr::null()))
                .collect::<Vec<_>>()
        };
        let run = run_mounts(layout, &workdir, &spec.read_only)?;
        Ok(Plan {
            trees: run.trees,
            mounts: run.steps,
            anchors: run.anchors,
            workdir: cstring(workdir.as_os_str().as_bytes())?,
            program: cstring(program.as_os_str().as_bytes())?,
            argv: ptrs(&argv),
            envp: ptrs(&env),
            _argv: argv,
            _env: env,
            rlimits: rlimits(&spec.limits),
            filter: seccomp::filter(),
            // Not zeroed: filling it would fault in every page, and the program touches only its top.
            program_stack: Vec::with_capacity(PROGRAM_STACK),
            cap_last: cap_last(),
            join_self: false,
            join_freezer: false,
            join_cpu: false,
        })
    }
}

/// The deepest of `trees` that `path` is inside, with its access.
fn covering<'a>(
    trees: impl IntoIterator<Item = &'a (PathBuf, Access)>,
    path: &Path,
) -> Option<&'a (PathBuf, Access)> {
    trees
        .into_iter()
        .filter(|(b, _)| path.starts_with(b))
        .max_by_key(|(b, _)| b.components().count())
}

#[cfg(test)]
mod tests;
