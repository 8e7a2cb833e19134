//! A person's part of the grade: what TAs give by hand, kept as data beside a suite's results. Each
//! `[[manual]]` group's rubric items ticked (with an adjustment and a comment), and each `review` case
//! settled (a credit and a reason), every one stamped with who gave it and when; one file per suite,
//! `manual.toml` ([`file`]), merged from several TAs' files with conflicts named ([`merge`]),
//! importable from a spreadsheet ([`import`]). [`score`] turns a group's mark into points under its
//! rubric (pure); the course's grade (`course::grade`) adds them to the row's total.
//!
//! Nothing here knows of results or reports: the marks go in, numbers and sentences come out.

pub mod file;
pub mod import;
pub mod merge;
pub mod score;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The marks file's name, beside a suite's results (`results/<suite>/manual.toml`).
pub const MANUAL_FILE: &str = "manual.toml";

/// Every mark a class has been given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    /// The suite the marks are for (a file of another suite is refused).
    pub suite: String,
    /// By student folder.
    pub students: BTreeMap<String, StudentMarks>,
}

/// One student's (or team's) marks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StudentMarks {
    /// The fingerprint of the code as it was when last marked (`grade::fingerprint::code`): a
    /// regrade of other code flags the marks for a person to check again.
    pub code: Option<String>,
    /// By manual group.
    pub groups: BTreeMap<String, GroupMark>,
    /// By case, `group/case`.
    pub review: BTreeMap<String, Settlement>,
}

/// Who gave a mark, and when.
#[derive(Clone, Debug, PartialEq)]
pub struct Stamp {
    pub by: String,
    pub at: jiff::Timestamp,
}

/// A manual group's mark: its rubric items ticked, an adjustment and a comment; or, from a
/// spreadsheet, its points given whole.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupMark {
    pub items: Vec<String>,
    /// Points added (or, negative, taken off) beyond the items, as Gradescope's point adjustment.
    pub adjust: f64,
    pub comment: String,
    /// Points given whole (a CSV import): the items and the adjustment are then not counted.
    pub points: Option<f64>,
    pub stamp: Stamp,
}

impl GroupMark {
    /// Whether two marks say the same (who and when aside).
    #[must_use]
    pub fn same(&self, other: &GroupMark) -> bool {
        let mut a = self.items.clone();
        let mut b = other.items.clone();
        a.sort();
        b.sort();
        a == b
            && self.adjust == other.adjust
            && self.comment.trim() == other.comment.trim()
            && self.points == other.points
    }

    /// The mark in a few words, for a conflict: `45 (minimax, pruning; +5) by ta1 at …`.
    #[must_use]
    pub fn describe(&self) -> String {
        let mut what = match self.points {
            Some(p) => format!("{} whole", crate::units::points(p)),
            None if self.items.is_empty() => "no items".to_string(),
            None => format!("items {}", self.items.join(", ")),
        };
        if self.adjust != 0.0 {
            what.push_str(&format!(
                ", adjusted {}{}",
                if self.adjust > 0.0 { "+" } else { "" },
                crate::units::points(self.adjust)
            ));
        }
        format!("{what} by {} at {}", self.stamp.by, self.stamp.at)
    }
}

/// A `review` case settled by a person: the credit the case earns (0 to 1) and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Settlement {
    pub credit: f64,
    pub reason: String,
    pub stamp: Stamp,
}

impl Settlement {
    /// `credit 0.5 ("…") by ta1 at …`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "credit {} ({:?}) by {} at {}",
            crate::units::points(self.credit),
            crate::untrusted::one_line(&self.reason, 80),
            self.stamp.by,
            self.stamp.at
        )
    }
}

/// A manual group's part of one row's grade, as the course's grade shows it: the points given (none
/// yet, or none that count), by whom, and why not when not.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ManualGrade {
    pub name: String,
    pub max: f64,
    /// Null until a person gives them (or while they cannot count: `missing` says why).
    pub points: Option<f64>,
    /// The rubric items ticked: their text and points.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<(String, f64)>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub adjust: f64,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// Why the points do not count yet (`not marked`, an item the rubric no longer has).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
    /// The code changed since the mark was given: the points are shown but a person must check them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stale: Option<String>,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// A class's marks with what scoring them needs: the rubric and each student's code fingerprint now.
#[derive(Clone, Debug, Default)]
pub struct ClassMarks {
    pub marks: Marks,
    /// The suite's `[[manual]]` groups.
    pub rubric: Vec<crate::suite::Manual>,
    /// Each student's code fingerprint as graded now (`code.sha256` beside its result), by folder.
    pub code: std::collections::HashMap<String, String>,
}

impl ClassMarks {
    /// The `review` cases settled for `student`, by `group/case`.
    #[must_use]
    pub fn settlements(&self, student: &str) -> BTreeMap<String, Settlement> {
        self.marks
            .students
            .get(student)
            .map(|s| s.review.clone())
            .unwrap_or_default()
    }

    /// Each manual group's grade for `student`, in the rubric's order.
    #[must_use]
    pub fn grades(&self, student: &str) -> Vec<ManualGrade> {
        let marks = self.marks.students.get(student);
        let code = self.code.get(student).map(String::as_str);
        self.rubric
            .iter()
            .map(|g| score::grade(g, marks, code))
            .collect()
    }
}

/// A name a person gives (`--by`, `$USER`): one line, at most 100 characters, not empty.
///
/// # Errors
/// Why the name cannot be used.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("an empty name".into());
    }
    if name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(format!(
            "`{}` is not a name (one line, at most 100 characters)",
            crate::untrusted::one_line(name, 100)
        ));
    }
    Ok(name.to_string())
}
