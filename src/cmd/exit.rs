//! Named exit codes and the error type commands return, so `main` can map every failure to a code.

use std::fmt;
use std::process::ExitCode;

/// The exit codes `grader` documents in the README, ordered by how bad: the worst of several outcomes
/// is their `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// The command did what was asked (for `check`: every case passed).
    Success = 0,
    /// The command ran, and what it checked did not pass (a failed `check`, a stale golden file, an
    /// invalid suite).
    Failure = 1,
    /// Bad input: arguments, a board state, a suite file, a submission folder that cannot be read.
    Usage = 2,
    /// The grader's own fault or the machine's (a sandbox that cannot start, an I/O error on results).
    Internal = 3,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// An error with the exit code it should produce.
pub struct CliError {
    pub exit: Exit,
    pub error: anyhow::Error,
}

impl CliError {
    /// Bad input from the user (exit 2).
    pub fn usage(error: impl Into<anyhow::Error>) -> CliError {
        CliError {
            exit: Exit::Usage,
            error: error.into(),
        }
    }

    /// The grader's own fault (exit 3).
    pub fn internal(error: impl Into<anyhow::Error>) -> CliError {
        CliError {
            exit: Exit::Internal,
            error: error.into(),
        }
    }
}

/// A domain error keeps its blame: the input's is a usage error, the machine's an internal one.
impl From<crate::error::Error> for CliError {
    fn from(error: crate::error::Error) -> CliError {
        match error {
            crate::error::Error::Input(e) => CliError::usage(e),
            crate::error::Error::Machine(e) => CliError::internal(e),
        }
    }
}

/// Plain errors from `?` are input errors unless a command says otherwise.
impl From<anyhow::Error> for CliError {
    fn from(error: anyhow::Error) -> CliError {
        CliError::usage(error)
    }
}

impl fmt::Debug for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {:#}", self.exit, self.error)
    }
}

/// What every command returns.
pub type CmdResult = Result<Exit, CliError>;
