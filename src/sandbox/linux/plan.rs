//! Everything the `full` sandbox's child needs, computed in the parent before the clone: mount steps for
//! the minimal root, the command line, rlimits and the seccomp program. The child may not allocate (it is
//! a copy of a multi-threaded process), so it only walks this plan.

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

/// The empty host directory the new root's tmpfs is mounted over, inside the child's own mount
/// namespace (so nothing is ever mounted on the host).
pub const ROOT: &str = "/tmp/.grader-sandbox-root";

/// The descriptor number of the first bind source in the child (0–5 are taken, see `child`).
pub const FIRST_SOURCE_FD: usize = 6;

const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Private scratch space: `/tmp` and `/dev/shm` are tmpfs, charged to the run's memory cgroup.
const TMP_OPTIONS: &str = "size=64m,mode=1777";
const SHM_OPTIONS: &str = "size=16m,mode=1777";

/// One thing to do inside the new root, before `pivot_root`. Paths are already prefixed with [`ROOT`].
#[derive(Clone, Debug)]
pub enum Step {
    Mkdir(CString),
    /// An empty file to bind a file onto.
    Touch(CString),
    Symlink {
        target: CString,
        link: CString,
    },
    /// A bind from a descriptor the child opened before giving up the grader's uid (so it could reach
    /// sources under `/root`): `source` is `/proc/self/fd/N`.
    Bind {
        source: CString,
        target: CString,
        /// Flags for the read-only (or nosuid) remount that follows the bind; a bind alone ignores them.
        remount: Option<libc::c_ulong>,
    },
    Tmpfs {
        target: CString,
        options: CString,
    },
}

/// The child's whole job, precomputed.
pub struct Plan {
    pub root: CString,
    /// Host paths the child opens with `O_PATH`, in order, as descriptors `FIRST_SOURCE_FD + i`.
    pub sources: Vec<CString>,
    pub steps: Vec<Step>,
    pub proc_dir: CString,
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

/// The mount steps every run of one sandbox shares: tmpfs scratch, devices, toolchains and the sandbox's
/// own read-only trees, with what they made and bound. Built once per sandbox (walking these paths cost
/// more than any other part of a plan); each run adds its own paths to a copy.
#[derive(Clone, Debug)]
pub struct Layout {
    steps: Vec<Step>,
    sources: Vec<CString>,
    /// Directories that exist in the new root because we made them or mounted them.
    made: Vec<PathBuf>,
    bound: Vec<(PathBuf, Access)>,
    linked: Vec<PathBuf>,
}

impl Layout {
    /// The shared steps, with `read_only` bound besides the [`TOOLCHAIN`].
    pub fn new(read_only: &[PathBuf]) -> Result<Layout, PlanError> {
        let mut layout = Layout {
            steps: Vec::new(),
            sources: Vec::new(),
            made: vec![PathBuf::from("/")],
            bound: Vec::new(),
            linked: Vec::new(),
        };
        for (dir, options) in [("/tmp", TMP_OPTIONS), ("/dev/shm", SHM_OPTIONS)] {
            layout.mkdirs(Path::new(dir))?;
            layout.steps.push(Step::Tmpfs {
                target: in_root(Path::new(dir))?,
                options: cstring(options.as_bytes())?,
            });
        }
        for dev in DEVICES {
            let host = Path::new("/dev").join(dev);
            if host.exists() {
                layout.steps.push(Step::Touch(in_root(&host)?));
                let source = layout.source(&host)?;
                layout.steps.push(Step::Bind {
                    source,
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

    /// A bind source: the host path the child opens, and the name of that descriptor in its `/proc`.
    fn source(&mut self, path: &Path) -> Result<CString, PlanError> {
        self.sources.push(cstring(path.as_os_str().as_bytes())?);
        cstring(format!("/proc/self/fd/{}", FIRST_SOURCE_FD + self.sources.len() - 1).as_bytes())
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
            let covering = self
                .bound
                .iter()
                .filter(|(b, _)| path.starts_with(b))
                .max_by_key(|(b, _)| b.components().count());
            match covering {
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
            let source = self.source(&path)?;
            self.steps.push(Step::Bind {
                source,
                target: in_root(&path)?,
                remount: Some(remount),
            });
            self.bound.push((path, access));
        }
        Ok(())
    }
}

/// The mount steps of one run: the shared `layout`, then the run's own read-only paths and its writable
/// working directory (a run's paths are never above a toolchain's: see `give_workdir`).
fn steps(
    layout: &Layout,
    workdir: &Path,
    read_only: &[PathBuf],
) -> Result<(Vec<Step>, Vec<CString>), PlanError> {
    let mut layout = layout.clone();
    let mut wanted: Vec<(PathBuf, Access)> = read_only
        .iter()
        .map(|p| (absolute(p), Access::ReadOnly))
        .collect();
    wanted.push((absolute(workdir), Access::Writable));
    layout.add(wanted)?;
    Ok((layout.steps, layout.sources))
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
        let (steps, sources) = steps(layout, &workdir, &spec.read_only)?;
        Ok(Plan {
            root: cstring(ROOT.as_bytes())?,
            sources,
            steps,
            proc_dir: in_root(Path::new("/proc"))?,
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
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(steps: &[Step]) -> Vec<String> {
        steps
            .iter()
            .filter_map(|s| match s {
                Step::Bind {
                    target, remount, ..
                } => Some(format!(
                    "{} {}",
                    target.to_string_lossy().trim_start_matches(ROOT),
                    match remount {
                        Some(f) if f & libc::MS_RDONLY != 0 => "ro",
                        Some(_) => "rw",
                        None => "dev",
                    }
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn workdir_is_the_only_writable_bind_and_nested_toolchains_are_not_bound_twice() {
        let work = tempfile::tempdir().unwrap();
        let layout = Layout::new(&[]).unwrap();
        let (steps, sources) = steps(&layout, work.path(), &[PathBuf::from("/usr/share")]).unwrap();
        let t = targets(&steps);
        assert_eq!(sources.len(), t.len());
        let work = absolute(work.path());
        assert!(t.contains(&format!("{} rw", work.display())), "{t:?}");
        assert_eq!(t.iter().filter(|s| s.ends_with(" rw")).count(), 1, "{t:?}");
        assert!(t.contains(&"/usr ro".to_string()), "{t:?}");
        assert!(!t.iter().any(|s| s.starts_with("/usr/share")), "{t:?}");
        assert!(t.contains(&"/dev/null dev".to_string()), "{t:?}");
        // The host's other folders are simply absent.
        assert!(!t
            .iter()
            .any(|s| s.starts_with("/home") || s.starts_with("/etc/shadow")));
    }

    #[test]
    fn absolute_removes_dots_without_touching_the_disk() {
        assert_eq!(absolute(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
    }

    #[test]
    fn cpu_rlimit_rounds_up_to_whole_seconds() {
        let limits = Limits {
            cpu: std::time::Duration::from_millis(1500),
            wall: std::time::Duration::from_secs(3),
            memory: 1 << 26,
            output: 1 << 20,
            file_size: 1 << 20,
            processes: 8,
            open_files: 64,
            stack: 8 << 20,
            address_space: None,
        };
        let r = rlimits(&limits);
        assert!(r.contains(&(libc::RLIMIT_CPU as libc::c_int, 2)));
        assert!(!r.iter().any(|(k, _)| *k == libc::RLIMIT_AS as libc::c_int));
    }
}
