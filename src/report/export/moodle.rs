//! Moodle: a grade import CSV (Moodle docs, "Import grades", CSV file): a header row, one column
//! identifying the user (`username`, `email` or `idnumber`, mapped in "Identify user by"), one grade
//! column named as the assignment and a `feedback` column (mapped to the assignment's feedback).

use std::path::PathBuf;

use super::roster::Student;
use super::{unscored, Class, Export};
use crate::report::csv::{text, Sheet};
use crate::report::points;
use crate::report::result::SubmissionResult;

/// Which of a user's fields Moodle matches the rows on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Identity {
    /// The roster's `login`.
    Username,
    /// The roster's `email`.
    Email,
    /// The roster's `id`.
    Idnumber,
}

impl Identity {
    fn column(self) -> &'static str {
        match self {
            Identity::Username => "username",
            Identity::Email => "email",
            Identity::Idnumber => "idnumber",
        }
    }

    fn of(self, s: &Student) -> Option<&str> {
        match self {
            Identity::Username => s.login.as_deref(),
            Identity::Email => s.email.as_deref(),
            Identity::Idnumber => s.id.as_deref(),
        }
        .filter(|v| !v.is_empty())
    }
}

/// The import file. Without a roster the identity is the folder name. With one, a result whose
/// student the roster does not list, or lists without that identity, is `unmatched` (no row, a failed
/// export). A student the machine could not grade has an empty grade and the reason as feedback, never
/// a zero; a roster student with no result has an empty grade and says so.
#[must_use]
pub fn export(class: &Class, identity: Identity, assignment: &str) -> Export {
    let mut out = Export {
        notes: class.roster_notes(true),
        ..Export::default()
    };
    let mut sheet = Sheet::new();
    sheet.row([
        identity.column().to_string(),
        text(assignment),
        "feedback".into(),
    ]);
    for r in &class.results {
        let who: Vec<String> = super::members(class, r)
            .unwrap_or_default()
            .iter()
            .filter_map(|s| {
                // Without a roster a student named by the LMS alone may lack the field: its folder.
                identity
                    .of(s)
                    .map(str::to_string)
                    .or_else(|| class.roster.is_none().then(|| s.folder.clone()))
            })
            .collect();
        if who.is_empty() {
            let roster = class.roster.as_ref().map(|r| r.path.display().to_string());
            out.unmatched.push(format!(
                "`{}` has no `{}` in the roster `{}`: no row",
                r.student,
                identity.column(),
                roster.unwrap_or_default()
            ));
            continue;
        }
        let (grade, note) = match unscored(r) {
            Some(why) => {
                out.not_graded.push((r.student.clone(), why.clone()));
                (
                    String::new(),
                    format!("{why} (not the student's fault; regrade)"),
                )
            }
            None => (super::total_cell(class, r, &mut out), feedback(r)),
        };
        // Each member of a team gets the team's grade and feedback.
        for w in who {
            sheet.row([text(&w), grade.clone(), text(&note)]);
        }
    }
    for s in class.missing() {
        if let Some(who) = identity.of(s) {
            sheet.row([text(who), String::new(), "no hand-in was graded".into()]);
        }
    }
    out.files
        .push((PathBuf::new(), sheet.finish().into_bytes()));
    out
}

/// One line: the score, then each case that did not earn full credit and why.
fn feedback(r: &SubmissionResult) -> String {
    let total = r.total().map_or("no total yet".into(), points);
    let mut parts = vec![format!("{total}/{} points", points(r.out_of()))];
    if let Some(g) = &r.course {
        // Why the mark is what it is: lateness (a capped maximum), scaling, a blank total.
        if let Some(l) = &g.late {
            parts.push(format!(
                "{}: {} earned, {} kept",
                l.why,
                points(g.earned.unwrap_or(0.0)),
                total
            ));
        }
        if let Some(why) = &g.blank {
            parts.push(why.lines().next().unwrap_or_default().to_string());
        }
        parts.extend(g.notes.iter().cloned());
    }
    for c in r.failures() {
        parts.push(format!(
            "{}: {}",
            super::case_name(c),
            crate::untrusted::one_line(&c.summary, 200)
        ));
    }
    if let Some(t) = &r.tournament {
        parts.push(format!(
            "tournament: {}",
            crate::untrusted::one_line(&t.reason, 300)
        ));
    }
    let line = parts.join("; ");
    crate::untrusted::one_line(&line, 4000)
}
