//! Grading a class: submissions in parallel (`--jobs`), each case and result told to the reporter the
//! moment it is ready (the reporter writes them: `report::class`).

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::Context;

use super::pipeline::{grade, Prepare, Rooms};
use crate::report::events::{Event, Reporter};
use crate::report::result::SubmissionResult;
use crate::report::Columns;
use crate::sandbox::pace::{Cores, Pacer};
use crate::sandbox::scratch::{Bounds, Scratch};
use crate::sandbox::{Sandbox, Tier};
use crate::suite::Suite;

/// The student folders in `dir`: every sub-folder not starting with `.` (hidden folders such as `.git`
/// are named on stderr, never graded silently), sorted by key, each with its key ([`student_key`]).
/// Two folders never share a key: results are never written over another student's.
pub fn students(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read submissions folder `{}`", dir.display()))?;
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        // A link to a folder is followed (an instructor may assemble a class from links).
        if !entry.path().is_dir() {
            continue;
        }
        let name = entry.file_name();
        let key = student_key(&name);
        if name.as_bytes().starts_with(b".") {
            eprintln!("note: `{key}` is a hidden folder, not graded");
            continue;
        }
        found.push((key, entry.path()));
    }
    if found.is_empty() {
        loose_files(dir)?;
    }
    found.sort();
    let mut seen = std::collections::HashSet::new();
    for (key, path) in &found {
        if !seen.insert(key.clone()) {
            anyhow::bail!(
                "two student folders in `{}` have the key `{key}` (one is `{}`)\nhint: rename one of them",
                dir.display(),
                path.display()
            );
        }
    }
    Ok(found)
}

/// A class folder with files but no student folder is an LMS download not yet imported: never graded
/// as an empty class.
fn loose_files(dir: &Path) -> anyhow::Result<()> {
    let names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .filter(|n| !n.starts_with('.') && n != crate::course::submissions::FILE)
                .collect()
        })
        .unwrap_or_default();
    if names.is_empty() {
        return Ok(());
    }
    let format = crate::import::guess(&names).map_or("FORMAT", crate::import::Format::name);
    anyhow::bail!(
        "`{}` holds {} file(s) (`{}`…) and no student folders: it looks like {} download, not a class\nhint: grader import {format} {} -o SUBMISSIONS/<suite>   (then grade SUBMISSIONS)",
        dir.display(),
        names.len(),
        crate::untrusted::one_line(&names[0], 80),
        match crate::import::guess(&names) {
            Some(f) => format!("a {} ", f.name()),
            None => "an LMS ".into(),
        }
        .trim_end(),
        dir.display()
    )
}

/// Names the grader writes beside the student folders of a suite's results: the gradebook, the class
/// tournament's ranking and games, a shard's manifest, `grader export`'s files and the class page.
const RESERVED: &[&str] = &[
    "grades.csv",
    "tournament.csv",
    "tournament",
    "shard.json",
    "export",
    "index.html",
];

/// The key of a student folder: its name as written in results (`results/<suite>/<key>/`), the
/// gradebook and `result.json`. Reversible, so two names never share a key: each byte that is not part
/// of valid UTF-8, each control character (C0, DEL, C1, bidirectional overrides) and each `%` is written
/// `%XX` (its bytes in hex); a name the grader itself uses beside the folders (`grades.csv`,
/// `tournament.csv`, `tournament`, `shard.json`, `export`, `index.html`) has its first byte written so. A key longer than a
/// file name may be is cut, and the cut marked with a hash of the whole name (no longer reversible, still distinct).
#[must_use]
pub fn student_key(name: &OsStr) -> String {
    let bytes = name.as_bytes();
    let mut key = String::with_capacity(bytes.len());
    let hex = |key: &mut String, b: &[u8]| {
        for byte in b {
            let _ = write!(key, "%{byte:02X}");
        }
    };
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let weird = c == '%' || crate::untrusted::is_hidden(c);
            if weird {
                hex(&mut key, c.encode_utf8(&mut [0; 4]).as_bytes());
            } else {
                key.push(c);
            }
        }
        hex(&mut key, chunk.invalid());
    }
    if RESERVED.contains(&key.as_str()) {
        let first = key.remove(0);
        key.insert_str(0, &format!("%{:02X}", u32::from(first)));
    }
    const MAX: usize = 200;
    if key.len() > MAX {
        let mut at = MAX - 20;
        // Never inside a character or an escape.
        while !key.is_char_boundary(at)
            || key.as_bytes()[at - 1] == b'%'
            || key.as_bytes()[at - 2] == b'%'
        {
            at -= 1;
        }
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        key.truncate(at);
        let _ = write!(key, "~{hash:016x}");
    }
    key
}

/// The columns of a class's reports: the suite's groups and manual columns, and the tournament's
/// when `grader run` plays one (`tournament`).
#[must_use]
pub fn columns(suite: &Suite, tournament: bool) -> Columns {
    Columns {
        groups: suite
            .groups
            .iter()
            .map(|g| (g.name.clone(), g.points))
            .collect(),
        manual: suite
            .manual
            .iter()
            .map(|m| (m.name.clone(), m.points))
            .collect(),
        tournament: suite
            .arena
            .as_ref()
            .and_then(|a| a.marks.as_ref())
            .filter(|_| tournament)
            .map(|m| (m.most(), m.bonus)),
        course: std::fs::symlink_metadata(suite.dir.join(crate::course::COURSE_FILE)).is_ok(),
    }
}

/// Grades every student with `jobs` threads, each in a scratch folder of its own (under `full`, a tmpfs
/// capped to `bounds`) removed once graded, telling `reporter` of each case and submission as it
/// finishes. Returns the results in student order. A worker whose program sleeps lends its slot
/// (`sandbox::pace`), up to [`LENT_PER_SLOT`] × `jobs` lent at once.
///
/// # Errors
/// The scratch folder cannot be made (nothing is graded).
pub fn grade_class(
    sandbox: &Arc<dyn Sandbox>,
    prepare: &dyn Prepare,
    suite: &Suite,
    students: &[(String, PathBuf)],
    jobs: usize,
    bounds: Bounds,
    reporter: &dyn Reporter,
) -> anyhow::Result<Vec<SubmissionResult>> {
    let cores = Cores::new(jobs, lend_cap(jobs, suite.limits.memory));
    grade_class_sharing(sandbox, prepare, suite, students, &cores, bounds, reporter)
}

/// How many slots may be lent at once for each slot. Three: a submission whose games sleep (a move
/// limit waited out) has its sets' games under way at once (`grade::sets`), each holding a lent slot
/// while it sleeps; with one a slot, the Super-TTT class alone took 13.4 s, with three 12.3 s, and
/// the examples measured 1.15-1.16× of their floor against 1.16-1.18× (fifteenth session,
/// docs/testing.md).
pub const LENT_PER_SLOT: usize = 3;

/// How many slots may be lent at once (each admits one more submission while another's program
/// sleeps): [`LENT_PER_SLOT`] for each slot, while the memory available holds every admitted
/// submission at its memory limit (`memory`, bytes); none when `GRADER_NO_LEND` is set.
#[must_use]
pub fn lend_cap(jobs: usize, memory: u64) -> usize {
    if std::env::var_os("GRADER_NO_LEND").is_some() {
        return 0;
    }
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemAvailable:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map(|kib| kib * 1024);
    let fits = available.map_or(0, |a| a / memory.max(1));
    let fits = usize::try_from(fits).unwrap_or(usize::MAX);
    (LENT_PER_SLOT * jobs).min(fits.saturating_sub(jobs))
}

/// [`grade_class`] with its submissions graded in `cores` shared with other classes: as many workers as
/// there can be submissions at once (`Cores::most`), each holding a slot while it grades a submission
/// (lent while its program sleeps).
///
/// # Errors
/// The scratch folder cannot be made (nothing is graded).
pub fn grade_class_sharing(
    sandbox: &Arc<dyn Sandbox>,
    prepare: &dyn Prepare,
    suite: &Suite,
    students: &[(String, PathBuf)],
    cores: &Arc<Cores>,
    bounds: Bounds,
    reporter: &dyn Reporter,
) -> anyhow::Result<Vec<SubmissionResult>> {
    let order: Vec<usize> = (0..students.len()).collect();
    let class = Class {
        students,
        order: &order,
    };
    grade_class_ordered(sandbox, prepare, suite, class, cores, bounds, reporter)
}

/// The submissions of a class, and the order to start them in (a permutation of their indexes).
#[derive(Clone, Copy, Debug)]
pub struct Class<'a> {
    pub students: &'a [(String, PathBuf)],
    pub order: &'a [usize],
}

/// The order that starts the longest first: by `expected` time (an earlier run's), longest first, ties
/// (and every submission with no earlier time, at zero) in student order. A long submission started last
/// ends alone at the tail with the other cores idle; started first, the short ones fill in beside it.
#[must_use]
pub fn longest_first(expected: &[u64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..expected.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(expected[i]));
    order
}

/// [`grade_class_sharing`] starting the submissions in `class.order`. The results are in student order
/// whatever the order: only when each is graded moves, and no verdict depends on that
/// (`sandbox::pace`).
///
/// # Errors
/// The scratch folder cannot be made (nothing is graded).
pub fn grade_class_ordered(
    sandbox: &Arc<dyn Sandbox>,
    prepare: &dyn Prepare,
    suite: &Suite,
    class: Class,
    cores: &Arc<Cores>,
    bounds: Bounds,
    reporter: &dyn Reporter,
) -> anyhow::Result<Vec<SubmissionResult>> {
    let Class { students, order } = class;
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<SubmissionResult>>> = Mutex::new(vec![None; students.len()]);
    let scratch_root = Scratch::new().context("cannot make a scratch folder")?;
    std::thread::scope(|scope| {
        for _ in 0..cores.most().clamp(1, students.len().max(1)) {
            scope.spawn(|| loop {
                let slot = Pacer::enter(cores);
                let Some(&i) = order.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    break;
                };
                let Some((name, dir)) = students.get(i) else {
                    break;
                };
                reporter.report(&Event::SubmissionStarted {
                    index: i,
                    student: name,
                });
                let bounded = (sandbox.tier() == Tier::Full).then_some(bounds);
                let rooms = Rooms::or_unmade(&scratch_root, &format!("s{i}"), bounded);
                let graded = grade(
                    sandbox,
                    prepare,
                    suite,
                    name,
                    dir,
                    &rooms,
                    &|_| true,
                    &mut |case| {
                        reporter.report(&Event::CaseFinished {
                            index: i,
                            student: name,
                            case,
                        });
                    },
                );
                // What the program left cannot stop the class: a tree that will not go is reported and
                // left for the end of the run (or the next grader's sweep).
                if let Err(e) = scratch_root.release(rooms.base()) {
                    reporter.report(&Event::Warning {
                        message: format!("{e:#}"),
                    });
                }
                // Its programs are done and its room is gone: the slot goes to the next submission
                // while this thread writes the result (files synced to disk: a wait, not a program's).
                drop(slot);
                reporter.report(&Event::SubmissionFinished {
                    index: i,
                    result: &graded.result,
                    artifacts: &graded.artifacts,
                });
                done.lock().expect("results lock")[i] = Some(graded.result);
            });
        }
    });
    Ok(done
        .into_inner()
        .expect("results lock")
        .into_iter()
        .flatten()
        .collect())
}

#[cfg(test)]
mod order_tests {
    #[test]
    fn the_longest_start_first_and_ties_keep_student_order() {
        assert_eq!(super::longest_first(&[5, 0, 90, 5, 0]), vec![2, 0, 3, 1, 4]);
        assert_eq!(super::longest_first(&[0, 0, 0]), vec![0, 1, 2]);
        assert!(super::longest_first(&[]).is_empty());
    }
}

#[cfg(test)]
mod key_tests {
    use super::*;

    fn key(bytes: &[u8]) -> String {
        student_key(OsStr::from_bytes(bytes))
    }

    #[test]
    fn keys_keep_plain_names_and_escape_the_rest_reversibly() {
        assert_eq!(key(b"alice"), "alice");
        assert_eq!(key("zoë".as_bytes()), "zoë");
        assert_eq!(key(b"=HYPERLINK(\"x\")"), "=HYPERLINK(\"x\")");
        // Two names that differ only in invalid bytes (lossy decoding made both `bob\u{fffd}`).
        assert_eq!(key(b"bob\xff"), "bob%FF");
        assert_eq!(key(b"bob\xfe"), "bob%FE");
        assert_eq!(key(b"50%"), "50%25");
        assert_eq!(key(b"bob%FF"), "bob%25FF");
        assert_eq!(key(b"a\x1b]0;x\x07"), "a%1B]0;x%07");
        assert_eq!(key("e\u{202e}vil".as_bytes()), "e%E2%80%AEvil");
        assert_eq!(key(b"grades.csv"), "%67rades.csv");
        assert_eq!(key(b"tournament.csv"), "%74ournament.csv");
        assert_eq!(key(b"tournament"), "%74ournament");
        assert_eq!(key(b"index.html"), "%69ndex.html");
        assert_eq!(key(b"shard.json"), "%73hard.json");
        assert_eq!(key(b"export"), "%65xport");
    }

    #[test]
    fn long_keys_are_cut_distinctly_and_fit_a_file_name() {
        let a = key(&[0xff; 255]);
        let mut other = vec![0xff; 254];
        other.push(0xfe);
        let b = key(&other);
        assert!(a.len() <= 200, "{}", a.len());
        assert_ne!(a, b);
        assert!(a.starts_with("%FF%FF"));
    }

    #[test]
    fn folders_that_lossy_decoding_merged_get_their_own_keys() {
        let dir = tempfile::tempdir().unwrap();
        for name in [&b"bob\xff"[..], b"bob\xfe", b".git", b"grades.csv"] {
            std::fs::create_dir(dir.path().join(OsStr::from_bytes(name))).unwrap();
        }
        let keys: Vec<String> = students(dir.path())
            .unwrap()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(keys, ["%67rades.csv", "bob%FE", "bob%FF"]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn available() -> u64 {
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
        let line = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .unwrap();
        line.trim()
            .trim_end_matches("kB")
            .trim()
            .parse::<u64>()
            .unwrap()
            * 1024
    }

    /// Three slots lent for each slot while memory holds them all; fewer when it holds fewer
    /// submissions at their limit than that.
    #[test]
    fn slots_lent_are_three_a_slot_within_memory() {
        if std::env::var_os("GRADER_NO_LEND").is_some() {
            eprintln!("skipping: GRADER_NO_LEND is set");
            return;
        }
        assert_eq!(lend_cap(2, 1 << 20), 3 * 2);
        // Room for four submissions at a quarter of what is available, give or take what moves
        // between the two reads: two slots, one or two more.
        let cap = lend_cap(2, available() / 4 + 1);
        assert!((1..=2).contains(&cap), "{cap}");
    }
}
