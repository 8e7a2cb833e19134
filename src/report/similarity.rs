//! Similar hand-ins: Dolos (`@dodona/dolos-lib`, driven by the shipped `tools/similarity.mjs`) run over
//! a class's sources, copied out of the submissions with the untrusted readers; student pairs ranked by
//! similarity with their longest shared fragment, and the submissions the integrity check found
//! depending on their output path, written to `similarity.csv`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::report::csv::{text, Sheet};
use crate::untrusted::read_output;

/// The Node script, built into the binary and written to a temporary file for each run.
pub const SCRIPT: &str = include_str!("../../tools/similarity.mjs");

/// Where `grader doctor --install` puts Dolos: `$GRADER_DOLOS`, else `$XDG_DATA_HOME/grader/dolos`,
/// else `~/.local/share/grader/dolos`.
#[must_use]
pub fn dolos_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("GRADER_DOLOS") {
        return PathBuf::from(dir);
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    data.join("grader").join("dolos")
}

/// Where `node` is when Dolos can run here: `Err` says why not, in words for the instructor.
///
/// # Errors
/// No `node` on `PATH`, or no `@dodona/dolos-lib` in `dir`.
pub fn available(dir: &Path) -> Result<PathBuf, String> {
    let node = crate::toolchain::Toolchain::global()
        .locate("node")
        .map_err(|why| format!("no `node` ({why}); Dolos is a Node library"))?;
    let lib = dir.join("node_modules/@dodona/dolos-lib/package.json");
    if !lib.is_file() {
        return Err(format!(
            "Dolos is not installed in `{}` (no `node_modules/@dodona/dolos-lib`)",
            dir.display()
        ));
    }
    Ok(node)
}

/// The Dolos language of a source file, by its extension; `None` for files Dolos cannot parse (Scheme
/// and Prolog have no Dolos parser) and for everything that is not source.
#[must_use]
pub fn language(path: &Path) -> Option<&'static str> {
    match path.extension()?.to_str()? {
        "c" | "h" => Some("c"),
        "cpp" | "cc" | "cxx" | "hpp" => Some("cpp"),
        "java" => Some("java"),
        "py" => Some("python"),
        "rs" => Some("rust"),
        _ => None,
    }
}

/// A source file copied out of a submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub student: String,
    /// Its path inside the student's folder.
    pub rel: PathBuf,
    pub bytes: Vec<u8>,
}

/// The most source files taken from one submission, the deepest folder looked in, and the most bytes
/// read of one file: a hand-in is a few files, and Dolos's time grows with what it is given.
const MAX_FILES: usize = 50;
const MAX_DEPTH: usize = 4;
const MAX_BYTES: u64 = 256 * 1024;

/// The source files of `student`'s folder `dir`: regular files only (no link followed, nothing
/// blocking, each capped), in name order, hidden entries skipped.
#[must_use]
pub fn sources(student: &str, dir: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(rel) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        let mut names: Vec<_> = entries.filter_map(Result::ok).collect();
        names.sort_by_key(std::fs::DirEntry::file_name);
        for e in names.into_iter().rev() {
            if e.file_name().as_encoded_bytes().starts_with(b".") {
                continue;
            }
            let child = rel.join(e.file_name());
            let Ok(meta) = std::fs::symlink_metadata(e.path()) else {
                continue;
            };
            if meta.is_dir() && child.components().count() < MAX_DEPTH {
                pending.push(child);
            } else if meta.is_file() && language(&child).is_some() && out.len() < MAX_FILES {
                if let Ok(capped) = read_output(dir, &child, MAX_BYTES) {
                    out.push(Source {
                        student: student.to_string(),
                        rel: child,
                        bytes: capped.bytes,
                    });
                }
            }
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

/// One pair Dolos reported, by index into the files it was given.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct RawPair {
    pub left: usize,
    pub right: usize,
    pub similarity: f64,
    pub longest: u64,
}

#[derive(Deserialize)]
struct Output {
    pairs: Vec<RawPair>,
}

/// Reads what the script printed.
///
/// # Errors
/// Not the script's JSON, or a pair naming a file it was not given.
pub fn parse(json: &[u8], files: usize) -> Result<Vec<RawPair>, String> {
    let out: Output = serde_json::from_slice(json)
        .map_err(|e| format!("Dolos's output is not the expected JSON: {e}"))?;
    if let Some(p) = out
        .pairs
        .iter()
        .find(|p| p.left >= files || p.right >= files || !(0.0..=1.0).contains(&p.similarity))
    {
        return Err(format!("Dolos reported an impossible pair: {p:?}"));
    }
    Ok(out.pairs)
}

/// Two students' most similar files.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub a: String,
    pub b: String,
    pub similarity: f64,
    /// The longest fragment they share, in Dolos's k-grams.
    pub longest: u64,
    /// `a.c ~ b.c`: the files of the pair.
    pub files: String,
}

/// Each pair of students by their most similar pair of files (files of one student are not compared
/// with each other), most similar first, then by name.
#[must_use]
pub fn by_student(sources: &[Source], raw: &[RawPair]) -> Vec<Pair> {
    let mut best: BTreeMap<(String, String), Pair> = BTreeMap::new();
    for p in raw {
        let (l, r) = (&sources[p.left], &sources[p.right]);
        if l.student == r.student {
            continue;
        }
        let (x, y) = if l.student < r.student {
            (l, r)
        } else {
            (r, l)
        };
        let pair = Pair {
            a: x.student.clone(),
            b: y.student.clone(),
            similarity: p.similarity,
            longest: p.longest,
            files: format!("{} ~ {}", x.rel.display(), y.rel.display()),
        };
        let key = (pair.a.clone(), pair.b.clone());
        match best.get(&key) {
            Some(old) if (old.similarity, old.longest) >= (pair.similarity, pair.longest) => {}
            _ => {
                best.insert(key, pair);
            }
        }
    }
    let mut pairs: Vec<Pair> = best.into_values().collect();
    pairs.sort_by(|x, y| {
        y.similarity
            .total_cmp(&x.similarity)
            .then(y.longest.cmp(&x.longest))
            .then((&x.a, &x.b).cmp(&(&y.a, &y.b)))
    });
    pairs
}

/// The students of a results folder (`<student>/result.json`), with the integrity notes of each
/// (read with the untrusted readers and capped: the folder may have been copied from anywhere).
#[must_use]
pub fn students(results: &Path) -> Vec<(String, Vec<String>)> {
    let Ok(entries) = std::fs::read_dir(results) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.filter_map(Result::ok) {
        let Some(name) = e.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let is_dir = std::fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_dir());
        if !is_dir {
            continue;
        }
        if std::fs::symlink_metadata(results.join(&name).join("result.json")).is_err() {
            continue;
        }
        match crate::report::result::read_result(results, &name) {
            Ok(r) => {
                let notes = r
                    .integrity
                    .iter()
                    .map(|n| format!("{}: {}", n.case, n.what))
                    .collect();
                out.push((name, notes));
            }
            Err(why) => eprintln!(
                "note: `{}`: {why}; left out",
                results.join(&name).join("result.json").display()
            ),
        }
    }
    out.sort();
    out
}

/// A student whose file (or files) Dolos did not compare, and why: `tictactoe.c: Dolos cannot read
/// it: RangeError: Maximum call stack size exceeded`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NotCompared {
    pub student: String,
    pub why: String,
}

/// `similarity.csv`: `kind,student,other,similarity,longest-fragment,detail`; a `pair` row per pair
/// of students (most similar first, similarity as a percentage), then a `not-compared` row per
/// student file Dolos could not compare (the detail says which and why), then a `path-dependent` row
/// per submission the integrity check flagged. Text cells are protected against spreadsheet formulas.
///
/// # Errors
/// The file cannot be written.
pub fn write_csv(
    path: &Path,
    pairs: &[Pair],
    not_compared: &[NotCompared],
    flagged: &[(String, Vec<String>)],
) -> std::io::Result<()> {
    let mut w = Sheet::new();
    w.row([
        "kind",
        "student",
        "other",
        "similarity",
        "longest-fragment",
        "detail",
    ]);
    let cell = text;
    for p in pairs {
        w.row([
            "pair".to_string(),
            cell(&p.a),
            cell(&p.b),
            format!("{:.1}%", p.similarity * 100.0),
            p.longest.to_string(),
            cell(&p.files),
        ]);
    }
    for n in not_compared {
        w.row([
            "not-compared".to_string(),
            cell(&n.student),
            String::new(),
            String::new(),
            String::new(),
            cell(&n.why),
        ]);
    }
    for (student, notes) in flagged.iter().filter(|(_, n)| !n.is_empty()) {
        w.row([
            "path-dependent".to_string(),
            cell(student),
            String::new(),
            String::new(),
            String::new(),
            cell(&notes.join("; ")),
        ]);
    }
    // A fresh temporary name, and a link at the CSV's own name replaced, never written through.
    crate::report::write_atomic(path, w.finish().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(student: &str, rel: &str) -> Source {
        Source {
            student: student.into(),
            rel: rel.into(),
            bytes: Vec::new(),
        }
    }

    /// What the script printed for three files (recorded from a real run of Dolos 3.5.1 on
    /// `c-correct`, `prune-strict` and `post-order`).
    const RECORDED: &str = r#"{"pairs":[{"left":0,"right":1,"similarity":1,"longest":432},{"left":0,"right":2,"similarity":0.9584775086505191,"longest":166},{"left":1,"right":2,"similarity":0.9584775086505191,"longest":166}]}"#;

    #[test]
    fn recorded_output_is_read_and_ranked_by_student() {
        let raw = parse(RECORDED.as_bytes(), 3).unwrap();
        let files = [
            source("bob", "tictactoe.c"),
            source("amy", "src/tictactoe.c"),
            source("cat", "tictactoe.c"),
        ];
        let pairs = by_student(&files, &raw);
        assert_eq!(
            pairs
                .iter()
                .map(|p| (p.a.as_str(), p.b.as_str(), p.longest))
                .collect::<Vec<_>>(),
            [
                ("amy", "bob", 432),
                ("amy", "cat", 166),
                ("bob", "cat", 166)
            ]
        );
        assert_eq!(pairs[0].files, "src/tictactoe.c ~ tictactoe.c");
    }

    #[test]
    fn a_students_own_files_are_not_a_pair_and_the_best_files_stand_for_two_students() {
        let files = [source("a", "x.c"), source("a", "y.c"), source("b", "z.c")];
        let raw = [
            RawPair {
                left: 0,
                right: 1,
                similarity: 1.0,
                longest: 99,
            },
            RawPair {
                left: 0,
                right: 2,
                similarity: 0.2,
                longest: 5,
            },
            RawPair {
                left: 1,
                right: 2,
                similarity: 0.7,
                longest: 30,
            },
        ];
        let pairs = by_student(&files, &raw);
        assert_eq!(pairs.len(), 1);
        assert_eq!(
            (pairs[0].similarity, pairs[0].files.as_str()),
            (0.7, "y.c ~ z.c")
        );
    }

    #[test]
    fn output_that_is_not_the_scripts_is_refused() {
        assert!(parse(b"not json", 2)
            .unwrap_err()
            .contains("not the expected JSON"));
        let bad = r#"{"pairs":[{"left":0,"right":5,"similarity":0.5,"longest":1}]}"#;
        assert!(parse(bad.as_bytes(), 2)
            .unwrap_err()
            .contains("impossible pair"));
    }

    #[test]
    fn sources_skip_links_hidden_files_and_other_languages() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("src/.git")).unwrap();
        std::fs::write(d.join("main.py"), "print(1)\n").unwrap();
        std::fs::write(d.join("src/lib.c"), "int x;\n").unwrap();
        std::fs::write(d.join("src/.git/h.c"), "int y;\n").unwrap();
        std::fs::write(d.join("notes.txt"), "hi\n").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", d.join("stolen.c")).unwrap();
        let got: Vec<String> = sources("s", d)
            .iter()
            .map(|s| s.rel.display().to_string())
            .collect();
        assert_eq!(got, ["main.py", "src/lib.c"]);
    }
}
