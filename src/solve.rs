//! `grader solve`: the reference solvers behind the assignment's own command-line interface.

use crate::exit::{CliError, CmdResult};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: `tictactoe` or `tmmorris`.
    pub game: String,
    /// The game's own arguments, exactly as the handout gives them to a student program.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

pub fn run(args: Args) -> CmdResult {
    Err(CliError::usage(anyhow::anyhow!(
        "unknown game `{}`",
        args.game
    )))
}
