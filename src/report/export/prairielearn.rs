//! PrairieLearn: one `results.json` per student as an external grader writes it
//! (<https://prairielearn.readthedocs.io/en/latest/externalGrading/>, "Grading results"): `score` in
//! [0, 1], `gradable`, `message`, `tests[]`; under 1 MB.

use std::path::PathBuf;

use serde::Serialize;

use super::{case_name, case_points, feedback, machine_fault, round4, summary, Class, Export};
use crate::report::points;
use crate::report::result::SubmissionResult;

/// PrairieLearn refuses a results file of 1 MB or more.
pub const SIZE_LIMIT: usize = 1_000_000;

#[derive(Serialize)]
struct Results {
    gradable: bool,
    /// Absent when not gradable: the machine's fault is never a zero.
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    format_errors: Vec<String>,
    message: String,
    output: String,
    tests: Vec<Test>,
}

#[derive(Serialize)]
struct Test {
    name: String,
    points: f64,
    max_points: f64,
    message: String,
    output: String,
}

/// `<student>/results.json` for each student. One the machine could not grade is `gradable: false`
/// with the reason in `format_errors` (PrairieLearn then charges no attempt and gives no score), and is
/// listed in `not_graded`.
#[must_use]
pub fn export(class: &Class) -> Export {
    let mut out = Export {
        notes: class.roster_notes(false),
        ..Export::default()
    };
    for r in &class.results {
        let results = match machine_fault(r) {
            Some(why) => {
                out.not_graded.push((r.student.clone(), why.clone()));
                Results {
                    gradable: false,
                    score: None,
                    message: format!("{why} (not your fault; your instructor will regrade it)"),
                    format_errors: vec![why],
                    output: String::new(),
                    tests: Vec::new(),
                }
            }
            None => graded(r),
        };
        let path = PathBuf::from(&r.student).join("results.json");
        out.files.push((path, within_limit(results).into_bytes()));
    }
    out
}

fn graded(r: &SubmissionResult) -> Results {
    let mut tests: Vec<Test> = r
        .cases
        .iter()
        .map(|c| {
            let (earned, most) = case_points(r, c);
            Test {
                name: case_name(c),
                points: earned,
                max_points: most,
                message: format!(
                    "{}: {}",
                    c.verdict.label(),
                    crate::untrusted::one_line(&c.summary, 500)
                ),
                output: feedback(c),
            }
        })
        .collect();
    if let Some(t) = &r.tournament {
        tests.push(Test {
            name: "tournament".into(),
            // No mark (the machine's fault) counts neither way.
            points: t.marks.unwrap_or(0.0),
            max_points: if t.bonus || t.marks.is_none() {
                0.0
            } else {
                t.max
            },
            message: crate::untrusted::one_line(&t.reason, 1000),
            output: String::new(),
        });
    }
    // Checks worth no points (UT3's) score the share of cases passed.
    let fraction = if r.max > 0.0 {
        r.score / r.max
    } else if r.cases.is_empty() {
        0.0
    } else {
        r.cases
            .iter()
            .map(|c| c.credit.clamp(0.0, 1.0))
            .sum::<f64>()
            / r.cases.len() as f64
    };
    Results {
        gradable: true,
        score: Some(round4(fraction.clamp(0.0, 1.0))),
        format_errors: Vec::new(),
        message: format!("{}/{} points", points(r.score), points(r.max)),
        output: summary(r),
        tests,
    }
}

/// The results as JSON under [`SIZE_LIMIT`]: the tests' outputs go first, then their messages are cut
/// short, then the overall output, each with a note saying so.
fn within_limit(mut results: Results) -> String {
    let json = |r: &Results| format!("{}\n", serde_json::to_string_pretty(r).expect("serializes"));
    let mut text = json(&results);
    let cut = "(cut: PrairieLearn's results file must stay under 1 MB)";
    for step in 0..3 {
        if text.len() < SIZE_LIMIT {
            break;
        }
        match step {
            0 => results.tests.iter_mut().for_each(|t| t.output = cut.into()),
            1 => results
                .tests
                .iter_mut()
                .for_each(|t| t.message = crate::untrusted::one_line(&t.message, 100)),
            _ => results.output = cut.into(),
        }
        text = json(&results);
    }
    // Thousands of cases: the last ones go, and the output says how many.
    let mut dropped = 0;
    while text.len() >= SIZE_LIMIT && results.tests.pop().is_some() {
        dropped += 1;
        results.output = format!("{cut}: the last {dropped} tests are left out");
        text = json(&results);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Verdict;
    use crate::report::result::{fixtures, CaseResult};

    #[test]
    fn a_huge_result_stays_under_one_megabyte_and_says_what_was_cut() {
        let case = CaseResult {
            summary: "s".repeat(3000),
            details: vec!["d".repeat(2000); 100],
            ..fixtures::case("g", Verdict::WrongAnswer, 0.0)
        };
        let mut r = fixtures::submission("ann", vec![case; 2000]);
        r.max = 1.0;
        let text = within_limit(graded(&r));
        assert!(text.len() < SIZE_LIMIT, "{}", text.len());
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let tests = json["tests"].as_array().unwrap();
        assert!(!tests.is_empty());
        assert!(tests[0]["output"].as_str().unwrap().starts_with("(cut: "));
        let small = within_limit(graded(&fixtures::submission("bo", vec![])));
        assert!(!small.contains("(cut: "), "{small}");
    }
}
