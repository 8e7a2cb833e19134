//! Grading: runs a suite's cases on submissions, judges them, applies the rubric (`run`, `check`).

pub mod case;
pub mod pipeline;
pub mod score;

#[cfg(test)]
mod tests;

use crate::exit::{CliError, CmdResult};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Arguments (to be defined).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

pub fn run(_args: Args) -> CmdResult {
    Err(CliError::internal(anyhow::anyhow!(
        "`grader run` is not built yet"
    )))
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Arguments (to be defined).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

pub fn check(_args: CheckArgs) -> CmdResult {
    Err(CliError::internal(anyhow::anyhow!(
        "`grader check` is not built yet"
    )))
}
