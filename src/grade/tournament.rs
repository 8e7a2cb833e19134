//! The class tournament in a class's grades (`grader run`, a suite with `[arena.marks]`): who the
//! suite's gate lets in, the arena's class event, and each student's `tournament` marks in result.json,
//! grades.csv and the total. A tournament that fails leaves every case result and row in place, the
//! tournament cells blank with the reason.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::classevent::{play_class, ClassEvent, Outcome};
use crate::arena::config::Marks;
use crate::arena::event::ranking::LeftOut;
use crate::judge::Verdict;
use crate::report::events::{Event, Reporter};
use crate::report::result::{Standing, SubmissionResult, TournamentMark};
use crate::sandbox::pace::Cores;
use crate::sandbox::Sandbox;
use crate::suite::Suite;

/// Splits the class by the suite's gate (`[arena.marks] gate`): a student enters unless the gate
/// group's cases ran and did not all earn full credit (or it has none: no program for them). A case
/// the grader or the machine could not run (internal error, not graded) never keeps a student out.
#[must_use]
pub fn gate(
    marks: &Marks,
    students: &[(String, PathBuf)],
    results: &[SubmissionResult],
) -> (Vec<(String, PathBuf)>, Vec<LeftOut>) {
    let Some(gate) = &marks.gate else {
        return (students.to_vec(), Vec::new());
    };
    let mut entrants = Vec::new();
    let mut left_out = Vec::new();
    for (key, dir) in students {
        let Some(r) = results.iter().find(|r| &r.student == key) else {
            continue;
        };
        let cases: Vec<_> = r.cases.iter().filter(|c| &c.group == gate).collect();
        let machine = r.not_graded().is_some()
            || cases
                .iter()
                .any(|c| matches!(c.verdict, Verdict::InternalError | Verdict::NotGraded));
        let passed = !cases.is_empty() && cases.iter().all(|c| c.credit >= 1.0);
        if machine || passed {
            entrants.push((key.clone(), dir.clone()));
        } else {
            left_out.push(LeftOut {
                name: key.clone(),
                why: format!("failed `{gate}`"),
                marks: marks.all_faults,
            });
        }
    }
    (entrants, left_out)
}

/// Plays the class tournament for `results` (the class graded, in student order), `jobs` games at
/// once, each holding one of `slots` when given (and the entrants built holding one), writes
/// `tournament.csv` and the games into `dir` (`results/<suite>/`), then gives each student its marks and
/// tells `reporter` ([`Event::Remarked`]). Returns the first thing that went wrong (the tournament or
/// its files), already reflected in the results: blank marks and the reason.
// Each argument is its own input of the one step `run` and `merge` share (suite, course, class,
// results, the machine, where to write, who to tell): a struct of them would only rename them.
#[allow(clippy::too_many_arguments)]
pub fn play_and_mark(
    suite: &Suite,
    policy: &crate::report::policy::Policy<'_>,
    students: &[(String, PathBuf)],
    results: &mut [SubmissionResult],
    sandbox: &Arc<dyn Sandbox>,
    jobs: usize,
    slots: Option<&Arc<Cores>>,
    dir: &Path,
    reporter: &dyn Reporter,
) -> Option<anyhow::Error> {
    let marks = suite.arena.as_ref()?.marks.as_ref()?;
    let (entrants, mut left_out) = gate(marks, students, results);
    let entrants = entries(policy, entrants, &mut left_out);
    let sections: Vec<(String, String)> = entrants
        .iter()
        .filter_map(|(k, _)| Some((k.clone(), policy.section(k)?)))
        .collect();
    for l in &left_out {
        eprintln!(
            "note: `{}` is left out of the tournament: it {} (the suite's gate)",
            l.name, l.why
        );
    }
    let event = ClassEvent {
        suite,
        entrants: &entrants,
        left_out: &left_out,
        sandbox: sandbox.clone(),
        jobs,
        slots: slots.cloned(),
        dir,
        sections: &sections,
    };
    let played = play_class(&event).map_err(crate::error::Error::into_inner);
    let mut first = None;
    let outcome = match played {
        Ok(mut o) => {
            match std::mem::replace(&mut o.file, Ok(PathBuf::new())) {
                Ok(file) => eprintln!("wrote {}", file.display()),
                Err(e) => first = Some(e),
            }
            Ok(o)
        }
        Err(e) => {
            let why = format!("tournament failed: {e:#}");
            first = Some(e.context("the class tournament failed; the cases' results are kept"));
            Err(why.lines().next().unwrap_or_default().to_string())
        }
    };
    for r in results.iter_mut() {
        mark(r, marks, gate_name(marks), &left_out, outcome.as_ref());
    }
    reporter.report(&Event::Remarked { results });
    first
}

/// The gate's entrants less those the course keeps out: a hand-in for the regular part only
/// (`entry = "regular"`, 000:24), and one entered after the tournament's entry deadline (000:23).
/// They play no game and get no marks, which is no fault of their program.
fn entries(
    policy: &crate::report::policy::Policy<'_>,
    entrants: Vec<(String, PathBuf)>,
    left_out: &mut Vec<LeftOut>,
) -> Vec<(String, PathBuf)> {
    let deadline = policy.course.and_then(|c| c.entry_due);
    let mut kept = Vec::new();
    for (key, dir) in entrants {
        let late = match (deadline, policy.submitted(&key)) {
            (Some(d), Some(s)) => s > d,
            _ => false,
        };
        let why = if policy.entry(&key) == crate::course::submissions::Entry::Regular {
            Some("its hand-in is for the regular part only".to_string())
        } else if late {
            let d = deadline.map(crate::course::time::show).unwrap_or_default();
            Some(format!(
                "it was handed in after the tournament's entry deadline ({d})"
            ))
        } else {
            None
        };
        match why {
            Some(why) => left_out.push(LeftOut {
                name: key,
                why,
                marks: None,
            }),
            None => kept.push((key, dir)),
        }
    }
    kept
}

/// Takes a stored result's tournament marks back out (its score and maximum as its cases left them),
/// so that a resumed result is marked afresh with the class it is in now.
pub fn unmark(r: &mut SubmissionResult) {
    if let Some(t) = r.tournament.take() {
        if let Some(m) = t.marks {
            r.score = ((r.score - m) * 100.0).round() / 100.0;
        }
        if !t.bonus {
            r.max -= t.max;
        }
    }
}

fn gate_name(marks: &Marks) -> &str {
    marks.gate.as_deref().unwrap_or_default()
}

/// Sets `r.tournament` and adds the marks to its score (and the most marks to its maximum, unless a
/// bonus).
fn mark(
    r: &mut SubmissionResult,
    marks: &Marks,
    gate: &str,
    left_out: &[LeftOut],
    outcome: Result<&Outcome, &String>,
) {
    let mut t = TournamentMark {
        marks: None,
        max: marks.most(),
        bonus: marks.bonus,
        rank: None,
        entrants: outcome.map_or(0, |o| o.placed.len()),
        standing: None,
        reason: String::new(),
        cpu_ms: outcome
            .ok()
            .and_then(|o| o.cpu.iter().find(|(name, _)| *name == r.student))
            .map_or(0, |(_, cpu)| crate::units::nearest_ms(*cpu)),
    };
    if let Some(l) = left_out
        .iter()
        .find(|l| l.name == r.student && !l.why.starts_with("failed"))
    {
        t.reason = format!("not in the tournament: {}", l.why);
    } else if let Some(l) = left_out.iter().find(|l| l.name == r.student) {
        t.marks = l.marks;
        let given = l.marks.map_or("no".into(), crate::report::points);
        t.reason = format!(
            "left out of the tournament: it did not pass `{gate}` in full, which the suite requires to enter; {given} marks, as for an agent that loses every game by its own fault"
        );
    } else {
        match outcome {
            Err(why) => t.reason.clone_from(why),
            Ok(o) => {
                if let Some(p) = o.placed.iter().find(|p| p.row.name == r.student) {
                    t.marks = p.marks;
                    t.rank = Some(p.rank);
                    let row = &p.row;
                    t.standing = Some(Standing {
                        stage: p.stage.clone(),
                        points: row.points,
                        games: row.games,
                        won: row.wins,
                        drawn: row.draws,
                        lost: row.losses,
                        faults: row.faults,
                    });
                    t.reason = format!(
                        "ranked {} of {} (furthest stage: {}, {} points in {} games: {} won, {} drawn, {} lost, {} by its own fault)",
                        p.rank, t.entrants, p.stage, row.points, row.games, row.wins, row.draws, row.losses, row.faults
                    );
                    if p.all_faults && marks.all_faults.is_some() {
                        t.reason.push_str(
                            "; it lost every game it played by its own fault, which earns the suite's all-faults marks",
                        );
                    }
                } else if let Some((_, why)) = o.not_graded.iter().find(|n| n.0 == r.student) {
                    t.reason = format!("not graded: {why}");
                } else if let Some(why) = &o.unplayed {
                    t.reason.clone_from(why);
                } else {
                    t.reason = "not in the tournament's results".into();
                }
            }
        }
    }
    if let Some(m) = t.marks {
        r.score = ((r.score + m) * 100.0).round() / 100.0;
    }
    if !t.bonus {
        r.max += t.max;
    }
    r.tournament = Some(t);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::result::fixtures;

    fn result(student: &str, gate: &[(f64, Verdict)]) -> SubmissionResult {
        let cases = gate
            .iter()
            .map(|&(credit, verdict)| fixtures::case("legal", verdict, credit))
            .collect();
        fixtures::submission(student, cases)
    }

    #[test]
    fn the_gate_keeps_out_only_what_the_student_did() {
        let marks = Marks {
            by_rank: vec![40.0],
            rest: 10.0,
            all_faults: Some(0.0),
            gate: Some("legal".into()),
            bonus: false,
            qualified: None,
        };
        let ok = (1.0, Verdict::Accepted);
        let wrong = (0.5, Verdict::WrongAnswer);
        let results = [
            result("passes", &[ok, ok]),
            result("fails", &[ok, wrong]),
            result("grader-broke", &[ok, (0.0, Verdict::InternalError)]),
            result("no-toolchain", &[(0.0, Verdict::NotGraded)]),
            result("no-cases", &[]),
        ];
        let students: Vec<(String, PathBuf)> = results
            .iter()
            .map(|r| (r.student.clone(), PathBuf::from(&r.student)))
            .collect();
        let (entrants, left_out) = gate(&marks, &students, &results);
        let names: Vec<&str> = entrants.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["passes", "grader-broke", "no-toolchain"]);
        let out: Vec<(&str, &str, Option<f64>)> = left_out
            .iter()
            .map(|l| (l.name.as_str(), l.why.as_str(), l.marks))
            .collect();
        assert_eq!(
            out,
            [
                ("fails", "failed `legal`", Some(0.0)),
                ("no-cases", "failed `legal`", Some(0.0))
            ]
        );
        // Without a gate everyone enters, as `grader tournament` plays every folder.
        let open = Marks {
            gate: None,
            ..marks
        };
        assert_eq!(gate(&open, &students, &results).0.len(), 5);
    }

    #[test]
    fn unmarking_gives_back_the_result_the_cases_left() {
        let ok = (1.0, Verdict::Accepted);
        for (bonus, marks, score) in [(false, 27.5, 12.34), (true, 40.0, 35.0), (false, 0.1, 0.2)] {
            let mut r = result("anna", &[ok]);
            r.score = score;
            r.max = 35.0;
            let before = r.clone();
            let rule = Marks {
                by_rank: vec![marks],
                rest: 0.0,
                all_faults: None,
                gate: None,
                bonus,
                qualified: None,
            };
            let left = [LeftOut {
                name: "anna".into(),
                why: "x".into(),
                marks: Some(marks),
            }];
            mark(&mut r, &rule, "", &left, Err(&String::new()));
            assert_ne!(r, before);
            unmark(&mut r);
            assert_eq!(r, before, "{bonus} {marks} {score}");
        }
    }

    #[test]
    fn marks_join_the_total_and_a_bonus_stays_out_of_the_maximum() {
        let marks = Marks {
            by_rank: vec![40.0],
            rest: 10.0,
            all_faults: Some(0.0),
            gate: Some("legal".into()),
            bonus: true,
            qualified: None,
        };
        let mut r = result("late", &[]);
        r.score = 35.0;
        r.max = 35.0;
        let left = [LeftOut {
            name: "late".into(),
            why: "failed `legal`".into(),
            marks: Some(0.0),
        }];
        mark(&mut r, &marks, "legal", &left, Err(&"unused".to_string()));
        let t = r.tournament.as_ref().unwrap();
        assert_eq!(
            (t.marks, t.rank, r.score, r.max),
            (Some(0.0), None, 35.0, 35.0)
        );
        assert!(t
            .reason
            .starts_with("left out of the tournament: it did not pass `legal`"));
        let mut r = result("solo", &[]);
        mark(
            &mut r,
            &Marks {
                bonus: false,
                ..marks
            },
            "legal",
            &[],
            Err(&"tournament failed: boom".to_string()),
        );
        let t = r.tournament.as_ref().unwrap();
        assert_eq!((t.marks, r.score, r.max), (None, 0.0, 40.0));
        assert_eq!(t.reason, "tournament failed: boom");
    }
}
