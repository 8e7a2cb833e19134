//! A driven run's stderr, at no cost to the grader while it runs.
//!
//! A run driven to its end (`Sandbox::run` under `basic` and `full`) writes its stderr to a file of its
//! own (a `memfd`, in memory, never on disk; the program sees a plain file as fd 2). The kernel keeps it
//! and the grader reads the first `output` bytes once the run is over, so a flood costs the grader
//! nothing (through a pipe it cost as much as the program: 0.84 s of the grader's CPU a second,
//! `cargo bench --bench sandbox`). The file counts against the run's `file-size` limit like any other
//! file: a program that writes that much to stderr is stopped there (SIGXFSZ, `LimitHit::Stderr`) and
//! its verdict says so, where it used to run on to its CPU limit; a chatty program that writes less
//! passes as before. A pipe stays where stderr must be read as the program runs (an arena seat's), and
//! in the `none` tier, which sets no file-size limit to bound the file.

use std::fs::File;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

/// Where a program's stderr goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stderr {
    /// A pipe, read as the program runs.
    Pipe,
    /// A file of the run's own, read when it is over (a pipe where the system gives no `memfd`).
    File,
}

impl Stderr {
    /// The grader's end and the program's: one pipe, or two descriptors of one `memfd` (both
    /// close-on-exec; the program gets its own as fd 2).
    ///
    /// # Errors
    /// The system gives no pipe.
    pub fn open(self) -> io::Result<(OwnedFd, OwnedFd)> {
        if self == Stderr::File {
            if let Ok(ends) = memfd() {
                return Ok(ends);
            }
        }
        super::terminal::pipe()
    }
}

fn memfd() -> io::Result<(OwnedFd, OwnedFd)> {
    // SAFETY: memfd_create with a static name; the descriptor is owned below.
    let fd = unsafe { libc::memfd_create(c"stderr".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor owned by nobody else.
    let ours = unsafe { OwnedFd::from_raw_fd(fd) };
    let theirs = ours.try_clone()?;
    Ok((ours, theirs))
}

/// Whether `file` is a regular file (a run's stderr file), not a pipe or terminal.
#[must_use]
pub fn is_file(file: &File) -> bool {
    file.metadata().is_ok_and(|m| m.file_type().is_file())
}

/// The first `cap` bytes of a run's stderr file, whether there was more, and its size.
///
/// # Errors
/// The file cannot be read.
pub fn collect(file: &File, cap: usize) -> io::Result<(Vec<u8>, bool, u64)> {
    use std::os::unix::fs::FileExt;
    let size = file.metadata()?.len();
    let want = usize::try_from(size).map_or(cap, |s| s.min(cap));
    let mut kept = vec![0u8; want];
    let mut got = 0;
    while got < want {
        match file.read_at(&mut kept[got..], got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    kept.truncate(got);
    Ok((kept, size > got as u64, size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_stderr_file_keeps_the_first_bytes_and_the_size() {
        let (ours, theirs) = Stderr::File.open().unwrap();
        let (ours, mut theirs) = (File::from(ours), File::from(theirs));
        assert!(is_file(&ours));
        theirs.write_all(&[b'e'; 5000]).unwrap();
        let (kept, more, size) = collect(&ours, 1000).unwrap();
        assert_eq!((kept.len(), more, size), (1000, true, 5000));
        let (kept, more, _) = collect(&ours, 1 << 20).unwrap();
        assert_eq!((kept.len(), more), (5000, false));
        let (pipe, _) = Stderr::Pipe.open().unwrap();
        assert!(!is_file(&File::from(pipe)));
    }
}
