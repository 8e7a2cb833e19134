//! `grader golden`: writes a suite's golden files from the reference solver, or checks them (`--check`).
//!
//! An expected output with both `golden = FILE` and `reference = SOLVER` is a committed copy of what the
//! solver computes for the case's arguments: this command (re)writes those files, and `--check` (run in
//! CI) fails when any committed file differs from the solver, so goldens can never drift silently.

use std::path::PathBuf;

use super::common::load_config;
use super::exit::{CliError, CmdResult, Exit};
use crate::grade::names::{concrete_args, REFERENCE_WORK};
use crate::report::write_atomic;
use crate::suite::validate::discover;
use crate::suite::{oracle, Suite};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Suite folders, or folders of suites.
    #[arg(required = true)]
    pub suites: Vec<PathBuf>,
    /// Only check that every golden file matches the reference; write nothing.
    #[arg(long)]
    pub check: bool,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

pub fn run(args: Args) -> CmdResult {
    let config = load_config(args.config.as_deref())?;
    let oracle = oracle::builtin();
    let args_check = args.check;
    let (mut stale, mut written, mut fine) = (0, 0, 0);
    for path in &args.suites {
        for dir in discover(path)? {
            let suite =
                Suite::load_for_golden(&dir, &config, oracle.clone()).map_err(CliError::usage)?;
            for (group, case) in suite.cases() {
                let Some(run) = case.run() else { continue };
                let outputs = run
                    .stdout
                    .iter()
                    .map(|e| (None, e))
                    .chain(run.files.iter().map(|(n, e)| (Some(n), e)));
                for (file, expect) in outputs {
                    let (Some(golden), Some(program)) = (&expect.golden, &expect.reference) else {
                        continue;
                    };
                    let args = concrete_args(&run.args, REFERENCE_WORK);
                    let solved = suite.reference_output(program, &args).map_err(|m| {
                        CliError::usage(anyhow::anyhow!(
                            "the reference solver `{program}` rejects case `{}/{}`: {m}",
                            group.name,
                            case.name
                        ))
                    })?;
                    let want = if file.is_some() {
                        solved.file
                    } else {
                        solved.stdout
                    };
                    let full = suite.dir.join(golden);
                    let have = std::fs::read(&full).ok();
                    if have.as_deref() == Some(want.as_bytes()) {
                        fine += 1;
                    } else if args_check {
                        stale += 1;
                        let why = if have.is_none() {
                            "missing"
                        } else {
                            "differs from the reference"
                        };
                        eprintln!("stale: `{}` ({why})", full.display());
                    } else {
                        write_atomic(&full, want.as_bytes()).map_err(|e| {
                            CliError::internal(anyhow::anyhow!(
                                "cannot write `{}`: {e}",
                                full.display()
                            ))
                        })?;
                        written += 1;
                        println!("wrote `{}`", full.display());
                    }
                }
            }
        }
    }
    if args_check {
        if stale > 0 {
            eprintln!(
                "error: {stale} golden files do not match the reference solver\nhint: rewrite them with `grader golden {}`",
                args.suites.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" ")
            );
            return Ok(Exit::Failure);
        }
        println!("ok: {fine} golden files match the reference solver");
    } else {
        println!("{written} golden files written, {fine} already up to date");
    }
    Ok(Exit::Success)
}
