//! A class's results on disk and on the terminal, from grading's events: each `result.json` (with the
//! files its cases produced) the moment its submission is graded, `grades.csv` rewritten after every
//! submission so an interrupted run keeps what it did, the progress bar, and at the end the HTML
//! report (`index.html`, each student's `report.html`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context;

use super::events::{Event, Reporter};
use super::result::{Artifact, SubmissionResult};
use super::{csv, write_atomic, write_within, Columns};
use crate::sandbox::scratch::remove_tree;

/// Where a class's results go.
pub struct Outputs {
    /// `results/<suite>/`: `<student>/result.json` and `grades.csv`.
    pub dir: PathBuf,
}

impl Outputs {
    pub fn result_path(&self, student: &str) -> PathBuf {
        self.dir.join(student).join("result.json")
    }
    pub fn gradebook_path(&self) -> PathBuf {
        self.dir.join("grades.csv")
    }
}

/// Saves a graded submission in `dir` (`results/<suite>/<student>/`): its artifacts (replacing the
/// games of an earlier run), then `result.json`, atomically and always, even when an artifact could not
/// be written: a computed result is never lost.
///
/// # Errors
/// The first file that could not be written, named.
pub fn save_student(
    root: &Path,
    key: &str,
    result: &SubmissionResult,
    artifacts: &[Artifact],
) -> anyhow::Result<()> {
    let mut first: Option<anyhow::Error> = None;
    let dir = root.join(key);
    // A link planted where the student's folder goes (a results folder copied from anywhere) is
    // removed, never followed: the grader makes its own folder there.
    if std::fs::symlink_metadata(&dir).is_ok_and(|m| m.file_type().is_symlink()) {
        std::fs::remove_file(&dir)
            .with_context(|| format!("cannot remove the link `{}`", dir.display()))?;
    }
    let games = dir.join("games");
    if let Err(e) = remove_tree(&games) {
        first.get_or_insert(anyhow::Error::new(e));
    }
    // Below the results folder nothing is a link the grader writes through.
    for a in artifacts {
        let rel = Path::new(key).join(&a.path);
        if let Err(e) = write_within(root, &rel, &a.bytes) {
            first.get_or_insert(
                anyhow::Error::new(e)
                    .context(format!("cannot write `{}`", root.join(&rel).display())),
            );
        }
    }
    let rel = Path::new(key).join("result.json");
    write_within(root, &rel, result.to_json().as_bytes())
        .with_context(|| format!("cannot write `{}`", root.join(&rel).display()))?;
    first.map_or(Ok(()), Err)
}

/// The file beside a student's `result.json` holding what it was graded from
/// (`grade::fingerprint`), in hex: `grader run --resume` skips a student whose print is unchanged.
pub const FINGERPRINT: &str = "input.sha256";

/// The result `out` holds for the student `key` of `suite`, read as any file on disk is: no link
/// followed, never blocking, capped.
///
/// # Errors
/// Why it cannot be read, or is not a result of this suite for this student.
pub fn stored_result(out: &Outputs, suite: &str, key: &str) -> Result<SubmissionResult, String> {
    let r = crate::report::result::read_result(&out.dir, key)?;
    if r.suite == suite {
        Ok(r)
    } else {
        Err(format!("not a result of `{suite}` for `{key}`"))
    }
}

/// The fingerprint stored beside the student `key`'s result, if any (read as [`stored_result`] is).
#[must_use]
pub fn stored_fingerprint(out: &Outputs, key: &str) -> Option<String> {
    let rel = Path::new(key).join(FINGERPRINT);
    let read = crate::untrusted::read_output(&out.dir, &rel, 128).ok()?;
    let text = String::from_utf8(read.bytes).ok()?;
    Some(text.trim().to_string())
}

/// The results an earlier run left in `out` for students who are not in this run (`class`, by key),
/// of the same suite: a run that regrades part of a class keeps every other student's row in the
/// gradebook instead of dropping it. Read as any file on disk is: no link followed, never blocking,
/// capped. One that cannot be read or is not a result of this suite is named on stderr and left out.
#[must_use]
pub fn earlier_results(out: &Outputs, suite: &str, class: &[&str]) -> Vec<SubmissionResult> {
    let Ok(entries) = std::fs::read_dir(&out.dir) else {
        return Vec::new();
    };
    let mut kept = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        // `file_type` does not follow a link: a linked folder is not a student's.
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Some(key) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let rel = Path::new(&key).join("result.json");
        // A folder without a result (the class tournament's games) is no student's.
        if class.contains(&key.as_str()) || std::fs::symlink_metadata(out.dir.join(&rel)).is_err() {
            continue;
        }
        match stored_result(out, suite, &key) {
            Ok(r) => kept.push(r),
            Err(why) if why.starts_with("not a result") => eprintln!(
                "note: `{}` is not a result of `{suite}` for `{key}`; not in grades.csv",
                out.dir.join(&rel).display()
            ),
            Err(why) => eprintln!(
                "note: cannot read `{}` ({why}); not in grades.csv",
                out.dir.join(&rel).display()
            ),
        }
    }
    kept.sort_by(|a, b| a.student.cmp(&b.student));
    kept
}

/// The reporter of `grader run`: writes every result and the gradebook as grading goes, and keeps the
/// first error met while writing (grading carries on regardless: a computed result is never lost).
pub struct ClassReporter<'a> {
    out: &'a Outputs,
    columns: &'a Columns,
    /// Each student's result once graded, in student order.
    done: Mutex<Vec<Option<SubmissionResult>>>,
    error: Mutex<Option<anyhow::Error>>,
    bar: indicatif::ProgressBar,
    /// Earlier results of students not in this run, kept in the gradebook.
    earlier: Vec<SubmissionResult>,
    /// What each student is graded from (`input.sha256`), by key; none where it could not be read.
    fingerprints: std::collections::HashMap<String, String>,
    /// Each student's code alone (`code.sha256`), by key.
    code: std::collections::HashMap<String, String>,
}

impl<'a> ClassReporter<'a> {
    /// For a class of `students` submissions; a progress bar on a terminal when there are several.
    #[must_use]
    pub fn new(out: &'a Outputs, columns: &'a Columns, students: usize) -> ClassReporter<'a> {
        let bar = if std::io::stderr().is_terminal() && students > 1 {
            // One set of bars for the classes graded side by side (`grader run` over several suites).
            static BARS: std::sync::OnceLock<indicatif::MultiProgress> = std::sync::OnceLock::new();
            let bar = BARS
                .get_or_init(indicatif::MultiProgress::new)
                .add(indicatif::ProgressBar::new(students as u64));
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        ClassReporter {
            out,
            columns,
            done: Mutex::new(vec![None; students]),
            error: Mutex::new(None),
            bar,
            earlier: Vec::new(),
            fingerprints: std::collections::HashMap::new(),
            code: std::collections::HashMap::new(),
        }
    }

    /// Keeps `earlier` (see [`earlier_results`]) in every gradebook this reporter writes.
    #[must_use]
    pub fn keeping(mut self, earlier: Vec<SubmissionResult>) -> Self {
        self.earlier = earlier;
        self
    }

    /// Writes `fingerprints` (by key) beside each result as it is saved; a student without one has
    /// an earlier run's removed.
    #[must_use]
    pub fn fingerprints(mut self, fingerprints: std::collections::HashMap<String, String>) -> Self {
        self.fingerprints = fingerprints;
        self
    }

    /// Writes each student's code fingerprint (by key, `code.sha256`) beside its result as it is
    /// saved: what a person's marks are checked against.
    #[must_use]
    pub fn code_prints(mut self, code: std::collections::HashMap<String, String>) -> Self {
        self.code = code;
        self
    }

    /// The first file that could not be written, if any.
    pub fn take_error(&self) -> Option<anyhow::Error> {
        self.error.lock().expect("error lock").take()
    }

    fn keep(&self, e: anyhow::Error) {
        self.error.lock().expect("error lock").get_or_insert(e);
    }

    /// Writes the gradebook of `results` and the earlier rows kept (a student in `results` is never
    /// twice: its row there wins).
    pub fn gradebook<'r>(
        &'r self,
        results: impl IntoIterator<Item = &'r SubmissionResult>,
    ) -> anyhow::Result<()> {
        let book = self.out.gradebook_path();
        let results: Vec<&SubmissionResult> = results.into_iter().collect();
        let kept = self
            .earlier
            .iter()
            .filter(|e| !results.iter().any(|r| r.student == e.student));
        let all = results.iter().copied().chain(kept);
        write_atomic(&book, csv::gradebook(self.columns, all).as_bytes())
            .with_context(|| format!("cannot write `{}`", book.display()))
    }
}

impl Reporter for ClassReporter<'_> {
    fn report(&self, event: &Event<'_>) {
        match event {
            Event::SubmissionStarted { student, .. } => self.bar.set_message(student.to_string()),
            Event::CaseFinished { .. } => {}
            Event::ClassFinished { results } => {
                self.bar.finish_and_clear();
                // The HTML report, from the results folder alone (as `grader report` makes it). A
                // class with no one in it (an empty folder, a shard that drew no student) has none.
                if results.is_empty() {
                    return;
                }
                if let Err(e) = super::html::class::write_suite(&self.out.dir) {
                    self.keep(e);
                }
            }
            Event::SubmissionFinished {
                index,
                result,
                artifacts,
            } => {
                let root = &self.out.dir;
                let written =
                    save_student(root, &result.student, result, artifacts).and_then(|()| {
                        for (name, prints) in [
                            (FINGERPRINT, &self.fingerprints),
                            (super::manual::CODE_FINGERPRINT, &self.code),
                        ] {
                            let rel = Path::new(&result.student).join(name);
                            let path = root.join(&rel);
                            match prints.get(&result.student) {
                                Some(print) => {
                                    write_within(root, &rel, format!("{print}\n").as_bytes())
                                }
                                None => remove_tree(&path).map_err(std::io::Error::other),
                            }
                            .with_context(|| format!("cannot write `{}`", path.display()))?;
                        }
                        Ok(())
                    });
                let mut all = self.done.lock().expect("results lock");
                if let Some(slot) = all.get_mut(*index) {
                    *slot = Some((*result).clone());
                }
                // Written under the lock: gradebooks never overtake one another.
                let book = self.gradebook(all.iter().flatten());
                drop(all);
                if let Err(e) = written.and(book) {
                    self.keep(e);
                }
                self.bar.inc(1);
                // The whole class graded: its bar goes at once, not when its table is printed (classes
                // graded side by side finish at other times).
                if self.bar.length().is_some_and(|n| self.bar.position() >= n) {
                    self.bar.finish_and_clear();
                }
            }
            Event::Warning { message } => self.bar.suspend(|| eprintln!("warning: {message}")),
            Event::Remarked { results } => {
                // Every result.json, then the gradebook, with the marks.
                self.bar.finish_and_clear();
                for r in *results {
                    let path = self.out.result_path(&r.student);
                    let rel = Path::new(&r.student).join("result.json");
                    if let Err(e) = write_within(&self.out.dir, &rel, r.to_json().as_bytes()) {
                        self.keep(
                            anyhow::Error::new(e)
                                .context(format!("cannot write `{}`", path.display())),
                        );
                    }
                }
                if let Err(e) = self.gradebook(results.iter()) {
                    self.keep(e);
                }
            }
        }
    }
}
