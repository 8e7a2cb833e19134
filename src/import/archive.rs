//! An LMS download read as the untrusted input it is: a zip file or a folder (the zip unpacked), turned
//! into a list of regular files with checked relative paths. Nothing is followed or written here: a
//! link is skipped, an entry whose name climbs out (`..`, an absolute path) or is too long is skipped,
//! and every byte read is capped (a file, the whole download, the number of entries), so a zip bomb
//! stops at the cap instead of filling the disk. Each skip is a note for the instructor.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The most bytes of one file kept.
pub const FILE_CAP: u64 = 64 << 20;
/// The most bytes of a whole download kept.
pub const TOTAL_CAP: u64 = 2 << 30;
/// The most files of a download.
pub const ENTRIES_CAP: usize = 50_000;
/// The most bytes of one path component, and of a whole path.
const NAME_CAP: usize = 255;
const PATH_CAP: usize = 1024;

/// One regular file of the download.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path inside the download, each component checked (no `..`, no root, not empty).
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

impl Entry {
    /// The file's name (its last component), as text.
    #[must_use]
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// What a download held, and what was left out of it and why.
#[derive(Debug, Default)]
pub struct Download {
    pub entries: Vec<Entry>,
    pub notes: Vec<String>,
}

/// Reads `path`: a zip file, or a folder (walked without following links).
///
/// # Errors
/// It cannot be opened, or is neither a zip nor a folder (named).
pub fn read(path: &Path) -> anyhow::Result<Download> {
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| anyhow::anyhow!("cannot read the download `{}`: {e}", path.display()))?;
    let mut d = Download::default();
    if meta.is_dir() {
        walk(path, Path::new(""), &mut d, &mut 0)?;
    } else if meta.is_file() {
        let file = std::fs::File::open(path)?;
        unzip(file, &path.display().to_string(), &mut d)?;
    } else {
        anyhow::bail!("`{}` is neither a zip file nor a folder", path.display());
    }
    d.entries.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(d)
}

/// A relative path whose every component is a plain name of sane length, or why not.
pub fn check_path(path: &Path) -> Result<PathBuf, String> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Normal(n) => {
                let text = n.to_string_lossy();
                if text.len() > NAME_CAP {
                    return Err(format!("a name longer than {NAME_CAP} bytes"));
                }
                if text.chars().any(char::is_control) {
                    return Err("a name with a control character".into());
                }
                out.push(n);
            }
            Component::CurDir => {}
            _ => return Err("a path that leaves its folder (`..` or absolute)".into()),
        }
    }
    if out.as_os_str().is_empty() {
        return Err("an empty name".into());
    }
    if out.as_os_str().len() > PATH_CAP {
        return Err(format!("a path longer than {PATH_CAP} bytes"));
    }
    Ok(out)
}

/// Reads a zip's regular files into `d`, each capped; `label` names the zip in notes.
///
/// # Errors
/// Not a zip file.
pub fn unzip<R: Read + std::io::Seek>(
    reader: R,
    label: &str,
    d: &mut Download,
) -> anyhow::Result<()> {
    let mut zip = zip::ZipArchive::new(reader)
        .map_err(|e| anyhow::anyhow!("`{label}` is not a zip file this grader can read ({e})\nhint: give the LMS's download as it came (a .zip) or the folder it unpacks to"))?;
    let mut total: u64 = d.entries.iter().map(|e| e.bytes.len() as u64).sum();
    for i in 0..zip.len() {
        let Ok(mut file) = zip.by_index(i) else {
            d.notes
                .push(format!("`{label}`: entry {i} cannot be read; skipped"));
            continue;
        };
        let raw = file.name().to_string();
        if file.is_dir() {
            continue;
        }
        if file.is_symlink()
            || file
                .unix_mode()
                .is_some_and(|m| m & 0o170_000 != 0o100_000 && m & 0o170_000 != 0)
        {
            d.notes.push(format!(
                "`{label}`: `{}` is a link or a special file; skipped",
                crate::untrusted::one_line(&raw, 200)
            ));
            continue;
        }
        // The zip crate reads `/etc/passwd` as `etc/passwd`: an absolute name is refused outright.
        let absolute = raw.starts_with(['/', '\\']) || raw.get(1..3) == Some(":\\");
        let path = match file
            .enclosed_name()
            .filter(|_| !absolute)
            .ok_or_else(|| "a path that leaves its folder (`..` or absolute)".to_string())
            .and_then(|p| check_path(&p))
        {
            Ok(p) => p,
            Err(why) => {
                d.notes.push(format!(
                    "`{label}`: `{}` has {why}; skipped",
                    crate::untrusted::one_line(&raw, 200)
                ));
                continue;
            }
        };
        if d.entries.len() >= ENTRIES_CAP {
            d.notes.push(format!(
                "`{label}`: more than {ENTRIES_CAP} files; the rest skipped"
            ));
            break;
        }
        let mut bytes = Vec::new();
        let cap = FILE_CAP.min(TOTAL_CAP.saturating_sub(total));
        if (&mut file).take(cap + 1).read_to_end(&mut bytes).is_err() {
            d.notes.push(format!(
                "`{label}`: `{}` is corrupt; skipped",
                path.display()
            ));
            continue;
        }
        if bytes.len() as u64 > cap {
            d.notes.push(format!("`{label}`: `{}` is larger than {} bytes (or the download is over {} bytes): skipped", path.display(), FILE_CAP, TOTAL_CAP));
            continue;
        }
        total += bytes.len() as u64;
        d.entries.push(Entry { path, bytes });
    }
    Ok(())
}

/// Walks a folder without following links, reading each regular file capped.
fn walk(root: &Path, rel: &Path, d: &mut Download, total: &mut u64) -> anyhow::Result<()> {
    let dir = root.join(rel);
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| anyhow::anyhow!("cannot read `{}`: {e}", dir.display()))?
        .filter_map(Result::ok)
        .collect();
    names.sort_by_key(std::fs::DirEntry::file_name);
    for entry in names {
        let here = rel.join(entry.file_name());
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if let Err(why) = check_path(&here) {
            d.notes
                .push(format!("`{}` has {why}; skipped", here.display()));
            continue;
        }
        if kind.is_dir() {
            walk(root, &here, d, total)?;
        } else if kind.is_file() {
            if d.entries.len() >= ENTRIES_CAP {
                d.notes
                    .push(format!("more than {ENTRIES_CAP} files; the rest skipped"));
                return Ok(());
            }
            let cap = FILE_CAP.min(TOTAL_CAP.saturating_sub(*total));
            match crate::untrusted::read_output(root, &here, cap) {
                Ok(c) if !c.truncated => {
                    *total += c.bytes.len() as u64;
                    d.entries.push(Entry { path: here, bytes: c.bytes });
                }
                Ok(_) => d.notes.push(format!("`{}` is larger than {FILE_CAP} bytes (or the download is over {TOTAL_CAP}): skipped", here.display())),
                Err(e) => d.notes.push(format!("`{}` cannot be read ({e}); skipped", here.display())),
            }
        } else {
            d.notes.push(format!(
                "`{}` is a link or a special file; skipped",
                here.display()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn climbing_links_and_bombs_are_skipped_with_a_note() {
        let mut buf = std::io::Cursor::new(Vec::new());
        {
            let mut z = zip::ZipWriter::new(&mut buf);
            let opts = zip::write::SimpleFileOptions::default();
            z.start_file("ok/a.py", opts).unwrap();
            z.write_all(b"print(1)").unwrap();
            z.start_file("../evil.py", opts).unwrap();
            z.write_all(b"x").unwrap();
            z.start_file("/etc/passwd", opts).unwrap();
            z.write_all(b"x").unwrap();
            z.start_file(format!("{}.py", "n".repeat(300)), opts)
                .unwrap();
            z.write_all(b"x").unwrap();
            z.add_symlink("ok/link", "/etc/passwd", opts).unwrap();
            // 65 MiB of zeros: deflated to a few kilobytes, stopped at the cap.
            let deflated = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated)
                .large_file(true);
            z.start_file("ok/bomb.bin", deflated).unwrap();
            let zeros = vec![0u8; 1 << 20];
            for _ in 0..65 {
                z.write_all(&zeros).unwrap();
            }
            z.finish().unwrap();
        }
        assert!(buf.get_ref().len() < 1 << 20, "{}", buf.get_ref().len());
        buf.set_position(0);
        let mut d = Download::default();
        unzip(buf, "dl.zip", &mut d).unwrap();
        let paths: Vec<String> = d
            .entries
            .iter()
            .map(|e| e.path.display().to_string())
            .collect();
        assert_eq!(paths, ["ok/a.py"]);
        let notes = d.notes.join("\n");
        for want in [
            "`../evil.py` has a path that leaves",
            "`/etc/passwd` has a path that leaves",
            "a name longer than 255 bytes",
            "`ok/link` is a link",
            "`ok/bomb.bin` is larger than",
        ] {
            assert!(notes.contains(want), "{want}: {notes}");
        }
        assert!(
            unzip(std::io::Cursor::new(b"not a zip".to_vec()), "x.zip", &mut d)
                .unwrap_err()
                .to_string()
                .contains("is not a zip file")
        );
    }

    #[test]
    fn a_folder_is_walked_without_following_links() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::write(dir.path().join("a/b/x.py"), "1").unwrap();
        std::os::unix::fs::symlink("/etc", dir.path().join("a/etc")).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("a/pw")).unwrap();
        let d = read(dir.path()).unwrap();
        assert_eq!(d.entries.len(), 1);
        assert_eq!(d.entries[0].path, Path::new("a/b/x.py"));
        assert_eq!(d.notes.len(), 2, "{:?}", d.notes);
    }
}
