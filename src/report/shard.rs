//! A shard's results and their merge: the `shard.json` a `grader run --shard K/N` writes beside a
//! suite's results, and the reading of every shard's folder back (`grader merge`), checked complete
//! and disjoint, with each student's folder copied into the merged results.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use super::result::SubmissionResult;
use super::Columns;
use crate::sandbox::scratch::remove_tree;
use crate::untrusted::read_output;

/// The file a shard writes in `results/<suite>/` once its share is graded.
pub const MANIFEST: &str = "shard.json";

/// The most of one file of a shard's results read back: a `result.json` or a game's record is far
/// smaller; a cell's output file is capped well below this when it is written.
const FILE_CAP: u64 = 64 << 20;

/// What a shard of one suite graded, and what the merge needs to finish the class as one run would.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Manifest {
    pub suite: String,
    /// This shard, 1-based, of `shards`.
    pub shard: u32,
    pub shards: u32,
    /// The grader's version: shards of different graders never merge.
    pub grader: String,
    /// The suite folder and the class folder the shard read (absolute where they could be made so):
    /// the merge plays the class tournament from them unless told other folders.
    pub suite_dir: PathBuf,
    pub students_dir: PathBuf,
    /// Students in the whole class, every shard's.
    pub class: usize,
    /// This shard's students, by key, sorted.
    pub students: Vec<String>,
    /// The merged gradebook's columns (with `tournament` when the merge plays one).
    pub columns: Columns,
    /// The suite's class tournament is to be played over the merged class.
    pub tournament: bool,
}

impl Manifest {
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// Writes `manifest` into `dir` (`results/<suite>/`), atomically.
///
/// # Errors
/// The file cannot be written.
pub fn write_manifest(dir: &Path, manifest: &Manifest) -> anyhow::Result<()> {
    let path = dir.join(MANIFEST);
    super::write_atomic(&path, manifest.to_json().as_bytes())
        .with_context(|| format!("cannot write `{}`", path.display()))
}

/// Removes a manifest an earlier run left in `dir`: a shard that does not finish must not look done.
///
/// # Errors
/// It is there and cannot be removed.
pub fn clear_manifest(dir: &Path) -> anyhow::Result<()> {
    let path = dir.join(MANIFEST);
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(anyhow::Error::new(e).context(format!("cannot remove `{}`", path.display())))
        }
        _ => Ok(()),
    }
}

/// One suite's shards, found complete.
#[derive(Debug)]
pub struct Merged {
    /// The first shard's manifest (all agree on the suite, the class and the columns).
    pub manifest: Manifest,
    /// Every student's result, sorted by key.
    pub results: Vec<SubmissionResult>,
}

/// Reads every shard folder in `shards` (each a `--out` of `grader run --shard K/N`), checks that
/// each suite's shards are all there once, of one grader and one class, with no student in two, and
/// copies each student's folder into `out/<suite>/` (replacing what was there). Everything read is
/// read as untrusted: no link followed, never blocking, capped.
///
/// # Errors
/// A shard missing, twice, or of another grader, class or suite; a student in two shards or without
/// its `result.json`; a file that cannot be read or written; each named.
pub fn merge(shards: &[PathBuf], out: &Path) -> anyhow::Result<Vec<Merged>> {
    // suite -> shard index -> (folder, manifest)
    let mut found: BTreeMap<String, BTreeMap<u32, (PathBuf, Manifest)>> = BTreeMap::new();
    let out_real = std::fs::canonicalize(out).ok();
    for root in shards {
        // Merging into a shard's own folder would remove each student's folder before copying it.
        if out_real.is_some() && std::fs::canonicalize(root).ok() == out_real {
            bail!(
                "`--out {}` is one of the shards' folders\nhint: merge into a folder of its own",
                out.display()
            );
        }
        let entries = std::fs::read_dir(root)
            .with_context(|| format!("cannot read shard folder `{}`", root.display()))?;
        let mut any = false;
        for entry in entries.filter_map(Result::ok) {
            if !entry.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let dir = entry.path();
            let rel = Path::new(MANIFEST);
            if std::fs::symlink_metadata(dir.join(rel)).is_err() {
                continue;
            }
            any = true;
            let m = read_manifest(&dir)?;
            let name = entry.file_name();
            if name.to_str() != Some(m.suite.as_str()) {
                bail!(
                    "`{}` is a shard of `{}`, not of `{}`",
                    dir.join(rel).display(),
                    m.suite,
                    name.to_string_lossy()
                );
            }
            let suite = found.entry(m.suite.clone()).or_default();
            if let Some((other, _)) = suite.get(&m.shard) {
                bail!(
                    "shard {}/{} of `{}` is given twice: `{}` and `{}`",
                    m.shard,
                    m.shards,
                    m.suite,
                    other.display(),
                    dir.display()
                );
            }
            suite.insert(m.shard, (dir, m));
        }
        if !any {
            bail!(
                "`{}` holds no shard's results (no `<suite>/{MANIFEST}`)\nhint: give the folders `grader run --shard K/N --out DIR` wrote, once each shard has finished",
                root.display()
            );
        }
    }
    found
        .into_values()
        .map(|shards| merge_suite(&shards, out))
        .collect()
}

/// Reads and checks one manifest.
fn read_manifest(dir: &Path) -> anyhow::Result<Manifest> {
    let path = dir.join(MANIFEST);
    let read = read_output(dir, Path::new(MANIFEST), FILE_CAP)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    if read.truncated {
        bail!("`{}` is too large to be a shard's manifest", path.display());
    }
    let m: Manifest = serde_json::from_slice(&read.bytes)
        .with_context(|| format!("`{}` is not a shard's manifest", path.display()))?;
    if m.shard == 0 || m.shard > m.shards {
        bail!("`{}` names shard {}/{}", path.display(), m.shard, m.shards);
    }
    // Names the merge joins to folders: each one plain component, never `..`, `/x` or `.`.
    for name in std::iter::once(&m.suite).chain(&m.students) {
        crate::untrusted::plain_name(name)
            .map_err(|why| anyhow::anyhow!("`{}`: {why}", path.display()))?;
    }
    if m.students.len() > m.class {
        bail!(
            "`{}` lists {} students of a class of {}",
            path.display(),
            m.students.len(),
            m.class
        );
    }
    Ok(m)
}

/// Checks one suite's shards and copies its students.
fn merge_suite(shards: &BTreeMap<u32, (PathBuf, Manifest)>, out: &Path) -> anyhow::Result<Merged> {
    let (first_dir, first) = shards.values().next().context("no shard")?;
    let suite = &first.suite;
    for (dir, m) in shards.values() {
        let differs = if m.shards != first.shards {
            Some(format!("{} shards, not {}", m.shards, first.shards))
        } else if m.grader != first.grader {
            Some(format!("grader {}, not {}", m.grader, first.grader))
        } else if m.class != first.class || m.columns != first.columns {
            Some("another class or another version of the suite".to_string())
        } else {
            None
        };
        if let Some(what) = differs {
            bail!(
                "the shards of `{suite}` do not match: `{}` has {what} (as in `{}`)\nhint: run every shard of a class with the same grader, suite and class",
                dir.join(MANIFEST).display(),
                first_dir.join(MANIFEST).display()
            );
        }
    }
    let missing: Vec<String> = (1..=first.shards)
        .filter(|k| !shards.contains_key(k))
        .map(|k| format!("{k}/{}", first.shards))
        .collect();
    if !missing.is_empty() {
        bail!(
            "`{suite}` is missing shard(s) {}: they did not finish, or their folders were not given\nhint: run `grader run --shard K/N` for each, then merge all {} folders",
            missing.join(", "),
            first.shards
        );
    }
    let mut owner: BTreeMap<&str, &Path> = BTreeMap::new();
    for (dir, m) in shards.values() {
        for s in &m.students {
            if let Some(other) = owner.insert(s, dir) {
                bail!(
                    "`{s}` of `{suite}` was graded by two shards: `{}` and `{}`",
                    other.display(),
                    dir.display()
                );
            }
        }
    }
    if owner.len() != first.class {
        bail!(
            "the shards of `{suite}` graded {} students of a class of {}",
            owner.len(),
            first.class
        );
    }
    let dest = out.join(suite);
    let mut results = Vec::with_capacity(owner.len());
    for (key, dir) in owner {
        let rel = Path::new(key).join("result.json");
        let result = super::result::read_result(dir, key)
            .and_then(|r| {
                if &r.suite == suite {
                    Ok(r)
                } else {
                    Err(format!("a result of `{}`, not of `{suite}`", r.suite))
                }
            })
            .map_err(|why| anyhow::anyhow!("`{}`: {why}", dir.join(&rel).display()))?;
        copy_tree(dir, Path::new(key), &dest)?;
        results.push(result);
    }
    // The rubric every shard wrote (`grader review` needs it in the merged folder too), with the
    // merged gradebook's columns (a tournament the merge plays).
    if let Some(mut rubric) = crate::report::rubric::read(first_dir).map_err(anyhow::Error::msg)? {
        rubric.columns = Some(first.columns.clone());
        crate::report::rubric::write(&dest, &rubric).with_context(|| {
            format!(
                "cannot write `{}`",
                dest.join(crate::report::rubric::REVIEW_FILE).display()
            )
        })?;
    }
    Ok(Merged {
        manifest: first.clone(),
        results,
    })
}

/// Copies the folder `rel` of `from` into `to` (replacing `to/rel`): folders and regular files only,
/// each file read as untrusted. A link or a special file is not copied, and named on stderr.
fn copy_tree(from: &Path, rel: &Path, to: &Path) -> anyhow::Result<()> {
    remove_tree(&to.join(rel)).map_err(anyhow::Error::new)?;
    let root = crate::beneath::Folder::open(to)
        .with_context(|| format!("cannot make `{}`", to.display()))?;
    let mut todo = vec![rel.to_path_buf()];
    while let Some(folder) = todo.pop() {
        let target = to.join(&folder);
        // Made below `to` with no link followed.
        root.sub(&folder)
            .with_context(|| format!("cannot make `{}`", target.display()))?;
        let source = from.join(&folder);
        let entries = std::fs::read_dir(&source)
            .with_context(|| format!("cannot read `{}`", source.display()))?;
        let mut names: Vec<_> = entries.filter_map(Result::ok).collect();
        names.sort_by_key(std::fs::DirEntry::file_name);
        for entry in names {
            let inner = folder.join(entry.file_name());
            let kind = entry.file_type().ok();
            if kind.is_some_and(|t| t.is_dir()) {
                todo.push(inner);
            } else if kind.is_some_and(|t| t.is_file()) {
                let read = read_output(from, &inner, FILE_CAP)
                    .with_context(|| format!("cannot read `{}`", from.join(&inner).display()))?;
                if read.truncated {
                    bail!("`{}` is too large to merge", from.join(&inner).display());
                }
                let path = to.join(&inner);
                super::write_within(to, &inner, &read.bytes)
                    .with_context(|| format!("cannot write `{}`", path.display()))?;
            } else {
                eprintln!(
                    "note: `{}` is not a file or a folder; not merged",
                    from.join(&inner).display()
                );
            }
        }
    }
    Ok(())
}

/// The file a shard of `grader tournament --shard K/N --records DIR` writes beside its games.
pub const TOURNAMENT_MANIFEST: &str = "tournament-shard.json";

/// What a shard of a round robin played, and what the merge needs to rank the whole event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct TournamentManifest {
    /// The GAME argument (absolute when it names a file or folder): the merge reads the event's
    /// scoring and marks from it.
    pub game: String,
    /// The game's own name, as the records and `standings.json` give it.
    pub game_name: String,
    pub seed: u64,
    /// `--games`, when given.
    pub games_per_pairing: Option<u32>,
    /// Every entrant, in the order the schedule numbers them.
    pub players: Vec<String>,
    /// The suite, when GAME is one: its ranking goes to `<out>/<suite>/tournament.csv`.
    pub suite: Option<String>,
    /// Entrants this machine could not build, with why.
    pub not_graded: Vec<(String, String)>,
    /// Games in the whole schedule.
    pub scheduled: usize,
    pub shard: u32,
    pub shards: u32,
    pub grader: String,
}

/// The name one run gives game `i` (0-based) of a round robin.
#[must_use]
pub fn round_robin_file(i: usize) -> String {
    format!("round-robin-{:04}.json", i + 1)
}

/// Writes a shard's games (each under the name one run gives it) and its manifest into `dir`.
///
/// # Errors
/// A folder or file that cannot be written, named.
pub fn save_share(
    dir: &Path,
    manifest: &TournamentManifest,
    records: &[(usize, crate::arena::game::record::GameRecord)],
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    clear_manifest_named(dir, TOURNAMENT_MANIFEST)?;
    for (i, r) in records {
        let path = dir.join(round_robin_file(*i));
        let mut json = serde_json::to_string_pretty(r)?;
        json.push('\n');
        super::write_atomic(&path, json.as_bytes())
            .with_context(|| format!("cannot write `{}`", path.display()))?;
    }
    let path = dir.join(TOURNAMENT_MANIFEST);
    let mut json = serde_json::to_string_pretty(manifest)?;
    json.push('\n');
    super::write_atomic(&path, json.as_bytes())
        .with_context(|| format!("cannot write `{}`", path.display()))
}

fn clear_manifest_named(dir: &Path, name: &str) -> anyhow::Result<()> {
    match std::fs::remove_file(dir.join(name)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(anyhow::Error::new(e)
                .context(format!("cannot remove `{}`", dir.join(name).display())))
        }
        _ => Ok(()),
    }
}

/// The most games one round robin may schedule: far past any class (300 entrants, 4 games a pairing
/// are 179,400), and what keeps a tampered manifest from asking for memory it would never use.
const MAX_SCHEDULED: usize = 10_000_000;

/// A tournament shard's manifest, checked: its suite one plain name (the merge writes
/// `<out>/<suite>/tournament.csv`), its schedule of a size a round robin of its players can have.
fn check_tournament_manifest(m: &TournamentManifest) -> Result<(), String> {
    if let Some(suite) = &m.suite {
        crate::untrusted::plain_name(suite)?;
    }
    if m.scheduled > MAX_SCHEDULED {
        return Err(format!(
            "{} games scheduled, more than any round robin",
            m.scheduled
        ));
    }
    if m.players.len() < 2 {
        return Err("fewer than two players".to_string());
    }
    Ok(())
}

/// Reads the shards of one round robin (each folder a `--records` of `grader tournament --shard
/// K/N`): checks every shard is there once, of one event and one grader, and returns the manifest and
/// every game in schedule order. Read as untrusted: no link followed, never blocking, capped.
///
/// # Errors
/// A shard missing or twice, shards of different events, a game missing (named) or unreadable.
pub fn read_round_robin(
    shards: &[PathBuf],
) -> anyhow::Result<(
    TournamentManifest,
    Vec<crate::arena::game::record::GameRecord>,
)> {
    let mut found: BTreeMap<u32, (PathBuf, TournamentManifest)> = BTreeMap::new();
    for dir in shards {
        let read =
            read_output(dir, Path::new(TOURNAMENT_MANIFEST), FILE_CAP).with_context(|| {
                format!(
                    "`{}` holds no shard of a tournament (`{TOURNAMENT_MANIFEST}`)",
                    dir.display()
                )
            })?;
        let shown = dir.join(TOURNAMENT_MANIFEST);
        let m: TournamentManifest = serde_json::from_slice(&read.bytes)
            .ok()
            .filter(|m: &TournamentManifest| !read.truncated && m.shard >= 1 && m.shard <= m.shards)
            .with_context(|| {
                format!("`{}` is not a tournament shard's manifest", shown.display())
            })?;
        check_tournament_manifest(&m)
            .map_err(|why| anyhow::anyhow!("`{}`: {why}", shown.display()))?;
        if let Some((other, first)) = found.values().next() {
            let same = TournamentManifest {
                shard: first.shard,
                ..m.clone()
            };
            if &same != first {
                bail!(
                    "`{}` and `{}` are shards of different tournaments (another game, seed, field or grader)",
                    dir.display(),
                    other.display()
                );
            }
        }
        if let Some((other, _)) = found.get(&m.shard) {
            bail!(
                "tournament shard {}/{} is given twice: `{}` and `{}`",
                m.shard,
                m.shards,
                other.display(),
                dir.display()
            );
        }
        found.insert(m.shard, (dir.clone(), m));
    }
    let (_, first) = found.values().next().context("no shard given")?.clone();
    let missing: Vec<String> = (1..=first.shards)
        .filter(|k| !found.contains_key(k))
        .map(|k| format!("{k}/{}", first.shards))
        .collect();
    if !missing.is_empty() {
        bail!(
            "the tournament is missing shard(s) {}: they did not finish, or their folders were not given",
            missing.join(", ")
        );
    }
    let mut records = Vec::with_capacity(first.scheduled);
    for i in 0..first.scheduled {
        let k = u32::try_from(i % first.shards as usize).unwrap_or(0) + 1;
        let dir = &found[&k].0;
        let name = round_robin_file(i);
        if std::fs::symlink_metadata(dir.join(&name)).is_err() {
            bail!(
                "game {} of {} (`{name}`, shard {k}/{}) is missing in `{}`",
                i + 1,
                first.scheduled,
                first.shards,
                dir.display()
            );
        }
        let record = crate::arena::game::replay::read(dir, Path::new(&name))
            .map_err(|why| anyhow::anyhow!("`{}`: {why}", dir.join(&name).display()))?;
        records.push(record);
    }
    Ok((first, records))
}
