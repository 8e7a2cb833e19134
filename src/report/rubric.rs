//! `review.json` beside a suite's results: what a person's marking needs of the class and `grader run`
//! knows, written by it: the suite's title, its `[[manual]]` groups with their rubric items, and the
//! folder the submissions were graded from (so `grader review RESULTS/SUITE` finds the code). Read back
//! as untrusted input: capped, no link followed, every value checked.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::suite::Manual;

/// The file's name, beside `grades.csv`.
pub const REVIEW_FILE: &str = "review.json";
/// The most bytes read.
const CAP: u64 = 4 << 20;

/// The class as `grader review` needs it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ClassRubric {
    pub suite: String,
    pub title: String,
    /// The submissions folder graded (absolute), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submissions: Option<PathBuf>,
    pub manual: Vec<Manual>,
    /// The gradebook's columns as `grader run` wrote them (so `grader report` and `grader review`
    /// write the same grades.csv).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub columns: Option<super::Columns>,
}

impl ClassRubric {
    /// The manual group named `name`.
    #[must_use]
    pub fn group(&self, name: &str) -> Option<&Manual> {
        self.manual.iter().find(|m| m.name == name)
    }
}

/// Writes `rubric` into the results folder `dir`, atomically.
///
/// # Errors
/// The file cannot be written.
pub fn write(dir: &Path, rubric: &ClassRubric) -> std::io::Result<()> {
    let mut json = serde_json::to_string_pretty(rubric).unwrap_or_default();
    json.push('\n');
    super::write_atomic(&dir.join(REVIEW_FILE), json.as_bytes())
}

/// Reads the results folder `dir`'s rubric; `None` when there is none (results of an older grader).
///
/// # Errors
/// The file cannot be read, is not a rubric, or holds values out of bounds (named).
pub fn read(dir: &Path) -> Result<Option<ClassRubric>, String> {
    let shown = dir.join(REVIEW_FILE);
    if std::fs::symlink_metadata(&shown).is_err() {
        return Ok(None);
    }
    let bad = |why: String| format!("`{}`: {why}", shown.display());
    let read = crate::untrusted::read_output(dir, Path::new(REVIEW_FILE), CAP)
        .map_err(|e| bad(e.to_string()))?;
    if read.truncated {
        return Err(bad(format!("larger than {CAP} bytes")));
    }
    let rubric: ClassRubric =
        serde_json::from_slice(&read.bytes).map_err(|e| bad(e.to_string()))?;
    check(&rubric).map_err(bad)?;
    Ok(Some(rubric))
}

/// The bounds a suite's loader holds `[[manual]]` to, held again on the file read back.
fn check(r: &ClassRubric) -> Result<(), String> {
    let name_ok = |n: &str| {
        !n.is_empty() && n.len() <= 255 && !n.contains('/') && !n.chars().any(char::is_control)
    };
    if !name_ok(&r.suite) {
        return Err("not a suite's name".into());
    }
    if r.manual.len() > 100 {
        return Err("more than 100 manual groups".into());
    }
    for m in &r.manual {
        let finite = |p: f64| p.is_finite() && p.abs() <= 1e6;
        if !name_ok(&m.name) || !finite(m.points) || m.points < 0.0 {
            return Err(format!(
                "manual group `{}` is not one a suite can have",
                crate::untrusted::one_line(&m.name, 80)
            ));
        }
        if m.items.len() > crate::suite::MAX_RUBRIC_ITEMS
            || m.items
                .iter()
                .any(|i| !name_ok(&i.name) || !finite(i.points) || i.text.len() > 2000)
        {
            return Err(format!(
                "manual group `{}` has items no suite can have",
                m.name
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rubric_written_reads_back_and_a_bad_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read(dir.path()).unwrap(), None);
        let rubric = ClassRubric {
            suite: "s".into(),
            title: "S".into(),
            submissions: Some("/class".into()),
            manual: vec![Manual {
                name: "effort".into(),
                title: "Effort".into(),
                points: 15.0,
                scoring: crate::suite::Scoring::Positive,
                items: Vec::new(),
            }],
            columns: None,
        };
        write(dir.path(), &rubric).unwrap();
        assert_eq!(read(dir.path()).unwrap(), Some(rubric));
        std::fs::write(
            dir.path().join(REVIEW_FILE),
            r#"{"suite":"s","title":"","manual":[{"name":"x","title":"","points":-1}]}"#,
        )
        .unwrap();
        let got = read(dir.path()).unwrap_err();
        assert!(
            got.ends_with("review.json`: manual group `x` is not one a suite can have"),
            "{got}"
        );
    }
}
