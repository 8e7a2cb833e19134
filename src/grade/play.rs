//! Play cases: games against a bot (or the submission itself) through the arena, measured and credited.

use crate::judge::Verdict;
use crate::report::result::CaseResult;
use crate::suite::{Case, Group};

/// A result for `case` with nothing run yet: an internal error until something says otherwise.
#[must_use]
pub fn blank(group: &Group, case: &Case) -> CaseResult {
    CaseResult {
        group: group.name.clone(),
        name: case.name.clone(),
        visibility: case.visibility,
        verdict: Verdict::InternalError,
        credit: 0.0,
        summary: String::new(),
        details: Vec::new(),
        variant: None,
        cpu_ms: 0,
        wall_ms: 0,
        peak_memory: None,
    }
}
