//! `grader marks merge|import RESULTS/SUITE FILE...`: TAs' marks files joined into the class's
//! `manual.toml` (conflicts named with both values, taken from neither), or marks read from a
//! spreadsheet; then the class's results, grades.csv and pages brought up to date (docs/review.md).

use std::path::{Path, PathBuf};

use super::exit::{CliError, CmdResult, Exit};
use crate::marks::{file, merge, Marks, MANUAL_FILE};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

#[derive(Debug, clap::Subcommand)]
pub enum What {
    /// Join TAs' `manual.toml` files into RESULTS/SUITE/manual.toml.
    Merge {
        /// A suite's results folder (`results/<suite>`).
        results: PathBuf,
        /// Each TA's marks file.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Read marks from a CSV (`student`, then `<group>`, `<group>-items`, `<group>-comment`, `by`).
    Import {
        /// A suite's results folder (`results/<suite>`).
        results: PathBuf,
        /// The spreadsheet, saved as CSV.
        csv: PathBuf,
        /// Who gave the marks of rows with no `by` (default: `$USER`).
        #[arg(long, value_name = "NAME")]
        by: Option<String>,
    },
}

/// `grader marks …`.
pub fn run(args: Args) -> CmdResult {
    match args.what {
        What::Merge { results, files } => merge_files(&results, &files),
        What::Import { results, csv, by } => import(&results, &csv, by),
    }
}

/// The class's suite and its marks file (read, or empty).
fn destination(results: &Path) -> Result<(String, Marks, Vec<String>), CliError> {
    let (class, _) = crate::report::html::class::load_results(results);
    let Some(suite) = class.first().map(|r| r.suite.clone()) else {
        return Err(CliError::usage(anyhow::anyhow!(
            "no `result.json` in `{}`\nhint: name a suite's results folder, such as `results/<suite>`",
            results.display()
        )));
    };
    let marks = file::read_or_empty(&results.join(MANUAL_FILE), &suite).map_err(CliError::usage)?;
    let students = class.into_iter().map(|r| r.student).collect();
    Ok((suite, marks, students))
}

fn merge_files(results: &Path, files: &[PathBuf]) -> CmdResult {
    let (suite, mut into, _) = destination(results)?;
    let mut inputs = Vec::new();
    for f in files {
        let marks = file::read(f).map_err(CliError::usage)?;
        if marks.suite != suite {
            return Err(CliError::usage(anyhow::anyhow!(
                "`{}` holds the marks of `{}`, not of `{suite}`",
                f.display(),
                marks.suite
            )));
        }
        inputs.push((f.display().to_string(), marks));
    }
    let conflicts = merge::merge(&mut into, &inputs);
    finish(results, &into)?;
    for c in &conflicts {
        eprintln!("conflict: {c}");
    }
    if conflicts.is_empty() {
        return Ok(Exit::Success);
    }
    eprintln!(
        "hint: {} mark(s) in conflict were taken from neither file; give them in `grader review {}`, or make the files agree and merge again",
        conflicts.len(),
        results.display()
    );
    Ok(Exit::Failure)
}

fn import(results: &Path, csv: &Path, by: Option<String>) -> CmdResult {
    let (suite, mut into, students) = destination(results)?;
    let rubric = {
        let (class, _) = crate::report::html::class::load_results(results);
        crate::report::manual::rubric(results, &class)?
    };
    let by = by
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "ta".into());
    let by = crate::marks::check_name(&by)
        .map_err(|e| CliError::usage(anyhow::anyhow!("`--by`: {e}")))?;
    let rows = crate::marks::import::Rubric {
        suite: &suite,
        groups: &rubric.manual,
    };
    let mut marks = crate::marks::import::read(csv, &rows, &students, &by, jiff::Timestamp::now())
        .map_err(|e| CliError::usage(anyhow::anyhow!(e)))?;
    // Marks from a spreadsheet were given to the code graded now.
    for (key, s) in &mut marks.students {
        s.code = crate::report::manual::stored_code(results, key);
    }
    let conflicts = merge::merge(&mut into, &[(csv.display().to_string(), marks)]);
    finish(results, &into)?;
    for c in &conflicts {
        eprintln!("conflict: {c}");
    }
    Ok(if conflicts.is_empty() {
        Exit::Success
    } else {
        Exit::Failure
    })
}

/// Writes the joined marks and brings the class's results, gradebook and pages up to date.
fn finish(results: &Path, marks: &Marks) -> Result<(), CliError> {
    let path = results.join(MANUAL_FILE);
    crate::report::write_atomic(&path, file::to_text(marks).as_bytes()).map_err(|e| {
        CliError::internal(anyhow::anyhow!(e).context(format!("cannot write `{}`", path.display())))
    })?;
    let (_, notes) = crate::report::manual::retotal_folder(results)?;
    for n in notes {
        eprintln!("note: {n}");
    }
    eprintln!("wrote {}", path.display());
    Ok(())
}
