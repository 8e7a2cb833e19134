//! The starting points `grader new` writes: a template built into the binary (a commented
//! `suite.toml`, its docs, a correct and a flawed sample with their expectations, so `grader verify`
//! passes at once), or a copy of an existing suite folder. Each new suite gets its JSON Schema beside
//! it, which its `#:schema` line names.

use std::path::{Path, PathBuf};

use super::schema::{text, FileKind};

/// A built-in template: its name (`--from NAME`), one line on what it is, and its files.
pub struct Template {
    pub name: &'static str,
    pub about: &'static str,
    files: &'static [(&'static str, &'static str)],
}

/// `(path, text)` for each file of `templates/<dir>/`, built into the binary.
macro_rules! files {
    ($dir:literal: $($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("templates/", $dir, "/", $path)))),*]
    };
}

/// Every built-in template.
pub const TEMPLATES: &[Template] = &[
    Template {
        name: "stdout",
        about: "run cases: a program's output on given arguments compared with golden files",
        files: files!("stdout":
            "suite.toml", "README.md",
            "golden/row-x.stdout", "golden/column-o.stdout", "golden/draw.stdout",
            "golden/not-over.stdout", "golden/diagonal-x.stdout", "golden/anti-diagonal-o.stdout",
            "samples/correct/winner.py", "samples/correct.expected.toml",
            "samples/no-diagonals/winner.py", "samples/no-diagonals.expected.toml",
        ),
    },
    Template {
        name: "play",
        about: "play and position cases mixed: a player against the built-in bots, and tactics",
        files: files!("play":
            "suite.toml", "README.md",
            "samples/correct/player.py", "samples/correct.expected.toml",
            "samples/last-blank/player.py", "samples/last-blank.expected.toml",
        ),
    },
    Template {
        name: "dialogue",
        about: "play cases only, through a program's own prompts to a person (X or O?, your move:)",
        files: files!("dialogue":
            "suite.toml", "README.md",
            "samples/correct/tictactoe.py", "samples/correct.expected.toml",
            "samples/accepts-occupied/tictactoe.py", "samples/accepts-occupied.expected.toml",
        ),
    },
    Template {
        name: "position",
        about: "position cases only: one move from a given board (legal, takes the win, blocks)",
        files: files!("position":
            "suite.toml", "README.md",
            "samples/correct/mover.py", "samples/correct.expected.toml",
            "samples/never-blocks/mover.py", "samples/never-blocks.expected.toml",
        ),
    },
];

/// The template called `name`.
#[must_use]
pub fn template(name: &str) -> Option<&'static Template> {
    TEMPLATES.iter().find(|t| t.name == name)
}

/// Why a suite cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum NewError {
    #[error("`{0}` already exists and is not empty\nhint: pick another name, or remove it first")]
    Exists(PathBuf),
    #[error("`{0}` is not a suite name: use lowercase letters, digits, `-` and `_`")]
    Name(String),
    #[error("cannot write `{path}`")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), NewError> {
    let io = |source| NewError::Write {
        path: path.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new("."))).map_err(io)?;
    std::fs::write(path, bytes).map_err(io)
}

/// The new suite's folder, checked: a suite name (it names results folders and gradebook rows), and
/// nothing there yet.
fn target(dir: &Path) -> Result<String, NewError> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !ok {
        return Err(NewError::Name(dir.display().to_string()));
    }
    let empty = std::fs::read_dir(dir).map_or(true, |mut e| e.next().is_none());
    if !empty {
        return Err(NewError::Exists(dir.to_path_buf()));
    }
    Ok(name)
}

/// Writes `template` as the suite `dir` (its folder name is the suite's name and title), with
/// `suite.schema.json` beside `suite.toml`. Returns the files written, relative to `dir`.
///
/// # Errors
/// `dir` is not a suite name or not empty, or a file cannot be written.
pub fn from_template(template: &Template, dir: &Path) -> Result<Vec<PathBuf>, NewError> {
    let name = target(dir)?;
    let mut written = Vec::new();
    for (path, body) in template.files {
        write(&dir.join(path), body.replace("@NAME@", &name).as_bytes())?;
        written.push(PathBuf::from(path));
    }
    let schema = FileKind::Suite.schema_file();
    write(&dir.join(&schema), text(FileKind::Suite).as_bytes())?;
    written.push(schema.into());
    Ok(written)
}

/// The most files and the deepest folder a copied suite may have (a suite is a few dozen files; a
/// folder past these is not one).
const MAX_FILES: usize = 5_000;
const MAX_DEPTH: usize = 16;

/// Copies the suite folder `from` to `dir`: its regular files (links and `.git` left out), each
/// `#:schema` line pointed at the schema written beside it, and `[calibrate]`'s folders, relative
/// to `from`, made absolute so they still point at the same hand-ins. Returns the files written.
///
/// # Errors
/// `dir` is not a suite name or not empty, `from` cannot be read, or a file cannot be written.
pub fn from_suite(from: &Path, dir: &Path) -> Result<Vec<PathBuf>, NewError> {
    target(dir)?;
    let mut written = Vec::new();
    let mut stack = vec![(PathBuf::new(), 0)];
    while let Some((rel, depth)) = stack.pop() {
        let read = |source| NewError::Write {
            path: from.join(&rel),
            source,
        };
        let mut entries: Vec<_> = std::fs::read_dir(from.join(&rel))
            .map_err(read)?
            .filter_map(Result::ok)
            .collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            let rel = rel.join(entry.file_name());
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() && entry.file_name() != ".git" && depth < MAX_DEPTH {
                stack.push((rel, depth + 1));
            } else if kind.is_file() && written.len() < MAX_FILES {
                let bytes = std::fs::read(entry.path()).map_err(|source| NewError::Write {
                    path: entry.path(),
                    source,
                })?;
                write(&dir.join(&rel), &adapt(from, &rel, bytes))?;
                written.push(rel);
            }
        }
    }
    for kind in [FileKind::Suite, FileKind::Course] {
        if dir.join(kind.file_name()).is_file() {
            write(&dir.join(kind.schema_file()), text(kind).as_bytes())?;
            written.push(kind.schema_file().into());
        }
    }
    Ok(written)
}

/// A copied file as the new suite needs it: `suite.toml` and `course.toml` with their `#:schema`
/// line naming the copy beside them, `suite.toml`'s `[calibrate]` folders absolute.
fn adapt(from: &Path, rel: &Path, bytes: Vec<u8>) -> Vec<u8> {
    let Some(kind) = FileKind::of(rel).filter(|_| rel.parent() == Some(Path::new(""))) else {
        return bytes;
    };
    let Ok(text) = String::from_utf8(bytes.clone()) else {
        return bytes;
    };
    let body = match text.split_once('\n') {
        Some((first, rest)) if first.starts_with("#:schema") => rest.to_string(),
        _ => text,
    };
    let mut body = format!("#:schema {}\n{body}", kind.schema_file());
    if kind == FileKind::Suite {
        if let Ok(mut doc) = body.parse::<toml_edit::DocumentMut>() {
            if let Some(table) = doc.get_mut("calibrate").and_then(|t| t.as_table_like_mut()) {
                for (_, value) in table.iter_mut() {
                    let Some(path) = value.as_str().map(Path::new) else {
                        continue;
                    };
                    if path.is_relative() {
                        let joined = from.join(path);
                        let absolute = joined
                            .canonicalize()
                            .or_else(|_| std::path::absolute(&joined))
                            .unwrap_or(joined);
                        let decor = value.as_value().map(|v| v.decor().clone());
                        *value = toml_edit::value(absolute.display().to_string());
                        if let (Some(v), Some(decor)) = (value.as_value_mut(), decor) {
                            *v.decor_mut() = decor;
                        }
                    }
                }
            }
            body = doc.to_string();
        }
    }
    body.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_is_written_once_under_a_suite_name() {
        let dir = tempfile::tempdir().unwrap();
        let suite = dir.path().join("week-1");
        let files = from_template(template("play").unwrap(), &suite).unwrap();
        assert!(files.contains(&PathBuf::from("suite.schema.json")));
        let toml = std::fs::read_to_string(suite.join("suite.toml")).unwrap();
        assert!(toml.starts_with("#:schema suite.schema.json\n"), "{toml}");
        assert!(toml.contains("title = \"week-1\""), "{toml}");
        assert!(!toml.contains("@NAME@"));
        let again = from_template(template("play").unwrap(), &suite).unwrap_err();
        assert!(again.to_string().contains("already exists"), "{again}");
        let bad = from_template(template("play").unwrap(), &dir.path().join("Week 1"));
        assert!(matches!(bad, Err(NewError::Name(_))));
    }

    #[test]
    fn a_copied_suite_names_its_own_schema_and_keeps_its_calibration_hand_ins() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("old");
        std::fs::create_dir_all(from.join("golden")).unwrap();
        std::fs::create_dir_all(dir.path().join("hand-ins/c")).unwrap();
        std::fs::write(
            from.join("suite.toml"),
            "#:schema ../../schema/suite.schema.json\ntitle = \"t\"\n[calibrate]\nc = \"../hand-ins/c\"  # the C one\n",
        )
        .unwrap();
        std::fs::write(from.join("golden/a.stdout"), "x\n").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", from.join("golden/link")).unwrap();
        let files = from_suite(&from, &dir.path().join("new")).unwrap();
        assert!(
            files.contains(&PathBuf::from("golden/a.stdout")),
            "{files:?}"
        );
        assert!(!files.iter().any(|f| f.ends_with("link")), "{files:?}");
        let toml = std::fs::read_to_string(dir.path().join("new/suite.toml")).unwrap();
        assert!(
            toml.starts_with("#:schema suite.schema.json\ntitle"),
            "{toml}"
        );
        let want = format!(
            "c = \"{}\"  # the C one",
            dir.path()
                .canonicalize()
                .unwrap()
                .join("hand-ins/c")
                .display()
        );
        assert!(toml.contains(&want), "{toml}");
        assert!(dir.path().join("new/suite.schema.json").is_file());
    }
}
