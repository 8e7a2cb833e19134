//! grades.csv: one row per student, one column per group (blank where the group was not attempted;
//! `pass`/`fail` or a share like `75%` for a group worth 0 points), the class tournament's `tournament`
//! column when `grader run` plays one, the `[[manual]]` columns (the points a person gave in
//! `grader review`, blank until then), then the total (groups, tournament and manual marks; blank,
//! with `total-note` saying `incomplete: …`, while manual marks are still to give). Two columns appear
//! only when a row needs them: `not-graded` (why the machine could not grade it), `review` (a case the
//! grader could not follow: the total waits for a person) and `tournament-note` (why a tournament cell
//! is blank). Under a course file (`course.toml`), just before `total`: its students
//! (`members`), `section` and `track` when any row has them, its own maximum (`max`), how late it was
//! (`late-hours`) and what that took off (`late-deduction`) when a due date is set; and at the end
//! `total-note` when a total is left blank for a person to decide (a late hand-in with no time, no track;
//! with or without a course file, a row whose manual marks are still to give).

use super::result::SubmissionResult;
use super::{group_cell, points, Columns};

/// The gradebook for one suite. `columns` fixes the column order; rows are sorted by student.
pub fn gradebook<'a>(
    columns: &Columns,
    results: impl IntoIterator<Item = &'a SubmissionResult>,
) -> String {
    let mut rows: Vec<&SubmissionResult> = results.into_iter().collect();
    rows.sort_by(|a, b| a.student.cmp(&b.student));
    let mut header = vec!["student".to_string()];
    let policy = Policy::of(columns, &rows);
    let names = columns.groups.iter().map(|(g, _)| g.as_str());
    let tournament = columns.tournament.is_some().then_some("tournament");
    let manual = columns.manual.iter().map(|(m, _)| m.as_str());
    header.extend(names.chain(tournament).chain(manual).map(text));
    // The course's columns go just before `total`, which stays the row's last number.
    header.extend(policy.leading());
    header.push("total".into());
    // Only when some row needs them, so every graded class keeps its columns.
    let not_graded = rows.iter().any(|r| r.not_graded().is_some());
    if not_graded {
        header.push("not-graded".into());
    }
    // A case the grader could not follow: its group and the total are blank until a person looks.
    let review = rows.iter().any(|r| r.needs_review().is_some());
    if review {
        header.push("review".into());
    }
    let note = |r: &SubmissionResult| -> Option<String> {
        let t = r.tournament.as_ref()?;
        t.marks.is_none().then(|| t.reason.clone())
    };
    let notes = columns.tournament.is_some() && rows.iter().any(|r| note(r).is_some());
    if notes {
        header.push("tournament-note".into());
    }
    header.extend(policy.trailing());
    // Likewise: the integrity check's notes for the instructor (`grade::integrity`), never a score.
    let flagged = rows.iter().any(|r| !r.integrity.is_empty());
    if flagged {
        header.push("integrity".into());
    }
    let mut sheet = Sheet::new();
    sheet.row(header);
    for r in rows {
        let mut row = vec![text(&r.student)];
        for (g, _) in &columns.groups {
            let reviewed = |g: &str| r.cases.iter().any(|c| c.group == g && c.waits_for_review());
            row.push(if r.not_graded().is_some() || reviewed(g) {
                String::new()
            } else {
                match r.groups.iter().find(|s| &s.name == g) {
                    Some(score) => group_cell(r, score),
                    // Not attempted (no program for the group) stays blank: it is not a zero.
                    None if r.not_attempted.iter().any(|n| &n.group == g) => String::new(),
                    None => "0".into(),
                }
            });
        }
        if columns.tournament.is_some() {
            // Blank until the tournament is played, and where it gave no mark (`tournament-note`).
            let marks = r.tournament.as_ref().and_then(|t| t.marks);
            row.push(marks.map(points).unwrap_or_default());
        }
        row.extend(columns.manual.iter().map(|(m, _)| manual_cell(r, m)));
        row.extend(policy.leading_cells(r));
        match r.not_graded() {
            // The machine's fault: no total, and why (never a zero).
            Some(why) => {
                row.push(String::new());
                row.push(text(why.lines().next().unwrap_or_default()));
            }
            None => {
                row.push(r.total().map(points).unwrap_or_default());
                if not_graded {
                    row.push(String::new());
                }
            }
        }
        if review {
            let why = r.needs_review().unwrap_or_default();
            row.push(text(&crate::untrusted::one_line(&why, 300)));
        }
        if notes {
            row.push(note(r).map(|why| text(&why)).unwrap_or_default());
        }
        row.extend(policy.trailing_cells(r));
        if flagged {
            row.push(text(&integrity_cell(r)));
        }
        sheet.row(row);
    }
    sheet.finish()
}

/// The course's columns of a gradebook: which appear (only those some row needs) and each row's cells.
struct Policy {
    on: bool,
    members: bool,
    section: bool,
    track: bool,
    late: bool,
    note: bool,
}

impl Policy {
    fn of(columns: &Columns, rows: &[&SubmissionResult]) -> Policy {
        let any = |f: &dyn Fn(&crate::course::grade::Grade) -> bool| {
            columns.course && rows.iter().any(|r| r.course.as_ref().is_some_and(f))
        };
        Policy {
            on: columns.course,
            members: any(&|g| !g.members.is_empty()),
            section: any(&|g| g.section.is_some()),
            track: any(&|g| g.track.is_some()),
            late: any(&|g| g.due.is_some()),
            // A row still waiting for manual marks says so, with or without a course file.
            note: any(&|g| g.blank.is_some())
                || rows
                    .iter()
                    .any(|r| r.course.as_ref().is_some_and(|g| g.incomplete.is_some())),
        }
    }

    /// The columns just before `total`.
    fn leading(&self) -> Vec<String> {
        let names = [
            ("members", self.members),
            ("section", self.section),
            ("track", self.track),
            ("max", self.on),
            ("late-hours", self.late),
            ("late-deduction", self.late),
        ];
        names
            .iter()
            .filter(|(_, on)| *on)
            .map(|(n, _)| (*n).to_string())
            .collect()
    }

    /// The column after the others' notes.
    fn trailing(&self) -> Vec<String> {
        if self.note {
            vec!["total-note".to_string()]
        } else {
            Vec::new()
        }
    }

    fn leading_cells(&self, r: &SubmissionResult) -> Vec<String> {
        let g = r.course.clone().unwrap_or_default();
        let mut cells = Vec::new();
        if self.members {
            let names: Vec<String> = g
                .members
                .iter()
                .map(crate::course::roster::Identity::label)
                .collect();
            cells.push(text(&names.join("; ")));
        }
        if self.section {
            cells.push(text(g.section.as_deref().unwrap_or_default()));
        }
        if self.track {
            cells.push(text(g.track.as_deref().unwrap_or_default()));
        }
        if self.on {
            cells.push(points(r.out_of()));
        }
        if self.late {
            let late = g.late.as_ref();
            cells.push(late.map(|l| points(l.hours())).unwrap_or_default());
            cells.push(late.map(|l| points(l.deduction)).unwrap_or_default());
        }
        cells
    }

    fn trailing_cells(&self, r: &SubmissionResult) -> Vec<String> {
        if !self.note {
            return Vec::new();
        }
        let why = r
            .course
            .as_ref()
            .and_then(|g| g.blank.as_deref())
            .filter(|_| r.not_graded().is_none());
        vec![text(why.and_then(|w| w.lines().next()).unwrap_or_default())]
    }
}

/// A manual group's cell: the points a person gave (blank until then, or while they cannot count).
#[must_use]
pub fn manual_cell(r: &SubmissionResult, group: &str) -> String {
    r.course
        .iter()
        .flat_map(|g| &g.manual)
        .find(|m| m.name == group)
        .and_then(|m| m.points)
        .map(points)
        .unwrap_or_default()
}

/// `plain/handout-example: run again with …; …`: every note of one submission, in one cell.
pub fn integrity_cell(r: &SubmissionResult) -> String {
    let notes: Vec<String> = r
        .integrity
        .iter()
        .map(|n| format!("{}: {}", n.case, n.what))
        .collect();
    notes.join("; ")
}

/// A text cell made safe for a spreadsheet (OWASP "CSV injection"): one starting with `=`, `+`, `-`,
/// `@`, a tab or a carriage return gets a leading `'`, so `=HYPERLINK(…)` stays text. Numbers are
/// written by [`points`], never through here, so a negative number stays a number.
#[must_use]
pub fn text(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    }
}

/// A CSV file being written: RFC 4180 quoting by the `csv` crate (a cell holding `,`, `"`, `\r` or `\n`
/// is quoted, a `"` doubled), `\n` after each row. Cells are written as given: text from a
/// submission goes through [`text`] first.
pub struct Sheet {
    writer: csv::Writer<Vec<u8>>,
}

impl Sheet {
    #[must_use]
    pub fn new() -> Sheet {
        Sheet {
            // Flexible: a row's length is the caller's business, and a writer into memory then never fails.
            writer: csv::WriterBuilder::new()
                .flexible(true)
                .from_writer(Vec::new()),
        }
    }

    pub fn row<S: AsRef<[u8]>>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.writer
            .write_record(cells)
            .expect("a flexible CSV writer into memory cannot fail");
    }

    /// The text written.
    #[must_use]
    pub fn finish(self) -> String {
        let bytes = self
            .writer
            .into_inner()
            .expect("flushing into memory cannot fail");
        String::from_utf8(bytes).expect("every cell was a `str`")
    }
}

impl Default for Sheet {
    fn default() -> Sheet {
        Sheet::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::result::{fixtures, GroupScore};
    use crate::suite::CreditRule;

    fn result(student: &str, plain: f64) -> SubmissionResult {
        let mut r = fixtures::submission(student, Vec::new());
        r.sandbox = crate::sandbox::Tier::Basic;
        r.build.language = Some("c".into());
        r.groups = vec![GroupScore {
            name: "plain".into(),
            credit_rule: CreditRule::Proportional,
            points: Some(plain),
            max: 5.0,
            passed: 0,
            cases: 1,
        }];
        r.score = plain;
        r.max = 5.0;
        r
    }

    fn columns(groups: &[&str]) -> Columns {
        Columns {
            groups: groups.iter().map(|g| ((*g).to_string(), 5.0)).collect(),
            ..Columns::default()
        }
    }

    #[test]
    fn the_tournament_column_is_counted_blank_until_played_and_a_blank_mark_says_why() {
        use crate::report::result::TournamentMark;
        let mark = |marks: Option<f64>, reason: &str| TournamentMark {
            marks,
            max: 40.0,
            bonus: false,
            rank: None,
            entrants: 3,
            standing: None,
            reason: reason.into(),
            cpu_ms: 0,
        };
        let mut cols = columns(&["plain"]);
        cols.tournament = Some((40.0, false));
        cols.manual = vec![("manual".into(), 60.0)];
        let before = gradebook(&cols, &[result("a", 5.0)]);
        assert_eq!(before, "student,plain,tournament,manual,total\na,5,,,5\n");
        let mut a = result("a", 5.0);
        a.score = 43.0;
        a.tournament = Some(mark(Some(38.0), "ranked 2 of 3"));
        let mut b = result("b", 5.0);
        b.tournament = Some(mark(None, "no tournament: boom"));
        assert_eq!(
            gradebook(&cols, &[a, b]),
            "student,plain,tournament,manual,total,tournament-note\n\
             a,5,38,,43,\n\
             b,5,,,5,no tournament: boom\n"
        );
    }

    #[test]
    fn an_integrity_column_only_when_a_row_is_flagged_and_in_the_table_too() {
        let plain = gradebook(&columns(&["plain"]), &[result("a", 5.0)]);
        assert_eq!(plain, "student,plain,total\na,5,5\n");
        let mut flagged = result("b", 5.0);
        flagged
            .integrity
            .push(crate::report::result::IntegrityNote {
                case: "plain/x".into(),
                what: "=wrote, another".into(),
            });
        let results = [result("a", 5.0), flagged];
        let csv = gradebook(&columns(&["plain"]), &results);
        assert_eq!(
            csv,
            "student,plain,total,integrity\na,5,5,\nb,5,5,\"plain/x: =wrote, another\"\n"
        );
        let table = crate::report::table::class_table("T", &columns(&["plain"]), &results);
        assert!(
            table.ends_with("integrity notes (output changed with only the output path; scores unchanged):\n  b  plain/x: =wrote, another\n"),
            "{table}"
        );
    }

    #[test]
    fn a_case_the_grader_could_not_follow_leaves_its_group_and_the_total_blank_with_why() {
        use crate::judge::Verdict;
        let mut puzzled = result("b", 0.0);
        puzzled.groups.push(GroupScore {
            name: "other".into(),
            ..puzzled.groups[0].clone()
        });
        puzzled.groups[1].points = Some(5.0);
        let mut unfollowed = crate::report::result::fixtures::case("plain", Verdict::Review, 0.0);
        unfollowed.summary = "=needs review: the grader could not follow the program".into();
        puzzled.cases = vec![
            unfollowed,
            crate::report::result::fixtures::case("other", Verdict::Accepted, 1.0),
        ];
        puzzled.score = 5.0;
        let cols = columns(&["plain", "other"]);
        let mut a = result("a", 5.0);
        a.groups.push(GroupScore {
            name: "other".into(),
            ..a.groups[0].clone()
        });
        a.score = 10.0;
        let csv = gradebook(&cols, &[a.clone(), puzzled.clone()]);
        assert_eq!(
            csv,
            "student,plain,other,total,review\n\
             a,5,5,10,\n\
             b,,5,,plain/c: =needs review: the grader could not follow the program\n"
        );
        // No review column while no row needs one.
        assert_eq!(
            gradebook(&cols, &[a]),
            "student,plain,other,total
a,5,5,10
"
        );
        let table = crate::report::table::class_table("T", &cols, &[puzzled.clone()]);
        assert!(
            table.contains("b        review    5         review     AC 1, REV 1"),
            "{table}"
        );
        assert!(!table.contains(" 5  REV"), "{table}");
        assert_eq!(
            crate::report::export::unscored(&puzzled).as_deref(),
            Some("needs review: plain/c: =needs review: the grader could not follow the program")
        );
    }

    /// One text cell as a row of the file shows it.
    fn field(cell: &str) -> String {
        let mut sheet = Sheet::new();
        sheet.row([text(cell)]);
        sheet.finish().trim_end_matches('\n').to_string()
    }

    #[test]
    fn formulas_stay_text_and_numbers_stay_numbers() {
        assert_eq!(
            field("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""
        );
        for (cell, want) in [
            ("+1", "'+1"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "\"'\rx\""),
            ("a=b", "a=b"),
        ] {
            assert_eq!(field(cell), want, "{cell:?}");
        }
        let csv = gradebook(&columns(&["plain"]), &[result("=1+1", -2.5)]);
        assert_eq!(csv, "student,plain,total\n'=1+1,-2.5,-2.5\n");
    }

    #[test]
    fn one_row_per_student_sorted_with_quoting() {
        let csv = gradebook(
            &columns(&["plain", "prune"]),
            &[result("zoe", 5.0), result("li, \"al\"", 2.5)],
        );
        assert_eq!(
            csv,
            "student,plain,prune,total\n\"li, \"\"al\"\"\",2.5,0,2.5\nzoe,5,0,5\n"
        );
    }
}
