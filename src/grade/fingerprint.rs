//! What a result was graded from (`grader run --resume`): a SHA-256 over the grader's version, the
//! settings that change a result, the suite folder and the submission folder (names and bytes, links
//! not followed, capped), stored beside each `result.json` (`report::class::FINGERPRINT`).

use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The most bytes of one folder a fingerprint reads: a folder holding more is never resumed (it is
/// always graded afresh), and never slows a run down.
const FOLDER_CAP: u64 = 256 << 20;

/// The part of every fingerprint of one suite's class: the grader's version, `settings` (what else
/// decides a result: the limits, the sandbox tier, whether the class tournament is played) and the
/// suite folder. `None` when the suite folder cannot be read whole.
#[must_use]
pub fn suite_part(suite_dir: &Path, settings: &str) -> Option<[u8; 32]> {
    let mut h = Sha256::new();
    field(&mut h, b"grader");
    field(&mut h, env!("CARGO_PKG_VERSION").as_bytes());
    field(&mut h, settings.as_bytes());
    tree(&mut h, suite_dir).ok()?;
    Some(h.finalize().into())
}

/// The fingerprint of one submission folder graded with `suite` ([`suite_part`]), in hex. `None`
/// when the folder cannot be read whole (or holds more than the cap): such a result is never resumed.
#[must_use]
pub fn submission(suite: &[u8; 32], dir: &Path) -> Option<String> {
    let mut h = Sha256::new();
    field(&mut h, suite);
    tree(&mut h, dir).ok()?;
    let digest: [u8; 32] = h.finalize().into();
    Some(digest.iter().map(|b| format!("{b:02x}")).collect())
}

/// The fingerprint of a submission folder's code alone (its names and bytes, as [`submission`] reads
/// them), in hex: what a person's marks were given to, unchanged by a new grader or suite. `None` when
/// the folder cannot be read whole.
#[must_use]
pub fn code(dir: &Path) -> Option<String> {
    let mut h = Sha256::new();
    field(&mut h, b"code");
    tree(&mut h, dir).ok()?;
    let digest: [u8; 32] = h.finalize().into();
    Some(digest.iter().map(|b| format!("{b:02x}")).collect())
}

/// Adds `bytes` with its length, so that no two sequences of fields hash alike.
fn field(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// Hashes the folder `root` (followed if a link: a class may be a folder of links) and everything in
/// it, in name order: each entry's kind and path, a file's bytes, a link's target (never followed).
fn tree(h: &mut Sha256, root: &Path) -> std::io::Result<()> {
    let too_big = || std::io::Error::other("the folder is over the fingerprint's cap");
    // The folder itself may be a link; nothing in it is followed.
    let root = &std::fs::canonicalize(root)?;
    let mut read = 0u64;
    let mut todo: Vec<PathBuf> = vec![PathBuf::new()];
    while let Some(folder) = todo.pop() {
        let mut entries: Vec<_> =
            std::fs::read_dir(root.join(&folder))?.collect::<Result<_, _>>()?;
        entries.sort_by_key(std::fs::DirEntry::file_name);
        // Popped last first: push in reverse so folders are hashed in name order.
        let mut folders = Vec::new();
        for entry in entries {
            let rel = folder.join(entry.file_name());
            let kind = entry.file_type()?;
            if kind.is_dir() {
                field(h, b"d");
                field(h, rel.as_os_str().as_bytes());
                folders.push(rel);
            } else if kind.is_file() {
                field(h, b"f");
                field(h, rel.as_os_str().as_bytes());
                let file =
                    crate::untrusted::open_output(root, &rel).map_err(std::io::Error::other)?;
                let len = file.metadata()?.len();
                read += len;
                if read > FOLDER_CAP {
                    return Err(too_big());
                }
                let mut limited = std::io::Read::take(file, len);
                let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
                std::io::Read::read_to_end(&mut limited, &mut bytes)?;
                field(h, &bytes);
            } else if kind.is_symlink() {
                field(h, b"l");
                field(h, rel.as_os_str().as_bytes());
                field(
                    h,
                    std::fs::read_link(root.join(&rel))?.as_os_str().as_bytes(),
                );
            } else {
                field(h, b"o");
                field(h, rel.as_os_str().as_bytes());
            }
        }
        todo.extend(folders.into_iter().rev());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fingerprint(dir: &Path) -> Option<String> {
        submission(&suite_part(dir, "settings").unwrap(), dir)
    }

    #[test]
    fn a_fingerprint_changes_with_any_name_byte_or_link_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("src")).unwrap();
        std::fs::write(d.join("src/a.py"), "print(1)\n").unwrap();
        std::fs::write(d.join("b.txt"), "x").unwrap();
        let first = fingerprint(d).unwrap();
        assert_eq!(first.len(), 64);
        assert_eq!(
            fingerprint(d).unwrap(),
            first,
            "the same folder, the same print"
        );
        // The same folder elsewhere: no path outside the folder counts.
        let copy = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(copy.path().join("src")).unwrap();
        std::fs::write(copy.path().join("src/a.py"), "print(1)\n").unwrap();
        std::fs::write(copy.path().join("b.txt"), "x").unwrap();
        assert_eq!(fingerprint(copy.path()).unwrap(), first);
        std::fs::write(d.join("src/a.py"), "print(2)\n").unwrap();
        let edited = fingerprint(d).unwrap();
        assert_ne!(edited, first);
        std::fs::rename(d.join("b.txt"), d.join("c.txt")).unwrap();
        let renamed = fingerprint(d).unwrap();
        assert_ne!(renamed, edited);
        // A link is hashed as its target's name, never followed.
        std::os::unix::fs::symlink("/etc/hostname", d.join("link")).unwrap();
        let linked = fingerprint(d).unwrap();
        assert_ne!(linked, renamed);
        // Through a link to the folder (a class of links), the same print.
        let via = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(d, via.path().join("student")).unwrap();
        assert_eq!(fingerprint(&via.path().join("student")).unwrap(), linked);
        // Other settings or another suite: another print.
        let part = suite_part(d, "settings").unwrap();
        assert_ne!(suite_part(d, "other settings").unwrap(), part);
        assert_ne!(suite_part(copy.path(), "settings").unwrap(), part);
    }

    #[test]
    fn a_folder_that_cannot_be_read_has_no_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        let part = suite_part(dir.path(), "settings").unwrap();
        assert!(submission(&part, &dir.path().join("missing")).is_none());
        assert!(suite_part(&dir.path().join("missing"), "settings").is_none());
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid C string; mkfifo does not keep it.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // A FIFO is hashed by kind and name, never opened (so never blocks).
        assert!(fingerprint(dir.path()).is_some());
    }
}
