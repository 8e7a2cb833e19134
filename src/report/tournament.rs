//! A tournament's files: every game's record (what `grader play --replay` shows), each stage's
//! standings, and the overall ranking with marks (`tournament.csv`).

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::write_atomic;
use crate::arena::event::ranking::{csv, LeftOut, Placed};
use crate::arena::event::schedule::Results;
use crate::arena::game::record::GameRecord;

/// Writes each record as pretty JSON into `dir`, named `{prefix}{index:04}.json`.
///
/// # Errors
/// The folder cannot be created or a file written.
pub fn save(dir: &Path, prefix: &str, records: &[GameRecord]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    for (i, r) in records.iter().enumerate() {
        let file = dir.join(format!("{prefix}{:04}.json", i + 1));
        let mut json = serde_json::to_string_pretty(r)?;
        json.push('\n');
        std::fs::write(&file, json)
            .with_context(|| format!("cannot write `{}`", file.display()))?;
    }
    Ok(())
}
/// Saves every game of `results` in `dir` (`stage-1-group-2-0001.json`, `final-0001.json`,
/// `round-robin-0001.json`: records `grader play --replay` shows) and `standings.json`, each stage's
/// table.
///
/// # Errors
/// A folder or file that cannot be written, named.
pub fn save_records(dir: &Path, game: &str, seed: u64, results: &Results) -> anyhow::Result<()> {
    for stage in &results.stages {
        let prefix = format!("{}-", stage.name.replace(' ', "-"));
        save(dir, &prefix, &stage.records)?;
    }
    let tables: Vec<serde_json::Value> = results
        .stages
        .iter()
        .map(|s| serde_json::json!({ "stage": s.name, "standings": s.rows }))
        .collect();
    let file = dir.join("standings.json");
    let json = serde_json::json!({ "game": game, "seed": seed, "stages": tables });
    std::fs::write(&file, format!("{json:#}\n"))
        .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", file.display()))
}

/// Writes `dir/tournament.csv` ([`crate::arena::event::ranking::csv`]) and returns its path.
///
/// # Errors
/// The folder or file cannot be written, named.
pub fn write_ranking(
    dir: &Path,
    placed: &[Placed],
    left_out: &[LeftOut],
    not_graded: &[(String, String)],
) -> anyhow::Result<PathBuf> {
    let file = dir.join("tournament.csv");
    std::fs::create_dir_all(dir)
        .and_then(|()| write_atomic(&file, csv(placed, left_out, not_graded).as_bytes()))
        .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", file.display()))?;
    Ok(file)
}
