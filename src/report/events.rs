//! What grading tells its reporters, as it happens: the runner → reporter seam (nextest's
//! `reporter/events.rs` is the model). Grading never writes a result file or prints a table; a
//! [`Reporter`] does, from these events alone: [`super::class::ClassReporter`] writes result.json and
//! grades.csv and draws the progress bar; exports and the HTML report plug in here.

use super::result::{Artifact, CaseResult, SubmissionResult};

/// One thing that happened while a class was graded.
#[derive(Debug)]
pub enum Event<'a> {
    /// A submission's grading started (`index` in student order).
    SubmissionStarted { index: usize, student: &'a str },
    /// One case of a submission was judged.
    CaseFinished {
        index: usize,
        student: &'a str,
        case: &'a CaseResult,
    },
    /// A submission was graded: its result and the files its cases produced.
    SubmissionFinished {
        index: usize,
        result: &'a SubmissionResult,
        artifacts: &'a [Artifact],
    },
    /// Something the instructor should know that is no result (a scratch tree that would not go).
    Warning { message: String },
    /// Results changed after their submissions finished (the class tournament's marks): every one,
    /// in student order.
    Remarked { results: &'a [SubmissionResult] },
    /// Every submission was graded (and marked): the class, in student order.
    ClassFinished { results: &'a [SubmissionResult] },
}

/// Whoever consumes grading's events. Called from the grading threads, so it synchronises itself.
pub trait Reporter: Sync {
    fn report(&self, event: &Event<'_>);
}

/// A reporter that keeps nothing (a benchmark, a student's `check` that prints at the end).
pub struct Silent;

impl Reporter for Silent {
    fn report(&self, _: &Event<'_>) {}
}
