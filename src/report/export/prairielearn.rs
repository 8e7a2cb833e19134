//! PrairieLearn: one `results.json` per student as an external grader writes it
//! (<https://prairielearn.readthedocs.io/en/latest/externalGrading/>, "Grading results"): `score` in
//! [0, 1], `gradable`, `message`, `tests[]`; under 1 MB. For a class (`grader export`) or one
//! submission (`grader autograde`), from the one builder.

use std::path::PathBuf;

use serde::Serialize;

use super::{case_name, feedback, round4, summary, unscored, Class, Export};
use crate::report::result::SubmissionResult;
use crate::report::{case_points, points};
use crate::suite::Visibility;

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

/// Who a results file is written by, which decides what it shows of a hidden case and what a
/// student the machine could not grade is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// `grader export`: the instructor uploads a graded class and regrades whom the machine failed.
    /// PrairieLearn shows every test to the student, so a hidden case is masked as under
    /// [`Via::Autograde`] unless the instructor asked for it (`--hidden-as visible`).
    Export { show_hidden: bool },
    /// `grader autograde` in PrairieLearn's container, which shows every test to the student: a
    /// hidden case shows only its group, points and verdict, never its name or what it printed; an
    /// attempt the machine could not grade does not count.
    Autograde,
}

/// `<student>/results.json` for each student. One the machine could not grade is `gradable: false`
/// with the reason in `format_errors` (PrairieLearn then charges no attempt and gives no score), and is
/// listed in `not_graded`.
#[must_use]
pub fn export(class: &Class, show_hidden: bool) -> Export {
    let mut out = Export {
        notes: class.roster_notes(false),
        ..Export::default()
    };
    for r in &class.results {
        let via = Via::Export { show_hidden };
        let path = PathBuf::from(&r.student).join("results.json");
        if let Some(why) = unscored(r) {
            out.not_graded.push((r.student.clone(), why.clone()));
            out.files.push((
                path,
                within_limit(not_gradable_results(why, via)).into_bytes(),
            ));
            continue;
        }
        // The course's total and maximum (a track's, with lateness and a person's marks); a row
        // waiting for those marks gets no file unless --allow-incomplete.
        let total = match super::exported_total(class, r, &mut out) {
            Some(t) => Some((t, r.out_of())),
            None if out.incomplete.iter().any(|(s, _)| *s == r.student) => continue,
            None => None,
        };
        out.files
            .push((path, within_limit(graded(r, via, total)).into_bytes()));
    }
    out
}

/// One submission's `results.json` (pretty, with a final newline, under [`SIZE_LIMIT`]): what
/// [`export`] writes for each student and `grader autograde` for one. A result with a
/// [`unscored`] is not gradable.
#[must_use]
pub fn to_json(r: &SubmissionResult, via: Via) -> String {
    within_limit(match unscored(r) {
        Some(why) => not_gradable_results(why, via),
        None => graded(r, via, r.total().map(|t| (t, r.out_of()))),
    })
}

/// The results file for a submission the machine could not grade at all (`why`, escaped and capped):
/// what `grader autograde` writes when grading could not start.
#[must_use]
pub fn not_gradable(why: &str, via: Via) -> String {
    within_limit(not_gradable_results(
        crate::untrusted::block(why, super::FEEDBACK_CAP),
        via,
    ))
}

fn not_gradable_results(why: String, via: Via) -> Results {
    let message = match via {
        Via::Export { .. } => format!("{why} (not your fault; your instructor will regrade it)"),
        Via::Autograde => "the grader could not grade this submission (not your fault); this attempt does not count".into(),
    };
    Results {
        gradable: false,
        score: None,
        message,
        format_errors: vec![why],
        output: String::new(),
        tests: Vec::new(),
    }
}

/// `total`: the course's total and maximum, when the row has them; else the share of the cases' points.
fn graded(r: &SubmissionResult, via: Via, total: Option<(f64, f64)>) -> Results {
    let mut tests: Vec<Test> = r
        .cases
        .iter()
        .zip(case_points(r))
        .enumerate()
        .map(|(i, (c, (earned, most)))| {
            let label = c.verdict.label();
            if via != (Via::Export { show_hidden: true }) && c.visibility == Visibility::Hidden {
                return Test {
                    name: format!("{}/hidden case {}", c.group, i + 1),
                    points: earned,
                    max_points: most,
                    message: label.into(),
                    output: String::new(),
                };
            }
            Test {
                name: case_name(c),
                points: earned,
                max_points: most,
                message: format!("{label}: {}", crate::untrusted::one_line(&c.summary, 500)),
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
    for (name, points, max, output) in super::manual_lines(r) {
        tests.push(Test {
            message: if points.is_some() {
                "marked".into()
            } else {
                "not marked yet".into()
            },
            name,
            points: points.unwrap_or(0.0),
            max_points: max,
            output,
        });
    }
    let (score, most) = total.unwrap_or((r.score, r.max));
    // Checks worth no points (UT3's) score the share of cases passed.
    let fraction = if most > 0.0 {
        score / most
    } else if r.max > 0.0 {
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
        message: format!("{}/{} points", points(score), points(most)),
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
        let text = within_limit(graded(&r, Via::Export { show_hidden: true }, None));
        assert!(text.len() < SIZE_LIMIT, "{}", text.len());
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let tests = json["tests"].as_array().unwrap();
        assert!(!tests.is_empty());
        assert!(tests[0]["output"].as_str().unwrap().starts_with("(cut: "));
        let small = within_limit(graded(
            &fixtures::submission("bo", vec![]),
            Via::Export { show_hidden: true },
            None,
        ));
        assert!(!small.contains("(cut: "), "{small}");
    }

    /// One public case passed and one hidden case failed, whose summary quotes its expected output.
    fn with_a_hidden_case() -> SubmissionResult {
        let mut hidden = fixtures::case("g", Verdict::WrongAnswer, 0.0);
        hidden.name = "secret-board".into();
        hidden.visibility = Visibility::Hidden;
        hidden.summary = "expected `xo-x-----`".into();
        let mut r = fixtures::submission(
            "s",
            vec![fixtures::case("g", Verdict::Accepted, 1.0), hidden],
        );
        r.groups = vec![crate::report::result::GroupScore {
            name: "g".into(),
            credit_rule: crate::suite::CreditRule::Proportional,
            points: Some(2.0),
            max: 4.0,
            passed: 1,
            cases: 2,
        }];
        r.score = 2.0;
        r.max = 4.0;
        r
    }

    #[test]
    fn autograde_shows_a_hidden_case_only_by_its_group_points_and_verdict() {
        let r = with_a_hidden_case();
        let json: serde_json::Value = serde_json::from_str(&to_json(&r, Via::Autograde)).unwrap();
        assert_eq!(
            (&json["gradable"], &json["score"]),
            (&true.into(), &0.5.into())
        );
        let hidden = &json["tests"][1];
        assert_eq!(hidden["name"], "g/hidden case 2");
        assert_eq!(
            (&hidden["points"], &hidden["max_points"]),
            (&0.0.into(), &2.0.into())
        );
        assert_eq!(hidden["message"], "wrong answer");
        let text = json.to_string();
        assert!(
            !text.contains("secret-board") && !text.contains("xo-x"),
            "{text}"
        );
        assert_eq!(json["tests"][0]["name"], "g/c");
        // The instructor's export masks it the same way (PrairieLearn shows every test to the
        // student) unless asked to show it.
        let masked = to_json(&r, Via::Export { show_hidden: false });
        assert!(
            !masked.contains("secret-board") && !masked.contains("xo-x"),
            "{masked}"
        );
        let export = to_json(&r, Via::Export { show_hidden: true });
        assert!(
            export.contains("g/secret-board") && export.contains("xo-x"),
            "{export}"
        );
    }

    #[test]
    fn a_submission_the_machine_could_not_grade_is_no_attempt_and_no_score() {
        let text = not_gradable("python2 not found\n\x1b[2J", Via::Autograde);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["gradable"], false);
        assert!(json.get("score").is_none(), "{json}");
        assert!(json["message"].as_str().unwrap().contains("does not count"));
        let why = json["format_errors"][0].as_str().unwrap();
        assert!(
            why.starts_with("python2 not found") && !why.contains('\x1b'),
            "{why}"
        );
    }
}
