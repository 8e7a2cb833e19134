//! A class's results on disk and on the terminal, from grading's events: each `result.json` (with the
//! files its cases produced) the moment its submission is graded, `grades.csv` rewritten after every
//! submission so an interrupted run keeps what it did, and the progress bar.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context;

use super::events::{Event, Reporter};
use super::result::{Artifact, SubmissionResult};
use super::{csv, write_atomic, Columns};
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
    dir: &Path,
    result: &SubmissionResult,
    artifacts: &[Artifact],
) -> anyhow::Result<()> {
    let mut first: Option<anyhow::Error> = None;
    let games = dir.join("games");
    if let Err(e) = remove_tree(&games) {
        first.get_or_insert(anyhow::Error::new(e));
    }
    for a in artifacts {
        let path = dir.join(&a.path);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, &a.bytes));
        if let Err(e) = written {
            first.get_or_insert(
                anyhow::Error::new(e).context(format!("cannot write `{}`", path.display())),
            );
        }
    }
    let path = dir.join("result.json");
    write_atomic(&path, result.to_json().as_bytes())
        .with_context(|| format!("cannot write `{}`", path.display()))?;
    first.map_or(Ok(()), Err)
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
}

impl<'a> ClassReporter<'a> {
    /// For a class of `students` submissions; a progress bar on a terminal when there are several.
    #[must_use]
    pub fn new(out: &'a Outputs, columns: &'a Columns, students: usize) -> ClassReporter<'a> {
        let bar = if std::io::stderr().is_terminal() && students > 1 {
            let bar = indicatif::ProgressBar::new(students as u64);
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
        }
    }

    /// The first file that could not be written, if any.
    pub fn take_error(&self) -> Option<anyhow::Error> {
        self.error.lock().expect("error lock").take()
    }

    fn keep(&self, e: anyhow::Error) {
        self.error.lock().expect("error lock").get_or_insert(e);
    }

    fn gradebook(&self, results: &[SubmissionResult]) -> anyhow::Result<()> {
        let book = self.out.gradebook_path();
        write_atomic(&book, csv::gradebook(self.columns, results).as_bytes())
            .with_context(|| format!("cannot write `{}`", book.display()))
    }
}

impl Reporter for ClassReporter<'_> {
    fn report(&self, event: &Event<'_>) {
        match event {
            Event::SubmissionStarted { student, .. } => self.bar.set_message(student.to_string()),
            Event::CaseFinished { .. } | Event::ClassFinished { .. } => {}
            Event::SubmissionFinished {
                index,
                result,
                artifacts,
            } => {
                let written = save_student(&self.out.dir.join(&result.student), result, artifacts);
                let mut all = self.done.lock().expect("results lock");
                if let Some(slot) = all.get_mut(*index) {
                    *slot = Some((*result).clone());
                }
                let so_far: Vec<SubmissionResult> = all.iter().flatten().cloned().collect();
                let book = self.gradebook(&so_far);
                drop(all);
                if let Err(e) = written.and(book) {
                    self.keep(e);
                }
                self.bar.inc(1);
            }
            Event::Warning { message } => self.bar.suspend(|| eprintln!("warning: {message}")),
            Event::Remarked { results } => {
                // Every result.json, then the gradebook, with the marks.
                self.bar.finish_and_clear();
                for r in *results {
                    let path = self.out.result_path(&r.student);
                    if let Err(e) = write_atomic(&path, r.to_json().as_bytes()) {
                        self.keep(
                            anyhow::Error::new(e)
                                .context(format!("cannot write `{}`", path.display())),
                        );
                    }
                }
                if let Err(e) = self.gradebook(results) {
                    self.keep(e);
                }
            }
        }
        if let Event::ClassFinished { .. } = event {
            self.bar.finish_and_clear();
        }
    }
}
