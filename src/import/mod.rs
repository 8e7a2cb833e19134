//! `grader import FORMAT DOWNLOAD -o SUBMISSIONS`: an LMS's download of an assignment turned into what
//! `grader run` grades: one folder per student or team (named by the roster when one is given, else by
//! the LMS's name for the submitter), each file under the name the student gave it, and
//! `submissions.toml` with each submission's time, late mark and students. Each format's parser
//! ([`canvas`], [`moodle`], [`gradescope`], [`blackboard`], [`github`]) turns the download's files
//! ([`archive`], read as untrusted input) into [`Found`] submissions; this module names their folders,
//! restores file names, unpacks a zip a student handed in, and writes everything out.

pub mod archive;
pub mod blackboard;
pub mod canvas;
pub mod github;
pub mod gradescope;
pub mod moodle;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;

use crate::course::roster::{safe_name, Identity, Roster};
use crate::course::submissions::{Record, Submissions};
use archive::Entry;

/// The downloads `grader import` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Canvas's "Download Submissions" zip: `name_[LATE_]userid_fileid_file` at the top.
    Canvas,
    /// Moodle's "Download all submissions": `Full Name_id_assignsubmission_file` folders (or files).
    Moodle,
    /// Gradescope's "Export Submissions": `submission_metadata.yml` and `submission_<id>/` folders.
    Gradescope,
    /// Blackboard's "Assignment File Download": `Assignment_user_attempt_<date>[_file]` files.
    Blackboard,
    /// A folder of GitHub Classroom repositories (`assignment-login/`), as `gh classroom clone
    /// student-repos` or the Classroom Assistant leave them.
    GithubClassroom,
}

impl Format {
    /// The name `import` takes and `submissions.toml` records.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Canvas => "canvas",
            Format::Moodle => "moodle",
            Format::Gradescope => "gradescope",
            Format::Blackboard => "blackboard",
            Format::GithubClassroom => "github-classroom",
        }
    }
}

/// One submission as a download shows it.
#[derive(Clone, Debug, Default)]
pub struct Found {
    /// The LMS's own name for it (a folder name when no roster names it).
    pub label: String,
    pub members: Vec<Identity>,
    pub submitted: Option<Timestamp>,
    /// The LMS marked it late.
    pub late: bool,
    /// Each file: its path in the submission and its bytes.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// Restored name ← the LMS's name.
    pub renamed: BTreeMap<String, String>,
}

/// What an import did.
#[derive(Debug, Default)]
pub struct Imported {
    pub submissions: Submissions,
    /// Folder → its files, to write.
    pub folders: BTreeMap<String, Vec<(PathBuf, Vec<u8>)>>,
    pub notes: Vec<String>,
}

/// Options every format shares.
pub struct Options<'a> {
    pub roster: Option<&'a Roster>,
    /// The zone of times an LMS writes without one (Blackboard's file names, Moodle's worksheet).
    pub timezone: jiff::tz::TimeZone,
    /// A file of submission times some LMSs give apart from the download (Moodle's grading
    /// worksheet, GitHub Classroom's grades CSV).
    pub times: Option<&'a Path>,
}

/// Reads `download` as `format` and works out each submission's folder.
///
/// # Errors
/// The download cannot be read, or is not what `format` says (with a hint).
pub fn import(format: Format, download: &Path, options: &Options<'_>) -> anyhow::Result<Imported> {
    let (found, mut notes) = match format {
        Format::GithubClassroom => github::read(download, options)?,
        _ => {
            let d = archive::read(download)?;
            let mut notes = d.notes;
            let entries = strip_common_root(d.entries);
            let (found, more) = match format {
                Format::Canvas => canvas::parse(&entries),
                Format::Moodle => moodle::parse(&entries, options)?,
                Format::Gradescope => gradescope::parse(&entries, options)?,
                Format::Blackboard => blackboard::parse(&entries, options),
                Format::GithubClassroom => unreachable!("read above"),
            };
            notes.extend(more);
            (found, notes)
        }
    };
    if found.is_empty() {
        anyhow::bail!(
            "no {} submission in `{}`\nhint: is it a {} download? `grader import --help` lists the formats",
            format.name(),
            download.display(),
            format.name()
        );
    }
    let mut out = Imported {
        submissions: Submissions {
            source: format.name().to_string(),
            ..Submissions::default()
        },
        ..Imported::default()
    };
    for f in found {
        place(f, options.roster, &mut out);
    }
    notes.append(&mut out.notes);
    out.notes = notes;
    Ok(out)
}

/// A download unpacked into one folder (`submissions/…`): that folder's name taken off every path.
fn strip_common_root(entries: Vec<Entry>) -> Vec<Entry> {
    let first = |e: &Entry| e.path.components().next().map(|c| c.as_os_str().to_owned());
    let root = entries.first().and_then(first);
    let shared = root.as_ref().is_some_and(|r| {
        entries
            .iter()
            .all(|e| first(e).as_ref() == Some(r) && e.path.components().count() > 1)
    });
    if !shared {
        return entries;
    }
    let root = PathBuf::from(root.unwrap_or_default());
    entries
        .into_iter()
        .map(|e| Entry {
            path: e
                .path
                .strip_prefix(&root)
                .map(Path::to_path_buf)
                .unwrap_or(e.path),
            bytes: e.bytes,
        })
        .collect()
}

/// Files a zip the student handed in holds, unpacked in its place (a single top folder taken off).
fn unpack_zips(found: &mut Found, notes: &mut Vec<String>) {
    let mut files = Vec::new();
    for (path, bytes) in std::mem::take(&mut found.files) {
        let is_zip = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
        if !is_zip {
            files.push((path, bytes));
            continue;
        }
        let mut d = archive::Download::default();
        let label = format!("{}: {}", found.label, path.display());
        match archive::unzip(std::io::Cursor::new(&bytes), &label, &mut d) {
            Ok(()) => {
                notes.extend(d.notes);
                let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
                // A zip of a folder (`project/…`), or macOS's `__MACOSX/` beside it.
                let inner: Vec<Entry> = d
                    .entries
                    .into_iter()
                    .filter(|e| !e.path.starts_with("__MACOSX"))
                    .collect();
                for e in strip_common_root(inner) {
                    files.push((base.join(e.path), e.bytes));
                }
            }
            Err(_) => files.push((path, bytes)),
        }
    }
    found.files = files;
}

/// `tictactoe-1.py` → `tictactoe.py`: Canvas's rename of a file handed in again under the same name,
/// undone unless the submission also has a file of the restored name.
pub fn restore_resubmission_name(name: &str, taken: &dyn Fn(&str) -> bool) -> Option<String> {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s, Some(e)),
        _ => (name, None),
    };
    let (base, n) = stem.rsplit_once('-')?;
    if base.is_empty() || n.is_empty() || !n.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let restored = match ext {
        Some(e) => format!("{base}.{e}"),
        None => base.to_string(),
    };
    (!taken(&restored)).then_some(restored)
}

/// Names `f`'s folder (the roster's folder for its first matched submitter, else its label), and
/// records it; a second submission for one folder keeps the later (or the first, said).
fn place(mut f: Found, roster: Option<&Roster>, out: &mut Imported) {
    let matched = roster.and_then(|r| f.members.iter().find_map(|m| r.find(m)));
    let folder = match (roster, matched) {
        (_, Some(s)) => s.folder.clone(),
        (Some(r), None) => {
            out.notes.push(format!(
                "`{}` ({}) is not in the roster `{}`: its folder is named by the LMS",
                f.label,
                f.members
                    .iter()
                    .map(Identity::label)
                    .collect::<Vec<_>>()
                    .join(", "),
                r.path.display()
            ));
            safe_name(&f.label)
        }
        (None, None) => safe_name(&f.label),
    };
    let folder = if folder.is_empty() {
        "unnamed".to_string()
    } else {
        folder
    };
    unpack_zips(&mut f, &mut out.notes);
    if let Some(before) = out.submissions.submissions.get(&folder) {
        let earlier = before.submitted.as_ref().map(ToString::to_string);
        let newer = match (earlier, f.submitted) {
            (Some(a), Some(b)) => {
                crate::course::time::parse_text(&a, &jiff::tz::TimeZone::UTC, true)
                    .is_ok_and(|a| b > a)
            }
            _ => false,
        };
        out.notes.push(format!(
            "two submissions for `{folder}` (team mates who both handed in?): kept {}",
            if newer { "the later" } else { "the first" }
        ));
        if !newer {
            return;
        }
    }
    let record = Record {
        submitted: f
            .submitted
            .and_then(|t| crate::course::time::show(t).parse().ok()),
        late: f.late,
        members: f.members,
        renamed: f.renamed,
        ..Record::default()
    };
    out.submissions.submissions.insert(folder.clone(), record);
    out.folders.insert(folder, f.files);
}

/// Writes the folders and `submissions.toml` into `out` (which must not hold student folders already).
///
/// # Errors
/// `out` holds something already, or a file cannot be written (named).
pub fn write(imported: &Imported, out: &Path) -> anyhow::Result<()> {
    if let Ok(mut entries) = std::fs::read_dir(out) {
        if entries.next().is_some() {
            anyhow::bail!(
                "`{}` is not empty\nhint: import into a new folder (`-o submissions/<suite>`), so no earlier hand-in is mixed in",
                out.display()
            );
        }
    }
    for (folder, files) in &imported.folders {
        let dir = out.join(folder);
        std::fs::create_dir_all(&dir)
            .map_err(|e| anyhow::anyhow!("cannot make `{}`: {e}", dir.display()))?;
        for (rel, bytes) in files {
            let rel = archive::check_path(rel)
                .map_err(|why| anyhow::anyhow!("`{}`: {why}", rel.display()))?;
            let path = dir.join(&rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| anyhow::anyhow!("cannot make `{}`: {e}", parent.display()))?;
            }
            // `create_new`: two files of one name (a name and its restored twin) never overwrite.
            let written = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .and_then(|mut file| std::io::Write::write_all(&mut file, bytes));
            written.map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", path.display()))?;
        }
    }
    let toml = out.join(crate::course::submissions::FILE);
    crate::report::write_atomic(&toml, imported.submissions.to_toml().as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", toml.display()))?;
    Ok(())
}

/// The LMS whose download a folder of loose files (no student folders) looks like, for the hint of
/// `grader run` (which never grades such a folder as an empty class).
#[must_use]
pub fn guess(names: &[String]) -> Option<Format> {
    let any = |f: &dyn Fn(&str) -> bool| names.iter().any(|n| f(n));
    if any(&|n| n == gradescope::METADATA) {
        Some(Format::Gradescope)
    } else if any(&|n| n.contains("_assignsubmission_")) {
        Some(Format::Moodle)
    } else if any(&|n| n.contains("_attempt_")) {
        Some(Format::Blackboard)
    } else if any(&|n| canvas::parse_name(n).is_some()) {
        Some(Format::Canvas)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canvas_resubmission_names_are_restored_unless_taken() {
        let none = |_: &str| false;
        assert_eq!(
            restore_resubmission_name("tictactoe-1.py", &none).as_deref(),
            Some("tictactoe.py")
        );
        assert_eq!(
            restore_resubmission_name("Makefile-2", &none).as_deref(),
            Some("Makefile")
        );
        assert_eq!(restore_resubmission_name("tictactoe.py", &none), None);
        assert_eq!(restore_resubmission_name("my-ai.scm", &none), None);
        assert_eq!(restore_resubmission_name("-1.py", &none), None);
        let taken = |n: &str| n == "tictactoe.py";
        assert_eq!(restore_resubmission_name("tictactoe-1.py", &taken), None);
    }
}
