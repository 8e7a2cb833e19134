//! A check's result as GitHub Classroom's autograding reads it: one runner per group, each a
//! base64-encoded JSON object (`version`, `status`, `max_score`, `tests[]` with `name`, `status`,
//! `score`, `message`), read by `autograding-grading-reporter` from `<RUNNER>_RESULTS`, which sums the
//! tests' `score` and the runners' `max_score` into the points Classroom records. `grader check
//! --github-output FILE` appends them to `$GITHUB_OUTPUT` as step outputs named after the groups, with
//! `runners` listing the groups the submission attempted (a group whose program it lacks is left out,
//! as the grade leaves it out).

use base64::Engine as _;
use serde_json::json;

use super::result::SubmissionResult;
use crate::suite::CreditRule;

/// The step outputs, one `name=value` line each: `runners=a,b`, then `a=BASE64` per group.
#[must_use]
pub fn step_outputs(r: &SubmissionResult) -> String {
    let groups: Vec<_> = r
        .groups
        .iter()
        .filter(|g| g.credit_rule != CreditRule::Manual)
        .filter(|g| !r.not_attempted.iter().any(|n| n.group == g.name))
        .collect();
    let mut out = format!(
        "runners={}\n",
        groups
            .iter()
            .map(|g| g.name.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    for g in groups {
        let text = runner(r, &g.name, g.max, g.points).to_string();
        let encoded = base64::engine::general_purpose::STANDARD.encode(text);
        out.push_str(&format!("{}={encoded}\n", g.name));
    }
    out
}

/// One group's runner result: each case's share of the points the group earned (so the tests add up
/// to the group's points, all-or-nothing groups included).
fn runner(r: &SubmissionResult, group: &str, max: f64, earned: Option<f64>) -> serde_json::Value {
    let cases: Vec<_> = r.cases.iter().filter(|c| c.group == group).collect();
    let credits: f64 = cases.iter().map(|c| c.credit).sum();
    let earned = earned.unwrap_or(0.0);
    let tests: Vec<_> = cases
        .iter()
        .map(|c| {
            let score = if credits > 0.0 {
                earned * c.credit / credits
            } else {
                0.0
            };
            json!({
                "name": format!("{}/{}", c.group, c.name),
                "status": if c.credit >= 1.0 { "pass" } else { "fail" },
                "score": super::export::round4(score),
                "message": crate::untrusted::one_line(&c.summary, 500),
                "line_no": 0,
                "execution_time": format!("{:.2}s", c.wall_ms as f64 / 1000.0),
            })
        })
        .collect();
    let passed = cases.iter().all(|c| c.credit >= 1.0);
    json!({
        "version": 1,
        "status": if passed { "pass" } else { "fail" },
        "max_score": super::export::round4(max),
        "tests": tests,
    })
}
