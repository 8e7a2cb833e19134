//! Grading a class: submissions in parallel (`--jobs`), each result written atomically the moment it is
//! ready, and the gradebook rewritten after every submission so an interrupted run keeps what it did.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::Context;

use super::pipeline::{grade, Graded, Prepare};
use crate::report::result::SubmissionResult;
use crate::report::{csv, write_atomic};
use crate::sandbox::scratch::{remove_tree, Bounds, Scratch};
use crate::sandbox::{Sandbox, Tier};
use crate::suite::Suite;

/// The student folders in `dir`: every sub-folder not starting with `.`, sorted by name.
pub fn students(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read submissions folder `{}`", dir.display()))?;
    let mut found: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(name, _)| !name.starts_with('.'))
        .collect();
    found.sort();
    Ok(found)
}

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
pub fn save_student(dir: &Path, graded: &Graded) -> anyhow::Result<()> {
    let mut first: Option<anyhow::Error> = None;
    let games = dir.join("games");
    if let Err(e) = remove_tree(&games) {
        first.get_or_insert(anyhow::Error::new(e));
    }
    for a in &graded.artifacts {
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
    write_atomic(&path, graded.result.to_json().as_bytes())
        .with_context(|| format!("cannot write `{}`", path.display()))?;
    first.map_or(Ok(()), Err)
}

/// Grades every student with `jobs` threads, each in a scratch folder of its own (under `full`, a tmpfs
/// capped to `bounds`) removed once graded. Returns the results in student order, and the first error
/// met while writing results (grading carries on regardless).
pub fn grade_class(
    sandbox: &Arc<dyn Sandbox>,
    prepare: &dyn Prepare,
    suite: &Suite,
    students: &[(String, PathBuf)],
    jobs: usize,
    out: &Outputs,
    bounds: Bounds,
) -> (Vec<SubmissionResult>, Option<anyhow::Error>) {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<SubmissionResult>>> = Mutex::new(vec![None; students.len()]);
    let write_error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let groups: Vec<String> = suite.groups.iter().map(|g| g.name.clone()).collect();
    let manual: Vec<String> = suite.manual.iter().map(|m| m.name.clone()).collect();
    let bar = if std::io::stderr().is_terminal() && students.len() > 1 {
        let bar = indicatif::ProgressBar::new(students.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let scratch_root = match Scratch::new() {
        Ok(d) => d,
        Err(e) => {
            return (
                Vec::new(),
                Some(anyhow::Error::new(e).context("cannot make a scratch folder")),
            )
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, students.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((name, dir)) = students.get(i) else {
                    break;
                };
                bar.set_message(name.clone());
                let bounded = (sandbox.tier() == Tier::Full).then_some(bounds);
                // Should the folder not be made, the build's own attempt reports why.
                let scratch = scratch_root
                    .sub(&format!("s{i}"), bounded)
                    .unwrap_or_else(|_| scratch_root.path().join(format!("s{i}")));
                let graded = grade(sandbox, prepare, suite, name, dir, &scratch, &|_| true);
                // What the program left cannot stop the class: a tree that will not go is reported and
                // left for the end of the run (or the next grader's sweep).
                if let Err(e) = scratch_root.release(&scratch) {
                    bar.suspend(|| eprintln!("warning: {e:#}"));
                }
                let written = save_student(&out.dir.join(name), &graded);
                let result = graded.result;
                let mut all = done.lock().expect("results lock");
                all[i] = Some(result);
                let so_far: Vec<SubmissionResult> = all.iter().flatten().cloned().collect();
                let book = write_atomic(
                    &out.gradebook_path(),
                    csv::gradebook(&groups, &manual, &so_far).as_bytes(),
                )
                .with_context(|| format!("cannot write `{}`", out.gradebook_path().display()));
                drop(all);
                if let Err(e) = written.and(book) {
                    write_error.lock().expect("error lock").get_or_insert(e);
                }
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let results = done
        .into_inner()
        .expect("results lock")
        .into_iter()
        .flatten()
        .collect();
    (results, write_error.into_inner().expect("error lock"))
}
