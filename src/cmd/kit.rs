//! `grader kit SUITE -o DIR`: the suite with its public cases only, for students' `grader check`.

use std::path::PathBuf;

use super::common::load_config;
use super::exit::{CliError, CmdResult, Exit};
use crate::suite::{oracle, Suite};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite folder.
    pub suite: PathBuf,
    /// The kit's folder (new, or empty); name it as the suite, since its name is the suite's name.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: PathBuf,
    /// A file of the suite to add to the kit (its README, a protocol document), relative to the
    /// suite folder; repeatable. Check it first: a suite's README may describe its hidden cases.
    #[arg(long, value_name = "FILE")]
    pub include: Vec<PathBuf>,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `grader kit`.
pub fn run(args: Args) -> CmdResult {
    let config = load_config(args.config.as_deref())?;
    let suite = Suite::load(&args.suite, &config, oracle::builtin()).map_err(CliError::usage)?;
    let kit = crate::bundle::kit::write(&suite, &args.include, &args.out)?;
    // The kit must be a suite `grader check` can load: a failure here is the grader's own.
    Suite::load(&args.out, &config, oracle::builtin()).map_err(|e| {
        CliError::internal(anyhow::Error::new(e).context(format!(
            "the kit written in `{}` does not load",
            args.out.display()
        )))
    })?;
    println!(
        "wrote `{}`: {}, {} left out, {}",
        args.out.display(),
        super::common::plural(kit.public, "public case", "public cases"),
        super::common::plural(kit.hidden, "hidden case", "hidden cases"),
        super::common::plural(kit.files, "file", "files")
    );
    if !kit.groups_left_out.is_empty() {
        println!(
            "groups with no public case, left out: {}",
            kit.groups_left_out.join(", ")
        );
    }
    if !kit.left_out.is_empty() {
        println!(
            "left out (add one with `--include FILE` once it gives nothing hidden away): {}",
            kit.left_out.join(", ")
        );
    }
    Ok(Exit::Success)
}
