//! Blackboard Learn's "Assignment File Download" (Grade Centre): for each attempt, a receipt
//! `<Assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>.txt` (`Name: Full Name (username)`, `Date
//! Submitted: …`, and under `Files:` each `Original filename:` with the `Filename:` it was stored
//! as) and each file as `<Assignment>_<username>_attempt_<date>_<file>`. The date in the names is the
//! server's local time (`--timezone`). A student's latest attempt is kept.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::archive::Entry;
use super::{Found, Options};
use crate::course::roster::Identity;

const MARK: &str = "_attempt_";
/// `2021-03-30-23-59-01`.
const DATE_LEN: usize = 19;

/// `(username, date, rest)` of a Blackboard name: `rest` is empty for the receipt (`.txt`).
fn split(name: &str) -> Option<(String, String, String)> {
    let at = name.rfind(MARK)?;
    let before = &name[..at];
    let after = &name[at + MARK.len()..];
    let user = before
        .rsplit_once('_')
        .map_or(before, |(_, u)| u)
        .to_string();
    let date = after.get(..DATE_LEN)?.to_string();
    if !date.chars().all(|c| c.is_ascii_digit() || c == '-') {
        return None;
    }
    let rest = &after[DATE_LEN..];
    let rest = if rest == ".txt" {
        String::new()
    } else {
        rest.strip_prefix('_')?.to_string()
    };
    Some((user, date, rest))
}

/// From a receipt: the full name, and each stored file name → its original name.
fn receipt(text: &str) -> (Option<String>, BTreeMap<String, String>) {
    let mut name = None;
    let mut files = BTreeMap::new();
    let mut original: Option<String> = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(n) = line.strip_prefix("Name:") {
            name = Some(n.rsplit_once('(').map_or(n, |(n, _)| n).trim().to_string());
        } else if let Some(o) = line.strip_prefix("Original filename:") {
            original = Some(o.trim().to_string());
        } else if let Some(f) = line.strip_prefix("Filename:") {
            if let Some(o) = original.take() {
                files.insert(f.trim().to_string(), o);
            }
        }
    }
    (name, files)
}

/// One attempt: the receipt's full name and original names (stored → own), and its files.
type Attempt<'a> = (Option<String>, BTreeMap<String, String>, Vec<&'a Entry>);

/// Each student's latest attempt.
#[must_use]
pub fn parse(entries: &[Entry], options: &Options<'_>) -> (Vec<Found>, Vec<String>) {
    let mut notes = Vec::new();
    // (user, date) → receipt and files.
    let mut attempts: BTreeMap<(String, String), Attempt<'_>> = BTreeMap::new();
    for e in entries {
        let name = e.name();
        let Some((user, date, rest)) = (e.path.components().count() == 1)
            .then(|| split(&name))
            .flatten()
        else {
            notes.push(format!(
                "`{}` is not named as Blackboard names an attempt's file; skipped",
                e.path.display()
            ));
            continue;
        };
        let slot = attempts.entry((user, date)).or_default();
        if rest.is_empty() {
            let (full, files) = receipt(&String::from_utf8_lossy(&e.bytes));
            slot.0 = full;
            slot.1 = files;
        } else {
            slot.2.push(e);
        }
    }
    let mut latest: BTreeMap<String, Found> = BTreeMap::new();
    for ((user, date), (full, originals, files)) in attempts {
        if latest.contains_key(&user) {
            notes.push(format!(
                "`{user}` made several attempts: the latest ({date}) is kept"
            ));
        }
        let submitted = jiff::civil::DateTime::strptime("%Y-%m-%d-%H-%M-%S", &date)
            .ok()
            .and_then(|c| c.to_zoned(options.timezone.clone()).ok())
            .map(|z| z.timestamp());
        let mut f = Found {
            label: user.clone(),
            members: vec![Identity {
                name: full,
                login: Some(user.clone()),
                ..Identity::default()
            }],
            submitted,
            ..Found::default()
        };
        for e in files {
            let stored = e.name();
            let own = originals.get(&stored).cloned().unwrap_or_else(|| {
                split(&stored)
                    .map(|(_, _, rest)| rest)
                    .unwrap_or(stored.clone())
            });
            f.renamed.insert(own.clone(), stored);
            f.files.push((PathBuf::from(own), e.bytes.clone()));
        }
        latest.insert(user, f);
    }
    (latest.into_values().collect(), notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_receipts_original_names_and_the_latest_kept() {
        let txt = "Name: Ann Lee (alee)\nAssignment: A1\nDate Submitted: Tuesday, March 30, 2021 11:00:01 PM ACDT\nCurrent Grade: Needs Grading\n\nSubmission Field:\nThere is no student submission text data for this assignment.\n\nComments:\nThere are no student comments for this assignment.\n\nFiles:\n\tOriginal filename: tictactoe.py\n\tFilename: A1_alee_attempt_2021-03-30-23-00-01_tictactoe.py\n\n";
        let e = |p: &str, b: &[u8]| Entry {
            path: p.into(),
            bytes: b.to_vec(),
        };
        let entries = [
            e("A1_alee_attempt_2021-03-29-10-00-00_old.py", b"old"),
            e("A1_alee_attempt_2021-03-30-23-00-01.txt", txt.as_bytes()),
            e("A1_alee_attempt_2021-03-30-23-00-01_tictactoe.py", b"new"),
            e("A1_bob_b_attempt_2021-03-31-01-00-00_x.c", b"c"),
        ];
        let options = Options {
            roster: None,
            timezone: jiff::tz::TimeZone::get("Australia/Adelaide").unwrap(),
            times: None,
        };
        let (found, notes) = parse(&entries, &options);
        assert_eq!(found.len(), 2);
        let ann = &found[0];
        assert_eq!(ann.members[0].name.as_deref(), Some("Ann Lee"));
        assert_eq!(
            ann.files,
            [(PathBuf::from("tictactoe.py"), b"new".to_vec())]
        );
        assert_eq!(ann.submitted.unwrap().to_string(), "2021-03-30T12:30:01Z");
        assert!(
            notes[0].contains("the latest (2021-03-30-23-00-01) is kept"),
            "{notes:?}"
        );
        assert_eq!(found[1].label, "b");
    }
}
