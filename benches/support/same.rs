//! Two results folders compared file by file, timings masked: the gradebooks (`grades.csv`,
//! `tournament.csv`) byte for byte, every other file (`result.json`, game records, pages) with what the
//! clock decides replaced by `T` (timing fields; times and scratch paths in summaries and logs), as
//! the shard and examples tests mask them. `input.sha256` (what `--resume` compares) is left out: it
//! hashes the grader's settings, which a new setting changes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file under `root`, by path relative to it, with its timings masked (gradebooks as they are).
#[must_use]
pub fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let timing = regex::bytes::Regex::new(
        r#""(cpu-ms|wall-ms|peak-memory|micros|first-cpu-ms|second-cpu-ms)": (\d+|null)"#,
    )
    .unwrap();
    // Which of a case's two runs used less CPU is the clock's doing too.
    let kept = regex::bytes::Regex::new(r#""kept": "(first|second)""#).unwrap();
    // The HTML pages write each timing in one span of class `t`.
    let page_timing = regex::bytes::Regex::new(r#"<span class="(mute )?t">[^<]*</span>"#).unwrap();
    // Times in prose (a game's timeout, a case's CPU, a build log's) and the scratch folder's name.
    let prose = [
        (r"(timed out after )[0-9.]+ m?s", "${1}T"),
        (r"(used )[0-9.]+ m?s( of CPU)", "${1}T$2"),
        (r"(target\(s\) in )[0-9.]+m?s", "${1}T"),
        (r"grader-run-[0-9]+-[0-9]+-[A-Za-z0-9]+", "grader-run-T"),
    ]
    .map(|(re, to)| (regex::bytes::Regex::new(re).unwrap(), to.as_bytes()));
    // A build's CPU (written since fe83859, right after its wall time; a case's comes before it): left
    // out, so that an earlier grader's results compare.
    let build_cpu = regex::bytes::Regex::new(r#"("wall-ms": \d+),\n\s*"cpu-ms": \d+"#).unwrap();
    let mut files = BTreeMap::new();
    for path in super::files(root) {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if name == "input.sha256" {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap_or_default();
        let masked = if name.ends_with(".csv") {
            bytes
        } else {
            let m = build_cpu.replace_all(&bytes, &b"$1"[..]);
            let m = timing.replace_all(&m, &b"\"$1\": T"[..]);
            let m = kept.replace_all(&m, &b"\"kept\": T"[..]);
            let mut m = page_timing.replace_all(&m, &b"T"[..]).into_owned();
            for (re, to) in &prose {
                m = re.replace_all(&m, *to).into_owned();
            }
            m
        };
        files.insert(path.strip_prefix(root).unwrap().to_path_buf(), masked);
    }
    files
}

/// How two results folders differ: files only one has, and files whose masked contents differ (with
/// the first line where they part).
#[must_use]
pub fn differences(a: &Path, b: &Path) -> Vec<String> {
    let (ta, tb) = (tree(a), tree(b));
    let mut out = Vec::new();
    for (path, bytes) in &ta {
        match tb.get(path) {
            None => out.push(format!("only in {}: {}", a.display(), path.display())),
            Some(other) if other != bytes => {
                let (la, lb) = (
                    String::from_utf8_lossy(bytes),
                    String::from_utf8_lossy(other),
                );
                let at = la
                    .lines()
                    .zip(lb.lines())
                    .position(|(x, y)| x != y)
                    .unwrap_or_else(|| la.lines().count().min(lb.lines().count()));
                let line = |t: &str| t.lines().nth(at).unwrap_or("(end)").trim().to_string();
                out.push(format!(
                    "{} differs at line {}:\n    - {}\n    + {}",
                    path.display(),
                    at + 1,
                    short(&line(&la)),
                    short(&line(&lb)),
                ));
            }
            Some(_) => {}
        }
    }
    for path in tb.keys().filter(|p| !ta.contains_key(*p)) {
        out.push(format!("only in {}: {}", b.display(), path.display()));
    }
    out
}

/// A line cut to 200 characters for a report.
#[must_use]
pub fn short(line: &str) -> String {
    match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}
