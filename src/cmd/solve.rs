//! `grader solve`: the reference solvers behind the assignment's own command-line interface.
//!
//! `grader solve [--variant NAME] tictactoe STATE PATH [prune [PLY]]` and
//! `grader solve [--variant NAME] tmmorris STATE PATH PLY TURN` behave as the handout requires of a
//! student program: print the board after the best move (nothing when no move is possible) and write
//! every visited node but the root, with its value, to PATH. Every argument is checked before PATH is
//! touched, and the trace goes to a temporary file in PATH's folder that is renamed over PATH only when
//! complete, so bad input never leaves a partial or stale file behind.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use reference::adelaide::{self, Answer, Mode, Variant};

use super::exit::{CliError, CmdResult, Exit};

const TICTACTOE_USAGE: &str = "usage: grader solve tictactoe STATE PATH [prune [PLY]]";
const TMMORRIS_USAGE: &str = "usage: grader solve tmmorris STATE PATH PLY TURN";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Run a named student variant of the search instead of the golden one (`golden`, `post-order`,
    /// `prune-strict`, `root-window-not-passed`, `fail-hard`, `with-root`, `ply-terminal-utility`,
    /// `ply-without-pruning`, `ply-one-deeper`).
    #[arg(long, value_name = "NAME", default_value = "golden")]
    pub variant: String,
    /// The game: `tictactoe` or `tmmorris`.
    pub game: String,
    /// The game's own arguments, exactly as the handout gives them to a student program.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub rest: Vec<String>,
}

pub fn run(args: Args) -> CmdResult {
    let variant = Variant::from_name(&args.variant).ok_or_else(|| {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        CliError::usage(anyhow!(
            "unknown variant `{}`; expected one of {}",
            args.variant,
            names.join(", ")
        ))
    })?;
    let (answer, path) = match args.game.as_str() {
        "tictactoe" => tictactoe(&args.rest, variant)?,
        "tmmorris" => tmmorris(&args.rest, variant)?,
        other => {
            return Err(CliError::usage(anyhow!(
                "unknown game `{other}`; expected `tictactoe` or `tmmorris`"
            )))
        }
    };
    if answer.board.is_none() {
        return Ok(Exit::Success);
    }
    write_trace(&answer, &path)?;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(answer.stdout().as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| CliError::internal(anyhow!("cannot write to stdout: {e}")))?;
    Ok(Exit::Success)
}

/// Parses `STATE PATH [prune [PLY]]` and searches.
fn tictactoe(rest: &[String], variant: Variant) -> Result<(Answer, PathBuf), CliError> {
    let (state, path) = state_and_path(rest, TICTACTOE_USAGE)?;
    let mode = match &rest[2..] {
        [] => Mode::Plain,
        [prune] | [prune, _] if prune != "prune" => {
            return Err(usage(
                format!("expected `prune` after PATH, got `{prune}`"),
                TICTACTOE_USAGE,
            ))
        }
        [_] => Mode::Prune,
        [_, ply] => Mode::Ply(adelaide::parse_ply(ply).map_err(CliError::usage)?),
        [_, _, extra, ..] => {
            return Err(usage(
                format!("unexpected argument `{extra}`"),
                TICTACTOE_USAGE,
            ))
        }
    };
    let answer = adelaide::tictactoe_answer(state, mode, variant).map_err(CliError::usage)?;
    Ok((answer, path))
}

/// Parses `STATE PATH PLY TURN` and searches.
fn tmmorris(rest: &[String], variant: Variant) -> Result<(Answer, PathBuf), CliError> {
    let (state, path) = state_and_path(rest, TMMORRIS_USAGE)?;
    let (ply, turn) = match &rest[2..] {
        [] => return Err(usage("missing PLY".to_owned(), TMMORRIS_USAGE)),
        [_] => return Err(usage("missing TURN".to_owned(), TMMORRIS_USAGE)),
        [ply, turn] => (ply, turn),
        [_, _, extra, ..] => {
            return Err(usage(
                format!("unexpected argument `{extra}`"),
                TMMORRIS_USAGE,
            ))
        }
    };
    let ply = adelaide::parse_ply(ply).map_err(CliError::usage)?;
    let turn = adelaide::parse_turn(turn).map_err(CliError::usage)?;
    let answer = adelaide::tmmorris_answer(state, ply, turn, variant).map_err(CliError::usage)?;
    Ok((answer, path))
}

fn state_and_path<'a>(
    rest: &'a [String],
    usage_line: &str,
) -> Result<(&'a str, PathBuf), CliError> {
    match rest {
        [] => Err(usage("missing STATE".to_owned(), usage_line)),
        [_] => Err(usage("missing PATH".to_owned(), usage_line)),
        [state, path, ..] => Ok((state, PathBuf::from(path))),
    }
}

/// One line: the problem, then the usage it broke.
fn usage(problem: String, usage_line: &str) -> CliError {
    CliError::usage(anyhow!("{problem} ({usage_line})"))
}

/// Writes the trace to a temporary file beside `path`, then renames it over `path`.
fn write_trace(answer: &Answer, path: &Path) -> Result<(), CliError> {
    let cannot = |e: &dyn std::fmt::Display| {
        CliError::usage(anyhow!("cannot write `{}`: {e}", path.display()))
    };
    if path.is_dir() {
        return Err(CliError::usage(anyhow!(
            "cannot write `{}`: it is a folder",
            path.display()
        )));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(CliError::usage(anyhow!(
            "cannot write `{}`: folder `{}` does not exist",
            path.display(),
            dir.display()
        )));
    }
    // tempfile's errors name the temporary file; the user only knows PATH, so keep just the reason.
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| cannot(&e.kind()))?;
    // `write_trace` buffers in large blocks itself; a `BufWriter` would only copy them again.
    answer.write_trace(&mut tmp).map_err(|e| cannot(&e))?;
    tmp.persist(path).map_err(|e| cannot(&e.error))?;
    Ok(())
}
