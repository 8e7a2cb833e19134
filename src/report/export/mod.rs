//! Exports of a graded class to the platforms courses keep grades in (Gradescope, PrairieLearn,
//! Autolab, Canvas, Moodle) and to JUnit XML for CI, from the results alone: each module turns a
//! [`Class`] into the files its platform reads; this one reads the class and holds what they share.

pub mod autolab;
pub mod canvas;
pub mod gradescope;
pub mod junit;
pub mod moodle;
pub mod prairielearn;
pub mod roster;

use std::path::{Path, PathBuf};

use anyhow::anyhow;

use super::result::{CaseResult, SubmissionResult};
use crate::error::Error;
use crate::suite::CreditRule;
use crate::untrusted::{block, one_line};
use roster::{Roster, Student};

/// The platforms `grader export` writes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `<student>/results.json` in Gradescope's autograder schema.
    Gradescope,
    /// `<student>/results.json` as PrairieLearn's external grader writes it.
    Prairielearn,
    /// `<student>/output.txt`, whose last line is Autolab's `{"scores": …, "scoreboard": …}`.
    Autolab,
    /// One gradebook import CSV for Canvas.
    Canvas,
    /// One grade import CSV for Moodle.
    Moodle,
    /// One JUnit XML file, a `testsuite` per student.
    Junit,
}

impl Format {
    /// One file for the class (`-o` is that file), or one per student (`-o` is their folder).
    #[must_use]
    pub fn single_file(self) -> Option<&'static str> {
        match self {
            Format::Canvas => Some("canvas.csv"),
            Format::Moodle => Some("moodle.csv"),
            Format::Junit => Some("junit.xml"),
            Format::Gradescope | Format::Prairielearn | Format::Autolab => None,
        }
    }

    /// The name `--to` takes.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Gradescope => "gradescope",
            Format::Prairielearn => "prairielearn",
            Format::Autolab => "autolab",
            Format::Canvas => "canvas",
            Format::Moodle => "moodle",
            Format::Junit => "junit",
        }
    }
}

/// A graded class as its results folder holds it, with its roster when one was given.
pub struct Class {
    /// The suite's name (every result's `suite`).
    pub suite: String,
    /// Each student's result, by folder name.
    pub results: Vec<SubmissionResult>,
    pub roster: Option<Roster>,
    /// Export a row still waiting for a person's marks with what it has (`--allow-incomplete`);
    /// else it goes with no grade and is listed in [`Export::incomplete`].
    pub allow_incomplete: bool,
}

/// What an export produced: files to write (relative to `-o`; a single-file format's one file has an
/// empty path) and what the instructor must hear about.
#[derive(Debug, Default)]
pub struct Export {
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// Notes for stderr: students unknown to the roster (exported by folder name), missing hand-ins.
    pub notes: Vec<String>,
    /// Results no row could carry (canvas and moodle key on identity): a failed export.
    pub unmatched: Vec<String>,
    /// Students the machine could not grade (exported with no score, never a zero), and why.
    pub not_graded: Vec<(String, String)>,
    /// Students with manual marks still to give (exported with no grade), and what is missing.
    pub incomplete: Vec<(String, String)>,
}

/// Reads every `<student>/result.json` in `dir` (`results/<suite>/`), as any file a run left is read: no
/// link followed, never blocking, capped, and checked (a tampered number is refused, never exported).
/// A folder without `result.json` (the class tournament's games, an earlier export) is no student's.
///
/// # Errors
/// Bad input: `dir` is not a folder, holds no result, or a result cannot be read, is not a result,
/// names another student or another suite than the rest (each named).
pub fn read_class(dir: &Path) -> Result<Vec<SubmissionResult>, Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Error::input(anyhow!(e).context(format!(
            "cannot read the results folder `{}`",
            dir.display()
        )))
    })?;
    let mut results: Vec<SubmissionResult> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::machine(anyhow!(e)))?;
        // `file_type` does not follow a link: a linked folder is not a student's.
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let Some(key) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let rel = Path::new(&key).join("result.json");
        let shown = dir.join(&rel);
        if std::fs::symlink_metadata(&shown).is_err() {
            continue;
        }
        let read = crate::report::result::read_result(dir, &key).map_err(|why| {
            Error::input(anyhow!(
                "cannot read `{}`: {why}\nhint: export a results folder as `grader run` wrote it",
                shown.display()
            ))
        })?;
        if let Some(first) = results.first().filter(|f| f.suite != read.suite) {
            return Err(Error::input(anyhow!(
                "`{}` is a result of suite `{}`, but `{}` is of `{}`\nhint: export one suite's results folder (`results/<suite>`)",
                shown.display(),
                read.suite,
                dir.join(&first.student).join("result.json").display(),
                first.suite
            )));
        }
        results.push(read);
    }
    if results.is_empty() {
        return Err(Error::input(anyhow!(
            "no `<student>/result.json` in `{}`\nhint: export a suite's results folder, as `grader run` wrote it: `grader export results/<suite> --to …`",
            dir.display()
        )));
    }
    results.sort_by(|a, b| a.student.cmp(&b.student));
    Ok(results)
}

impl Class {
    /// The roster's entry for `folder`, if a roster was given and lists it.
    #[must_use]
    pub fn student(&self, folder: &str) -> Option<&Student> {
        self.roster.as_ref()?.get(folder)
    }

    /// Notes on results the roster does not list (still exported by folder name) and roster students
    /// with no result (a missing hand-in): nothing is dropped without a word.
    #[must_use]
    pub fn roster_notes(&self, keyed: bool) -> Vec<String> {
        let Some(roster) = &self.roster else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        if !keyed {
            for r in &self.results {
                if roster.get(&r.student).is_none() {
                    notes.push(format!(
                        "`{}` is not in the roster `{}`; exported by its folder name",
                        r.student,
                        roster.path.display()
                    ));
                }
            }
        }
        for s in &roster.students {
            if !self.results.iter().any(|r| r.student == s.folder) {
                notes.push(format!(
                    "`{}` is in the roster but has no result in this folder (a missing hand-in?)",
                    s.folder
                ));
            }
        }
        notes
    }

    /// The roster students with no result, in the roster's order.
    pub fn missing(&self) -> impl Iterator<Item = &Student> {
        let roster = self.roster.iter().flat_map(|r| r.students.iter());
        roster.filter(|s| !self.results.iter().any(|r| r.student == s.folder))
    }

    /// Each scored group's name and points, in the order results list them (manual columns, which
    /// the instructor fills in, left out), and the tournament's most marks and whether a bonus.
    #[must_use]
    pub fn columns(&self) -> super::Columns {
        let mut columns = super::Columns::default();
        for r in &self.results {
            for g in r
                .groups
                .iter()
                .filter(|g| g.credit_rule != CreditRule::Manual)
            {
                if !columns.groups.iter().any(|(n, _)| *n == g.name) {
                    columns.groups.push((g.name.clone(), g.max));
                }
            }
            if let Some(t) = &r.tournament {
                columns.tournament.get_or_insert((t.max, t.bonus));
            }
        }
        columns
    }
}

/// The students a result is for, as roster rows: the roster's members of its folder when a roster was
/// given (`None` when it lists none: no identity to key on), else the students the course named in
/// the result (a team's members, or the LMS's identity), else one student named by the folder.
#[must_use]
pub fn members(class: &Class, r: &SubmissionResult) -> Option<Vec<Student>> {
    if let Some(roster) = &class.roster {
        let found: Vec<Student> = roster.members(&r.student).cloned().collect();
        return (!found.is_empty()).then_some(found);
    }
    let g = r.course.as_ref();
    let named: Vec<Student> = g
        .map(|g| {
            g.members
                .iter()
                .map(|m| Student {
                    folder: r.student.clone(),
                    id: m.id.clone(),
                    login: m.login.clone(),
                    email: m.email.clone(),
                    name: m.name.clone(),
                    section: g.section.clone(),
                    track: g.track.clone(),
                    team: g.team.clone(),
                    lms_id: m.lms_id.clone(),
                })
                .collect()
        })
        .unwrap_or_default();
    if !named.is_empty() {
        return Some(named);
    }
    Some(vec![Student {
        folder: r.student.clone(),
        login: Some(r.student.clone()),
        section: g.and_then(|g| g.section.clone()),
        ..Student::default()
    }])
}

/// A row's grade cell: [`exported_total`], or empty.
pub fn total_cell(class: &Class, r: &SubmissionResult, out: &mut Export) -> String {
    exported_total(class, r, out).map_or_else(String::new, crate::report::points)
}

/// The grade a row exports: its total. A row whose total waits only for a person's marks has none
/// (it is listed in `incomplete`) unless the class allows it (`--allow-incomplete`): then what it has,
/// with a note. Any other blank total has none, with a note saying why.
pub fn exported_total(class: &Class, r: &SubmissionResult, out: &mut Export) -> Option<f64> {
    if let Some(t) = r.total() {
        return Some(t);
    }
    let g = r.course.as_ref();
    if let Some(why) = g.and_then(|g| g.incomplete.clone()) {
        let partial = g.and_then(|g| g.partial);
        if let Some(p) = partial.filter(|_| class.allow_incomplete) {
            out.notes.push(format!(
                "`{}` is {}; exported with the marks given so far ({}), as --allow-incomplete asks",
                r.student,
                one_line(&why, 300),
                crate::report::points(p)
            ));
            return Some(p);
        }
        out.incomplete
            .push((r.student.clone(), one_line(&why, 300)));
        return None;
    }
    let why = g.and_then(|g| g.blank.clone()).unwrap_or_default();
    out.notes.push(format!(
        "`{}` has no total yet ({}); exported with no grade",
        r.student,
        one_line(first_line(&why), 300)
    ));
    None
}

/// Each manual group of `r` as an export shows it: its name (`manual: <group>`), the points given
/// (none while not given), its points, and what was ticked, by whom (escaped, capped).
#[must_use]
pub fn manual_lines(r: &SubmissionResult) -> Vec<(String, Option<f64>, f64, String)> {
    let Some(g) = &r.course else {
        return Vec::new();
    };
    g.manual
        .iter()
        .map(|m| {
            let mut text: Vec<String> = m
                .items
                .iter()
                .map(|(t, p)| {
                    format!(
                        "{} ({}{})",
                        t,
                        if *p > 0.0 { "+" } else { "" },
                        crate::report::points(*p)
                    )
                })
                .collect();
            if m.adjust != 0.0 {
                text.push(format!(
                    "adjusted {}{}",
                    if m.adjust > 0.0 { "+" } else { "" },
                    crate::report::points(m.adjust)
                ));
            }
            if !m.comment.trim().is_empty() {
                text.push(m.comment.clone());
            }
            if let Some(by) = &m.by {
                text.push(format!("marked by {by}"));
            }
            if let Some(why) = m.missing.as_ref().or(m.stale.as_ref()) {
                text.push(why.clone());
            }
            (
                format!("manual: {}", m.name),
                m.points.filter(|_| m.missing.is_none()),
                m.max,
                block(&text.join("\n"), FEEDBACK_CAP),
            )
        })
        .collect()
}

/// Why the machine (never the student) left `r` without a score: a missing toolchain, or the grader's
/// own error in its build or a case. Such a result is exported with no score, never as a zero.
#[must_use]
pub fn machine_fault(r: &SubmissionResult) -> Option<String> {
    if let Some(why) = r.not_graded() {
        return Some(format!("not graded: {}", one_line(first_line(why), 300)));
    }
    if r.build.status == super::result::BuildStatus::InternalError {
        return Some(format!(
            "the grader could not build it: {}",
            one_line(first_line(&r.build.log), 300)
        ));
    }
    r.cases
        .iter()
        .find(|c| c.verdict == crate::judge::Verdict::InternalError)
        .map(|c| {
            format!(
                "internal error in {}/{}: {}",
                c.group,
                c.name,
                one_line(&c.summary, 300)
            )
        })
}

/// Why `r` has no score to export: the machine's fault ([`machine_fault`]), or a case the grader could
/// not follow, waiting for a person (`review`). Such a result is exported with no score, never a zero.
#[must_use]
pub fn unscored(r: &SubmissionResult) -> Option<String> {
    machine_fault(r).or_else(|| {
        r.needs_review()
            .map(|why| format!("needs review: {}", one_line(first_line(&why), 300)))
    })
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

/// The most characters of one case's feedback in an export.
pub const FEEDBACK_CAP: usize = 4000;

/// A case's feedback as a student reads it: its summary, then its details one a line, every control
/// character a program printed escaped, capped.
#[must_use]
pub fn feedback(c: &CaseResult) -> String {
    let mut text = c.summary.clone();
    if let Some(s) = &c.search {
        text.push('\n');
        text.push_str(&crate::report::search::case_line(s));
    }
    for d in &c.details {
        text.push('\n');
        text.push_str(d);
    }
    block(&text, FEEDBACK_CAP)
}

/// Rounds to four decimals, so shares like 5/3 read `1.6667`.
#[must_use]
pub fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// `group/case`: a case's name in every export.
#[must_use]
pub fn case_name(c: &CaseResult) -> String {
    one_line(&format!("{}/{}", c.group, c.name), 200)
}

/// The overall feedback: how the build went, groups not attempted, the tournament's reason.
#[must_use]
pub fn summary(r: &SubmissionResult) -> String {
    let mut lines = Vec::new();
    match r.build.status {
        super::result::BuildStatus::Built => {
            lines.push(format!(
                "built as {}",
                r.build.language.as_deref().unwrap_or("?")
            ));
            lines.extend(super::feedback::python2_line(&r.build).map(|l| one_line(&l, 500)));
        }
        status => {
            lines.push(format!("build: {}", status.as_str()));
            lines.push(block(&r.build.log, FEEDBACK_CAP));
        }
    }
    for n in &r.not_attempted {
        lines.push(format!(
            "{}: not attempted ({})",
            n.group,
            one_line(&n.reason, 300)
        ));
    }
    if let Some(line) = crate::report::search::summary_line(&r.cases) {
        lines.push(line);
    }
    if let Some(t) = &r.tournament {
        lines.push(format!("tournament: {}", one_line(&t.reason, 500)));
    }
    lines.join("\n")
}
