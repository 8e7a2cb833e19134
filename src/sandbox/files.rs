//! What a run left in its working folder: the "files written" part of a run's record, listed after the
//! run without following links (a program may plant a symbolic link to anything).

use std::io;
use std::path::{Path, PathBuf};

/// Entries listed at most; a program that makes more is reported as `truncated`.
pub const MAX_LISTED: usize = 10_000;

/// One entry left in the working folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenFile {
    /// Relative to the working folder.
    pub path: PathBuf,
    pub size: u64,
    /// A symbolic link (never followed), a fifo, a socket: anything but a regular file.
    pub special: bool,
}

/// The files a run left in `workdir`, sorted by path (folders themselves are not listed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilesWritten {
    pub files: Vec<WrittenFile>,
    pub truncated: bool,
}

/// Lists `workdir` after a run.
pub fn files_written(workdir: &Path) -> io::Result<FilesWritten> {
    let mut out = FilesWritten::default();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        if out.truncated {
            break;
        }
        for entry in std::fs::read_dir(workdir.join(&rel))? {
            let entry = entry?;
            let path = rel.join(entry.file_name());
            let meta = std::fs::symlink_metadata(workdir.join(&path))?;
            if meta.is_dir() {
                stack.push(path);
                continue;
            }
            if out.files.len() == MAX_LISTED {
                out.truncated = true;
                break;
            }
            out.files.push(WrittenFile {
                path,
                size: meta.len(),
                special: !meta.is_file(),
            });
        }
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}
