//! Taking apart and handing over what runs left: [`remove_tree`] removes any tree (any depth, any
//! modes, links never followed) with a bounded number of descriptors and no recursion, and
//! [`chown_tree`] gives one to the sandbox's user the same way.

use std::ffi::{CStr, CString, OsStr};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

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

pub(super) fn cstr(s: &OsStr) -> io::Result<CString> {
    CString::new(s.as_bytes()).map_err(|_| io::Error::other("a NUL byte in a path"))
}

pub(super) fn last() -> io::Error {
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
