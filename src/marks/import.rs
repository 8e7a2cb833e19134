//! Marks from a spreadsheet, for TAs who prefer one: a CSV with a `student` column, then for each
//! manual group any of `<group>` (its points, given whole), `<group>-items` (rubric items ticked,
//! separated by `;`), `<group>-comment`, and optionally `by` (who marked the row). A blank cell gives
//! nothing. Read as untrusted input: capped, every cell checked, each error naming the file, line and
//! column; nothing is imported from a file with an error.

use std::path::Path;

use super::{check_name, GroupMark, Marks, Stamp};
use crate::suite::Manual;

/// The most bytes of a CSV read.
const CAP: u64 = 16 << 20;

/// The rubric a spreadsheet's marks are checked against: the suite and its manual groups.
pub struct Rubric<'a> {
    pub suite: &'a str,
    pub groups: &'a [Manual],
}

impl Rubric<'_> {
    fn group(&self, name: &str) -> Option<&Manual> {
        self.groups.iter().find(|m| m.name == name)
    }
}

/// What one header column holds.
enum Column {
    Student,
    By,
    Points(String),
    Items(String),
    Comment(String),
}

/// The marks in the CSV at `path`, for the `students` of a class graded with `rubric`, stamped `by`
/// (unless a row names its own) at `at`.
///
/// # Errors
/// The file cannot be read, or a header, student, number or item is wrong: named with file, line and
/// column.
pub fn read(
    path: &Path,
    rubric: &Rubric<'_>,
    students: &[String],
    by: &str,
    at: jiff::Timestamp,
) -> Result<Marks, String> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().map_or(path, Path::new);
    let read = crate::untrusted::read_output(dir, name, CAP)
        .map_err(|e| format!("`{}`: {e}", path.display()))?;
    if read.truncated {
        return Err(format!("`{}`: larger than {CAP} bytes", path.display()));
    }
    parse(path, &read.bytes, rubric, students, by, at)
}

/// As [`read`], from the file's bytes.
///
/// # Errors
/// As [`read`].
pub fn parse(
    path: &Path,
    bytes: &[u8],
    rubric: &Rubric<'_>,
    students: &[String],
    by: &str,
    at: jiff::Timestamp,
) -> Result<Marks, String> {
    let shown = path.display();
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(bytes);
    let header = reader
        .headers()
        .map_err(|e| format!("`{shown}`: {e}"))?
        .clone();
    let columns = header
        .iter()
        .enumerate()
        .map(|(k, h)| {
            column(h.trim(), rubric).map_err(|e| format!("`{shown}`:1: column {}: {e}", k + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if !columns.iter().any(|c| matches!(c, Column::Student)) {
        return Err(format!("`{shown}`:1: no `student` column\nhint: the first row names the columns: `student`, then each manual group's points (`{}`) or items (`{0}-items`)", rubric.groups.first().map_or("group", |m| m.name.as_str())));
    }
    let mut marks = Marks {
        suite: rubric.suite.to_string(),
        ..Marks::default()
    };
    for record in reader.records() {
        let record = record.map_err(|e| format!("`{shown}`: {e}"))?;
        let line = record.position().map_or(0, csv::Position::line);
        row(&record, &columns, rubric, students, by, at, &mut marks)
            .map_err(|e| format!("`{shown}`:{line}: {e}"))?;
    }
    Ok(marks)
}

fn column(h: &str, rubric: &Rubric<'_>) -> Result<Column, String> {
    if h == "student" {
        return Ok(Column::Student);
    }
    if h == "by" {
        return Ok(Column::By);
    }
    let known = |g: &str| rubric.group(g).is_some();
    if let Some(g) = h.strip_suffix("-items").filter(|g| known(g)) {
        return Ok(Column::Items(g.to_string()));
    }
    if let Some(g) = h.strip_suffix("-comment").filter(|g| known(g)) {
        return Ok(Column::Comment(g.to_string()));
    }
    if known(h) {
        return Ok(Column::Points(h.to_string()));
    }
    let groups: Vec<&str> = rubric.groups.iter().map(|m| m.name.as_str()).collect();
    Err(format!(
        "`{}` is not a column a marks file has\nhint: `student`, `by`, and for each manual group ({}) `<group>`, `<group>-items`, `<group>-comment`",
        crate::untrusted::one_line(h, 60),
        groups.join(", ")
    ))
}

/// One row's marks into `marks`.
fn row(
    record: &csv::StringRecord,
    columns: &[Column],
    rubric: &Rubric<'_>,
    students: &[String],
    by: &str,
    at: jiff::Timestamp,
    marks: &mut Marks,
) -> Result<(), String> {
    let cell = |want: &dyn Fn(&Column) -> bool| {
        columns
            .iter()
            .position(want)
            .and_then(|k| record.get(k))
            .map(str::trim)
            .unwrap_or_default()
    };
    let student = cell(&|c| matches!(c, Column::Student));
    if !students.iter().any(|s| s == student) {
        return Err(format!(
            "`{}` has no result in this class\nhint: the `student` column holds the results' folder names",
            crate::untrusted::one_line(student, 80)
        ));
    }
    let who = match cell(&|c| matches!(c, Column::By)) {
        "" => by.to_string(),
        named => check_name(named)?,
    };
    for group in rubric.groups {
        let g = group.name.as_str();
        let points = cell(&|c| matches!(c, Column::Points(n) if n == g));
        let items = cell(&|c| matches!(c, Column::Items(n) if n == g));
        let comment = cell(&|c| matches!(c, Column::Comment(n) if n == g));
        if points.is_empty() && items.is_empty() {
            if !comment.is_empty() {
                return Err(format!("`{g}-comment` without points or items for `{g}`"));
            }
            continue;
        }
        let mark = mark(
            group,
            points,
            items,
            comment,
            Stamp {
                by: who.clone(),
                at,
            },
        )?;
        marks
            .students
            .entry(student.to_string())
            .or_default()
            .groups
            .insert(g.to_string(), mark);
    }
    Ok(())
}

fn mark(
    group: &crate::suite::Manual,
    points: &str,
    items: &str,
    comment: &str,
    stamp: Stamp,
) -> Result<GroupMark, String> {
    let g = &group.name;
    let points = match points {
        "" => None,
        p => {
            let v: f64 = p.parse().map_err(|_| {
                format!(
                    "`{g}`: `{}` is not a number",
                    crate::untrusted::one_line(p, 40)
                )
            })?;
            if !(v.is_finite() && (0.0..=group.points).contains(&v)) {
                return Err(format!(
                    "`{g}`: {p} is outside 0 to {}",
                    crate::units::points(group.points)
                ));
            }
            Some(v)
        }
    };
    let mut ticked = Vec::new();
    for name in items.split(';').map(str::trim).filter(|n| !n.is_empty()) {
        if !group.items.iter().any(|i| i.name == name) {
            let names: Vec<&str> = group.items.iter().map(|i| i.name.as_str()).collect();
            return Err(format!(
                "`{g}-items`: no item `{}` in the rubric\nhint: its items are {}",
                crate::untrusted::one_line(name, 60),
                names.join(", ")
            ));
        }
        ticked.push(name.to_string());
    }
    if points.is_some() && !ticked.is_empty() {
        return Err(format!("`{g}` has both points and items: give one"));
    }
    if comment.chars().count() > super::file::TEXT_CAP {
        return Err(format!(
            "`{g}-comment` is longer than {} characters",
            super::file::TEXT_CAP
        ));
    }
    Ok(GroupMark {
        items: ticked,
        adjust: 0.0,
        comment: comment.to_string(),
        points,
        stamp,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::{RubricItem, Scoring};

    fn groups() -> Vec<Manual> {
        ["structure", "docs"]
            .iter()
            .map(|n| Manual {
                name: (*n).into(),
                title: String::new(),
                points: 10.0,
                scoring: Scoring::Positive,
                items: vec![RubricItem {
                    name: "overview".into(),
                    text: "An overview".into(),
                    points: 4.0,
                }],
            })
            .collect()
    }

    fn parse_text(text: &str) -> Result<Marks, String> {
        let students = vec!["ann".to_string(), "bo".to_string()];
        parse(
            Path::new("marks.csv"),
            text.as_bytes(),
            &Rubric {
                suite: "oska",
                groups: &groups(),
            },
            &students,
            "ta1",
            "2026-11-26T14:00:00Z".parse().unwrap(),
        )
    }

    #[test]
    fn a_spreadsheet_gives_points_items_and_comments() {
        let m = parse_text("student,structure,docs-items,docs-comment,by\nann,7.5,overview,\"=ok, \"\"good\"\"\",ta2\nbo,,,,\n").unwrap();
        let ann = &m.students["ann"];
        assert_eq!(ann.groups["structure"].points, Some(7.5));
        assert_eq!(ann.groups["docs"].items, ["overview"]);
        assert_eq!(ann.groups["docs"].comment, "=ok, \"good\"");
        assert_eq!(ann.groups["docs"].stamp.by, "ta2");
        assert!(!m.students.contains_key("bo"));
    }

    #[test]
    fn each_bad_cell_is_named_with_its_line() {
        for (text, want) in [
            (
                "student,structure\ncarl,5\n",
                "`marks.csv`:2: `carl` has no result in this class",
            ),
            (
                "student,structure\nann,11\n",
                "`marks.csv`:2: `structure`: 11 is outside 0 to 10",
            ),
            (
                "student,structure\nann,five\n",
                "`marks.csv`:2: `structure`: `five` is not a number",
            ),
            (
                "student,docs-items\nann,overview;nope\n",
                "`marks.csv`:2: `docs-items`: no item `nope` in the rubric",
            ),
            (
                "student,grade\nann,5\n",
                "`marks.csv`:1: column 2: `grade` is not a column a marks file has",
            ),
            (
                "name,structure\nann,5\n",
                "`marks.csv`:1: column 1: `name` is not a column",
            ),
            (
                "student,structure\nann,5,6\n",
                "`marks.csv`: CSV error: record 1 (line: 2, byte: 18): found record with 3 fields",
            ),
        ] {
            let got = parse_text(text).unwrap_err();
            assert!(got.starts_with(want), "{text}: {got}");
        }
    }
}
