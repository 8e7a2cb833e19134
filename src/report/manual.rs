//! A results folder's manual marks joined to its results: `manual.toml` (`crate::marks`), the rubric
//! `grader run` left (`review.json`), and each student's code fingerprint (`code.sha256`), read as any
//! file in a results folder is (no link followed, capped, checked). Every report and export that
//! reads a results folder re-totals its rows with them through the course's one grade
//! (`course::grade::with_manual`).

use std::path::Path;

use anyhow::anyhow;

use super::result::SubmissionResult;
use crate::error::Error;
use crate::marks::{file, ClassMarks, MANUAL_FILE};
use crate::report::rubric::ClassRubric;
use crate::suite::{CreditRule, Manual, Scoring};

/// The file beside a student's `result.json` holding the fingerprint of the code graded
/// (`grade::fingerprint::code`), in hex: a mark given to other code is flagged.
pub const CODE_FINGERPRINT: &str = "code.sha256";

/// The code fingerprint stored beside `key`'s result, if any (64 hexadecimal digits, else none).
#[must_use]
pub fn stored_code(dir: &Path, key: &str) -> Option<String> {
    let rel = Path::new(key).join(CODE_FINGERPRINT);
    let read = crate::untrusted::read_output(dir, &rel, 128).ok()?;
    let text = String::from_utf8(read.bytes).ok()?;
    let print = text.trim();
    (print.len() == 64 && print.bytes().all(|b| b.is_ascii_hexdigit())).then(|| print.to_string())
}

/// The class's rubric: `review.json` when `grader run` wrote one, else the results' manual groups
/// (points only, no items: results of an older grader).
///
/// # Errors
/// `review.json` cannot be read or is not a rubric.
pub fn rubric(dir: &Path, results: &[SubmissionResult]) -> Result<ClassRubric, Error> {
    if let Some(r) = crate::report::rubric::read(dir).map_err(|e| Error::input(anyhow!(e)))? {
        return Ok(r);
    }
    let mut manual: Vec<Manual> = Vec::new();
    for g in results.iter().flat_map(|r| &r.groups) {
        if g.credit_rule == CreditRule::Manual && !manual.iter().any(|m| m.name == g.name) {
            manual.push(Manual {
                name: g.name.clone(),
                title: String::new(),
                points: g.max,
                scoring: Scoring::Positive,
                items: Vec::new(),
            });
        }
    }
    Ok(ClassRubric {
        suite: results.first().map(|r| r.suite.clone()).unwrap_or_default(),
        title: String::new(),
        submissions: None,
        manual,
        columns: None,
    })
}

/// The marks of the results folder `dir` (its `manual.toml`, or none yet) for `students`, scored
/// with `rubric`.
///
/// # Errors
/// `manual.toml` cannot be read, is of another suite, or holds a bad value (named with its line).
pub fn class_marks(
    dir: &Path,
    suite: &str,
    rubric: Vec<Manual>,
    students: &[&str],
) -> Result<ClassMarks, Error> {
    let marks =
        file::read_or_empty(&dir.join(MANUAL_FILE), suite).map_err(|e| Error::input(anyhow!(e)))?;
    let code = students
        .iter()
        .filter_map(|k| Some(((*k).to_string(), stored_code(dir, k)?)))
        .collect();
    Ok(ClassMarks {
        marks,
        rubric,
        code,
    })
}

/// Each result's grade re-totalled with `marks` (a result graded before the course's grade gets one
/// from its score). Returns a note for each student marked who has no result here.
pub fn apply(results: &mut [SubmissionResult], marks: &ClassMarks) -> Vec<String> {
    for r in results.iter_mut() {
        let grades = marks.grades(&r.student);
        r.settle(&marks.settlements(&r.student));
        // The work as it stands now (a review case settled or taken back since, a fault), then the
        // marks.
        let fault = super::export::unscored(r);
        let g = match &r.course {
            Some(g) => crate::course::grade::with_work(g, &work_points(r), fault),
            None => crate::course::grade::plain(r.max, Some(r.score), fault),
        };
        r.course = Some(crate::course::grade::with_manual(&g, &grades));
    }
    marks
        .marks
        .students
        .keys()
        .filter(|k| !results.iter().any(|r| &r.student == *k))
        .map(|k| {
            format!("`{MANUAL_FILE}` has marks for `{k}`, who has no result here; not counted")
        })
        .collect()
}

/// The result's scored groups as the course's grade reads them.
fn work_points(r: &SubmissionResult) -> Vec<crate::course::grade::GroupPoints> {
    r.groups
        .iter()
        .filter(|g| g.credit_rule != CreditRule::Manual)
        .map(|g| crate::course::grade::GroupPoints {
            name: g.name.clone(),
            points: g.points,
            max: g.max,
        })
        .collect()
}

/// Reads the marks of the results folder `dir` and re-totals `results` (all of `dir`'s) with them.
/// Returns the notes of [`apply`].
///
/// # Errors
/// As [`rubric`] and [`class_marks`].
pub fn load_and_apply(dir: &Path, results: &mut [SubmissionResult]) -> Result<Vec<String>, Error> {
    let Some(suite) = results.first().map(|r| r.suite.clone()) else {
        return Ok(Vec::new());
    };
    let rubric = rubric(dir, results)?;
    let keys: Vec<&str> = results.iter().map(|r| r.student.as_str()).collect();
    let marks = class_marks(dir, &suite, rubric.manual, &keys)?;
    Ok(apply(results, &marks))
}

/// One line for each result whose marks were given to code that has changed since (a regrade of a
/// new hand-in): `` `ann`: `manual`: the code changed since ta1 marked it (…) ``.
#[must_use]
pub fn changed_since_marked(results: &[SubmissionResult]) -> Vec<String> {
    let mut out = Vec::new();
    for r in results {
        for m in r.course.iter().flat_map(|g| &g.manual) {
            if let Some(why) = &m.stale {
                out.push(format!(
                    "`{}`: `{}`: {why}; check the marks again in `grader review`",
                    r.student, m.name
                ));
            }
        }
    }
    out
}

/// The results folder `dir` brought up to date with its marks: every result re-totalled (its
/// result.json rewritten where that changed it), grades.csv written again with the columns `grader
/// run` used, and the HTML pages. What `grader report` and `grader review` do. Returns the number of
/// students and the notes to show.
///
/// # Errors
/// No result in `dir`, marks that cannot be read (named), or a file that cannot be written.
pub fn retotal_folder(dir: &Path) -> Result<(usize, Vec<String>), Error> {
    let (mut results, mut notes) = super::html::class::load_results(dir);
    notes.iter_mut().for_each(|n| n.push_str("; left out"));
    if results.is_empty() {
        return Err(Error::input(anyhow!(
            "no `result.json` in `{}`\nhint: name a suite's results folder, such as `results/<suite>`",
            dir.display()
        )));
    }
    let before = results.clone();
    notes.extend(load_and_apply(dir, &mut results)?);
    let machine = |e: std::io::Error, path: &Path| {
        Error::machine(anyhow!(e).context(format!("cannot write `{}`", path.display())))
    };
    for (r, old) in results.iter().zip(&before) {
        if r != old {
            let rel = Path::new(&r.student).join("result.json");
            super::write_within(dir, &rel, r.to_json().as_bytes())
                .map_err(|e| machine(e, &dir.join(&rel)))?;
        }
    }
    let columns = crate::report::rubric::read(dir)
        .ok()
        .flatten()
        .and_then(|r| r.columns)
        .unwrap_or_else(|| columns_of(&results));
    let book = dir.join("grades.csv");
    super::write_atomic(&book, super::csv::gradebook(&columns, &results).as_bytes())
        .map_err(|e| machine(e, &book))?;
    let students = super::html::class::write_suite(dir).map_err(Error::machine)?;
    Ok((students, notes))
}

/// A gradebook's columns from results alone (results of a grader that kept no `review.json`).
#[must_use]
pub fn columns_of<'a>(results: impl IntoIterator<Item = &'a SubmissionResult>) -> super::Columns {
    let mut columns = super::Columns::default();
    for r in results {
        for g in &r.groups {
            let list = if g.credit_rule == CreditRule::Manual {
                &mut columns.manual
            } else {
                &mut columns.groups
            };
            if !list.iter().any(|(n, _)| *n == g.name) {
                list.push((g.name.clone(), g.max));
            }
        }
        if let Some(t) = &r.tournament {
            columns.tournament.get_or_insert((t.max, t.bonus));
        }
        columns.course |= r
            .course
            .as_ref()
            .is_some_and(|g| g.track.is_some() || g.due.is_some());
    }
    columns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Verdict;
    use crate::marks::{GroupMark, Settlement, Stamp, StudentMarks};
    use crate::report::result::{fixtures, GroupScore};

    fn stamp() -> Stamp {
        Stamp {
            by: "ta1".into(),
            at: "2026-11-26T14:00:00Z".parse().unwrap(),
        }
    }

    /// A WPI-like result: one case accepted, one the grader could not follow; a manual group of 20.
    fn waiting() -> SubmissionResult {
        let mut unfollowed = fixtures::case("play", Verdict::Review, 0.0);
        unfollowed.name = "vs-random".into();
        let mut r = fixtures::submission(
            "ann",
            vec![fixtures::case("play", Verdict::Accepted, 1.0), unfollowed],
        );
        r.groups = vec![
            GroupScore {
                name: "play".into(),
                credit_rule: CreditRule::Proportional,
                points: Some(5.0),
                max: 10.0,
                passed: 1,
                cases: 2,
            },
            GroupScore {
                name: "effort".into(),
                credit_rule: CreditRule::Manual,
                points: None,
                max: 20.0,
                passed: 0,
                cases: 0,
            },
        ];
        (r.score, r.max) = (5.0, 10.0);
        let groups = [("play".to_string(), 10.0)];
        let policy = crate::report::policy::Policy {
            groups: &groups,
            ..crate::report::policy::Policy::default()
        };
        policy.apply(std::slice::from_mut(&mut r));
        r
    }

    #[test]
    fn a_settled_review_case_and_the_manual_marks_complete_the_total() {
        let mut r = waiting();
        let g = r.course.clone().unwrap();
        assert_eq!((g.total, g.max), (None, 30.0));
        assert!(
            g.blank.unwrap().starts_with("needs review: play/vs-random"),
            "{:?}",
            r.course
        );
        let mut student = StudentMarks::default();
        student.review.insert(
            "play/vs-random".into(),
            Settlement {
                credit: 1.0,
                reason: "asks row then column; all legal".into(),
                stamp: stamp(),
            },
        );
        let mut marks = ClassMarks {
            marks: crate::marks::Marks {
                suite: "s".into(),
                ..Default::default()
            },
            rubric: vec![Manual {
                name: "effort".into(),
                title: String::new(),
                points: 20.0,
                scoring: Scoring::Positive,
                items: Vec::new(),
            }],
            code: Default::default(),
        };
        marks.marks.students.insert("ann".into(), student.clone());
        apply(std::slice::from_mut(&mut r), &marks);
        let g = r.course.clone().unwrap();
        assert_eq!(r.score, 10.0);
        assert!(r.needs_review().is_none());
        assert_eq!(r.cases[1].settled.as_ref().unwrap().by, "ta1");
        assert_eq!(
            (g.total, g.incomplete.as_deref(), g.partial),
            (
                None,
                Some("incomplete: 20 manual marks not given"),
                Some(10.0)
            )
        );
        student.groups.insert(
            "effort".into(),
            GroupMark {
                items: Vec::new(),
                adjust: 0.0,
                comment: String::new(),
                points: Some(12.0),
                stamp: stamp(),
            },
        );
        marks.marks.students.insert("ann".into(), student.clone());
        apply(std::slice::from_mut(&mut r), &marks);
        assert_eq!(r.course.as_ref().unwrap().total, Some(22.0));
        // The settlement taken back: the case waits again, and so does the total.
        student.review.clear();
        marks.marks.students.insert("ann".into(), student);
        apply(std::slice::from_mut(&mut r), &marks);
        assert_eq!((r.score, r.course.as_ref().unwrap().total), (5.0, None));
        assert!(r.needs_review().is_some());
    }
}
