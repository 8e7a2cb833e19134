//! `grader completions SHELL` and `grader man [COMMAND]`: shell completions and man pages made from the
//! same clap definitions the parser uses, so they never drift from the commands.

use std::io::Write as _;

use clap::CommandFactory as _;

use super::exit::{CliError, CmdResult, Exit};
use super::Cli;

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell: `bash`, `zsh`, `fish`, `elvish` or `powershell`.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// A command's own page (`grader man run`); default: the page of `grader` itself.
    pub command: Option<String>,
}

/// `grader completions SHELL`: the script on stdout (`grader completions bash > ~/.local/share/bash-completion/completions/grader`).
pub fn completions(args: CompletionsArgs) -> CmdResult {
    let mut bytes = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "grader", &mut bytes);
    print(&bytes)
}

/// `grader man [COMMAND]`: the man page in roff on stdout (`grader man > grader.1`).
pub fn man(args: ManArgs) -> CmdResult {
    let root = Cli::command();
    let page = match &args.command {
        None => root,
        Some(name) => {
            let Some(sub) = root.find_subcommand(name) else {
                let names: Vec<&str> = root.get_subcommands().map(|c| c.get_name()).collect();
                return Err(CliError::usage(anyhow::anyhow!(
                    "no command `{name}`\nhint: the commands are {}",
                    names.join(", ")
                )));
            };
            // Named as man pages of subcommands are: `grader-run(1)`.
            sub.clone()
                .name(format!("grader-{name}"))
                .version(env!("CARGO_PKG_VERSION"))
        }
    };
    let mut bytes = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut bytes)
        .map_err(|e| {
            CliError::internal(anyhow::Error::new(e).context("cannot render the man page"))
        })?;
    print(&bytes)
}

/// Writes to stdout; a closed pipe (`grader man | head`) is no error.
fn print(bytes: &[u8]) -> CmdResult {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(Exit::Success),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Exit::Success),
        Err(e) => Err(CliError::internal(
            anyhow::Error::new(e).context("cannot write to stdout"),
        )),
    }
}
