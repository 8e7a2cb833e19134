//! One submission's result as PrairieLearn's external-grading `results.json`: `gradable`, a score from 0
//! to 1, a message, and a test per case. PrairieLearn shows every test to the student, so a hidden case
//! shows only its group and points: never its name or what it printed.

use serde::Serialize;

use super::result::{BuildStatus, SubmissionResult};
use super::{case_output, case_points, submission_output};
use crate::suite::Visibility;

/// The top level of `results.json`.
#[derive(Debug, Serialize)]
pub struct Results {
    /// False when the machine could not grade the submission (PrairieLearn then charges no attempt).
    pub gradable: bool,
    /// From 0 to 1.
    pub score: f64,
    pub message: String,
    pub output: String,
    pub tests: Vec<Test>,
}

/// One case.
#[derive(Debug, Serialize)]
pub struct Test {
    pub name: String,
    pub description: String,
    pub points: f64,
    pub max_points: f64,
    pub output: String,
    pub message: String,
}

/// The results PrairieLearn reads for `r`; `machine` when the machine could not grade it (a missing
/// toolchain, an internal error): then it is not gradable, and costs the student no attempt.
#[must_use]
pub fn results(r: &SubmissionResult, machine: bool) -> Results {
    let built = r.build.status == BuildStatus::Built;
    let tests = r
        .cases
        .iter()
        .zip(case_points(r))
        .enumerate()
        .map(|(i, (c, (points, max_points)))| {
            let public = c.visibility == Visibility::Public;
            Test {
                name: if public {
                    format!("{}/{}", c.group, c.name)
                } else {
                    format!("{}/hidden case {}", c.group, i + 1)
                },
                description: c.group.clone(),
                points,
                max_points,
                output: if public {
                    case_output(c, built)
                } else {
                    String::new()
                },
                message: if c.credit >= 1.0 { "passed" } else { "failed" }.into(),
            }
        })
        .collect();
    Results {
        gradable: !machine,
        score: if r.max > 0.0 {
            (r.score / r.max).clamp(0.0, 1.0)
        } else {
            0.0
        },
        message: format!("{}/{} points", super::points(r.score), super::points(r.max)),
        output: submission_output(r),
        tests,
    }
}

/// The results file for a submission the machine could not grade at all (`why`, escaped): not
/// gradable, so PrairieLearn charges no attempt.
#[must_use]
pub fn not_gradable(why: &str) -> String {
    let results = Results {
        gradable: false,
        score: 0.0,
        message:
            "the grader could not grade this submission (not your fault); this attempt does not count"
                .into(),
        output: crate::untrusted::block(why, super::CASE_OUTPUT_CAP),
        tests: Vec::new(),
    };
    let mut text = serde_json::to_string_pretty(&results).expect("serializes");
    text.push('\n');
    text
}

/// [`results`] as pretty JSON with a final newline.
#[must_use]
pub fn to_json(r: &SubmissionResult, machine: bool) -> String {
    let mut text = serde_json::to_string_pretty(&results(r, machine)).expect("serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Verdict;
    use crate::report::result::{fixtures, GroupScore};
    use crate::suite::CreditRule;

    /// PrairieLearn's external grading results ("Grading results"): `gradable`, `score` (0 to 1),
    /// `message`, `output`, and `tests`, each with `name`, `description`, `points`, `max_points`,
    /// `output` and `message`.
    #[test]
    fn the_json_has_prairielearns_fields_and_hides_hidden_cases() {
        let mut hidden = fixtures::case("g", Verdict::WrongAnswer, 0.0);
        hidden.name = "secret-board".into();
        hidden.visibility = Visibility::Hidden;
        hidden.summary = "expected `xo-x-----`".into();
        let mut r = fixtures::submission(
            "s",
            vec![fixtures::case("g", Verdict::Accepted, 1.0), hidden],
        );
        r.groups = vec![GroupScore {
            name: "g".into(),
            credit_rule: CreditRule::Proportional,
            points: Some(2.0),
            max: 4.0,
            passed: 1,
            cases: 2,
        }];
        r.score = 2.0;
        r.max = 4.0;
        let json: serde_json::Value = serde_json::from_str(&to_json(&r, false)).unwrap();
        let top: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(top, ["gradable", "message", "output", "score", "tests"]);
        assert_eq!(json["gradable"], true);
        assert_eq!(json["score"], 0.5);
        let tests = json["tests"].as_array().unwrap();
        let keys: Vec<&String> = tests[0].as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "description",
                "max_points",
                "message",
                "name",
                "output",
                "points"
            ]
        );
        assert_eq!(tests[0]["points"], 2.0);
        assert_eq!(tests[1]["points"], 0.0);
        assert_eq!(tests[1]["max_points"], 2.0);
        let text = json.to_string();
        assert!(
            !text.contains("secret-board") && !text.contains("xo-x"),
            "{text}"
        );
    }
}
