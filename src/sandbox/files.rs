//! What a run left in its working folder: the "files written" part of a run's record, listed after the
//! run without following links (a program may plant a symbolic link to anything).

use std::io;
use std::path::{Path, PathBuf};

/// Entries listed at most; a program that makes more is reported as `truncated`.
pub const MAX_LISTED: usize = 10_000;
/// Entries looked at at most, folders included: a program that makes a million empty folders (or one
/// folder of a million entries) must not make the listing slow, so the walk stops there too.
pub const MAX_VISITED: usize = 4 * MAX_LISTED;

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
    walk(workdir, MAX_LISTED, MAX_VISITED)
}

fn walk(workdir: &Path, max_listed: usize, max_visited: usize) -> io::Result<FilesWritten> {
    let mut out = FilesWritten::default();
    let mut stack = vec![PathBuf::new()];
    let mut visited = 0;
    'walk: while let Some(rel) = stack.pop() {
        for entry in std::fs::read_dir(workdir.join(&rel))? {
            let entry = entry?;
            visited += 1;
            if out.files.len() == max_listed || visited > max_visited {
                out.truncated = true;
                break 'walk;
            }
            let path = rel.join(entry.file_name());
            let meta = std::fs::symlink_metadata(workdir.join(&path))?;
            if meta.is_dir() {
                stack.push(path);
                continue;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_folders_count_towards_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..20 {
            std::fs::create_dir(dir.path().join(format!("d{i}"))).unwrap();
        }
        std::fs::write(dir.path().join("d0/file"), b"x").unwrap();
        let listed = walk(dir.path(), 10, 15).unwrap();
        assert!(listed.truncated);
        assert!(listed.files.len() <= 1);
        let all = walk(dir.path(), 10, 100).unwrap();
        assert!(!all.truncated);
        assert_eq!(all.files.len(), 1);
    }
}
