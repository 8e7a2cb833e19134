//! `grader validate`: checks a suite without running anything.

use crate::exit::{CliError, CmdResult};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Arguments (to be defined).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

pub fn run(_args: Args) -> CmdResult {
    Err(CliError::internal(anyhow::anyhow!(
        "`grader validate` is not built yet"
    )))
}
