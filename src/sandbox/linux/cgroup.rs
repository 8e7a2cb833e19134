//! Per-run control groups for the `full` tier: memory (swap off), process count and CPU accounting of a
//! whole process tree, on cgroup v2 where it has the controllers and on v1 otherwise; and the clean-up of
//! groups a crashed earlier grader left behind.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::super::Usage;

const ROOT: &str = "/sys/fs/cgroup";
/// Every group this grader makes lives under this name, so a later run can find stale ones.
const PARENT: &str = "grader";

/// Which hierarchy the machine offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// Unified hierarchy at `/sys/fs/cgroup` with the memory, pids and cpu controllers.
    V2,
    /// Separate `memory`, `pids` and `cpuacct` hierarchies.
    V1,
}

/// What can go wrong setting a group up; always the machine's fault.
#[derive(Debug, thiserror::Error)]
pub enum CgroupError {
    #[error("no usable cgroup hierarchy: need cgroup v2 with memory, pids and cpu, or v1 memory, pids and cpuacct under `{ROOT}`")]
    Missing,
    #[error("cannot write `{value}` to `{path}`")]
    Write {
        path: PathBuf,
        value: String,
        #[source]
        source: io::Error,
    },
    #[error("cannot create cgroup `{path}`")]
    Create {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// Finds the hierarchy to use, or says why there is none.
pub fn detect() -> Result<Version, CgroupError> {
    let root = Path::new(ROOT);
    if let Ok(controllers) = fs::read_to_string(root.join("cgroup.controllers")) {
        let have: Vec<&str> = controllers.split_whitespace().collect();
        if ["memory", "pids", "cpu"].iter().all(|c| have.contains(c)) {
            return Ok(Version::V2);
        }
    }
    if ["memory", "pids", "cpuacct"]
        .iter()
        .all(|c| root.join(c).join("cgroup.procs").exists())
    {
        return Ok(Version::V1);
    }
    Err(CgroupError::Missing)
}

/// One run's group (one directory per controller on v1). Removed when dropped, after its processes are
/// killed.
#[derive(Debug)]
pub struct Cgroup {
    version: Version,
    /// v2: one directory; v1: memory, pids, cpuacct in that order.
    dirs: Vec<PathBuf>,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

fn write(path: &Path, value: &str) -> Result<(), CgroupError> {
    fs::write(path, value).map_err(|source| CgroupError::Write {
        path: path.to_owned(),
        value: value.to_owned(),
        source,
    })
}

fn create(path: &Path) -> Result<(), CgroupError> {
    match fs::create_dir_all(path) {
        Ok(()) => Ok(()),
        Err(source) => Err(CgroupError::Create {
            path: path.to_owned(),
            source,
        }),
    }
}

impl Cgroup {
    /// Makes a fresh group with these limits. `processes` counts every process and thread.
    pub fn create(version: Version, memory: u64, processes: u32) -> Result<Cgroup, CgroupError> {
        let name = format!(
            "{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let root = Path::new(ROOT);
        let group = match version {
            Version::V2 => {
                let parent = root.join(PARENT);
                create(&parent)?;
                write(&parent.join("cgroup.subtree_control"), "+memory +pids +cpu")?;
                let dir = parent.join(&name);
                create(&dir)?;
                Cgroup {
                    version,
                    dirs: vec![dir],
                }
            }
            Version::V1 => {
                let mut dirs = Vec::new();
                for controller in ["memory", "pids", "cpuacct"] {
                    let dir = root.join(controller).join(PARENT).join(&name);
                    create(&dir)?;
                    dirs.push(dir);
                }
                Cgroup { version, dirs }
            }
        };
        let memory = memory.to_string();
        let processes = processes.to_string();
        match version {
            Version::V2 => {
                let dir = &group.dirs[0];
                write(&dir.join("memory.max"), &memory)?;
                // Swap would let a memory bomb outlive its limit; absent when the kernel has no swap.
                if dir.join("memory.swap.max").exists() {
                    write(&dir.join("memory.swap.max"), "0")?;
                }
                write(&dir.join("pids.max"), &processes)?;
            }
            Version::V1 => {
                let mem = &group.dirs[0];
                write(&mem.join("memory.limit_in_bytes"), &memory)?;
                if mem.join("memory.memsw.limit_in_bytes").exists() {
                    write(&mem.join("memory.memsw.limit_in_bytes"), &memory)?;
                }
                write(&mem.join("memory.swappiness"), "0").ok();
                write(&group.dirs[1].join("pids.max"), &processes)?;
            }
        }
        Ok(group)
    }

    /// Moves a process (and so every descendant it will have) into the group.
    pub fn add(&self, pid: libc::pid_t) -> Result<(), CgroupError> {
        for dir in &self.dirs {
            write(&dir.join("cgroup.procs"), &pid.to_string())?;
        }
        Ok(())
    }

    /// CPU of every process that ever ran in the group, peak memory, and whether the kernel killed for
    /// memory. Unreadable counters read as zero rather than failing a run already done.
    pub fn usage(&self) -> Usage {
        let read = |path: PathBuf| fs::read_to_string(path).unwrap_or_default();
        let field = |text: &str, key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.trim().parse::<u64>().ok())
        };
        match self.version {
            Version::V2 => {
                let dir = &self.dirs[0];
                let cpu = field(&read(dir.join("cpu.stat")), "usage_usec ").unwrap_or(0);
                let peak = read(dir.join("memory.peak")).trim().parse().ok();
                let oom = field(&read(dir.join("memory.events")), "oom_kill ").unwrap_or(0);
                Usage {
                    cpu: Duration::from_micros(cpu),
                    peak_memory: peak,
                    oom: oom > 0,
                }
            }
            Version::V1 => {
                let mem = &self.dirs[0];
                let cpu = read(self.dirs[2].join("cpuacct.usage"))
                    .trim()
                    .parse()
                    .unwrap_or(0);
                let peak = read(mem.join("memory.max_usage_in_bytes"))
                    .trim()
                    .parse()
                    .ok();
                let oom = field(&read(mem.join("memory.oom_control")), "oom_kill ").unwrap_or(0);
                Usage {
                    cpu: Duration::from_nanos(cpu),
                    peak_memory: peak,
                    oom: oom > 0,
                }
            }
        }
    }

    /// The processes in the group now.
    pub fn pids(&self) -> Vec<libc::pid_t> {
        procs(&self.dirs[0])
    }

    /// SIGKILLs everything in the group, repeating while new processes appear (a fork bomb races).
    pub fn kill_all(&self) {
        if self.version == Version::V2 && write(&self.dirs[0].join("cgroup.kill"), "1").is_ok() {
            return;
        }
        for _ in 0..100 {
            let pids = self.pids();
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                // SAFETY: kill has no memory-safety preconditions.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
    }
}

fn procs(dir: &Path) -> Vec<libc::pid_t> {
    fs::read_to_string(dir.join("cgroup.procs"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Kills what is left and removes a group directory, waiting briefly for exiting processes to go.
fn remove(dir: &Path) -> bool {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        // The usual group is already empty (its init was reaped, taking the namespace with it): try
        // first, read the process list only when something is left.
        match fs::remove_dir(dir) {
            Ok(()) => return true,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return true,
            Err(_) if Instant::now() < deadline => {}
            Err(_) => return false,
        }
        for pid in procs(dir) {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        // A group that cannot be removed still holds processes: kill them all at once (a fork bomb
        // races a per-pid kill) before `remove` retries.
        if fs::remove_dir(&self.dirs[0]).is_err() && self.dirs[0].exists() {
            self.kill_all();
        }
        for dir in &self.dirs {
            remove(dir);
        }
    }
}

/// Removes groups left by graders that are no longer running (a crash, a SIGKILL), killing any process
/// still in them. Returns how many it removed.
pub fn clean_stale(version: Version) -> usize {
    let root = Path::new(ROOT);
    let parents: Vec<PathBuf> = match version {
        Version::V2 => vec![root.join(PARENT)],
        Version::V1 => ["memory", "pids", "cpuacct"]
            .iter()
            .map(|c| root.join(c).join(PARENT))
            .collect(),
    };
    let mut removed = 0;
    for parent in parents {
        let Ok(entries) = fs::read_dir(&parent) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(owner) = name
                .to_str()
                .and_then(|n| n.split_once('-'))
                .and_then(|(pid, _)| pid.parse::<libc::pid_t>().ok())
            else {
                continue;
            };
            if alive(owner) {
                continue;
            }
            if entry.path().is_dir() && remove(&entry.path()) {
                removed += 1;
            }
        }
    }
    removed
}

fn alive(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_groups_of_dead_graders_are_removed_and_live_ones_kept() {
        let Ok(version) = detect() else {
            eprintln!("skipping: no cgroup hierarchy here");
            return;
        };
        // A pid that just ended stands for a crashed grader.
        let mut child = std::process::Command::new("/bin/true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let live = Cgroup::create(version, 64 << 20, 8).unwrap();
        let stale = format!("{dead}-0");
        let stale_dirs: Vec<PathBuf> = match version {
            Version::V2 => vec![Path::new(ROOT).join(PARENT).join(&stale)],
            Version::V1 => ["memory", "pids", "cpuacct"]
                .iter()
                .map(|c| Path::new(ROOT).join(c).join(PARENT).join(&stale))
                .collect(),
        };
        for d in &stale_dirs {
            fs::create_dir_all(d).unwrap();
        }
        assert!(clean_stale(version) >= stale_dirs.len());
        assert!(stale_dirs.iter().all(|d| !d.exists()));
        assert!(
            live.dirs.iter().all(|d| d.exists()),
            "a live grader's group was removed"
        );
    }
}
