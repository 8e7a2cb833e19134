//! The folders runs write in and their removal: [`remove_tree`] takes apart whatever a program left
//! (any depth, any modes, links never followed) with a bounded number of descriptors and no recursion;
//! a [`Scratch`] names itself after the grader that owns it, can put each sub-folder on a size- and
//! inode-capped tmpfs, and [`sweep_stale`] removes what graders that died left behind.

use std::ffi::{CStr, CString, OsStr};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// Directories open at once while taking a tree apart; a subtree found deeper is moved up to the top
/// folder and taken apart from there (so a 30,000-deep chain costs 30,000 / `OPEN_DEPTH` renames).
const OPEN_DEPTH: usize = 32;

/// A tree could not be removed. The grader reports it and carries on.
#[derive(Debug, thiserror::Error)]
#[error("cannot remove `{}` ({doing})", path.display())]
pub struct RemoveError {
    pub path: PathBuf,
    doing: &'static str,
    #[source]
    source: io::Error,
}

/// Caps on one scratch folder (the `[scratch]` table of `grader.toml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Bytes of file data.
    pub bytes: u64,
    /// Files, folders and links together.
    pub inodes: u64,
}

/// Removes `path` and everything under it. Links are removed, never followed; folders the program
/// made unreadable or unwritable are opened up first; nothing recurses, and at most [`OPEN_DEPTH`]
/// descriptors are open. Meant for trees whose processes are all dead: a tree still changing under
/// it may need a second call. A path that does not exist is already removed.
pub fn remove_tree(path: &Path) -> Result<(), RemoveError> {
    let fail = |doing, source| RemoveError {
        path: path.to_path_buf(),
        doing,
        source,
    };
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(fail("reading its metadata", e)),
    };
    if !meta.is_dir() {
        return gone_ok(std::fs::remove_file(path)).map_err(|e| fail("removing the file", e));
    }
    let c = cstr(path.as_os_str()).map_err(|e| fail("naming it", e))?;
    let root = match open_dir(libc::AT_FDCWD, &c) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        other => other.map_err(|e| fail("opening it", e))?,
    };
    empty(&root).map_err(|e| fail("emptying it", e))?;
    drop(root);
    gone_ok(std::fs::remove_dir(path)).map_err(|e| fail("removing the emptied folder", e))
}

fn gone_ok(r: io::Result<()>) -> io::Result<()> {
    match r {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

fn cstr(s: &OsStr) -> io::Result<CString> {
    CString::new(s.as_bytes()).map_err(|_| io::Error::other("a NUL byte in a path"))
}

fn last() -> io::Error {
    io::Error::last_os_error()
}

fn denied(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EACCES | libc::EPERM))
}

/// Opens the folder `name` in `at` without following a link; a folder the program made unreadable
/// (mode 000) is given back to its owner first.
fn open_dir(at: RawFd, name: &CStr) -> io::Result<OwnedFd> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    for attempt in 0..2 {
        // SAFETY: a valid C string and descriptor.
        let fd = unsafe { libc::openat(at, name.as_ptr(), flags) };
        if fd >= 0 {
            // SAFETY: a fresh descriptor owned by nobody else.
            return Ok(unsafe { OwnedFd::from_raw_fd(fd) });
        }
        let e = last();
        if attempt == 1 || !denied(&e) {
            return Err(e);
        }
        // SAFETY: a valid C string and descriptor; never follows a link.
        unsafe { libc::fchmodat(at, name.as_ptr(), 0o700, libc::AT_SYMLINK_NOFOLLOW) };
    }
    unreachable!("the loop returns")
}

/// `unlinkat`, opening up the containing folder once if the program made it unwritable.
fn unlink(dir: RawFd, name: &CStr, flags: libc::c_int) -> io::Result<()> {
    for attempt in 0..2 {
        // SAFETY: a valid C string and descriptor.
        if unsafe { libc::unlinkat(dir, name.as_ptr(), flags) } == 0 {
            return Ok(());
        }
        let e = last();
        if e.kind() == io::ErrorKind::NotFound {
            return Ok(());
        }
        if attempt == 1 || !denied(&e) {
            return Err(e);
        }
        // SAFETY: our own descriptor.
        unsafe { libc::fchmod(dir, 0o700) };
    }
    unreachable!("the loop returns")
}

/// A directory stream over a descriptor of its own.
struct Dir(*mut libc::DIR);

impl Dir {
    fn new(fd: OwnedFd) -> io::Result<Dir> {
        let raw = fd.as_raw_fd();
        // SAFETY: fdopendir takes ownership of the descriptor on success.
        let dir = unsafe { libc::fdopendir(raw) };
        if dir.is_null() {
            return Err(last());
        }
        std::mem::forget(fd);
        Ok(Dir(dir))
    }

    fn fd(&self) -> RawFd {
        // SAFETY: a live stream.
        unsafe { libc::dirfd(self.0) }
    }

    /// The next entry other than `.` and `..`: its name and whether it is a folder.
    fn next(&mut self) -> io::Result<Option<(CString, bool)>> {
        loop {
            // SAFETY: errno is thread-local; readdir on a live stream.
            let entry = unsafe {
                *libc::__errno_location() = 0;
                libc::readdir(self.0)
            };
            if entry.is_null() {
                let e = last();
                return if e.raw_os_error().unwrap_or(0) == 0 {
                    Ok(None)
                } else {
                    Err(e)
                };
            }
            // SAFETY: readdir returned a valid entry, alive until the next call.
            let (name, kind) = unsafe {
                (
                    CStr::from_ptr((*entry).d_name.as_ptr()).to_owned(),
                    (*entry).d_type,
                )
            };
            if name.as_bytes() == b"." || name.as_bytes() == b".." {
                continue;
            }
            let is_dir = match kind {
                libc::DT_DIR => true,
                libc::DT_UNKNOWN => {
                    // SAFETY: a zeroed stat is a valid out-parameter.
                    let mut st: libc::stat = unsafe { std::mem::zeroed() };
                    // SAFETY: valid descriptor, C string and out-pointer; links are not followed.
                    let r = unsafe {
                        libc::fstatat(self.fd(), name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW)
                    };
                    r == 0 && st.st_mode & libc::S_IFMT == libc::S_IFDIR
                }
                _ => false,
            };
            return Ok(Some((name, is_dir)));
        }
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        // SAFETY: our own stream, closed once.
        unsafe { libc::closedir(self.0) };
    }
}

/// Removes everything inside the folder open at `root`.
fn empty(root: &OwnedFd) -> io::Result<()> {
    let mut moved = 0u64;
    loop {
        let mut removed = 0u64;
        // Each level: its stream, and its name in the level above (to remove it once emptied).
        let mut stack: Vec<(Dir, Option<CString>)> = vec![(Dir::new(reopen(root)?)?, None)];
        while let Some((dir, _)) = stack.last_mut() {
            let Some((name, is_dir)) = dir.next()? else {
                let (dir, name) = stack.pop().expect("a level");
                drop(dir);
                if let (Some(name), Some((parent, _))) = (name, stack.last()) {
                    unlink(parent.fd(), &name, libc::AT_REMOVEDIR)?;
                    removed += 1;
                }
                continue;
            };
            let at = dir.fd();
            if !is_dir {
                unlink(at, &name, 0)?;
                removed += 1;
                continue;
            }
            // An empty folder goes at once, without a descriptor.
            match unlink(at, &name, libc::AT_REMOVEDIR) {
                Ok(()) => {
                    removed += 1;
                    continue;
                }
                Err(e) if matches!(e.raw_os_error(), Some(libc::ENOTEMPTY | libc::EEXIST)) => {}
                Err(e) => return Err(e),
            }
            if stack.len() < OPEN_DEPTH {
                let child = Dir::new(open_dir(at, &name)?)?;
                stack.push((child, Some(name)));
            } else {
                // Too deep to hold open: move the subtree up to the top, to be taken apart from there.
                moved = move_up(at, &name, root.as_raw_fd(), moved)?;
                removed += 1;
            }
        }
        if is_empty(root)? {
            return Ok(());
        }
        // A pass that removed nothing would loop forever: something refuses to go.
        if removed == 0 {
            return Err(io::Error::other("an entry cannot be removed"));
        }
    }
}

/// A new descriptor for the folder open at `fd` (a stream consumes its descriptor).
fn reopen(fd: &OwnedFd) -> io::Result<OwnedFd> {
    open_dir(fd.as_raw_fd(), c".")
}

fn is_empty(root: &OwnedFd) -> io::Result<bool> {
    Ok(Dir::new(reopen(root)?)?.next()?.is_none())
}

/// Renames `name` in `from` to a fresh name in `root`; returns the next counter.
fn move_up(from: RawFd, name: &CStr, root: RawFd, mut n: u64) -> io::Result<u64> {
    let mut opened = false;
    loop {
        n += 1;
        let fresh = CString::new(format!(".grader-deep-{n}")).expect("no NUL");
        // SAFETY: valid descriptors and C strings.
        let r = unsafe {
            libc::renameat2(
                from,
                name.as_ptr(),
                root,
                fresh.as_ptr(),
                libc::RENAME_NOREPLACE,
            )
        };
        if r == 0 {
            return Ok(n);
        }
        let e = last();
        match e.raw_os_error() {
            Some(libc::EEXIST) => continue,
            // Moving a folder rewrites its `..`: it must be writable, as must the one it leaves.
            Some(libc::EACCES | libc::EPERM) if !opened => {
                opened = true;
                // SAFETY: valid descriptors and C string; never follows a link.
                unsafe {
                    libc::fchmod(from, 0o700);
                    libc::fchmodat(from, name.as_ptr(), 0o700, libc::AT_SYMLINK_NOFOLLOW);
                }
                n -= 1;
            }
            _ => return Err(e),
        }
    }
}

/// Folders [`chown_tree`] descends into at most; below that, a tree was made by a run (the grader's own
/// copies are never that deep), hence already the sandbox's.
const CHOWN_DEPTH: usize = 128;

/// Gives `dir` and everything in it to `uid`:`gid`, links not followed (changed themselves), without
/// recursion and with at most [`CHOWN_DEPTH`] descriptors: a run's working folder may hold whatever
/// an earlier run there (a build step) left, however deep.
pub fn chown_tree(dir: &Path, uid: u32, gid: u32) -> io::Result<()> {
    let c = cstr(dir.as_os_str())?;
    if !give(libc::AT_FDCWD, &c, uid, gid)? {
        return Ok(());
    }
    let mut stack = vec![Dir::new(open_dir(libc::AT_FDCWD, &c)?)?];
    while let Some(top) = stack.last_mut() {
        let Some((name, _)) = top.next()? else {
            stack.pop();
            continue;
        };
        let at = top.fd();
        if give(at, &name, uid, gid)? && stack.len() < CHOWN_DEPTH {
            let child = Dir::new(open_dir(at, &name)?)?;
            stack.push(child);
        }
    }
    Ok(())
}

/// Gives `name` in `at` to `uid`:`gid` if it is not theirs yet: whether it is a folder.
fn give(at: RawFd, name: &CStr, uid: u32, gid: u32) -> io::Result<bool> {
    // SAFETY: a zeroed stat is a valid out-parameter.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: valid descriptor, C string and out-pointer; links are not followed.
    if unsafe { libc::fstatat(at, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) } != 0 {
        return Err(last());
    }
    if st.st_uid != uid || st.st_gid != gid {
        // SAFETY: as above.
        let r = unsafe { libc::fchownat(at, name.as_ptr(), uid, gid, libc::AT_SYMLINK_NOFOLLOW) };
        if r != 0 {
            return Err(last());
        }
    }
    Ok(st.st_mode & libc::S_IFMT == libc::S_IFDIR)
}

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
        })
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
