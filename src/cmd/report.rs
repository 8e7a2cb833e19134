//! `grader report RESULTS/SUITE`: brings a suite's results folder up to date from its files alone,
//! running nothing: each result re-totalled with the manual marks (`manual.toml`), grades.csv, and
//! the HTML report (`index.html` and each student's `report.html`).

use std::path::PathBuf;

use super::exit::{CliError, CmdResult, Exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A suite's results folder (`results/<suite>`), as `grader run` wrote it.
    pub results: PathBuf,
}

/// `grader report RESULTS/SUITE`.
pub fn run(args: Args) -> CmdResult {
    if !args.results.is_dir() {
        return Err(CliError::usage(anyhow::anyhow!(
            "no results folder `{}`\nhint: name a suite's folder under `grader run`'s `--out` (default `results/<suite>`)",
            args.results.display()
        )));
    }
    let (students, notes) = crate::report::manual::retotal_folder(&args.results)?;
    for n in notes {
        eprintln!("note: {n}");
    }
    eprintln!("{students} student pages");
    println!("{}", args.results.join("index.html").display());
    Ok(Exit::Success)
}
