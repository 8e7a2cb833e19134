//! The terminal summary table of a graded class (laid out by `grid`).

use std::collections::BTreeMap;

use super::grid::{Column, Grid};
use super::result::SubmissionResult;
use super::{group_cell, points, Columns};

/// `student`, each group (`plain /5`), the tournament (`tournament +40`) and each manual column.
fn group_headings(columns: &Columns) -> Vec<String> {
    let mut header: Vec<String> = vec!["student".into()];
    header.extend(columns.groups.iter().map(|(g, m)| {
        if *m > 0.0 {
            format!("{g} /{}", points(*m))
        } else {
            g.clone()
        }
    }));
    if let Some((most, bonus)) = columns.tournament {
        let sign = if bonus { "+" } else { "/" };
        header.push(format!("tournament {sign}{}", points(most)));
    }
    header.extend(
        columns
            .manual
            .iter()
            .map(|(m, p)| format!("{m} /{} (manual)", points(*p))),
    );
    header
}

/// A plain-text table: one row per student, one column per group (points out of the group's, or
/// `pass`/`fail`/a share for a group worth 0: never `x/0`), the tournament's marks when one was played,
/// the manual columns (the points given, `-` until then), the total and what went wrong.
pub fn class_table(title: &str, columns: &Columns, results: &[SubmissionResult]) -> String {
    let mut header = group_headings(columns);
    // Under a course file each row has its own maximum: one in the header when all agree, else each
    // total says its own (`7.5/15`).
    let maxima: Vec<f64> = results.iter().map(SubmissionResult::out_of).collect();
    let same = maxima.windows(2).all(|w| (w[0] - w[1]).abs() < 1e-9);
    let most = if columns.course {
        maxima.first().copied().unwrap_or(columns.max())
    } else {
        columns.max()
    };
    let own = columns.course && !same;
    header.push(if own {
        "total".to_string()
    } else {
        format!("total /{}", points(most))
    });
    let late = columns.course
        && results
            .iter()
            .any(|r| r.course.as_ref().is_some_and(|g| g.late.is_some()));
    if late {
        header.push("late".into());
    }
    header.push("verdicts".into());
    let headings: Vec<Column<'_>> = header.iter().map(|h| Column::left(h)).collect();
    let mut grid = Grid::new(&headings);
    let mut sorted: Vec<&SubmissionResult> = results.iter().collect();
    sorted.sort_by(|a, b| a.student.cmp(&b.student));
    for r in sorted {
        grid.row(student_row(r, columns, own, late));
    }
    let flagged: Vec<&SubmissionResult> =
        results.iter().filter(|r| !r.integrity.is_empty()).collect();
    let mut out = format!("{title}\n");
    out.push_str(&grid.render(true));
    let incomplete = results
        .iter()
        .filter(|r| r.course.as_ref().is_some_and(|g| g.incomplete.is_some()))
        .count();
    if incomplete > 0 {
        // A person's marks still to give: said, never a total that looks complete.
        out.push_str(&format!(
            "{incomplete} of {} incomplete: manual marks still to give (`grader review RESULTS/SUITE`)\n",
            results.len()
        ));
    }
    if !flagged.is_empty() {
        // For the instructor, who decides: the score above is unchanged (`grade::integrity`).
        out.push_str(
            "integrity notes (output changed with only the output path; scores unchanged):\n",
        );
        let mut flagged = flagged;
        flagged.sort_by(|a, b| a.student.cmp(&b.student));
        for r in flagged {
            for n in &r.integrity {
                out.push_str(&format!(
                    "  {}  {}: {}\n",
                    crate::untrusted::one_line(&r.student, 80),
                    n.case,
                    crate::untrusted::one_line(&n.what, 300)
                ));
            }
        }
    }
    out
}

/// One student's row of [`class_table`]: each group's cell, the tournament's marks, the manual
/// columns, the total (`own`: with its own maximum), the late deduction (`late`), the verdicts.
fn student_row(r: &SubmissionResult, columns: &Columns, own: bool, late: bool) -> Vec<String> {
    // Student keys are escaped already (`grade::class::student_key`); the cap keeps a column sane.
    let mut row = vec![crate::untrusted::one_line(&r.student, 80)];
    for (g, _) in &columns.groups {
        row.push(
            r.groups
                .iter()
                .find(|s| &s.name == g)
                .map_or("-".into(), |s| {
                    let waits = r
                        .cases
                        .iter()
                        .any(|c| c.group == *g && c.waits_for_review());
                    if waits {
                        "review".into()
                    } else if s.points.is_some() {
                        group_cell(r, s)
                    } else {
                        "-".into()
                    }
                }),
        );
    }
    if columns.tournament.is_some() {
        row.push(
            r.tournament
                .as_ref()
                .and_then(|t| t.marks)
                .map_or("-".into(), points),
        );
    }
    row.extend(columns.manual.iter().map(|(m, _)| {
        let cell = super::csv::manual_cell(r, m);
        if cell.is_empty() {
            "-".into()
        } else {
            cell
        }
    }));
    // A case the grader could not follow: the total waits for a person (grades.csv says why).
    let total = if r.needs_review().is_some() {
        "review".into()
    } else {
        r.total().map_or("-".into(), points)
    };
    row.push(if own {
        format!("{total}/{}", points(r.out_of()))
    } else {
        total
    });
    if late {
        let l = r.course.as_ref().and_then(|g| g.late.as_ref());
        row.push(l.map_or(String::new(), |l| {
            format!("-{} ({}h)", points(l.deduction), points(l.hours()))
        }));
    }
    row.push(verdict_counts(r));
    row
}

/// `AC 20` or `AC 17, WA 2, TLE 1`, plus the variant when one was recognised.
pub fn verdict_counts(r: &SubmissionResult) -> String {
    let mut counts: BTreeMap<(u8, &str), usize> = BTreeMap::new();
    for c in &r.cases {
        // Accepted first, then the rest in precedence order.
        let rank = if c.verdict == crate::judge::Verdict::Accepted {
            0
        } else {
            1 + c.verdict as u8
        };
        *counts.entry((rank, c.verdict.code())).or_default() += 1;
    }
    let mut text: Vec<String> = counts
        .iter()
        .map(|((_, code), n)| format!("{code} {n}"))
        .collect();
    let mut variants: Vec<&str> = r
        .cases
        .iter()
        .filter_map(|c| c.variant.as_deref())
        .collect();
    variants.dedup();
    if !variants.is_empty() {
        text.push(format!("variant {}", variants.join("/")));
    }
    if text.is_empty() {
        return r.build.status.as_str().to_string();
    }
    text.join(", ")
}
