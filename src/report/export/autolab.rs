//! Autolab: one `output.txt` per student, the feedback a student reads and then, as its last line, the
//! autoresult Autolab parses (<https://docs.autolabproject.com/lab/>, "Writing Autograders"):
//! `{"scores": {"<problem>": points, …}, "scoreboard": [total, …]}`, the problems named as the suite's
//! groups.

use std::path::PathBuf;

use serde_json::{json, Map};

use super::{case_name, round4, summary, unscored, Class, Export};
use crate::report::result::SubmissionResult;
use crate::suite::{CreditRule, Visibility};

/// The autoresult line: each group's points (a group not attempted, or worth no points, left out of
/// `scores`), the tournament's marks, each manual group's, and when the course's `total` differs from
/// their sum (a track's scaling, a late deduction) an `adjustment` problem of the difference; the
/// scoreboard the total, then each group's points.
fn autoresult(
    r: &crate::report::result::SubmissionResult,
    columns: &[(String, f64)],
    total: f64,
) -> serde_json::Value {
    let mut scores = Map::new();
    for g in r
        .groups
        .iter()
        .filter(|g| g.credit_rule != CreditRule::Manual && g.max > 0.0)
    {
        scores.insert(g.name.clone(), json!(round4(g.points.unwrap_or(0.0))));
    }
    if let Some(m) = r.tournament.as_ref().and_then(|t| t.marks) {
        scores.insert("tournament".into(), json!(m));
    }
    for (name, points, _, _) in super::manual_lines(r) {
        if let Some(p) = points {
            scores.insert(
                name.trim_start_matches("manual: ").to_string(),
                json!(round4(p)),
            );
        }
    }
    let sum: f64 = scores.values().filter_map(serde_json::Value::as_f64).sum();
    if (sum - total).abs() > 1e-6 {
        scores.insert("adjustment".into(), json!(round4(total - sum)));
    }
    // Numbers only (a custom scoreboard sorts its columns): a group not attempted shows 0 there,
    // while `scores` leaves it out, so the grade itself stays blank.
    let mut board = vec![json!(round4(total))];
    for (name, _) in columns {
        let g = r.groups.iter().find(|g| g.name == *name);
        board.push(json!(round4(g.and_then(|g| g.points).unwrap_or(0.0))));
    }
    json!({ "scores": scores, "scoreboard": board })
}

/// `<student>/output.txt` for each student. The scoreboard is the total, then each group's points in
/// the order of `Class::columns` ([`autoresult`]; the course's total, as every export gives it). A
/// student the machine could not grade, or whose manual marks are still to give, gets the reason and
/// no autoresult line (Autolab then reports the autograder's failure, not a score).
#[must_use]
pub fn export(class: &Class) -> Export {
    let mut out = Export {
        notes: class.roster_notes(false),
        ..Export::default()
    };
    let columns = class.columns().groups;
    for r in &class.results {
        let mut text = summary(r);
        text.push('\n');
        for c in &r.cases {
            let mark = if c.credit >= 1.0 { "ok  " } else { "FAIL" };
            text.push_str(&format!(
                "{mark} {}: {}\n",
                case_name(c),
                crate::untrusted::one_line(&c.summary, 500)
            ));
        }
        if let Some(why) = unscored(r) {
            text.push_str(&format!(
                "{why} (not your fault; your instructor will regrade it)\n"
            ));
            out.not_graded.push((r.student.clone(), why));
        } else {
            let total = super::exported_total(class, r, &mut out);
            if total.is_none() && out.incomplete.iter().any(|(s, _)| *s == r.student) {
                text.push_str("your manual marks are still to be given: no grade yet\n");
            } else {
                text.push_str(&format!(
                    "{}\n",
                    autoresult(r, &columns, total.unwrap_or(r.score))
                ));
            }
        }
        let path = PathBuf::from(&r.student).join("output.txt");
        out.files.push((path, text.into_bytes()));
    }
    out
}

/// `r` as a student may see it on Autolab, which shows the whole feedback: each hidden case only as
/// `hidden-<k>` of its group with its verdict, never its name, output or details (`grader export` and
/// `grader autograde` unless `--hidden-visibility visible`).
#[must_use]
pub fn mask_hidden(r: &SubmissionResult) -> SubmissionResult {
    let mut masked = r.clone();
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for c in masked
        .cases
        .iter_mut()
        .filter(|c| c.visibility == Visibility::Hidden)
    {
        let k = counts.entry(c.group.clone()).or_default();
        *k += 1;
        c.name = format!("hidden-{k}");
        c.summary = c.verdict.label().to_string();
        c.details.clear();
        c.search = None;
        c.variant = None;
        c.games.clear();
    }
    masked.integrity.clear();
    masked
}
