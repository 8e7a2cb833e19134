//! The folders runs write in: a [`Scratch`] names itself after the grader that owns it, can put each
//! sub-folder on a size- and inode-capped tmpfs, and [`sweep_stale`] removes what graders that died
//! left behind. Taking apart what a program left is `tree.rs`'s ([`remove_tree`]).

use std::ffi::{CString, OsStr};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};

pub use super::tree::{chown_tree, remove_tree, RemoveError};
use super::tree::{cstr, last};

/// Caps on one scratch folder (the `[scratch]` table of `grader.toml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Bytes of file data.
    pub bytes: u64,
    /// Files, folders and links together.
    pub inodes: u64,
}

/// Released sub-folders so far, for their names on the way out ([`Scratch::release`]).
static RELEASED: AtomicU64 = AtomicU64::new(0);

/// The prefix of every scratch folder a grader makes in the temporary folder.
const PREFIX: &str = "grader-run-";

/// A grader's scratch folder, `grader-run-<pid>-<start>-<random>` in the temporary folder: the pid and
/// start time of its owner let a later grader tell whether the owner is dead ([`sweep_stale`]).
/// Dropping it unmounts what it mounted and removes the tree.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
    /// Sub-folders with a tmpfs of their own mounted over them.
    mounts: Mutex<Vec<PathBuf>>,
    /// Removed off this thread when dropped ([`Scratch::for_one_run`]).
    later: bool,
}

impl Scratch {
    /// Makes a fresh scratch folder (sweeping stale ones left by dead graders first, once per process).
    pub fn new() -> io::Result<Scratch> {
        sweep_once();
        let prefix = format!("{PREFIX}{}-{}-", std::process::id(), own_start());
        let dir = tempfile::Builder::new().prefix(&prefix).tempdir()?;
        Ok(Scratch {
            path: dir.keep(),
            mounts: Mutex::new(Vec::new()),
            later: false,
        })
    }

    /// [`Scratch::new`] for one game or run: dropped, it is removed off the dropping thread
    /// (`removal.rs`), so the next run need not wait for the disk.
    pub fn for_one_run() -> io::Result<Scratch> {
        let mut scratch = Scratch::new()?;
        scratch.later = true;
        Ok(scratch)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Makes the sub-folder `name`; with `bounds`, on a tmpfs of its own capped to them, so what a run
    /// writes there is bounded and goes with one unmount. Without the right to mount (not root, not
    /// Linux), a plain folder.
    pub fn sub(&self, name: &str, bounds: Option<Bounds>) -> io::Result<PathBuf> {
        let dir = self.path.join(name);
        std::fs::create_dir(&dir)?;
        if let Some(b) = bounds {
            if mount_tmpfs(&dir, b).is_ok() {
                self.mounts_mut().push(dir.clone());
            }
        }
        Ok(dir)
    }

    /// Removes a sub-folder made by [`Scratch::sub`] (unmounting its tmpfs) once its runs are over.
    pub fn release(&self, dir: &Path) -> Result<(), RemoveError> {
        let mounted = {
            let mut mounts = self.mounts_mut();
            let before = mounts.len();
            mounts.retain(|m| m != dir);
            mounts.len() != before
        };
        if mounted {
            unmount(dir);
        }
        // Out of the way under a name never made again, then removed off this thread: the next run
        // may be given a folder of the same name at once.
        let n = RELEASED.fetch_add(1, Ordering::Relaxed);
        let away = self.path.join(format!(".released-{n}"));
        if std::fs::rename(dir, &away).is_ok() {
            super::removal::remove_later(away, false);
            return Ok(());
        }
        remove_tree(dir)
    }

    fn mounts_mut(&self) -> std::sync::MutexGuard<'_, Vec<PathBuf>> {
        self.mounts.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        for dir in std::mem::take(&mut *self.mounts_mut()) {
            unmount(&dir);
        }
        if self.later {
            super::removal::remove_later(std::mem::take(&mut self.path), true);
            return;
        }
        // What was released from it may still be queued: never two removals over one tree.
        super::removal::wait_removed();
        if let Err(e) = remove_tree(&self.path) {
            eprintln!("warning: {e}");
        }
    }
}

#[cfg(target_os = "linux")]
fn mount_tmpfs(dir: &Path, b: Bounds) -> io::Result<()> {
    let target = cstr(dir.as_os_str())?;
    let options = CString::new(format!(
        "size={},nr_inodes={},mode=0755",
        b.bytes.max(4096),
        b.inodes.max(16)
    ))
    .expect("no NUL");
    if crate::sandbox::linux::mount_tmpfs(&target, &options) == 0 {
        Ok(())
    } else {
        Err(last())
    }
}

#[cfg(not(target_os = "linux"))]
fn mount_tmpfs(_: &Path, _: Bounds) -> io::Result<()> {
    Err(io::Error::other("no tmpfs here"))
}

/// Detaches the mount at `dir`: its files go with the last user (the run's processes are dead).
fn unmount(dir: &Path) {
    #[cfg(target_os = "linux")]
    if let Ok(c) = cstr(dir.as_os_str()) {
        // SAFETY: a valid C string. MNT_NOFOLLOW: never unmount where a link points.
        unsafe { libc::umount2(c.as_ptr(), libc::MNT_DETACH | libc::UMOUNT_NOFOLLOW) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = dir;
}

/// The start time of process `pid` (clock ticks since boot), which tells it from a later process
/// given the same pid; `None` when it is not running (or this is not Linux).
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields are counted after the last `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

fn own_start() -> u64 {
    start_time(std::process::id()).unwrap_or(0)
}

fn sweep_once() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        sweep_stale(&std::env::temp_dir());
    });
}

/// Removes the scratch folders in `tmp` whose grader is no longer running (killed, crashed),
/// unmounting the tmpfs under them first. Folders of live graders are left alone. Returns how many
/// it removed.
pub fn sweep_stale(tmp: &Path) -> usize {
    // Without /proc no owner can be told alive: sweep nothing rather than a live grader's folder.
    if start_time(std::process::id()).is_none() {
        return 0;
    }
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(owner) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else {
            continue;
        };
        let mut parts = owner.splitn(3, '-');
        let (Some(Ok(pid)), Some(Ok(start))) = (
            parts.next().map(str::parse::<u32>),
            parts.next().map(str::parse::<u64>),
        ) else {
            continue;
        };
        if start_time(pid) == Some(start) {
            continue;
        }
        let path = entry.path();
        for m in mounts_under(&path) {
            unmount(&m);
        }
        if remove_tree(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Mount points at or under `dir` in this mount namespace, deepest first.
fn mounts_under(dir: &Path) -> Vec<PathBuf> {
    let Ok(info) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = info
        .lines()
        .filter_map(|l| l.split(' ').nth(4))
        .map(|p| PathBuf::from(OsStr::from_bytes(&unescape(p))))
        .filter(|p| p.starts_with(dir))
        .collect();
    found.sort_by_key(|p| std::cmp::Reverse(p.components().count()));
    found
}

/// mountinfo writes space, tab, newline and backslash as `\ooo`.
fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let octal = |c: &u8| (b'0'..=b'7').contains(c);
        if b[i] == b'\\' && i + 3 < b.len() && b[i + 1..i + 4].iter().all(octal) {
            let v = b[i + 1..i + 4]
                .iter()
                .fold(0u32, |v, c| v * 8 + u32::from(c - b'0'));
            out.push(v as u8);
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
#[path = "scratch_tests.rs"]
mod tests;
