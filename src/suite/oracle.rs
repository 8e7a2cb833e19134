//! Oracles: reference solvers a suite names (`reference = "tictactoe"`) to compute expected outputs from
//! a case's own arguments, and the named wrong-but-recognisable variants of each.

use std::sync::Arc;

/// What a reference solver produces for one case: the expected stdout and the visited-node trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    pub stdout: String,
    /// The file the program is asked to write (empty when it must write nothing).
    pub file: String,
}

/// A family of reference solvers, addressed by program name.
pub trait Oracle: Send + Sync {
    /// The program names this oracle answers for (`tictactoe`, `tmmorris`).
    fn programs(&self) -> Vec<&'static str>;
    /// Solves a case given the arguments exactly as the student program receives them. `variant` is
    /// `None` for the golden behaviour, or one of `variants()`'s names.
    fn solve(
        &self,
        program: &str,
        args: &[String],
        variant: Option<&str>,
    ) -> Result<Solved, String>;
    /// The named variants (name, description) the trace comparator can recognise, golden excluded.
    fn variants(&self) -> Vec<(&'static str, &'static str)>;
}

/// Every oracle built into the grader.
pub fn builtin() -> Arc<dyn Oracle> {
    Arc::new(NoOracle)
}

/// Answers nothing: used until a game's reference solver is wired in, and in tests of suites that use
/// only golden files.
#[derive(Debug, Default)]
pub struct NoOracle;

impl Oracle for NoOracle {
    fn programs(&self) -> Vec<&'static str> {
        Vec::new()
    }

    fn solve(
        &self,
        program: &str,
        _args: &[String],
        _variant: Option<&str>,
    ) -> Result<Solved, String> {
        Err(format!("no reference solver named `{program}`"))
    }

    fn variants(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
}
