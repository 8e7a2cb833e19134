//! Everything a submission produced is hostile input: this module owns the two doors through which it
//! reaches the grader. [`read_output`] opens a file a run left behind without following links, without
//! blocking and with a size cap; [`one_line`] and [`block`] make text a program printed safe to show on
//! a terminal, in a CSV cell or in a report (control bytes escaped, length capped).

use std::fmt::Write as _;
use std::io::{self, Read as _};
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Component, Path};

/// Why a file a run was asked to write could not be read. Each is the submission's doing, so each is a
/// verdict for that case, never an error of the grader.
#[derive(Debug, thiserror::Error)]
pub enum OutputFileError {
    #[error("`{name}` was not written")]
    Missing { name: String },
    #[error("`{name}` is a symbolic link; write a regular file")]
    Link { name: String },
    #[error("`{name}` is {kind}, not a regular file; write a regular file")]
    NotRegular { name: String, kind: &'static str },
    /// A hard link shares its content with another file, which may be anything the run could reach.
    #[error("`{name}` is a hard link to another file; write a regular file")]
    HardLink { name: String },
    #[error("`{name}` is larger than the {cap} bytes the grader reads; write less")]
    TooLarge { name: String, cap: u64 },
    #[error(
        "`{name}` is a path the grader does not read (it must stay inside the working folder)"
    )]
    Outside { name: String },
    #[error("cannot read `{name}`: {source}")]
    Io {
        name: String,
        #[source]
        source: io::Error,
    },
}

/// What [`read_output`] read: at most `cap` bytes, and whether the file held more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capped {
    pub bytes: Vec<u8>,
    pub truncated: bool,
}

/// Reads `rel` (a relative path) inside `dir` the way every file a run left must be read: no symbolic
/// link is followed anywhere on the path (nor a `..` out of `dir`), the open never blocks (a FIFO or a
/// device is refused before any read), the file must be a regular file with no other name (a hard link
/// shares its content with a file the run may not own), and at most `cap` bytes are read.
///
/// # Errors
/// An [`OutputFileError`] naming the file and what is wrong with it.
pub fn read_output(dir: &Path, rel: &Path, cap: u64) -> Result<Capped, OutputFileError> {
    let name = rel.display().to_string();
    let mut file = open_output(dir, rel)?;
    let io_err = |source: io::Error| OutputFileError::Io {
        name: name.clone(),
        source,
    };
    let len = file.metadata().map_err(io_err)?.len();
    let mut bytes = Vec::with_capacity(usize::try_from(len.min(cap)).unwrap_or(0));
    (&mut file)
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_err)?;
    let truncated = bytes.len() as u64 > cap;
    bytes.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
    Ok(Capped { bytes, truncated })
}

/// Opens `rel` inside `dir` as [`read_output`] does (no link followed, never blocking, a regular file
/// with no other name), for a caller that streams the file itself and so applies its own cap.
///
/// # Errors
/// An [`OutputFileError`] naming the file and what is wrong with it.
pub fn open_output(dir: &Path, rel: &Path) -> Result<std::fs::File, OutputFileError> {
    let name = rel.display().to_string();
    if rel.is_absolute()
        || rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(OutputFileError::Outside { name });
    }
    let io_err = |source: io::Error| OutputFileError::Io {
        name: name.clone(),
        source,
    };
    let base = open_dir(dir).map_err(io_err)?;
    let fd = open_beneath(&base, rel).map_err(|e| match e.raw_os_error() {
        Some(libc::ENOENT) => OutputFileError::Missing { name: name.clone() },
        // ELOOP: a link where O_NOFOLLOW or RESOLVE_NO_SYMLINKS refused it; EXDEV: a path leaving `dir`.
        Some(libc::ELOOP) => OutputFileError::Link { name: name.clone() },
        Some(libc::EXDEV) => OutputFileError::Outside { name: name.clone() },
        // A folder on the way that is not one (or is a link to a file).
        Some(libc::ENOTDIR) => OutputFileError::NotRegular {
            name: name.clone(),
            kind: "inside something that is not a folder",
        },
        _ => io_err(e),
    })?;
    let file = std::fs::File::from(fd);
    let meta = file.metadata().map_err(io_err)?;
    if !meta.is_file() {
        return Err(OutputFileError::NotRegular {
            kind: kind_of(&meta),
            name,
        });
    }
    if std::os::unix::fs::MetadataExt::nlink(&meta) > 1 {
        return Err(OutputFileError::HardLink { name });
    }
    Ok(file)
}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    let t = meta.file_type();
    if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "a special file"
    }
}

fn cstring(path: &Path) -> io::Result<std::ffi::CString> {
    std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in the path"))
}

fn open_dir(dir: &Path) -> io::Result<OwnedFd> {
    let c = cstring(dir)?;
    // SAFETY: a valid C string; the descriptor is owned below.
    let fd = unsafe {
        libc::open(
            c.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC | libc::O_NOFOLLOW,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is ours.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

const FLAGS: libc::c_int = libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;

#[cfg(target_os = "linux")]
fn open_beneath(base: &OwnedFd, rel: &Path) -> io::Result<OwnedFd> {
    let c = cstring(rel)?;
    // The kernel's `struct open_how` (libc's is non-exhaustive, so it is written out here).
    #[repr(C)]
    struct OpenHow {
        flags: u64,
        mode: u64,
        resolve: u64,
    }
    let how = OpenHow {
        flags: FLAGS as u64,
        mode: 0,
        resolve: libc::RESOLVE_BENEATH | libc::RESOLVE_NO_SYMLINKS | libc::RESOLVE_NO_MAGICLINKS,
    };
    // SAFETY: openat2 reads `how` (of the size given) and the C string; the descriptor is owned below.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            base.as_raw_fd(),
            c.as_ptr(),
            std::ptr::from_ref(&how),
            std::mem::size_of::<OpenHow>(),
        )
    };
    if fd >= 0 {
        // SAFETY: the kernel returned a new descriptor.
        return Ok(unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) });
    }
    let err = io::Error::last_os_error();
    if matches!(err.raw_os_error(), Some(libc::ENOSYS | libc::EPERM)) {
        // Kernels before 5.6 (or a seccomp filter that hides openat2): walk the path one component at
        // a time, each opened with O_NOFOLLOW.
        return open_walk(base, rel);
    }
    Err(err)
}

#[cfg(not(target_os = "linux"))]
fn open_beneath(base: &OwnedFd, rel: &Path) -> io::Result<OwnedFd> {
    open_walk(base, rel)
}

fn open_walk(base: &OwnedFd, rel: &Path) -> io::Result<OwnedFd> {
    let parts: Vec<&std::ffi::OsStr> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(p),
            _ => None,
        })
        .collect();
    let mut dir: Option<OwnedFd> = None;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let flags = if last {
            FLAGS
        } else {
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC
        };
        let c = cstring(Path::new(part))?;
        let at = dir.as_ref().unwrap_or(base).as_raw_fd();
        // SAFETY: a valid descriptor and C string; the result is owned below.
        let fd = unsafe { libc::openat(at, c.as_ptr(), flags) };
        if fd < 0 {
            let err = io::Error::last_os_error();
            // O_DIRECTORY | O_NOFOLLOW on a link says ENOTDIR: tell a link from a file as openat2 does.
            if err.raw_os_error() == Some(libc::ENOTDIR) && is_link(at, &c) {
                return Err(io::Error::from_raw_os_error(libc::ELOOP));
            }
            return Err(err);
        }
        // SAFETY: the kernel returned a new descriptor.
        dir = Some(unsafe { OwnedFd::from_raw_fd(fd) });
    }
    dir.ok_or_else(|| io::Error::from_raw_os_error(libc::ENOENT))
}

fn is_link(at: libc::c_int, name: &std::ffi::CStr) -> bool {
    // SAFETY: an all-zero stat is valid; fstatat fills it.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a valid descriptor, C string and stat buffer.
    let r = unsafe { libc::fstatat(at, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) };
    r == 0 && st.st_mode & libc::S_IFMT == libc::S_IFLNK
}

/// Checks that `name`, read from a file (a manifest's suite, a result's student), is one plain path
/// component the grader may join to a folder: not empty, not `.` or `..`, no `/` and no NUL, at most
/// 255 bytes. A name that is not could write outside the folder, or name the folder itself.
///
/// # Errors
/// What is wrong with it, quoting it escaped.
pub fn plain_name(name: &str) -> Result<(), String> {
    let why = if name.is_empty() {
        "is empty"
    } else if name == "." || name == ".." {
        "names a folder itself or its parent"
    } else if name.contains('/') || name.contains('\0') {
        "holds a `/` or a NUL"
    } else if name.len() > 255 {
        "is longer than a file name may be"
    } else {
        return Ok(());
    };
    Err(format!("the name `{}` {why}", one_line(name, 80)))
}

/// Characters that change how the text around them reads without showing themselves: C0 and C1
/// controls and DEL; Unicode's bidirectional controls (the marks U+061C, U+200E, U+200F, the
/// embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069), which reorder what a reader
/// sees; and the line and paragraph separators U+2028 and U+2029, which break a line where none shows.
/// Each is shown escaped wherever text a program or a file gave reaches a person.
#[must_use]
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}'
        )
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// Text a program printed, made safe for one line of a terminal, a table cell or a CSV field: every
/// control character (newlines and tabs included, ESC above all) is shown escaped (`\n`, `\t`,
/// `\x1b`, `\u{9b}`), and past `cap` characters the rest is replaced by a note of how much was cut.
#[must_use]
pub fn one_line(text: &str, cap: usize) -> String {
    escape(text, cap, false)
}

/// As [`one_line`] for a block of several lines: newlines and tabs are kept, every other control
/// character is escaped, and past `cap` characters the rest is cut with a note.
#[must_use]
pub fn block(text: &str, cap: usize) -> String {
    escape(text, cap, true)
}

/// Bytes a program printed, decoded lossily (invalid UTF-8 becomes U+FFFD), then as [`one_line`].
#[must_use]
pub fn one_line_bytes(bytes: &[u8], cap: usize) -> String {
    one_line(&String::from_utf8_lossy(bytes), cap)
}

fn escape(text: &str, cap: usize, keep_lines: bool) -> String {
    let mut out = String::with_capacity(text.len().min(cap.saturating_mul(2)));
    for (shown, (at, c)) in text.char_indices().enumerate() {
        if shown == cap {
            let rest = text.len() - at;
            let _ = write!(out, "… ({rest} more bytes)");
            return out;
        }
        match c {
            '\n' | '\t' if keep_lines => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if u32::from(c) < 0x20 || c == '\x7f' => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            // C1 controls (CSI is U+009B), the bidirectional controls that reorder what a reader
            // sees, and the separators that break a line unseen.
            c if is_hidden(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_regular_file_with_a_cap() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("v.txt"), b"abcdef").unwrap();
        let got = read_output(dir.path(), Path::new("v.txt"), 4).unwrap();
        assert_eq!(got.bytes, b"abcd");
        assert!(got.truncated);
        let got = read_output(dir.path(), Path::new("v.txt"), 6).unwrap();
        assert_eq!(got.bytes, b"abcdef");
        assert!(!got.truncated);
    }

    #[test]
    fn refuses_links_fifos_devices_and_escapes() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("secret");
        std::fs::write(&secret, b"golden").unwrap();
        let run = dir.path().join("run");
        std::fs::create_dir(&run).unwrap();
        std::os::unix::fs::symlink(&secret, run.join("link.txt")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", run.join("zero.txt")).unwrap();
        std::os::unix::fs::symlink(dir.path(), run.join("up")).unwrap();
        let fifo = cstring(&run.join("fifo.txt")).unwrap();
        // SAFETY: a valid C string.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let err = |rel: &str| read_output(&run, Path::new(rel), 1 << 20).unwrap_err();
        assert!(matches!(err("link.txt"), OutputFileError::Link { .. }));
        assert!(matches!(err("zero.txt"), OutputFileError::Link { .. }));
        assert!(matches!(err("up/secret"), OutputFileError::Link { .. }));
        assert!(matches!(err("../secret"), OutputFileError::Outside { .. }));
        assert!(matches!(
            err("/etc/passwd"),
            OutputFileError::Outside { .. }
        ));
        assert!(matches!(
            err("missing.txt"),
            OutputFileError::Missing { .. }
        ));
        let fifo = err("fifo.txt");
        assert!(
            matches!(fifo, OutputFileError::NotRegular { kind, .. } if kind.contains("FIFO")),
            "{fifo}"
        );
        std::fs::hard_link(&secret, run.join("hard.txt")).unwrap();
        assert!(matches!(err("hard.txt"), OutputFileError::HardLink { .. }));
        assert_eq!(
            err("link.txt").to_string(),
            "`link.txt` is a symbolic link; write a regular file"
        );
        // The walk used on kernels without openat2 refuses the same.
        let base = open_dir(&run).unwrap();
        for rel in ["link.txt", "up/secret"] {
            let e = open_walk(&base, Path::new(rel)).unwrap_err();
            assert_eq!(e.raw_os_error(), Some(libc::ELOOP), "{rel}");
        }
    }

    #[test]
    fn escapes_control_bytes_and_caps() {
        assert_eq!(
            one_line("a\x1b]0;pwn\x07b\r\nc\u{9b}2J", 100),
            "a\\x1b]0;pwn\\x07b\\r\\nc\\u{9b}2J"
        );
        assert_eq!(block("a\nb\tc\x1b[2J", 100), "a\nb\tc\\x1b[2J");
        let long = "x".repeat(65536);
        let shown = one_line(&long, 10);
        assert_eq!(shown, format!("{}… (65526 more bytes)", "x".repeat(10)));
        assert_eq!(one_line_bytes(b"ok\xff", 10), "ok\u{fffd}");
        assert_eq!(one_line("e\u{202e}vil", 10), "e\\u{202e}vil");
        assert_eq!(
            block("a\u{200f}b\u{61c}c\u{2028}d\u{2029}e\u{200e}", 100),
            "a\\u{200f}b\\u{61c}c\\u{2028}d\\u{2029}e\\u{200e}"
        );
    }
}
