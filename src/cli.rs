//! The command line: argument definitions and dispatch to each command's module.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::exit::CliError;

/// An autograder and test harness for game-playing AI assignments.
#[derive(Debug, Parser)]
#[command(name = "grader", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a reference solver exactly as the assignment asks of a student program.
    Solve(crate::solve::Args),
    /// Grade submissions: `grader run suites/ submissions/` or `grader run suites/NAME STUDENTS/`.
    Run(crate::grade::Args),
    /// Run a suite's public cases on one submission folder (default `.`) and explain each failure.
    Check(crate::grade::CheckArgs),
    /// List the toolchains the suites need, found or missing (`--install` fetches the missing ones).
    Doctor(crate::doctor::Args),
    /// Check a suite's files without running anything.
    Validate(crate::suite::validate::Args),
    /// Write a suite's golden files from the reference solver, or check them with `--check`.
    Golden(crate::golden::Args),
    /// Play a match between two players: submission folders or bot names.
    Play(crate::arena::play::Args),
    /// Run a tournament and print standings.
    Tournament(crate::arena::tournament::Args),
    /// Measure each language's reference hand-in on this machine; write the suite's `calibration.toml`.
    Calibrate(crate::calibrate::Args),
}

/// Parses the process arguments, runs the command, and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // A Ctrl-C during a class run must not leave students' processes behind.
    if let Err(e) = crate::sandbox::cleanup::install_interrupt_handler() {
        report_error(&anyhow::Error::new(e).context("cannot install the interrupt handler"));
        return crate::exit::Exit::Internal.into();
    }
    let result = match cli.command {
        Command::Solve(args) => crate::solve::run(args),
        Command::Run(args) => crate::grade::run(args),
        Command::Check(args) => crate::grade::check(args),
        Command::Doctor(args) => crate::doctor::run(args),
        Command::Validate(args) => crate::suite::validate::run(args),
        Command::Golden(args) => crate::golden::run(args),
        Command::Play(args) => crate::arena::play::run(args),
        Command::Tournament(args) => crate::arena::tournament::run(args),
        Command::Calibrate(args) => crate::calibrate::run(args),
    };
    match result {
        Ok(exit) => exit.into(),
        Err(CliError { exit, error }) => {
            report_error(&error);
            exit.into()
        }
    }
}

/// Prints an error and its causes to stderr, one line each, in the house format.
fn report_error(error: &anyhow::Error) {
    let color = use_color(&std::io::stderr());
    let label = if color {
        "\x1b[1;31merror\x1b[0m"
    } else {
        "error"
    };
    eprintln!("{label}: {error}");
    for cause in error.chain().skip(1) {
        eprintln!("  caused by: {cause}");
    }
}

/// Colour only on a terminal, and never when `NO_COLOR` is set (<https://no-color.org>).
pub fn use_color(stream: &impl IsTerminal) -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && stream.is_terminal()
}
