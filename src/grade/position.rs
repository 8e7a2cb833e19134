//! Position cases: the built program is asked for one move at a given state through the suite's
//! protocol, and the move is judged with the game's rules (`legal`, `win`, `block`, `pass`).

use std::path::Path;
use std::sync::Arc;

use crate::build::Built;
use crate::judge::Verdict;
use crate::report::result::CaseResult;
use crate::sandbox::Sandbox;
use crate::suite::{Case, Group, Position, Suite};

/// Runs and judges one position case. `scratch` is a fresh folder the case may use.
pub fn run_position(
    sandbox: &Arc<dyn Sandbox>,
    suite: &Suite,
    group: &Group,
    case: &Case,
    position: &Position,
    built: &Built,
    scratch: &Path,
) -> CaseResult {
    let _ = (sandbox, suite, position, built, scratch);
    let mut result = super::play::blank(group, case);
    result.verdict = Verdict::InternalError;
    result.summary = "position cases are not built yet".to_string();
    result
}
