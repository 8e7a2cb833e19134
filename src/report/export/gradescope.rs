//! Gradescope: one `results.json` per student in the autograder's output schema
//! (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>), a test per case; for a class
//! (`grader export`) or one submission (`grader autograde`), from the one builder.

use std::path::PathBuf;

use serde::Serialize;

use super::{case_name, feedback, round4, summary, unscored, Class, Export};
use crate::report::case_points;
use crate::report::result::SubmissionResult;
use crate::suite::Visibility;

/// When Gradescope shows a test to the student (the schema's `visibility`). One flag for it everywhere,
/// `--hidden-visibility` (`export`, `bundle gradescope`, `autograde`), with clap's words
/// (`after-published`) and the schema's accepted too (`after_published`), and one default,
/// [`Shown::DEFAULT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Shown {
    Hidden,
    #[value(alias = "after_due_date")]
    AfterDueDate,
    #[value(alias = "after_published")]
    AfterPublished,
    Visible,
}

impl Shown {
    /// The default for a hidden case: nothing shows before the instructor publishes the grades, and
    /// then a student can see why a hidden case lost points (`hidden` keeps tests reused across terms
    /// out of sight for good).
    pub const DEFAULT: &'static str = "after-published";

    /// The schema's word, as `results.json` writes it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Shown::Hidden => "hidden",
            Shown::AfterDueDate => "after_due_date",
            Shown::AfterPublished => "after_published",
            Shown::Visible => "visible",
        }
    }

    /// The word `--hidden-visibility` takes (`after-published`).
    #[must_use]
    pub fn flag(self) -> &'static str {
        match self {
            Shown::Hidden => "hidden",
            Shown::AfterDueDate => "after-due-date",
            Shown::AfterPublished => "after-published",
            Shown::Visible => "visible",
        }
    }
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
        if let Some(why) = unscored(r) {
            out.not_graded.push((r.student.clone(), why));
            continue;
        }
        // A row waiting for a person's marks gets no file (Gradescope keeps no score as final).
        let score = match super::exported_total(class, r, &mut out) {
            Some(t) => t,
            None if out.incomplete.iter().any(|(s, _)| *s == r.student) => continue,
            None => r.score,
        };
        let path = PathBuf::from(&r.student).join("results.json");
        out.files
            .push((path, json(&scored(r, hidden_as, score)).into_bytes()));
    }
    out
}

/// One graded submission's `results.json` (pretty, with a final newline): what [`export`] writes for
/// each student and `grader autograde` for one. The caller leaves out a result with a
/// [`unscored`]: Gradescope must see no file for it.
#[must_use]
pub fn to_json(r: &SubmissionResult, hidden_as: Shown) -> String {
    // The course's total (a track's scaling, the late deduction); a total left blank for a person
    // keeps the score the cases gave, and the output says why.
    json(&results(r, hidden_as))
}

fn results(r: &SubmissionResult, hidden_as: Shown) -> Results {
    scored(r, hidden_as, r.total().unwrap_or(r.score))
}

fn json(results: &Results) -> String {
    let mut json = serde_json::to_string_pretty(results).expect("serializes");
    json.push('\n');
    json
}

/// A case's feedback (summary, then details) in Gradescope's `md` format: the summary a paragraph
/// with its `names` as code and markdown's other marks escaped, the details (which quote what a
/// program printed) in a fenced block longer than any run of backticks inside.
fn markdown(feedback: &str) -> String {
    let (summary, details) = feedback.split_once('\n').unwrap_or((feedback, ""));
    let parts: Vec<&str> = summary.split('`').collect();
    let mut out = String::with_capacity(feedback.len() + 16);
    for (k, part) in parts.iter().enumerate() {
        if k % 2 == 1 && k + 1 < parts.len() {
            out.push('`');
            out.push_str(part);
            out.push('`');
            continue;
        }
        if k % 2 == 1 {
            out.push_str("\\`");
        }
        for ch in part.chars() {
            if "\\*_[]<>#|~!".contains(ch) {
                out.push('\\');
            }
            out.push(ch);
        }
    }
    if !details.is_empty() {
        let longest = details.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        out.push_str(&format!("\n\n{fence}\n{details}\n{fence}"));
    }
    out
}

fn scored(r: &SubmissionResult, hidden_as: Shown, score: f64) -> Results {
    let groups: Vec<&str> = r.groups.iter().map(|g| g.name.as_str()).collect();
    let mut tests = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (c, (score, max)) in r.cases.iter().zip(case_points(r)) {
        let g = groups
            .iter()
            .position(|g| *g == c.group)
            .unwrap_or(groups.len());
        let n = seen.iter().filter(|s| **s == c.group).count();
        seen.push(&c.group);
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
            output: markdown(&feedback(c)),
            output_format: "md",
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
    tests.extend(manual_tests(r, groups.len() + 2));
    let ms = r.wall_ms();
    let score = round4(score);
    let output = overall_output(r);
    Results {
        score,
        execution_time: ms.div_ceil(1000),
        output,
        output_format: "text",
        tests,
        leaderboard,
    }
}

/// A person's marks, one test per manual group, numbered from `first`.
fn manual_tests(r: &SubmissionResult, first: usize) -> Vec<Test> {
    super::manual_lines(r)
        .into_iter()
        .enumerate()
        .map(|(k, (name, points, max, output))| Test {
            name,
            number: format!("{}", first + k),
            score: points,
            max_score: max,
            status: if points.is_some() { "passed" } else { "failed" },
            visibility: Shown::Visible,
            output,
            output_format: "text",
            tags: vec!["manual".into()],
        })
        .collect()
}

/// The submission's summary, then what the course's policy did to its total: the late deduction,
/// why there is no total yet, its notes.
fn overall_output(r: &SubmissionResult) -> String {
    let mut output = summary(r);
    if let Some(g) = &r.course {
        if let Some(l) = &g.late {
            output.push_str(&format!(
                "\nlate: {} (−{})",
                l.why,
                crate::report::points(l.deduction)
            ));
        }
        if let Some(why) = &g.blank {
            output.push_str(&format!(
                "\nno total yet: {}",
                why.lines().next().unwrap_or_default()
            ));
        }
        for n in &g.notes {
            output.push('\n');
            output.push_str(n);
        }
    }
    output
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
            cpu_ms: 0,
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

    /// A submission in two groups: `trace` (6 points, proportional, two cases, one half right) and
    /// `no-move` (2 points, all-or-nothing, one of two cases failed); odd cases hidden.
    fn two_groups() -> SubmissionResult {
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
        let group = |name: &str, credit_rule, points, max| GroupScore {
            name: name.into(),
            credit_rule,
            points: Some(points),
            max,
            passed: 1,
            cases: 2,
        };
        r.groups = vec![
            group("trace", CreditRule::Proportional, 4.5, 6.0),
            group("no-move", CreditRule::AllOrNothing, 0.0, 2.0),
        ];
        r.score = 4.5;
        r.max = 8.0;
        r
    }

    #[test]
    fn cases_share_their_groups_points_and_keep_their_visibility() {
        let r = results(&two_groups(), Shown::AfterPublished);
        let rows: Vec<_> = r
            .tests
            .iter()
            .map(|t| {
                let s = t.score.unwrap();
                (
                    t.name.as_str(),
                    t.number.as_str(),
                    s,
                    t.max_score,
                    t.status,
                    t.visibility,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("trace/c0", "1.1", 3.0, 3.0, "passed", Shown::Visible),
                ("trace/c1", "1.2", 1.5, 3.0, "failed", Shown::AfterPublished),
                // All or nothing: one failed case takes the group's points from both.
                ("no-move/c2", "2.1", 0.0, 1.0, "passed", Shown::Visible),
                (
                    "no-move/c3",
                    "2.2",
                    0.0,
                    1.0,
                    "failed",
                    Shown::AfterPublished
                ),
            ]
        );
        assert!(r.leaderboard.is_empty());
    }

    #[test]
    fn what_a_program_printed_reaches_gradescope_escaped_and_capped() {
        let mut r = two_groups();
        let out = &results(&r, Shown::Hidden).tests[1].output;
        // Markdown shows `\\x1b\[2J` as the text `\x1b[2J`.
        assert!(!out.contains('\x1b') && out.contains(r"\\x1b\[2J"), "{out}");
        assert!(out.contains("line two"), "{out}");
        r.cases[0].details = vec!["x".repeat(400); 1000];
        let out = &results(&r, Shown::Hidden).tests[0].output;
        assert!(
            out.chars().count() < super::super::FEEDBACK_CAP + 50,
            "{}",
            out.len()
        );
        let cut = out.trim_end_matches('`').trim_end();
        assert!(cut.ends_with("more bytes)"), "{}", &out[out.len() - 40..]);
    }

    #[test]
    fn markdown_keeps_code_spans_and_fences_what_a_program_printed() {
        let md = super::markdown("wrote `a*b` and *x* <b>, `alone\nline ``` one\n*two*");
        assert_eq!(
            md,
            "wrote `a*b` and \\*x\\* \\<b\\>, \\`alone\n\n````\nline ``` one\n*two*\n````"
        );
        assert_eq!(super::markdown("plain"), "plain");
    }

    #[test]
    fn visibility_words_are_the_schemas_and_the_flag_takes_both_spellings() {
        use clap::ValueEnum as _;
        for shown in [
            Shown::Hidden,
            Shown::AfterDueDate,
            Shown::AfterPublished,
            Shown::Visible,
        ] {
            let json = serde_json::to_value(shown).unwrap();
            assert_eq!(json, shown.as_str());
            // One flag, clap's words and the schema's alike.
            assert_eq!(Shown::from_str(shown.flag(), false), Ok(shown));
            assert_eq!(Shown::from_str(shown.as_str(), false), Ok(shown));
        }
        assert_eq!(
            Shown::from_str(Shown::DEFAULT, false),
            Ok(Shown::AfterPublished)
        );
        assert!(Shown::from_str("after published", false).is_err());
    }
}
