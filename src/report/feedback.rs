//! Student feedback for `grader check`: one sentence per failing case, then details (a trace case's
//! nodes visited first), the nodes-visited summary, then a score line.

use super::points;
use super::result::{BuildStatus, SubmissionResult};
use crate::judge::Verdict;
use crate::untrusted::{block, one_line};

/// The most of one line of feedback shown: summaries and details may quote what a program printed.
pub const LINE_CAP: usize = 500;

/// A line of feedback made safe for the terminal: control bytes escaped (no ESC or OSC sequence of a
/// program reaches the reader's terminal), and capped.
fn safe(text: &str) -> String {
    one_line(text, LINE_CAP)
}

/// ANSI styling that turns itself off (NO_COLOR, not a terminal).
#[derive(Clone, Copy, Debug)]
pub struct Paint(pub bool);

impl Paint {
    fn wrap(self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    pub fn green(self, t: &str) -> String {
        self.wrap("32", t)
    }
    pub fn red(self, t: &str) -> String {
        self.wrap("31", t)
    }
    pub fn yellow(self, t: &str) -> String {
        self.wrap("33", t)
    }
    pub fn bold(self, t: &str) -> String {
        self.wrap("1", t)
    }
    pub fn dim(self, t: &str) -> String {
        self.wrap("2", t)
    }
}

/// For a program run with Python 2, which a student may not expect: the version and why (the build
/// log's reason: it does not compile under Python 3, or Python 2's signs in code that does).
#[must_use]
pub fn python2_line(build: &super::result::BuildReport) -> Option<String> {
    let version = &build.interpreter.as_ref()?.version;
    if !version.starts_with("2.") {
        return None;
    }
    let why = build
        .log
        .lines()
        .filter_map(|l| l.strip_prefix("python: "))
        .rfind(|l| {
            l.contains("Python 2")
                && !l.starts_with("running with")
                && !l.starts_with("under Python")
        })
        .unwrap_or("the suite runs it so");
    Some(format!("run with Python {version}: {why}"))
}

/// The whole report a student reads (as a platform's log keeps it): every case, then the score.
pub fn student_report(r: &SubmissionResult, paint: Paint) -> String {
    let mut out = cases_report(r, paint);
    let line = format!(
        "score: {} ({} of {} {}cases passed)",
        score(r),
        passed(r),
        r.cases.len(),
        if all_public(r) { "public " } else { "" }
    );
    out.push_str(&score_line(r, &line, paint));
    out
}

/// `grader check`'s report: every case, then the score on the public cases and what the grade counts
/// beyond them (`hidden`: the hidden cases of the suite, or of the suite a kit was cut from), so a
/// student never reads a public score as the grade.
pub fn check_report(r: &SubmissionResult, hidden: &crate::suite::Hidden, paint: Paint) -> String {
    let mut out = cases_report(r, paint);
    out.push_str(&score_line(r, &check_summary(r, hidden), paint));
    out
}

/// `score: 15/15 points on the 6 public cases (6 passed); the grade also counts 30 hidden cases (10.5
/// of 15 points)`.
pub fn check_summary(r: &SubmissionResult, hidden: &crate::suite::Hidden) -> String {
    let n = r.cases.len();
    let beyond = match hidden.cases {
        0 => "the grade counts no other case".to_string(),
        h => format!(
            "the grade also counts {h} hidden {} ({} of {} points)",
            if h == 1 { "case" } else { "cases" },
            points(hidden.points),
            points(hidden.total)
        ),
    };
    format!(
        "score: {} on the {n} {} {} ({} passed); {beyond}",
        score(r),
        if all_public(r) { "public" } else { "checked" },
        if n == 1 { "case" } else { "cases" },
        passed(r)
    )
}

fn passed(r: &SubmissionResult) -> usize {
    r.cases.iter().filter(|c| c.credit >= 1.0).count()
}

fn all_public(r: &SubmissionResult) -> bool {
    r.cases
        .iter()
        .all(|c| c.visibility == crate::suite::Visibility::Public)
}

/// `15/15 points`. Checks worth no points (UT3's, whose marks come from the manual and the
/// tournament) never read `0/0`.
fn score(r: &SubmissionResult) -> String {
    if let Some(why) = r.needs_review() {
        // Not a score yet: the grader could not follow the program, and a person decides.
        format!(
            "none yet: a person must look at a case the grader could not follow ({})",
            safe(&why)
        )
    } else if r.max > 0.0 {
        format!("{}/{} points", points(r.score), points(r.max))
    } else {
        "these checks carry no points".into()
    }
}

/// The score line, green when every case passed, bold.
fn score_line(r: &SubmissionResult, line: &str, paint: Paint) -> String {
    let line = if passed(r) == r.cases.len() {
        paint.green(line)
    } else {
        paint.red(line)
    };
    format!("{}\n", paint.bold(&line))
}

/// The build, then every case with its verdict and details, then the nodes-visited summary.
fn cases_report(r: &SubmissionResult, paint: Paint) -> String {
    let mut out = String::new();
    match r.build.status {
        BuildStatus::Built => {
            out.push_str(&format!(
                "built as {}\n",
                paint.bold(r.build.language.as_deref().unwrap_or("?"))
            ));
            if let Some(line) = python2_line(&r.build) {
                out.push_str(&format!("    {}\n", safe(&line)));
            }
        }
        status => {
            let what = match status {
                BuildStatus::CompileError => format!(
                    "your {} program did not compile",
                    r.build.language.as_deref().unwrap_or("")
                ),
                BuildStatus::NoLanguage => "no program found in this folder:".to_string(),
                _ => {
                    "the grader could not build your program (not your fault; tell your instructor)"
                        .to_string()
                }
            };
            out.push_str(&format!("{} {what}\n", paint.red("✗")));
            for line in r.build.log.lines() {
                // Tabs kept for a compiler's alignment; every other control byte escaped.
                out.push_str(&format!("    {}\n", block(line, LINE_CAP)));
            }
        }
    }
    for c in &r.cases {
        let id = safe(&format!("{}/{}", c.group, c.name));
        let time = paint.dim(&format!("{:.2}s", c.wall_ms as f64 / 1000.0));
        if c.verdict == Verdict::Accepted && c.credit >= 1.0 {
            let note = if c.summary == "accepted" {
                String::new()
            } else {
                format!(" {}", paint.yellow(&safe(&c.summary)))
            };
            out.push_str(&format!("{} {id} {time}{note}\n", paint.green("✓")));
            if let Some(s) = &c.search {
                out.push_str(&format!("    {}\n", safe(&super::search::case_line(s))));
            }
            for d in &c.details {
                out.push_str(&format!("    {}\n", safe(d)));
            }
            continue;
        }
        if r.build.status != BuildStatus::Built {
            continue;
        }
        out.push_str(&format!(
            "{} {id} {}: {}\n",
            paint.red("✗"),
            paint.bold(c.verdict.label()),
            safe(&c.summary)
        ));
        if let Some(s) = &c.search {
            out.push_str(&format!("    {}\n", safe(&super::search::case_line(s))));
        }
        for d in &c.details {
            out.push_str(&format!("    {}\n", safe(d)));
        }
    }
    if let Some(line) = super::search::summary_line(&r.cases) {
        out.push_str(&format!("{}\n", safe(&line)));
    }
    out
}
