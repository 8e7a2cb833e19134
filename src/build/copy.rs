//! The scratch copy a build runs in: the submission folder copied file by file, never modified, with
//! what was left out (and why) reported for the build log.

use std::fs;
use std::io::{self, Read};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use super::BuildError;

/// Files larger than this are left out of the copy (source code is never this big).
pub const MAX_FILE: u64 = 16 << 20;
/// The copy stops taking files past this total.
pub const MAX_TOTAL: u64 = 128 << 20;
/// The copy stops taking files past this count.
pub const MAX_FILES: usize = 10_000;
/// Folders deeper than this are left out.
const MAX_DEPTH: usize = 32;
/// Top-level folders never copied: version control and stale Cargo output.
const SKIP_TOP: &[&str] = &[".git", "target"];
/// Build products are rebuilt from source, never trusted from the submission.
const PREBUILT_EXT: &[&str] = &["o", "obj", "class", "so", "a", "pyc", "exe", "bin"];

/// What the copy did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Copied {
    pub files: usize,
    pub bytes: u64,
    /// Paths relative to the submission, and why each was left out.
    pub skipped: Vec<(PathBuf, String)>,
}

/// Copies `from` (a submission folder) into the empty folder `to`, keeping permissions and
/// modification times so `make` sees the student's own timestamps.
pub fn copy_submission(from: &Path, to: &Path) -> Result<Copied, BuildError> {
    let root = from
        .canonicalize()
        .map_err(|source| BuildError::Submission {
            path: from.to_path_buf(),
            source,
        })?;
    let mut copied = Copied::default();
    copy_dir(&root, &root, to, Path::new(""), 0, &mut copied)?;
    Ok(copied)
}

fn copy_dir(
    root: &Path,
    dir: &Path,
    to: &Path,
    rel: &Path,
    depth: usize,
    copied: &mut Copied,
) -> Result<(), BuildError> {
    // A file of the hand-in the grader cannot read (mode 000, another owner, without root) is the
    // machine's problem, never the student's: an internal error naming it, not a missing program.
    let read_err = |path: &Path| {
        let from = path.to_path_buf();
        let to = to.to_path_buf();
        move |source| BuildError::Copy { from, to, source }
    };
    let mut entries = fs::read_dir(dir)
        .map_err(read_err(dir))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(read_err(dir))?;
    // Sorted, so caps cut the same files on every run.
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        let src = entry.path();
        let rel = rel.join(&name);
        let dst = to.join(&name);
        let meta = fs::symlink_metadata(&src).map_err(read_err(&src))?;
        let kind = meta.file_type();
        if depth == 0 && kind.is_dir() && SKIP_TOP.iter().any(|s| name == *s) {
            copied.skipped.push((rel, "not part of the sources".into()));
            continue;
        }
        if kind.is_dir() {
            if depth + 1 > MAX_DEPTH {
                copied
                    .skipped
                    .push((rel, format!("nested deeper than {MAX_DEPTH}")));
                continue;
            }
            fs::create_dir(&dst).map_err(scratch_err(&dst))?;
            copy_dir(root, &src, &dst, &rel, depth + 1, copied)?;
            continue;
        }
        let (real, meta) = if kind.is_symlink() {
            match src.canonicalize() {
                Ok(real) if real.starts_with(root) => {
                    let meta = fs::metadata(&real).map_err(read_err(&src))?;
                    if !meta.is_file() {
                        copied
                            .skipped
                            .push((rel, "a symbolic link to a folder".into()));
                        continue;
                    }
                    (real, meta)
                }
                Ok(_) => {
                    copied
                        .skipped
                        .push((rel, "a symbolic link out of the submission".into()));
                    continue;
                }
                Err(_) => {
                    copied.skipped.push((rel, "a broken symbolic link".into()));
                    continue;
                }
            }
        } else if kind.is_file() {
            (src.clone(), meta)
        } else {
            copied.skipped.push((rel, "not a regular file".into()));
            continue;
        };
        if let Some(why) = refuse(&real, &meta, copied).map_err(read_err(&src))? {
            copied.skipped.push((rel, why));
            continue;
        }
        fs::copy(&real, &dst).map_err(|source| BuildError::Copy {
            from: real.clone(),
            to: dst.clone(),
            source,
        })?;
        // The copy keeps the student's modes but is always readable (and writable by the build): a file
        // handed in with mode 000 must not become a compile error under the sandbox's own uid.
        let mode = meta.permissions().mode() & 0o777 | 0o644;
        fs::set_permissions(&dst, fs::Permissions::from_mode(mode)).map_err(scratch_err(&dst))?;
        if let Ok(modified) = meta.modified() {
            // Timestamps only steer `make`; failing to keep one is not worth failing the build.
            if let Ok(file) = fs::File::options().write(true).open(&dst) {
                let _ = file.set_modified(modified);
            }
        }
        copied.files += 1;
        copied.bytes += meta.len();
    }
    Ok(())
}

/// Why a regular file is left out, if it is.
fn refuse(path: &Path, meta: &fs::Metadata, copied: &Copied) -> io::Result<Option<String>> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if PREBUILT_EXT.contains(&ext) || is_elf(path)? {
        return Ok(Some("a prebuilt binary (built from source instead)".into()));
    }
    if meta.len() > MAX_FILE {
        return Ok(Some(format!("larger than {} MiB", MAX_FILE >> 20)));
    }
    if copied.bytes + meta.len() > MAX_TOTAL {
        return Ok(Some(format!(
            "the copy is capped at {} MiB in all",
            MAX_TOTAL >> 20
        )));
    }
    if copied.files >= MAX_FILES {
        return Ok(Some(format!("the copy is capped at {MAX_FILES} files")));
    }
    Ok(None)
}

fn is_elf(path: &Path) -> io::Result<bool> {
    let mut magic = [0u8; 4];
    let mut file = fs::File::open(path)?;
    let mut got = 0;
    while got < 4 {
        match file.read(&mut magic[got..])? {
            0 => return Ok(false),
            n => got += n,
        }
    }
    Ok(&magic == b"\x7fELF")
}

fn scratch_err(path: &Path) -> impl Fn(io::Error) -> BuildError {
    let path = path.to_path_buf();
    move |source| BuildError::Scratch {
        path: path.clone(),
        source,
    }
}
