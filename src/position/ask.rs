//! Asking a program for one move at a position through the suite's protocol (a seat: persistent `game` +
//! one `turn`, or one per-move run), then judging the reply and the files it wrote.

use std::path::Path;
use std::time::Duration;

use crate::arena::game::record::seconds;
use crate::arena::game::ArenaGame;
use crate::arena::referee::Policy;
use crate::arena::seat::{Reply, Seat, Start};
use crate::judge::{excerpt, Verdict};
use crate::untrusted::{self, OutputFileError};

use super::visited;
use super::{judge, Judged, Want};
use crate::sandbox::pace;

/// A file the program writes during its move, and how it is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileCheck {
    /// A visited file whose every state is reachable from the case's state ([`visited::check`]).
    Reachable,
}

impl FileCheck {
    /// Every check with the word a suite writes (`compare = "reachable"`).
    pub const ALL: [(FileCheck, &'static str); 1] = [(FileCheck::Reachable, "reachable")];

    #[must_use]
    pub fn parse(word: &str) -> Option<FileCheck> {
        FileCheck::ALL
            .iter()
            .find(|(_, w)| *w == word)
            .map(|(c, _)| c.clone())
    }
}

/// What one position case came to.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    pub verdict: Verdict,
    pub credit: f64,
    pub summary: String,
    pub details: Vec<String>,
    pub took: Duration,
    /// What the program used (CPU, peak memory), where the seat ran one.
    pub used: Option<crate::sandbox::Usage>,
}

/// Asks `seat` for one move at `state` under `policy`'s clock, judges the reply against `want`, then
/// checks each file in `files` (read from `work`, the program's working folder). The seat is finished
/// (its process stopped) before this returns.
pub fn ask<G: ArenaGame>(
    seat: &mut dyn Seat<G>,
    state: &G,
    want: Want,
    policy: &Policy,
    seed: u64,
    work: &Path,
    files: &[(String, FileCheck)],
) -> Asked {
    let side = state.to_move();
    let start = Start {
        game: state.name(),
        side,
        side_name: G::side_name(side),
        seed,
        limit: policy.limit,
        wall_cap: None,
    };
    let asked = pace::now();
    let reply = match seat.start(&start) {
        Err(fault) => fault,
        Ok(()) => {
            let deadline = policy.deadline().filter(|_| seat.clocked());
            let reply = seat.request(state, None, deadline);
            // A program proven to wait for input stays so, however late a loaded machine saw it.
            if deadline.is_some_and(|d| pace::since(asked) > d)
                && !matches!(reply, Reply::Waiting(_))
            {
                Reply::Timeout
            } else {
                reply
            }
        }
    };
    let took = pace::since(asked);
    seat.finish("position case: one move asked", None);
    let stderr = seat.stderr_tail();
    let printed_nothing = matches!(&reply, Reply::Line(text) if text.trim().is_empty());
    let mut out = match reply {
        Reply::Line(text) => {
            let Judged {
                verdict,
                credit,
                summary,
                details,
                ..
            } = judge(state, want, seat.reply_form(policy.reply), &text);
            Asked {
                verdict,
                credit,
                summary,
                details,
                took,
                used: None,
            }
        }
        fault => fault_result(&fault, policy, took),
    };
    out.used = seat.usage();
    if out.verdict == Verdict::Accepted {
        for (name, check) in files {
            if let Err(why) = check_file(state, work, name, check, printed_nothing) {
                out.verdict = Verdict::WrongAnswer;
                out.credit = 0.0;
                out.details.insert(0, out.summary.clone());
                out.summary = why;
                break;
            }
        }
    }
    if out.verdict != Verdict::Accepted {
        if let Some(tail) = stderr.filter(|t| !t.trim().is_empty()) {
            out.details
                .push("your program's stderr ended with:".to_string());
            // The seat's tail has the run's folders made relative already.
            out.details.extend(
                excerpt::why_lines(&tail, excerpt::LINES)
                    .into_iter()
                    .map(|l| format!("  {l}")),
            );
        }
    }
    out
}

/// The most of a visited file read: a ply-limited search writes far less.
const FILE_CAP: u64 = 64 << 20;

/// One file after the move: with no move possible the program writes nothing (an empty file counts as
/// nothing); otherwise the file must exist and pass its check.
fn check_file<G: ArenaGame>(
    state: &G,
    work: &Path,
    name: &str,
    check: &FileCheck,
    printed_nothing: bool,
) -> Result<(), String> {
    // What the program left is hostile: no link followed, no blocking, a regular file, capped.
    let text = match untrusted::read_output(work, Path::new(name), FILE_CAP) {
        Ok(read) if read.truncated => {
            return Err(OutputFileError::TooLarge {
                name: name.to_string(),
                cap: FILE_CAP,
            }
            .to_string())
        }
        Ok(read) => match String::from_utf8(read.bytes) {
            Ok(t) => Some(t),
            Err(_) => return Err(format!("`{name}` is not UTF-8 text")),
        },
        Err(OutputFileError::Missing { .. }) => None,
        Err(e) => return Err(e.to_string()),
    };
    if printed_nothing {
        return match text {
            Some(t) if !t.trim().is_empty() => Err(format!(
                "you printed nothing, as you should with no move possible, but wrote `{name}`: write nothing either"
            )),
            _ => Ok(()),
        };
    }
    let Some(text) = text else {
        return Err(format!(
            "you wrote no `{name}`: write every position your search visits to it"
        ));
    };
    match check {
        FileCheck::Reachable => visited::check(state, name, &text)
            .map(|_| ())
            .map_err(|e| e.to_string()),
    }
}

/// A reply that is no answer at all, as a verdict.
fn fault_result(fault: &Reply, policy: &Policy, took: Duration) -> Asked {
    let (verdict, summary) = match fault {
        Reply::Timeout => (
            Verdict::WallTimeLimit,
            match policy.limit {
                Some(l) => format!(
                    "no answer within {} (limit {} + {} margin)",
                    seconds(took),
                    seconds(l),
                    seconds(policy.margin)
                ),
                None => format!("no answer after {}", seconds(took)),
            },
        ),
        Reply::Waiting(sent) => (
            Verdict::Idle,
            format!(
                "your program is waiting for input, but the grader is waiting for your answer to: `{}`",
                crate::untrusted::one_line(sent, 200)
            ),
        ),
        Reply::Idle(limit) => (
            Verdict::Idle,
            format!(
                "your program used no CPU for {}, asleep: it is waiting for something that will not come",
                seconds(*limit)
            ),
        ),
        Reply::Crashed(how) => (
            Verdict::RuntimeError,
            format!("your program crashed ({how})"),
        ),
        Reply::Flood(n) => (
            Verdict::OutputLimit,
            format!("your program flooded its output ({n} bytes without a newline)"),
        ),
        Reply::ClosedPipe => (
            Verdict::WrongAnswer,
            "your program closed its output without a move".to_string(),
        ),
        Reply::Garbage => (
            Verdict::WrongAnswer,
            "your program printed bytes that are not UTF-8 text".to_string(),
        ),
        Reply::Fault(why) => (Verdict::WrongAnswer, format!("your program {why}")),
        Reply::Unfollowed(why) => (
            Verdict::Review,
            format!("the grader could not follow your program: {why}"),
        ),
        Reply::Broken(why) => (
            Verdict::InternalError,
            format!("the grader could not ask your program: {why}"),
        ),
        Reply::Line(_) => (
            Verdict::InternalError,
            "a reply was taken for a fault".into(),
        ),
    };
    Asked {
        verdict,
        credit: 0.0,
        summary,
        details: Vec::new(),
        took,
        used: None,
    }
}
