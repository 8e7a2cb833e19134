//! Canvas: the gradebook import CSV (Canvas's "How do I import grades in the Gradebook?" guide):
//! `Student,ID,SIS User ID,SIS Login ID,Section,<assignment>`, then a `Points Possible` row, then one
//! row per student.

use std::path::PathBuf;

use super::roster::Student;
use super::{unscored, Class, Export};
use crate::report::csv::{text, Sheet};
use crate::report::points;

/// The fixed columns before the assignment's.
pub const HEADER: [&str; 5] = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"];

/// The import file, one row per student the roster identifies, named `assignment` in its header.
/// Without a roster each student is its folder name (`Student` and `SIS Login ID`). With one, roster
/// `name` → `Student`, `id` → `SIS User ID` (the institution's student id), `login` → `SIS Login
/// ID`, `section` → `Section`, and `ID` (Canvas's own user id) is left blank: Canvas matches a row by
/// any of the three; a result the roster does not list has no identity to key on, so it is `unmatched` (no
/// row, a failed export). A student the machine could not grade has an empty cell (Canvas then leaves
/// the grade as it is), never a zero; a roster student with no result too.
#[must_use]
pub fn export(class: &Class, assignment: &str) -> Export {
    let mut out = Export {
        notes: class.roster_notes(true),
        ..Export::default()
    };
    let mut sheet = Sheet::new();
    sheet.row(
        HEADER
            .iter()
            .map(|h| (*h).to_string())
            .chain([text(assignment)]),
    );
    let blank = || std::iter::repeat_n(String::new(), HEADER.len() - 1);
    sheet.row(
        ["Points Possible".to_string()]
            .into_iter()
            .chain(blank())
            .chain([points(points_possible(class, &mut out))]),
    );
    for r in &class.results {
        let Some(who) = super::members(class, r) else {
            let roster = class.roster.as_ref().map(|r| r.path.display().to_string());
            out.unmatched.push(format!(
                "`{}` is not in the roster `{}`: no Canvas identity, so no row",
                r.student,
                roster.unwrap_or_default()
            ));
            continue;
        };
        let grade = match unscored(r) {
            Some(why) => {
                out.not_graded.push((r.student.clone(), why));
                String::new()
            }
            None => super::total_cell(class, r, &mut out),
        };
        // A team's grade goes to each of its students (000:23, "*both* players will get the same").
        for s in &who {
            sheet.row(identity(s).into_iter().chain([grade.clone()]));
        }
    }
    for s in class.missing() {
        sheet.row(identity(s).into_iter().chain([String::new()]));
    }
    out.files
        .push((PathBuf::new(), sheet.finish().into_bytes()));
    out
}

/// The assignment's points possible: every row's maximum (each track's); when tracks differ, the
/// largest, said in a note (Canvas has one maximum per column).
fn points_possible(class: &Class, out: &mut Export) -> f64 {
    let maxima: Vec<f64> = class.results.iter().map(|r| r.out_of()).collect();
    let most = maxima.iter().copied().fold(0.0, f64::max);
    if maxima.iter().any(|m| (m - most).abs() > 1e-9) {
        out.notes.push(format!(
            "rows are out of different maxima (tracks); Canvas has one `Points Possible`, written as the largest, {}",
            points(most)
        ));
    }
    if maxima.is_empty() {
        class.columns().max()
    } else {
        most
    }
}

/// A student's five identity cells, made safe for a spreadsheet: `ID` is the LMS's own user id.
fn identity(s: &Student) -> [String; 5] {
    let cell = |v: &Option<String>| v.as_deref().map(text).unwrap_or_default();
    [
        text(s.name.as_deref().unwrap_or(&s.folder)),
        cell(&s.lms_id),
        cell(&s.id),
        cell(&s.login),
        cell(&s.section),
    ]
}
