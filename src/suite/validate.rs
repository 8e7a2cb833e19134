//! Finding suites on disk: a suite folder, or a folder of them.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::suite::SUITE_FILE;

/// The suite folders under `path`: itself when it holds `suite.toml`, else its children that do.
pub fn discover(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if path.join(SUITE_FILE).is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path)
        .with_context(|| format!("cannot read suite folder `{}`", path.display()))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(SUITE_FILE).is_file())
        .collect();
    found.sort();
    if found.is_empty() {
        anyhow::bail!(
            "no suite in `{}`\nhint: a suite is a folder holding `{SUITE_FILE}`; pass it, or a folder of suites",
            path.display()
        );
    }
    Ok(found)
}
