//! Reports: result.json per submission, grades.csv per suite, terminal tables and student feedback.
//! Reports read only results (`result::SubmissionResult`); they never run or judge anything.

pub mod csv;
pub mod feedback;
pub mod result;
pub mod table;

use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, then a rename, so a reader
/// (or an interrupted run) never sees half a file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    // Results and golden files are for reading by others (tempfile creates files private).
    std::fs::set_permissions(
        tmp.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o644),
    )?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Points as people write them: `15`, `7.5`, `3.33`.
pub fn points(p: f64) -> String {
    let rounded = (p * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_drop_useless_decimals() {
        assert_eq!(points(15.0), "15");
        assert_eq!(points(7.5), "7.5");
        assert_eq!(points(10.0 / 3.0), "3.33");
        assert_eq!(points(0.0), "0");
    }

    #[test]
    fn atomic_writes_replace_whole_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/result.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(std::fs::read_dir(dir.path().join("a")).unwrap().count(), 1);
    }
}
