//! Writing into a folder whose contents the grader does not trust (a results folder copied from
//! anywhere, one a run or a person could have planted links in): the folder itself is opened as
//! given, and every folder and file below it is made and opened relative to that handle with no link
//! followed (`mkdirat`, `openat` with `O_NOFOLLOW`), each file written under a fresh temporary name
//! (`O_CREAT | O_EXCL`) and renamed over its own (`renameat`, which replaces a link, never what it
//! points to). A `similarity.csv.tmp` or an `export/` planted as a link is refused or replaced, never
//! written through.

use std::ffi::{CString, OsStr};
use std::io::{self, Write as _};
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Component, Path};
use std::sync::atomic::{AtomicU64, Ordering};

/// A folder opened as a handle.
#[derive(Debug)]
pub struct Folder {
    fd: OwnedFd,
    /// Its path, for messages.
    shown: std::path::PathBuf,
}

fn cstring(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a name"))
}

fn check(r: libc::c_int) -> io::Result<libc::c_int> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// A link where a folder or file of the grader's was expected.
fn link_error(shown: &Path) -> io::Error {
    io::Error::other(format!(
        "`{}` is a symbolic link or not a folder; the grader writes only into its own folders",
        shown.display()
    ))
}

impl Folder {
    /// Opens `path` (made first when missing), following it as given: the folder a person named.
    ///
    /// # Errors
    /// It cannot be made or opened.
    pub fn open(path: &Path) -> io::Result<Folder> {
        std::fs::create_dir_all(path)?;
        let c = cstring(path.as_os_str())?;
        // SAFETY: a valid C string; the descriptor is owned below.
        let fd = check(unsafe {
            libc::open(
                c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        })?;
        Ok(Folder {
            // SAFETY: just opened, ours.
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
            shown: path.to_path_buf(),
        })
    }

    /// The folder `rel` below this one, each folder on the way made when missing, none a link.
    ///
    /// # Errors
    /// `rel` leaves the folder (`..`, absolute), a part of it is a link or a file, or it cannot be made.
    pub fn sub(&self, rel: &Path) -> io::Result<Folder> {
        let mut at = Folder {
            fd: self.fd.try_clone()?,
            shown: self.shown.clone(),
        };
        for part in rel.components() {
            let name = match part {
                Component::Normal(name) => name,
                Component::CurDir => continue,
                _ => {
                    return Err(io::Error::other(format!(
                        "`{}` is not a path inside `{}`",
                        rel.display(),
                        self.shown.display()
                    )))
                }
            };
            at = at.child(name)?;
        }
        Ok(at)
    }

    fn child(&self, name: &OsStr) -> io::Result<Folder> {
        let c = cstring(name)?;
        let shown = self.shown.join(name);
        // SAFETY: a valid descriptor and C string.
        let made = unsafe { libc::mkdirat(self.fd.as_raw_fd(), c.as_ptr(), 0o755) };
        if made < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST) {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: as above; the descriptor is owned below.
        let fd = unsafe {
            libc::openat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            let e = io::Error::last_os_error();
            return Err(match e.raw_os_error() {
                Some(libc::ELOOP | libc::ENOTDIR) => link_error(&shown),
                _ => e,
            });
        }
        Ok(Folder {
            // SAFETY: just opened, ours.
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
            shown,
        })
    }

    /// Writes `bytes` as the file `name` of this folder, atomically (a reader never sees half a file):
    /// a fresh temporary file (`O_EXCL`, no link followed, mode 0644), synced, then renamed over
    /// `name`. A link named `name` is replaced, never written through.
    ///
    /// # Errors
    /// `name` is not one plain name, or the file cannot be written.
    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        crate::untrusted::plain_name(name).map_err(io::Error::other)?;
        let final_name = cstring(OsStr::new(name))?;
        let (file, tmp) = loop {
            let tmp = format!(
                ".{name}.{}-{}.tmp",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            );
            let c = cstring(OsStr::new(&tmp))?;
            // SAFETY: a valid descriptor and C string; the descriptor is owned below.
            let fd = unsafe {
                libc::openat(
                    self.fd.as_raw_fd(),
                    c.as_ptr(),
                    libc::O_WRONLY
                        | libc::O_CREAT
                        | libc::O_EXCL
                        | libc::O_NOFOLLOW
                        | libc::O_CLOEXEC,
                    0o644 as libc::c_uint,
                )
            };
            if fd >= 0 {
                // SAFETY: just opened, ours.
                break (std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) }), c);
            }
            let e = io::Error::last_os_error();
            if e.raw_os_error() != Some(libc::EEXIST) {
                return Err(e);
            }
        };
        let written = (|| {
            let mut file = file;
            // Results are for reading by others, whatever the umask.
            // SAFETY: a valid descriptor.
            check(unsafe { libc::fchmod(file.as_raw_fd(), 0o644) })?;
            file.write_all(bytes)?;
            file.sync_all()?;
            // SAFETY: valid descriptors and C strings.
            check(unsafe {
                libc::renameat(
                    self.fd.as_raw_fd(),
                    tmp.as_ptr(),
                    self.fd.as_raw_fd(),
                    final_name.as_ptr(),
                )
            })
            .map(|_| ())
        })();
        if written.is_err() {
            // SAFETY: valid descriptor and C string.
            unsafe { libc::unlinkat(self.fd.as_raw_fd(), tmp.as_ptr(), 0) };
        }
        written
    }
}

/// Writes `bytes` as `path` atomically: its folder opened as given (made when missing), the file
/// itself written as [`Folder::write`] does, so a link planted at its name or its temporary name is
/// never written through.
///
/// # Errors
/// The folder cannot be made, or the file written.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .and_then(OsStr::to_str)
        .ok_or_else(|| io::Error::other(format!("`{}` names no file", path.display())))?;
    Folder::open(dir)?.write(name, bytes)
}

/// Writes `bytes` as `root/rel` atomically, every folder of `rel` made and opened below `root` with no
/// link followed ([`Folder::sub`]), the file as [`Folder::write`] writes it.
///
/// # Errors
/// A part of `rel` is a link or leaves `root`, or the file cannot be written.
pub fn write_in(root: &Path, rel: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = rel
        .file_name()
        .and_then(OsStr::to_str)
        .ok_or_else(|| io::Error::other(format!("`{}` names no file", rel.display())))?;
    let folder = Folder::open(root)?;
    let folder = match rel.parent() {
        Some(p) if !p.as_os_str().is_empty() => folder.sub(p)?,
        _ => folder,
    };
    folder.write(name, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_planted_below_the_root_are_replaced_or_refused_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("results");
        let target = dir.path().join("target");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&target).unwrap();
        std::fs::write(target.join("victim"), "keep").unwrap();
        // A link at the file's own name is replaced by the file.
        std::os::unix::fs::symlink(target.join("victim"), root.join("similarity.csv")).unwrap();
        write_in(&root, Path::new("similarity.csv"), b"new").unwrap();
        assert_eq!(
            std::fs::read_to_string(target.join("victim")).unwrap(),
            "keep"
        );
        assert_eq!(
            std::fs::read_to_string(root.join("similarity.csv")).unwrap(),
            "new"
        );
        assert!(!root.join("similarity.csv").is_symlink());
        // A link where a folder is made is refused.
        std::os::unix::fs::symlink(&target, root.join("export")).unwrap();
        let e = write_in(&root, Path::new("export/canvas.csv"), b"x").unwrap_err();
        assert!(e.to_string().contains("is a symbolic link"), "{e}");
        assert!(!target.join("canvas.csv").exists());
        assert!(write_in(&root, Path::new("../x.csv"), b"x").is_err());
        // Folders are made, and files readable by all.
        write_in(&root, Path::new("a/b/c.json"), b"{}").unwrap();
        let mode = std::fs::metadata(root.join("a/b/c.json"))
            .unwrap()
            .permissions();
        assert_eq!(
            std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
            0o644
        );
        let left: Vec<_> = std::fs::read_dir(root.join("a/b")).unwrap().collect();
        assert_eq!(left.len(), 1, "a temporary file was left");
    }
}
