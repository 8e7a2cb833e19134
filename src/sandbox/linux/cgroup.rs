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
    /// Separate `memory`, `pids` and `cpuacct` hierarchies (and `freezer` and `cpu`, when mounted).
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
    /// v2: one directory; v1: one per [`v1_controllers`], in that order.
    dirs: Vec<PathBuf>,
    /// The limits written, once they are.
    limits: Option<Limits>,
    /// The counters' files, opened at the first reading of any ([`Cgroup::cpu`], [`Cgroup::usage`]).
    counters: std::sync::OnceLock<Counters>,
}

/// A group's counters, each read from one file.
#[derive(Clone, Copy, Debug)]
enum Counter {
    /// v2 `cpu.stat`, v1 `cpuacct.usage`.
    Cpu = 0,
    /// v2 `memory.peak`, v1 `memory.max_usage_in_bytes`.
    Peak = 1,
    /// v2 `memory.events`, v1 `memory.oom_control`.
    Oom = 2,
}

/// A group's counter files, kept open: the driver reads them every few milliseconds of a run, and a
/// path's lookup through the cgroup file system costs more than the read. `None` where one could not
/// be opened: read by its path then.
#[derive(Debug)]
struct Counters {
    cpu: Option<fs::File>,
    peak: Option<fs::File>,
    oom: Option<fs::File>,
}

/// A group's memory and process limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Limits {
    memory: u64,
    processes: u32,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// The longest a freeze is waited for: the kernel freezes each task as it next leaves the kernel.
const FREEZE_WAIT: Duration = Duration::from_millis(100);

/// The v1 hierarchies a group has a directory in: memory, pids and cpuacct; the freezer where the
/// machine mounts it (a stop for want of a core then holds for a process forked during it); and `cpu`
/// where it is mounted apart from `cpuacct` (a group of its own is one scheduling entity, so a run of
/// 16 spinning processes gets no more of the machine than its opponent's one).
pub fn v1_controllers() -> &'static [&'static str] {
    static HAVE: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    HAVE.get_or_init(|| {
        let root = Path::new(ROOT);
        let mut have = vec!["memory", "pids", "cpuacct"];
        if root.join("freezer/cgroup.procs").exists() {
            have.push("freezer");
        }
        let apart =
            fs::canonicalize(root.join("cpu")).ok() != fs::canonicalize(root.join("cpuacct")).ok();
        if apart && root.join("cpu/cpu.shares").exists() {
            have.push("cpu");
        }
        have
    })
}

/// A v1 group's directory in the hierarchy `name`, if it has one.
fn v1_dir<'d>(dirs: &'d [PathBuf], name: &str) -> Option<&'d PathBuf> {
    v1_controllers()
        .iter()
        .position(|c| *c == name)
        .and_then(|i| dirs.get(i))
}

/// Thaws a v1 group's freezer directory (if it has one), so what is killed in it can die.
fn thaw_v1(dirs: &[PathBuf]) {
    if let Some(dir) = v1_dir(dirs, "freezer") {
        let _ = fs::write(dir.join("freezer.state"), "THAWED");
    }
}

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
    /// A fresh group with these limits: one made ahead of time by the pool's thread when one is ready
    /// (making the directories is a dear part of a start), else made now. `processes` counts every
    /// process and thread.
    pub fn create(version: Version, memory: u64, processes: u32) -> Result<Cgroup, CgroupError> {
        let limits = Limits { memory, processes };
        let mut group = match pool::take(version, limits) {
            Some(group) => group,
            None => Cgroup::make(version)?,
        };
        group.limit(limits)?;
        Ok(group)
    }

    /// Empty directories for a new group, with no limits yet.
    fn make(version: Version) -> Result<Cgroup, CgroupError> {
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
                    limits: None,
                    counters: std::sync::OnceLock::new(),
                }
            }
            Version::V1 => {
                let mut dirs = Vec::new();
                for controller in v1_controllers() {
                    let dir = root.join(controller).join(PARENT).join(&name);
                    create(&dir)?;
                    dirs.push(dir);
                }
                write(&dirs[0].join("memory.swappiness"), "0").ok();
                Cgroup {
                    version,
                    dirs,
                    limits: None,
                    counters: std::sync::OnceLock::new(),
                }
            }
        };
        Ok(group)
    }

    /// Sets the memory (swap off) and process limits, unless the group has them already.
    fn limit(&mut self, limits: Limits) -> Result<(), CgroupError> {
        if self.limits == Some(limits) {
            return Ok(());
        }
        let memory = limits.memory.to_string();
        let processes = limits.processes.to_string();
        match self.version {
            Version::V2 => {
                let dir = &self.dirs[0];
                write(&dir.join("memory.max"), &memory)?;
                // Swap would let a memory bomb outlive its limit; absent when the kernel has no swap.
                if dir.join("memory.swap.max").exists() {
                    write(&dir.join("memory.swap.max"), "0")?;
                }
                write(&dir.join("pids.max"), &processes)?;
            }
            Version::V1 => {
                // The kernel keeps memory ≤ memory+swap at every step: raising a limit the pool's
                // thread set starts with memory+swap, anything else with memory.
                let mem = &self.dirs[0];
                let memsw = mem.join("memory.memsw.limit_in_bytes");
                let memsw = memsw.exists().then_some(memsw);
                let raising = self.limits.is_some_and(|old| limits.memory > old.memory);
                if let (true, Some(memsw)) = (raising, &memsw) {
                    write(memsw, &memory)?;
                }
                write(&mem.join("memory.limit_in_bytes"), &memory)?;
                if let (false, Some(memsw)) = (raising, &memsw) {
                    write(memsw, &memory)?;
                }
                write(&self.dirs[1].join("pids.max"), &processes)?;
            }
        }
        self.limits = Some(limits);
        Ok(())
    }

    /// Moves a process (and so every descendant it will have) into the group.
    pub fn add(&self, pid: libc::pid_t) -> Result<(), CgroupError> {
        for dir in &self.dirs {
            write(&dir.join("cgroup.procs"), &pid.to_string())?;
        }
        Ok(())
    }

    /// v1 only: each directory's `tasks` file, by hierarchy ([`v1_controllers`]), opened for writing.
    /// A thread writing `0` through one joins that directory itself; the kernel checks the opener's
    /// credentials (root's), not the writer's. Unlike a write of a process id to `cgroup.procs` (which takes the
    /// kernel's global lock on thread groups and waits out an RCU grace period, about 15 ms on the
    /// development machine, at every run), a thread moving itself takes no global lock (0.3 ms). The
    /// init and the program are single threads when they join, so moving the thread moves the process.
    /// `None` on v2.
    pub fn join_files(&self) -> Option<io::Result<Vec<(&'static str, fs::File)>>> {
        (self.version == Version::V1).then(|| {
            v1_controllers()
                .iter()
                .zip(&self.dirs)
                .map(|(name, dir)| {
                    let file = fs::OpenOptions::new().write(true).open(dir.join("tasks"))?;
                    Ok((*name, file))
                })
                .collect()
        })
    }

    /// The counter files' paths, in [`Counter`] order.
    fn counter_paths(&self) -> Option<[PathBuf; 3]> {
        match self.version {
            Version::V2 => {
                let dir = self.dirs.first()?;
                Some([
                    dir.join("cpu.stat"),
                    dir.join("memory.peak"),
                    dir.join("memory.events"),
                ])
            }
            Version::V1 => {
                let (mem, cpuacct) = (self.dirs.first()?, self.dirs.get(2)?);
                Some([
                    cpuacct.join("cpuacct.usage"),
                    mem.join("memory.max_usage_in_bytes"),
                    mem.join("memory.oom_control"),
                ])
            }
        }
    }

    /// What `parse` makes of counter `which` read now: from its file kept open (a cgroup file read
    /// again from its start shows the count now), else by its path; `parse("")` when neither reads.
    fn read_counter<T>(&self, which: Counter, parse: impl FnOnce(&str) -> T) -> T {
        use std::os::unix::fs::FileExt;
        let counters = self.counters.get_or_init(|| {
            let paths = self.counter_paths();
            let open = |c: Counter| fs::File::open(&paths.as_ref()?[c as usize]).ok();
            Counters {
                cpu: open(Counter::Cpu),
                peak: open(Counter::Peak),
                oom: open(Counter::Oom),
            }
        });
        let file = match which {
            Counter::Cpu => &counters.cpu,
            Counter::Peak => &counters.peak,
            Counter::Oom => &counters.oom,
        };
        let mut buf = [0u8; 1024];
        if let Some(n) = file.as_ref().and_then(|f| f.read_at(&mut buf, 0).ok()) {
            return parse(&String::from_utf8_lossy(&buf[..n]));
        }
        let text = self
            .counter_paths()
            .and_then(|p| fs::read_to_string(&p[which as usize]).ok());
        parse(text.as_deref().unwrap_or_default())
    }

    /// CPU of every process that ever ran in the group: [`Cgroup::usage`]'s, its one counter only
    /// (the watch and the pacer read it many times a second).
    pub fn cpu(&self) -> Duration {
        self.read_counter(Counter::Cpu, |text| match self.version {
            Version::V2 => Duration::from_micros(field(text, "usage_usec ").unwrap_or(0)),
            Version::V1 => Duration::from_nanos(text.trim().parse().unwrap_or(0)),
        })
    }

    /// CPU of every process that ever ran in the group, peak memory, and whether the kernel killed for
    /// memory. Unreadable counters read as zero rather than failing a run already done.
    pub fn usage(&self) -> Usage {
        // v2's `memory.events` and v1's `memory.oom_control` both count the kills on this line.
        let oom = |text: &str| field(text, "oom_kill ").unwrap_or(0) > 0;
        Usage {
            cpu: self.cpu(),
            peak_memory: self.read_counter(Counter::Peak, |text| text.trim().parse().ok()),
            oom: self.read_counter(Counter::Oom, oom),
        }
    }

    /// The processes in the group now.
    pub fn pids(&self) -> Vec<libc::pid_t> {
        procs(&self.dirs[0])
    }

    /// Freezes (`true`) or thaws the group: cgroup v2's `cgroup.freeze`, or v1's `freezer.state`. The
    /// kernel stops every process of the group, one forked a moment ago included, and no signal of
    /// theirs (a `SIGCONT` to the family) undoes it. False where the machine has no freezer, or it
    /// cannot be written; a freeze is waited for (`FROZEN`) for at most [`FREEZE_WAIT`].
    pub fn freeze(&self, on: bool) -> bool {
        match (self.version, v1_dir(&self.dirs, "freezer")) {
            (Version::V2, _) => write(
                &self.dirs[0].join("cgroup.freeze"),
                if on { "1" } else { "0" },
            )
            .is_ok(),
            (Version::V1, Some(dir)) => {
                let state = dir.join("freezer.state");
                if write(&state, if on { "FROZEN" } else { "THAWED" }).is_err() {
                    return false;
                }
                let deadline = Instant::now() + FREEZE_WAIT;
                while on && Instant::now() < deadline {
                    if fs::read_to_string(&state).is_ok_and(|s| s.trim() == "FROZEN") {
                        break;
                    }
                    std::thread::sleep(Duration::from_micros(200));
                }
                true
            }
            (Version::V1, None) => false,
        }
    }

    /// SIGKILLs everything in the group, repeating while new processes appear (a fork bomb races).
    pub fn kill_all(&self) {
        if self.version == Version::V2 && write(&self.dirs[0].join("cgroup.kill"), "1").is_ok() {
            return;
        }
        // A task frozen by v1's freezer dies only once thawed: killed first, so none runs meanwhile.
        if self.version == Version::V1 && v1_dir(&self.dirs, "freezer").is_some() {
            for pid in self.pids() {
                // SAFETY: kill has no memory-safety preconditions.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            thaw_v1(&self.dirs);
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

/// The number after `key` on one of `text`'s lines (`oom_kill 1`).
fn field(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
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
        // A v1 freezer directory left frozen (a grader that died mid-stop): killed tasks die once thawed.
        if dir.join("freezer.state").exists() {
            let _ = fs::write(dir.join("freezer.state"), "THAWED");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        // Usually empty by now (the init's end took its whole namespace along): the pool's thread
        // removes it off the run's path. Without that thread, now.
        drop(self.counters.take());
        let dirs = std::mem::take(&mut self.dirs);
        if let Err(dirs) = pool::doom(self.version, dirs) {
            destroy(self.version, &dirs);
        }
    }
}

/// Removes a group's directories, first killing all at once whatever it still holds (a fork bomb races a
/// per-pid kill) when it cannot be removed as it is.
fn destroy(version: Version, dirs: &[PathBuf]) {
    let Some(first) = dirs.first() else {
        return;
    };
    if fs::remove_dir(first).is_err() && first.exists() {
        let group = Cgroup {
            version,
            dirs: dirs.to_vec(),
            limits: None,
            counters: std::sync::OnceLock::new(),
        };
        group.kill_all();
        // Its drop would come back here.
        std::mem::forget(group);
    }
    for dir in dirs {
        remove(dir);
    }
}

/// Empty groups made ahead of time by a background thread, each taken by one run (never reused: the
/// counters of a used group are not zero). The thread gives a new group the limits the last run asked
/// for, so a grading whose runs share limits writes none at start.
mod pool {
    use std::sync::{Condvar, Mutex, OnceLock};

    use std::path::PathBuf;

    use super::{destroy, Cgroup, CgroupError, Limits, Version};

    /// How many groups wait ready.
    const READY: usize = 2;

    struct Pool {
        version: Version,
        /// Whether the thread runs: when it has stopped, runs make and remove their own groups.
        running: std::sync::atomic::AtomicBool,
        state: Mutex<State>,
        wanted: Condvar,
    }

    struct State {
        ready: Vec<Cgroup>,
        /// Groups of ended runs, to remove.
        doomed: Vec<(Version, Vec<PathBuf>)>,
        last: Option<Limits>,
        /// Set at exit: the thread makes no more, so none is left behind.
        closed: bool,
        /// The thread is making or removing groups outside the lock.
        busy: bool,
    }

    static POOL: OnceLock<Pool> = OnceLock::new();

    fn pool(version: Version) -> &'static Pool {
        POOL.get_or_init(|| {
            let made = Pool {
                version,
                running: std::sync::atomic::AtomicBool::new(true),
                state: Mutex::new(State {
                    ready: Vec::new(),
                    doomed: Vec::new(),
                    last: None,
                    closed: false,
                    busy: false,
                }),
                wanted: Condvar::new(),
            };
            // Without the thread (spawn failed) every run makes and removes its own group.
            if std::thread::Builder::new()
                .name("grader-cgroups".into())
                .spawn(move || fill(pool(version)))
                .is_err()
            {
                made.running
                    .store(false, std::sync::atomic::Ordering::Relaxed);
            }
            // SAFETY: registering a plain `extern "C"` function.
            unsafe { libc::atexit(close) };
            made
        })
    }

    fn fill(pool: &Pool) {
        fill_until_failure(pool);
        // Whatever was handed over meanwhile is removed here; later runs remove their own.
        let doomed = {
            let mut state = pool.state.lock().unwrap_or_else(|e| e.into_inner());
            pool.running
                .store(false, std::sync::atomic::Ordering::Relaxed);
            std::mem::take(&mut state.doomed)
        };
        for (version, dirs) in doomed {
            destroy(version, &dirs);
        }
    }

    fn fill_until_failure(pool: &Pool) {
        loop {
            let (last, doomed, wanted) = {
                let mut state = pool.state.lock().unwrap_or_else(|e| e.into_inner());
                while !state.closed && state.ready.len() >= READY && state.doomed.is_empty() {
                    state = pool.wanted.wait(state).unwrap_or_else(|e| e.into_inner());
                }
                if state.closed {
                    return;
                }
                // Exit waits for what this thread does outside the lock: it never leaves a group.
                state.busy = true;
                let wanted = state.ready.len() < READY;
                (state.last, std::mem::take(&mut state.doomed), wanted)
            };
            // Removing the groups of ended runs first keeps their number bounded.
            for (version, dirs) in doomed {
                destroy(version, &dirs);
            }
            let made = if wanted {
                Cgroup::make(pool.version).and_then(|mut group| {
                    if let Some(limits) = last {
                        group.limit(limits)?;
                    }
                    Ok(group)
                })
            } else {
                Err(CgroupError::Missing)
            };
            let failed = wanted && made.is_err();
            let mut state = pool.state.lock().unwrap_or_else(|e| e.into_inner());
            if let Ok(group) = made {
                if state.closed {
                    // Dropping it removes it, now that the pool is closed.
                    drop(state);
                    drop(group);
                    state = pool.state.lock().unwrap_or_else(|e| e.into_inner());
                } else {
                    state.ready.push(group);
                }
            }
            state.busy = false;
            pool.wanted.notify_all();
            if failed {
                return;
            }
        }
    }

    /// A ready group of this hierarchy, when one is; remembers `limits` for the next ones.
    pub(super) fn take(version: Version, limits: Limits) -> Option<Cgroup> {
        let pool = pool(version);
        if pool.version != version {
            return None;
        }
        let mut state = pool.state.lock().unwrap_or_else(|e| e.into_inner());
        state.last = Some(limits);
        let group = state.ready.pop();
        pool.wanted.notify_one();
        group
    }

    /// Hands an ended run's group to the thread to remove; gives it back when there is no thread to.
    pub(super) fn doom(version: Version, dirs: Vec<PathBuf>) -> Result<(), Vec<PathBuf>> {
        let Some(pool) = POOL.get() else {
            return Err(dirs);
        };
        let mut state = pool.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.closed || !pool.running.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(dirs);
        }
        state.doomed.push((version, dirs));
        pool.wanted.notify_one();
        Ok(())
    }

    /// At exit: removes the groups still waiting or doomed, so a grader leaves none behind.
    extern "C" fn close() {
        let Some(pool) = POOL.get() else {
            return;
        };
        let mut state = pool.state.lock().unwrap_or_else(|e| e.into_inner());
        state.closed = true;
        pool.wanted.notify_all();
        // Let the thread finish the group it is making or removing (a fraction of a millisecond);
        // never wait long at exit.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
        while state.busy {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            state = pool
                .wanted
                .wait_timeout(state, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        let ready = std::mem::take(&mut state.ready);
        let doomed = std::mem::take(&mut state.doomed);
        drop(state);
        drop(ready);
        for (version, dirs) in doomed {
            destroy(version, &dirs);
        }
    }
}

/// Removes groups left by graders that are no longer running (a crash, a SIGKILL), killing any process
/// still in them. Returns how many it removed.
pub fn clean_stale(version: Version) -> usize {
    let root = Path::new(ROOT);
    let parents: Vec<PathBuf> = match version {
        Version::V2 => vec![root.join(PARENT)],
        // The freezer first: a group a dead grader left frozen is thawed there, so its tasks can die.
        Version::V1 => v1_controllers()
            .iter()
            .rev()
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

    /// A group from the pool already has the limits of an earlier run: raising and lowering them must
    /// both work (v1 keeps memory ≤ memory+swap at every write), and they must read back.
    #[test]
    fn limits_can_be_raised_and_lowered_on_a_group() {
        let Ok(version) = detect() else {
            eprintln!("skipping: no cgroup hierarchy here");
            return;
        };
        let mut group = Cgroup::make(version).unwrap();
        for (memory, processes) in [(64u64 << 20, 8u32), (256 << 20, 64), (32 << 20, 4)] {
            group.limit(Limits { memory, processes }).unwrap();
            let (mem_file, pids_dir) = match version {
                Version::V2 => ("memory.max", &group.dirs[0]),
                Version::V1 => ("memory.limit_in_bytes", &group.dirs[1]),
            };
            let read = |p: PathBuf| fs::read_to_string(p).unwrap().trim().to_owned();
            assert_eq!(read(group.dirs[0].join(mem_file)), memory.to_string());
            assert_eq!(read(pids_dir.join("pids.max")), processes.to_string());
        }
        let dirs = group.dirs.clone();
        drop(group);
        // Removed by the pool's thread, off the caller's path, soon.
        let deadline = Instant::now() + Duration::from_secs(5);
        while dirs.iter().any(|d| d.exists()) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(dirs.iter().all(|d| !d.exists()), "a dropped group is left");
    }

    /// Groups come from the pool fresh: never one another run used.
    #[test]
    fn the_kept_open_counters_read_what_the_files_opened_afresh_read() {
        let Ok(version) = detect() else {
            eprintln!("skipping: no cgroup hierarchy here");
            return;
        };
        let group = Cgroup::create(version, 64 << 20, 8).unwrap();
        // Opened before anything ran: the same file read again later sees the later count.
        assert_eq!(group.cpu(), Duration::ZERO);
        let mut child = std::process::Command::new("sh")
            .args([
                "-c",
                "read _; x=$(head -c 4000000 /dev/zero | tr '\\0' a); i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done",
            ])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        for dir in &group.dirs {
            fs::write(dir.join("cgroup.procs"), child.id().to_string()).unwrap();
        }
        // Starts spinning only once it is in the group.
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"go\n").unwrap();
        assert!(child.wait().unwrap().success());
        let kept = group.usage();
        assert!(kept.cpu > Duration::from_millis(20), "{kept:?}");
        // The files opened before the run read what the same files opened now read.
        let fresh =
            |i: Counter| fs::read_to_string(&group.counter_paths().unwrap()[i as usize]).unwrap();
        let cpu = match version {
            Version::V2 => {
                Duration::from_micros(field(&fresh(Counter::Cpu), "usage_usec ").unwrap())
            }
            Version::V1 => Duration::from_nanos(fresh(Counter::Cpu).trim().parse().unwrap()),
        };
        assert_eq!(kept.cpu, cpu);
        assert_eq!(group.cpu(), cpu);
        let peak: u64 = fresh(Counter::Peak).trim().parse().unwrap();
        assert!(peak > 0);
        assert_eq!(kept.peak_memory, Some(peak));
        assert_eq!(
            kept.oom,
            field(&fresh(Counter::Oom), "oom_kill ").unwrap() > 0
        );
    }

    #[test]
    fn every_created_group_is_new() {
        let Ok(version) = detect() else {
            eprintln!("skipping: no cgroup hierarchy here");
            return;
        };
        let mut seen = Vec::new();
        for _ in 0..6 {
            let group = Cgroup::create(version, 64 << 20, 8).unwrap();
            assert!(group.pids().is_empty());
            assert!(
                !seen.contains(&group.dirs[0]),
                "{:?} given twice",
                group.dirs[0]
            );
            seen.push(group.dirs[0].clone());
        }
    }

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
