//! The integrity check: one passing case of a submission is run again with other names (another file
//! name of another shape, in another folder). A program that solves the problem writes the same
//! output whatever its path; one whose output changes is flagged for the instructor, who decides. The
//! flag never changes the score: a hand-in that only prints stored answers for the course's known
//! path already fails, because the graded runs' names are unpredictable (`names.rs`).

use std::path::Path;

use regex::bytes::{NoExpand, Regex};

use super::case::{run_case, Program};
use super::names::{Names, Purpose};
use crate::judge::{show, Verdict};
use crate::report::result::{CaseResult, IntegrityNote};
use crate::sandbox::Sandbox;
use crate::suite::{Case, Group, Suite};
use crate::untrusted::{read_output, OutputFileError};

/// Whether `case`, graded `result`, is the kind the check re-runs: a run case, accepted in one run (a
/// case run twice for time is left alone: its folder is gone), that writes a file with something in it.
#[must_use]
pub fn candidate(case: &Case, result: &CaseResult) -> bool {
    result.verdict == Verdict::Accepted
        && result.rerun.is_none()
        && case
            .run()
            .is_some_and(|r| r.files.iter().any(|(_, e)| !e.text.trim().is_empty()))
}

/// What the first (graded) run of a case left: its folder, its names and what it printed.
pub struct FirstRun<'a> {
    /// The case's scratch folder (holding `names.work`).
    pub dir: &'a Path,
    pub names: &'a Names,
    pub stdout: &'a [u8],
}

/// Runs `case` once more in `scratch` (a fresh folder) with the integrity names and compares what it
/// printed and wrote with `first`, each with its own folder and file names put back to the suite's.
/// A note when they differ; none when they agree or the second run could not be compared (a time
/// limit or the grader's fault: the machine, not the path, may explain those).
#[allow(clippy::too_many_arguments)]
pub fn check(
    sandbox: &dyn Sandbox,
    suite: &Suite,
    group: &Group,
    case: &Case,
    program: &Program,
    student: &str,
    first: &FirstRun,
    scratch: &Path,
) -> Option<IntegrityNote> {
    let run = case.run()?;
    let names = Names::for_run(
        suite,
        &group.name,
        &case.name,
        student,
        run,
        Purpose::Integrity,
    );
    let (second, stdout) = run_case(sandbox, suite, group, case, program, scratch, &names);
    if matches!(
        second.verdict,
        Verdict::TimeLimit
            | Verdict::WallTimeLimit
            | Verdict::Idle
            | Verdict::InternalError
            | Verdict::NotGraded
    ) {
        return None;
    }
    let one = Side {
        work: first.dir.join(&first.names.work),
        names: first.names,
    };
    let two = Side {
        work: scratch.join(&names.work),
        names: &names,
    };
    let note = |what: String| IntegrityNote {
        case: format!("{}/{}", group.name, case.name),
        what,
    };
    if let Some(at) = first_difference(&one.normal(first.stdout), &two.normal(&stdout)) {
        return Some(note(format!("{RERUN} printed something else{at}")));
    }
    let cap = case.limits.file_size;
    for (name, _) in &run.files {
        let (a, b) = (one.file(name, cap), two.file(name, cap));
        let at = match (a, b) {
            (Ok(a), Ok(b)) => first_difference(&a, &b),
            (Err(_), Err(_)) => None,
            (Ok(_), Err(why)) => Some(format!(": {}", why.replace(names.actual(name), name))),
            (Err(why), Ok(_)) => Some(format!(": first run: {why}")),
        };
        if let Some(at) = at {
            return Some(note(format!("{RERUN} wrote another `{name}`{at}")));
        }
    }
    None
}

const RERUN: &str = "run again with only the output file's name and folder changed, the program";

/// One run's folder and names, to read its files and put its names back.
struct Side<'a> {
    work: std::path::PathBuf,
    names: &'a Names,
}

impl Side<'_> {
    /// `bytes` with this run's path, folder and file names written as the suite's (`{work}`, `NAME`),
    /// so a program that echoes the path it was given is not told apart by it.
    fn normal(&self, bytes: &[u8]) -> Vec<u8> {
        let mut out = literal(&self.work.display().to_string())
            .replace_all(bytes, NoExpand(b"{work}"))
            .into_owned();
        for (name, actual) in &self.names.files {
            out = literal(actual)
                .replace_all(&out, NoExpand(name.as_bytes()))
                .into_owned();
        }
        out
    }

    /// The file the suite calls `name`, read as every run's file is, normalised.
    fn file(&self, name: &str, cap: u64) -> Result<Vec<u8>, String> {
        let actual = Path::new(self.names.actual(name));
        match read_output(&self.work, actual, cap) {
            Ok(c) => Ok(self.normal(&c.bytes)),
            Err(OutputFileError::Missing { .. }) => Err("no file".to_string()),
            Err(e) => Err(e.to_string()),
        }
    }
}

fn literal(text: &str) -> Regex {
    Regex::new(&regex::escape(text)).expect("an escaped literal is a valid pattern")
}

/// Where two outputs first differ, as `: line N, \`first\` then \`second\``; `None` when equal.
fn first_difference(a: &[u8], b: &[u8]) -> Option<String> {
    if a == b {
        return None;
    }
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let (mut la, mut lb) = (a.lines(), b.lines());
    let mut n = 0;
    loop {
        n += 1;
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return Some(" (the same lines, other line endings)".to_string()),
            (x, y) => {
                let say =
                    |l: Option<&str>| l.map_or("nothing".to_string(), |l| format!("`{}`", show(l)));
                return Some(format!(
                    ": line {n}, {} the first time, {} the second",
                    say(x),
                    say(y)
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_echoed_path_or_name_is_no_difference() {
        let names = Names {
            work: "work".into(),
            files: vec![("visited.txt".into(), "visited-0a1b2c3d.txt".into())],
        };
        let side = Side {
            work: "/s/case-0/work".into(),
            names: &names,
        };
        assert_eq!(
            side.normal(b"wrote /s/case-0/work/visited-0a1b2c3d.txt\n"),
            b"wrote {work}/visited.txt\n"
        );
        assert_eq!(first_difference(b"a\nb\n", b"a\nb\n"), None);
        assert_eq!(
            first_difference(b"a\nb\n", b"a\nc\n").unwrap(),
            ": line 2, `b` the first time, `c` the second"
        );
        assert_eq!(
            first_difference(b"a\n", b"a\nc\n").unwrap(),
            ": line 2, nothing the first time, `c` the second"
        );
    }
}
