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

/// The whole report a student reads.
pub fn student_report(r: &SubmissionResult, paint: Paint) -> String {
    let mut out = String::new();
    match r.build.status {
        BuildStatus::Built => out.push_str(&format!(
            "built as {}\n",
            paint.bold(r.build.language.as_deref().unwrap_or("?"))
        )),
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
    let passed = r.cases.iter().filter(|c| c.credit >= 1.0).count();
    let public = if r
        .cases
        .iter()
        .all(|c| c.visibility == crate::suite::Visibility::Public)
    {
        "public "
    } else {
        ""
    };
    // Checks worth no points (UT3's, whose marks come from the manual and the tournament) never read
    // `0/0`.
    let score = if let Some(why) = r.needs_review() {
        // Not a score yet: the grader could not follow the program, and a person decides.
        format!(
            "none yet: a person must look at a case the grader could not follow ({})",
            safe(&why)
        )
    } else if r.max > 0.0 {
        format!("{}/{} points", points(r.score), points(r.max))
    } else {
        "these checks carry no points".into()
    };
    let line = format!(
        "score: {score} ({passed} of {} {public}cases passed)",
        r.cases.len()
    );
    let line = if passed == r.cases.len() {
        paint.green(&line)
    } else {
        paint.red(&line)
    };
    out.push_str(&paint.bold(&line));
    out.push('\n');
    out
}
