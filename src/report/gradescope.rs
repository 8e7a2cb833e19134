//! One submission's result as Gradescope's `results.json` (its autograder specification's output
//! format): the score, a test per case with its share of the group's points, and the case's visibility.

use serde::Serialize;

use super::result::{BuildStatus, SubmissionResult};
use super::{case_output, case_points, submission_output};
use crate::suite::Visibility;

/// When Gradescope shows a hidden case to the student (a public case is always `visible`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shown {
    /// Never: only instructors see it.
    Hidden,
    /// Once the due date has passed.
    AfterDueDate,
    /// Once the instructor publishes the grades.
    AfterPublished,
    /// At once.
    Visible,
}

impl Shown {
    /// The word `results.json` and `--hidden-visibility` use.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Shown::Hidden => "hidden",
            Shown::AfterDueDate => "after_due_date",
            Shown::AfterPublished => "after_published",
            Shown::Visible => "visible",
        }
    }
}

impl std::str::FromStr for Shown {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "hidden" => Ok(Shown::Hidden),
            "after_due_date" => Ok(Shown::AfterDueDate),
            "after_published" => Ok(Shown::AfterPublished),
            "visible" => Ok(Shown::Visible),
            _ => Err(format!(
                "no visibility `{s}`: write `hidden`, `after_due_date`, `after_published` or `visible`"
            )),
        }
    }
}

/// The top level of `results.json`.
#[derive(Debug, Serialize)]
pub struct Results {
    pub score: f64,
    /// Seconds.
    pub execution_time: u64,
    pub output: String,
    pub output_format: &'static str,
    pub tests: Vec<Test>,
    pub leaderboard: Vec<Entry>,
}

/// One case.
#[derive(Debug, Serialize)]
pub struct Test {
    pub name: String,
    /// `G.C`: the group's and the case's place in the suite, from 1.
    pub number: String,
    pub score: f64,
    pub max_score: f64,
    /// `passed` (full credit) or `failed`.
    pub status: &'static str,
    pub visibility: Shown,
    pub output: String,
    pub output_format: &'static str,
    pub tags: Vec<String>,
}

/// A leaderboard column (shown only when the assignment enables the leaderboard).
#[derive(Debug, Serialize)]
pub struct Entry {
    pub name: &'static str,
    pub value: f64,
    pub order: &'static str,
}

/// The results Gradescope reads for `r`; hidden cases get `hidden` as their visibility. `seconds` is
/// how long the grading took.
#[must_use]
pub fn results(r: &SubmissionResult, hidden: Shown, seconds: u64) -> Results {
    let shares = case_points(r);
    let mut groups: Vec<&str> = Vec::new();
    let mut tests = Vec::new();
    let mut in_group = 0;
    for (c, &(score, max_score)) in r.cases.iter().zip(&shares) {
        if groups.last() != Some(&c.group.as_str()) {
            groups.push(&c.group);
            in_group = 0;
        }
        in_group += 1;
        tests.push(Test {
            name: format!("{}/{}", c.group, c.name),
            number: format!("{}.{in_group}", groups.len()),
            score,
            max_score,
            status: if c.credit >= 1.0 { "passed" } else { "failed" },
            visibility: match c.visibility {
                Visibility::Public => Shown::Visible,
                Visibility::Hidden => hidden,
            },
            output: case_output(c, r.build.status == BuildStatus::Built),
            output_format: "text",
            tags: vec![c.group.clone()],
        });
    }
    Results {
        score: r.score,
        execution_time: seconds,
        output: submission_output(r),
        output_format: "text",
        tests,
        leaderboard: vec![Entry {
            name: "points",
            value: r.score,
            order: "desc",
        }],
    }
}

/// [`results`] as pretty JSON with a final newline.
#[must_use]
pub fn to_json(r: &SubmissionResult, hidden: Shown, seconds: u64) -> String {
    let mut text = serde_json::to_string_pretty(&results(r, hidden, seconds)).expect("serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Verdict;
    use crate::report::result::{fixtures, GroupScore};
    use crate::suite::CreditRule;

    /// A submission in two groups: `trace` (6 points, proportional, two cases, one half right) and
    /// `no-move` (2 points, all-or-nothing, one of two cases failed).
    fn graded() -> SubmissionResult {
        let mut cases = vec![
            fixtures::case("trace", Verdict::Accepted, 1.0),
            fixtures::case("trace", Verdict::WrongAnswer, 0.5),
            fixtures::case("no-move", Verdict::Accepted, 1.0),
            fixtures::case("no-move", Verdict::RuntimeError, 0.0),
        ];
        for (i, c) in cases.iter_mut().enumerate() {
            c.name = format!("c{i}");
            c.visibility = if i % 2 == 0 {
                Visibility::Public
            } else {
                Visibility::Hidden
            };
            c.summary = format!("summary \x1b[2J{i}");
            c.details = vec!["line one".into(), "line two".into()];
        }
        let mut r = fixtures::submission("s", cases);
        r.groups = vec![
            GroupScore {
                name: "trace".into(),
                credit_rule: CreditRule::Proportional,
                points: Some(4.5),
                max: 6.0,
                passed: 1,
                cases: 2,
            },
            GroupScore {
                name: "no-move".into(),
                credit_rule: CreditRule::AllOrNothing,
                points: Some(0.0),
                max: 2.0,
                passed: 1,
                cases: 2,
            },
        ];
        r.score = 4.5;
        r.max = 8.0;
        r
    }

    /// Gradescope's autograder specification ("Output format"): the top level has `score` (required
    /// unless every test has one), `execution_time` (seconds), `output`, `output_format` (`text`,
    /// `html`, `simple_format`, `md`, `ansi`), `tests` and `leaderboard` (`name`, `value`, `order`
    /// `asc`|`desc`); each test has `score`, `max_score`, `status` (`passed`|`failed`), `name`,
    /// `number`, `output`, `output_format`, `tags` and `visibility` (`hidden`, `after_due_date`,
    /// `after_published`, `visible`).
    #[test]
    fn the_json_has_the_fields_of_gradescopes_specification() {
        let json: serde_json::Value =
            serde_json::from_str(&to_json(&graded(), Shown::AfterPublished, 12)).unwrap();
        let top: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(
            top,
            [
                "execution_time",
                "leaderboard",
                "output",
                "output_format",
                "score",
                "tests"
            ]
        );
        assert_eq!(json["score"], 4.5);
        assert_eq!(json["execution_time"], 12);
        assert_eq!(json["leaderboard"][0]["order"], "desc");
        let tests = json["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 4);
        let keys: Vec<&String> = tests[0].as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "max_score",
                "name",
                "number",
                "output",
                "output_format",
                "score",
                "status",
                "tags",
                "visibility"
            ]
        );
        for t in tests {
            assert!(["passed", "failed"].contains(&t["status"].as_str().unwrap()));
            assert!(["visible", "after_published"].contains(&t["visibility"].as_str().unwrap()));
        }
    }

    #[test]
    fn cases_share_their_groups_points_and_keep_their_visibility() {
        let r = results(&graded(), Shown::Hidden, 0);
        let row = |i: usize| {
            let t = &r.tests[i];
            (
                t.name.as_str(),
                t.number.as_str(),
                t.score,
                t.max_score,
                t.status,
                t.visibility,
            )
        };
        assert_eq!(
            row(0),
            ("trace/c0", "1.1", 3.0, 3.0, "passed", Shown::Visible)
        );
        assert_eq!(
            row(1),
            ("trace/c1", "1.2", 1.5, 3.0, "failed", Shown::Hidden)
        );
        // All or nothing: one failed case takes the group's points from both.
        assert_eq!(
            row(2),
            ("no-move/c2", "2.1", 0.0, 1.0, "passed", Shown::Visible)
        );
        assert_eq!(
            row(3),
            ("no-move/c3", "2.2", 0.0, 1.0, "failed", Shown::Hidden)
        );
        let sum: f64 = r.tests.iter().map(|t| t.score).sum();
        assert_eq!(sum, r.score);
        let most: f64 = r.tests.iter().map(|t| t.max_score).sum();
        assert_eq!(most, 8.0);
    }

    #[test]
    fn what_a_program_printed_reaches_gradescope_escaped() {
        let r = results(&graded(), Shown::Hidden, 0);
        assert!(!r.tests[1].output.contains('\x1b'));
        assert!(
            r.tests[1].output.contains("\\x1b[2J"),
            "{}",
            r.tests[1].output
        );
        assert!(r.tests[1].output.contains("line two"));
    }

    #[test]
    fn a_case_that_says_a_lot_is_cut() {
        let mut r = graded();
        r.cases[0].details = vec!["x".repeat(400); 1000];
        let out = &results(&r, Shown::Hidden, 0).tests[0].output;
        assert!(
            out.chars().count() < crate::report::CASE_OUTPUT_CAP + 50,
            "{}",
            out.len()
        );
        assert!(out.ends_with("more bytes)"), "{}", &out[out.len() - 40..]);
    }
}
