//! Whose fault an error is, for the domain modules: bad input (the user's files and arguments) or the
//! machine's (a sandbox that cannot start, a missing toolchain, a write that failed). Only `cmd/` turns
//! this into an exit code.

use std::fmt;

/// An error with whose fault it is.
pub enum Error {
    /// Bad input: arguments, a suite file, a submission folder that cannot be read.
    Input(anyhow::Error),
    /// The grader's own fault or the machine's.
    Machine(anyhow::Error),
}

impl Error {
    /// Bad input from the user.
    pub fn input(error: impl Into<anyhow::Error>) -> Error {
        Error::Input(error.into())
    }

    /// The grader's or the machine's fault.
    pub fn machine(error: impl Into<anyhow::Error>) -> Error {
        Error::Machine(error.into())
    }

    /// The error itself, whoever's fault it is.
    #[must_use]
    pub fn into_inner(self) -> anyhow::Error {
        match self {
            Error::Input(e) | Error::Machine(e) => e,
        }
    }
}

/// Plain errors from `?` are input errors unless the code says otherwise.
impl From<anyhow::Error> for Error {
    fn from(error: anyhow::Error) -> Error {
        Error::Input(error)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(e) => write!(f, "Input: {e:#}"),
            Error::Machine(e) => write!(f, "Machine: {e:#}"),
        }
    }
}

/// The causes of `e`, outermost first (not `e` itself): the one walk of an error's sources that the
/// terminal (`caused by:` lines), case details and one-line reasons all use.
pub fn causes(
    e: &dyn std::error::Error,
) -> impl Iterator<Item = &(dyn std::error::Error + 'static)> {
    std::iter::successors(e.source(), |c| c.source())
}

/// `e` and its causes on one line: `outer: inner: innermost`.
#[must_use]
pub fn chain_line(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    for c in causes(e) {
        s.push_str(": ");
        s.push_str(&c.to_string());
    }
    s
}
