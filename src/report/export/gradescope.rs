//! Gradescope: one `results.json` per student in the autograder's output schema
//! (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>), a test per case.

use std::path::PathBuf;

use serde::Serialize;

use super::{case_name, case_points, feedback, machine_fault, round4, summary, Class, Export};
use crate::report::result::SubmissionResult;
use crate::suite::Visibility;

/// When Gradescope shows a test to the student (the schema's `visibility`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Shown {
    Hidden,
    AfterDueDate,
    AfterPublished,
    Visible,
}

#[derive(Serialize)]
struct Results {
    score: f64,
    /// Seconds.
    execution_time: u64,
    output: String,
    output_format: &'static str,
    tests: Vec<Test>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    leaderboard: Vec<Entry>,
}

#[derive(Serialize)]
struct Test {
    name: String,
    number: String,
    /// Absent for a mark the machine could not give: the top-level score counts, never a zero.
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    max_score: f64,
    status: &'static str,
    visibility: Shown,
    output: String,
    output_format: &'static str,
    tags: Vec<String>,
}

#[derive(Serialize)]
struct Entry {
    name: &'static str,
    value: f64,
    order: &'static str,
}

/// `<student>/results.json` for each student. A hidden case is shown `hidden_as` (a public one
/// `visible`). A student the machine could not grade gets no file (Gradescope then reports the
/// autograder's failure, not a score) and is listed in `not_graded`.
#[must_use]
pub fn export(class: &Class, hidden_as: Shown) -> Export {
    let mut out = Export {
        notes: class.roster_notes(false),
        ..Export::default()
    };
    for r in &class.results {
        if let Some(why) = machine_fault(r) {
            out.not_graded.push((r.student.clone(), why));
            continue;
        }
        let mut json = serde_json::to_string_pretty(&results(r, hidden_as)).expect("serializes");
        json.push('\n');
        let path = PathBuf::from(&r.student).join("results.json");
        out.files.push((path, json.into_bytes()));
    }
    out
}

fn results(r: &SubmissionResult, hidden_as: Shown) -> Results {
    let groups: Vec<&str> = r.groups.iter().map(|g| g.name.as_str()).collect();
    let mut tests = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for c in &r.cases {
        let g = groups
            .iter()
            .position(|g| *g == c.group)
            .unwrap_or(groups.len());
        let n = seen.iter().filter(|s| **s == c.group).count();
        seen.push(&c.group);
        let (score, max) = case_points(r, c);
        tests.push(Test {
            name: case_name(c),
            number: format!("{}.{}", g + 1, n + 1),
            score: Some(score),
            max_score: max,
            status: if c.credit >= 1.0 { "passed" } else { "failed" },
            visibility: match c.visibility {
                Visibility::Public => Shown::Visible,
                Visibility::Hidden => hidden_as,
            },
            output: feedback(c),
            output_format: "text",
            tags: vec![c.group.clone()],
        });
    }
    let mut leaderboard = Vec::new();
    if let Some(t) = &r.tournament {
        tests.push(Test {
            name: "tournament".into(),
            number: format!("{}", groups.len() + 1),
            score: t.marks,
            // A bonus adds to the score without raising the most one can get.
            max_score: if t.bonus { 0.0 } else { t.max },
            status: if t.marks.is_some() {
                "passed"
            } else {
                "failed"
            },
            visibility: Shown::Visible,
            output: crate::untrusted::one_line(&t.reason, 1000),
            output_format: "text",
            tags: vec!["tournament".into()],
        });
        if let Some(rank) = t.rank {
            leaderboard.push(Entry {
                name: "rank",
                value: rank as f64,
                order: "asc",
            });
            if let Some(s) = &t.standing {
                leaderboard.push(Entry {
                    name: "points",
                    value: f64::from(s.points),
                    order: "desc",
                });
            }
            if let Some(m) = t.marks {
                leaderboard.push(Entry {
                    name: "marks",
                    value: m,
                    order: "desc",
                });
            }
        }
    }
    let ms = r.build.wall_ms + r.cases.iter().map(|c| c.wall_ms).sum::<u64>();
    Results {
        score: round4(r.score),
        execution_time: ms.div_ceil(1000),
        output: summary(r),
        output_format: "text",
        tests,
        leaderboard,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Verdict;
    use crate::report::result::{fixtures, GroupScore, Standing, TournamentMark};
    use crate::suite::CreditRule;

    fn ranked(marks: Option<f64>, rank: Option<usize>) -> SubmissionResult {
        let mut r = fixtures::submission(
            "ann",
            vec![
                fixtures::case("legal", Verdict::Accepted, 1.0),
                fixtures::case("legal", Verdict::WrongAnswer, 0.0),
            ],
        );
        r.groups = vec![GroupScore {
            name: "legal".into(),
            credit_rule: CreditRule::AllOrNothing,
            points: Some(0.0),
            max: 10.0,
            passed: 1,
            cases: 2,
        }];
        r.max = 10.0;
        r.score = marks.unwrap_or(0.0);
        r.tournament = Some(TournamentMark {
            marks,
            max: 40.0,
            bonus: true,
            rank,
            entrants: 4,
            standing: rank.map(|_| Standing {
                stage: "final".into(),
                points: 7,
                games: 6,
                won: 3,
                drawn: 1,
                lost: 2,
                faults: 0,
            }),
            reason: "ranked 2 of 4".into(),
        });
        r
    }

    #[test]
    fn the_tournament_gives_a_bonus_test_and_the_leaderboard() {
        let json =
            serde_json::to_value(results(&ranked(Some(30.0), Some(2)), Shown::Hidden)).unwrap();
        assert_eq!(json["score"], 30.0);
        // All or nothing: the passing case earns nothing while its group earned nothing.
        assert_eq!(json["tests"][0]["score"], 0.0);
        assert_eq!(json["tests"][0]["max_score"], 5.0);
        assert_eq!(json["tests"][0]["status"], "passed");
        let t = &json["tests"][2];
        assert_eq!(
            (&t["name"], &t["number"], &t["score"], &t["max_score"]),
            (&"tournament".into(), &"2".into(), &30.0.into(), &0.0.into())
        );
        assert_eq!(
            json["leaderboard"],
            serde_json::json!([
                {"name": "rank", "value": 2.0, "order": "asc"},
                {"name": "points", "value": 7.0, "order": "desc"},
                {"name": "marks", "value": 30.0, "order": "desc"},
            ])
        );
    }

    #[test]
    fn a_tournament_with_no_mark_is_no_zero_and_no_leaderboard() {
        let json = serde_json::to_value(results(&ranked(None, None), Shown::Hidden)).unwrap();
        let t = &json["tests"][2];
        assert!(t.get("score").is_none(), "{t}");
        assert!(json.get("leaderboard").is_none(), "{json}");
    }
}
