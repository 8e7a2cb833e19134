//! The result of grading one submission: what `result.json` holds, and what every report reads.

use serde::{Deserialize, Serialize};

use crate::judge::Verdict;
use crate::suite::{CreditRule, Visibility};

/// One submission, graded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct SubmissionResult {
    pub suite: String,
    pub student: String,
    /// The sandbox tier the runs used.
    pub sandbox: String,
    pub build: BuildReport,
    pub cases: Vec<CaseResult>,
    pub groups: Vec<GroupScore>,
    pub score: f64,
    pub max: f64,
    /// Groups whose program the submission does not have (Adelaide undergraduates hand in no
    /// `tmmorris`): not run, not scored, and not in `max`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_attempted: Vec<NotAttempted>,
}

/// A group left out because the submission has no program for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct NotAttempted {
    pub group: String,
    /// The program the group runs (`tmmorris`).
    pub program: String,
    /// What was looked for: `no \`tmmorris.py\``.
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct BuildReport {
    /// `built`, `compile-error`, `no-language` or `internal-error`.
    pub status: String,
    pub language: Option<String>,
    /// The compiler's output (trimmed), or what went wrong.
    pub log: String,
    pub wall_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct CaseResult {
    pub group: String,
    pub name: String,
    pub visibility: Visibility,
    pub verdict: Verdict,
    /// Fraction of the case earned, 0 to 1 (a recognised variant may earn part or all of it).
    pub credit: f64,
    /// One sentence saying what happened.
    pub summary: String,
    pub details: Vec<String>,
    /// The reference variant the output matched, when one did.
    pub variant: Option<String>,
    pub cpu_ms: u64,
    pub wall_ms: u64,
    pub peak_memory: Option<u64>,
    /// The CPU limit a run case had, and where it came from (absent for games and position cases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_limit: Option<CpuLimit>,
    /// Set when the case ended near its CPU limit and was run a second time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerun: Option<Rerun>,
}

/// The CPU limit of one run: the suite's (`[limits]`, or the case's own) or a calibrated one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct CpuLimit {
    pub ms: u64,
    /// `suite` or `calibration` (the suite's `calibration.toml` raised it for this language).
    pub from: String,
}

/// A case run twice because its first run ended within 10% of its CPU limit (or over it): the run that
/// used less CPU decides, the first on a tie.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Rerun {
    pub first_cpu_ms: u64,
    pub first_verdict: Verdict,
    pub second_cpu_ms: u64,
    pub second_verdict: Verdict,
    /// `first` or `second`: whose verdict and output the case reports.
    pub kept: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct GroupScore {
    pub name: String,
    pub credit_rule: CreditRule,
    /// Null for a `[[manual]]` column (`credit-rule = "manual"`), which the total leaves out.
    pub points: Option<f64>,
    pub max: f64,
    pub passed: usize,
    pub cases: usize,
}

impl SubmissionResult {
    /// Cases that did not earn full credit.
    pub fn failures(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases.iter().filter(|c| c.credit < 1.0)
    }

    /// Whether any case hit the grader's own fault.
    pub fn has_internal_error(&self) -> bool {
        self.build.status == "internal-error"
            || self
                .cases
                .iter()
                .any(|c| c.verdict == Verdict::InternalError)
    }

    /// The result as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("results serialize");
        text.push('\n');
        text
    }
}
