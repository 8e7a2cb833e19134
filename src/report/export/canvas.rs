//! Canvas: the gradebook import CSV (Canvas's "How do I import grades in the Gradebook?" guide):
//! `Student,ID,SIS User ID,SIS Login ID,Section,<assignment>`, then a `Points Possible` row, then one
//! row per student.

use std::path::PathBuf;

use super::roster::Student;
use super::{machine_fault, Class, Export};
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
            .chain([points(class.columns().max())]),
    );
    for r in &class.results {
        let by_folder = Student {
            folder: r.student.clone(),
            login: Some(r.student.clone()),
            ..Student::default()
        };
        let who = match (&class.roster, class.student(&r.student)) {
            (None, _) => &by_folder,
            (Some(_), Some(s)) => s,
            (Some(roster), None) => {
                out.unmatched.push(format!(
                    "`{}` is not in the roster `{}`: no Canvas identity, so no row",
                    r.student,
                    roster.path.display()
                ));
                continue;
            }
        };
        let grade = match machine_fault(r) {
            Some(why) => {
                out.not_graded.push((r.student.clone(), why));
                String::new()
            }
            None => points(r.score),
        };
        sheet.row(identity(who).into_iter().chain([grade]));
    }
    for s in class.missing() {
        sheet.row(identity(s).into_iter().chain([String::new()]));
    }
    out.files
        .push((PathBuf::new(), sheet.finish().into_bytes()));
    out
}

/// A student's five identity cells, made safe for a spreadsheet.
fn identity(s: &Student) -> [String; 5] {
    let cell = |v: &Option<String>| v.as_deref().map(text).unwrap_or_default();
    [
        text(s.name.as_deref().unwrap_or(&s.folder)),
        String::new(),
        cell(&s.id),
        cell(&s.login),
        cell(&s.section),
    ]
}
