//! The rubric: case credits → group points → a submission's score.

use crate::report::result::{CaseResult, GroupScore};
use crate::suite::{CreditRule, Group, Manual};

/// Scores the groups that have at least one case in `cases` (so `check`, which runs only public cases,
/// scores only what it ran).
pub fn score(groups: &[Group], cases: &[CaseResult]) -> (Vec<GroupScore>, f64, f64) {
    let mut out = Vec::new();
    for group in groups {
        let ran: Vec<&CaseResult> = cases.iter().filter(|c| c.group == group.name).collect();
        if ran.is_empty() {
            continue;
        }
        let passed = ran.iter().filter(|c| c.credit >= 1.0).count();
        let credits: Vec<f64> = ran.iter().map(|c| c.credit).collect();
        let fraction = group.credit.fraction(&credits);
        out.push(GroupScore {
            name: group.name.clone(),
            credit_rule: group.credit,
            // Rounded to hundredths so totals add up the same way in every report.
            points: Some((group.points * fraction * 100.0).round() / 100.0),
            max: group.points,
            passed,
            cases: ran.len(),
        });
    }
    let total = out.iter().filter_map(|g| g.points).sum::<f64>();
    let max = out.iter().map(|g| g.max).sum::<f64>();
    ((out), (total * 100.0).round() / 100.0, max)
}

/// The `[[manual]]` columns as result groups: points null (the instructor fills them in), outside the
/// score and its maximum.
pub fn manual_columns(manual: &[Manual]) -> Vec<GroupScore> {
    manual
        .iter()
        .map(|m| GroupScore {
            name: m.name.clone(),
            credit_rule: CreditRule::Manual,
            points: None,
            max: m.points,
            passed: 0,
            cases: 0,
        })
        .collect()
}
