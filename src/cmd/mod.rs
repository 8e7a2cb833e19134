//! The command line: every command's clap arguments and `run()`, the only code that knows of exit
//! codes. Domain modules never see clap; they return [`crate::error::Error`], mapped here.

#[cfg(not(feature = "student"))]
mod autograde;
#[cfg(not(feature = "student"))]
mod bundle;
mod calibrate;
mod check;
mod common;
mod docs;
mod doctor;
pub mod exit;
mod export;
#[cfg(not(feature = "student"))]
mod golden;
#[cfg(not(feature = "student"))]
mod import;
#[cfg(not(feature = "student"))]
mod kit;
#[cfg(not(feature = "student"))]
mod marks;
mod merge;
#[cfg(not(feature = "student"))]
mod new;
mod play;
mod report;
#[cfg(not(feature = "student"))]
mod review;
mod run;
mod schema;
mod similarity;
#[cfg(not(feature = "student"))]
mod solve;
mod tournament;
mod validate;
#[cfg(not(feature = "student"))]
mod verify;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use exit::CliError;

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
    #[cfg(not(feature = "student"))]
    Solve(solve::Args),
    /// Grade submissions: `grader run suites/ submissions/` or `grader run suites/NAME STUDENTS/`.
    Run(run::Args),
    /// Write a suite's HTML report again from its results folder alone (`grader report results/SUITE`).
    Report(report::Args),
    /// Join the folders of `grader run --shard K/N` (or `grader tournament --shard K/N`) into one run's.
    Merge(merge::Args),
    /// Run a suite's public cases on one submission folder (default `.`) and explain each failure.
    Check(check::Args),
    /// List the toolchains the suites need, found or missing (`--install` fetches the missing ones).
    Doctor(doctor::Args),
    /// Check a suite's files without running anything, and report every problem in one run.
    Validate(validate::Args),
    /// Print the JSON Schema of `suite.toml`, `course.toml` or `grader.toml` (for editors and taplo).
    Schema(schema::Args),
    /// Write a new suite to start from: a template with samples, or a copy of a suite.
    #[cfg(not(feature = "student"))]
    New(new::Args),
    /// Grade a suite's sample submissions and show what moved from their expected grades.
    #[cfg(not(feature = "student"))]
    Verify(verify::Args),
    /// Write a suite's golden files from the reference solver, or check them with `--check`.
    #[cfg(not(feature = "student"))]
    Golden(golden::Args),
    /// Play a match between two players: submission folders or bot names.
    Play(play::Args),
    /// Run a tournament and print standings.
    Tournament(tournament::Args),
    /// Write a graded class's results for Gradescope, PrairieLearn, Autolab, Canvas, Moodle or JUnit.
    Export(export::Args),
    /// Turn an LMS download (Canvas, Moodle, Gradescope, Blackboard, GitHub Classroom) into a class folder.
    #[cfg(not(feature = "student"))]
    Import(import::Args),
    /// Measure each language's reference hand-in on this machine; write the suite's `calibration.toml`.
    Calibrate(calibrate::Args),
    /// Pack a suite and the grader for an autograder platform (`grader bundle gradescope SUITE`).
    #[cfg(not(feature = "student"))]
    Bundle(bundle::Args),
    /// Write a suite's student kit: its public cases only (`grader kit SUITE -o DIR`).
    #[cfg(not(feature = "student"))]
    Kit(kit::Args),
    /// Grade one submission on every case and write an autograder platform's results file (what a
    /// bundle's `run_autograder` runs).
    #[cfg(not(feature = "student"))]
    Autograde(autograde::Args),
    /// Rank the class's hand-ins by similarity with Dolos; write `similarity.csv` in the results.
    Similarity(similarity::Args),
    /// Walk a TA through a graded class in the browser: code, feedback, replays, review cases and
    /// rubric items, each mark saved as it is given (`grader review results/SUITE [SUBMISSIONS]`).
    #[cfg(not(feature = "student"))]
    Review(review::Args),
    /// Join TAs' manual marks files, or read marks from a CSV (`grader marks merge|import`).
    #[cfg(not(feature = "student"))]
    Marks(marks::Args),
    /// Print a shell completion script (`grader completions bash`).
    Completions(docs::CompletionsArgs),
    /// Print the man page in roff (`grader man > grader.1`; `grader man run` for one command's).
    Man(docs::ManArgs),
}

/// Parses the process arguments, runs the command, and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // A Ctrl-C during a class run must not leave students' processes behind.
    if let Err(e) = crate::sandbox::cleanup::install_interrupt_handler() {
        report_error(&anyhow::Error::new(e).context("cannot install the interrupt handler"));
        return exit::Exit::Internal.into();
    }
    let result = match cli.command {
        #[cfg(not(feature = "student"))]
        Command::Solve(args) => solve::run(args),
        Command::Run(args) => run::run(args),
        Command::Report(args) => report::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Check(args) => check::run(args),
        Command::Doctor(args) => doctor::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Schema(args) => schema::run(args),
        #[cfg(not(feature = "student"))]
        Command::New(args) => new::run(args),
        #[cfg(not(feature = "student"))]
        Command::Verify(args) => verify::run(args),
        #[cfg(not(feature = "student"))]
        Command::Golden(args) => golden::run(args),
        Command::Play(args) => play::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Export(args) => export::run(args),
        #[cfg(not(feature = "student"))]
        Command::Import(args) => import::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        #[cfg(not(feature = "student"))]
        Command::Bundle(args) => bundle::run(args),
        #[cfg(not(feature = "student"))]
        Command::Kit(args) => kit::run(args),
        #[cfg(not(feature = "student"))]
        Command::Autograde(args) => autograde::run(args),
        Command::Similarity(args) => similarity::run(args),
        #[cfg(not(feature = "student"))]
        Command::Review(args) => review::run(args),
        #[cfg(not(feature = "student"))]
        Command::Marks(args) => marks::run(args),
        Command::Completions(args) => docs::completions(args),
        Command::Man(args) => docs::man(args),
    };
    // What runs left, still being taken apart off the grading threads, goes before the process does.
    crate::sandbox::removal::wait_removed();
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
    for cause in crate::error::causes(error.as_ref()) {
        eprintln!("  caused by: {cause}");
    }
}

/// Colour only on a terminal, and never when `NO_COLOR` is set (<https://no-color.org>).
pub fn use_color(stream: &impl IsTerminal) -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && stream.is_terminal()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    /// The commands only instructors have: they print reference answers or pack hidden cases.
    const INSTRUCTORS: [&str; 5] = ["solve", "golden", "bundle", "kit", "autograde"];

    #[test]
    fn the_student_build_has_no_command_that_gives_answers_away() {
        let names: Vec<String> = super::Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        for name in INSTRUCTORS {
            assert_eq!(
                names.iter().any(|n| n == name),
                !cfg!(feature = "student"),
                "`{name}` in {names:?}"
            );
        }
        for name in ["check", "run", "validate", "doctor", "play", "man"] {
            assert!(names.iter().any(|n| n == name), "`{name}` in {names:?}");
        }
    }
}
