//! `grader report RESULTS/SUITE`: writes a suite's HTML report again from its results folder alone
//! (`index.html` and each student's `report.html`), running nothing.

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
    let students =
        crate::report::html::class::write_suite(&args.results).map_err(CliError::usage)?;
    eprintln!("{students} student pages");
    println!("{}", args.results.join("index.html").display());
    Ok(Exit::Success)
}
