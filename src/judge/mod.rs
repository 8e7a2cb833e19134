//! The judge: verdicts and comparators (exact, tokens, numeric, trace) with explanations for students.
//!
//! The judge reads what a run produced and what the suite expects; it never runs anything itself.

pub mod compare;
pub mod excerpt;
pub mod trace;

use serde::{Deserialize, Serialize};

pub use compare::Comparator;

/// What happened to one case, in precedence order: the first that applies wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The grader's own fault (a sandbox that would not start, a reference that failed): never the
    /// student's, and never scored against them silently.
    InternalError,
    /// The machine lacks the toolchain the submission needs (no `guile`, no Python 2): the case
    /// could not be run here, and counts neither for nor against the student.
    NotGraded,
    /// The grader could not establish the program's dialogue (an interactive program whose questions or
    /// board it could not follow after every strategy it has): a person must look at the transcript.
    /// Like `NotGraded`, never scored against the student silently.
    Review,
    CompileError,
    MemoryLimit,
    /// CPU time.
    TimeLimit,
    WallTimeLimit,
    /// It sat asleep using no CPU (the idle limit), or waited for input while the grader waited for
    /// its answer: stopped early, as it would have been at the wall limit.
    Idle,
    OutputLimit,
    /// A signal or a non-zero exit status.
    RuntimeError,
    WrongAnswer,
    Accepted,
}

impl Verdict {
    /// The words a student reads.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::InternalError => "internal error",
            Verdict::NotGraded => "not graded",
            Verdict::Review => "needs review",
            Verdict::CompileError => "compile error",
            Verdict::MemoryLimit => "memory limit",
            Verdict::TimeLimit => "time limit",
            Verdict::WallTimeLimit => "wall-time limit",
            Verdict::Idle => "idle",
            Verdict::OutputLimit => "output limit",
            Verdict::RuntimeError => "runtime error",
            Verdict::WrongAnswer => "wrong answer",
            Verdict::Accepted => "accepted",
        }
    }

    /// The short code used in tables.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::InternalError => "IE",
            Verdict::NotGraded => "NG",
            Verdict::Review => "REV",
            Verdict::CompileError => "CE",
            Verdict::MemoryLimit => "MLE",
            Verdict::TimeLimit => "TLE",
            Verdict::WallTimeLimit => "WLE",
            Verdict::Idle => "IDLE",
            Verdict::OutputLimit => "OLE",
            Verdict::RuntimeError => "RE",
            Verdict::WrongAnswer => "WA",
            Verdict::Accepted => "AC",
        }
    }
}

/// The judge's word on one case, the one shape every kind of case (run, play, position, dialogue)
/// decides in: its verdict, the credit it earns, and why in the student's words.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    pub verdict: Verdict,
    /// 0.0 to 1.0.
    pub credit: f64,
    /// One line.
    pub summary: String,
    /// Further lines (a diff, why a move is illegal, a better move).
    pub details: Vec<String>,
    /// The reference variant the output followed, when not the golden one.
    pub variant: Option<String>,
    /// A trace case's nodes visited against the reference's.
    pub search: Option<trace::SearchCount>,
}

impl Judged {
    /// Accepted with full credit.
    #[must_use]
    pub fn ok(summary: String) -> Judged {
        Judged {
            verdict: Verdict::Accepted,
            credit: 1.0,
            summary,
            details: Vec::new(),
            variant: None,
            search: None,
        }
    }

    /// A wrong answer, no credit.
    #[must_use]
    pub fn wrong(summary: String, details: Vec<String>) -> Judged {
        Judged {
            verdict: Verdict::WrongAnswer,
            credit: 0.0,
            summary,
            details,
            variant: None,
            search: None,
        }
    }

    /// `verdict` with no credit and no details (an internal error, a refused file).
    #[must_use]
    pub fn only(verdict: Verdict, summary: String) -> Judged {
        Judged {
            verdict,
            credit: 0.0,
            summary,
            details: Vec::new(),
            variant: None,
            search: None,
        }
    }

    /// Whether the answer was accepted.
    #[must_use]
    pub fn accepted(&self) -> bool {
        self.verdict == Verdict::Accepted
    }
}

/// A comparator's finding: `None` means equal.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// One sentence saying what is wrong, for a student.
    pub summary: String,
    /// Supporting lines: the first difference with context, counts.
    pub details: Vec<String>,
}

/// `18296` → `18,296`: counts students compare by eye.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A line shown to a student: escaped, and cut short when long, so garbage output stays readable.
pub fn show(line: &str) -> String {
    show_capped(line, 60)
}

/// [`show`] with its own cap: past `max` characters the rest is replaced by `…`.
pub fn show_capped(line: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in line.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '`' => out.push('\''),
            // Controls, the bidirectional controls that reorder what a reader sees, and the
            // separators that break a line unseen.
            c if crate::untrusted::is_hidden(c) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(18_296), "18,296");
        assert_eq!(thousands(549_945), "549,945");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn show_escapes_and_truncates() {
        assert_eq!(show("a\tb"), "a\\tb");
        assert_eq!(show("\u{1}"), "\\u{1}");
        assert_eq!(show("a\u{1b}[2Jb\u{202e}"), "a\\u{1b}[2Jb\\u{202e}");
        assert_eq!(show(&"x".repeat(100)).chars().count(), 61);
    }
}
