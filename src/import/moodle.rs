//! Moodle's "Download all submissions" (mod/assign): with "Download submissions in folders" (the
//! default since Moodle 3.1) one folder per submission, `<Full Name>_<participant id>_assignsubmission_file`
//! (Moodle 3 adds a trailing `_`), holding the files under their own names; without it, files named
//! `<Full Name>_<participant id>_assignsubmission_file_<file>`. A team submission is named by its group
//! (`<Group>_<group id>`, or Moodle 3's `<Group>-<Full Name>_<id>`). The download holds no times: the
//! grading worksheet ("Download grading worksheet", `--times`) gives "Last modified (submission)".

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::archive::Entry;
use super::{Found, Options};
use crate::course::roster::Identity;

const MARK: &str = "_assignsubmission_";

/// `<prefix>_assignsubmission_<plugin>[_]` split: the prefix and the plugin (`file`, `onlinetext`).
fn split(component: &str) -> Option<(&str, &str, &str)> {
    let (prefix, rest) = component.split_once(MARK)?;
    let (plugin, file) = match rest.split_once('_') {
        Some((p, f)) => (p, f),
        None => (rest, ""),
    };
    Some((prefix, plugin, file))
}

/// The name and participant (or group) id in a prefix: `Ann Lee_123456` → ("Ann Lee", "123456").
fn who(prefix: &str) -> (String, Option<String>) {
    match prefix.rsplit_once('_') {
        Some((name, id)) if !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()) => {
            (name.to_string(), Some(id.to_string()))
        }
        _ => (prefix.to_string(), None),
    }
}

/// Groups the download's files by submission, with times from the grading worksheet when given.
///
/// # Errors
/// The worksheet cannot be read.
pub fn parse(
    entries: &[Entry],
    options: &Options<'_>,
) -> anyhow::Result<(Vec<Found>, Vec<String>)> {
    let times = match options.times {
        Some(path) => worksheet(path, &options.timezone)?,
        None => BTreeMap::new(),
    };
    let mut by: BTreeMap<String, Found> = BTreeMap::new();
    let mut notes = Vec::new();
    for e in entries {
        let mut parts = e
            .path
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned());
        let first = parts.next().unwrap_or_default();
        let rest: PathBuf = parts.collect();
        let Some((prefix, plugin, flat)) = split(&first) else {
            notes.push(format!(
                "`{}` is not named as Moodle names a submission; skipped",
                e.path.display()
            ));
            continue;
        };
        let file = if rest.as_os_str().is_empty() {
            PathBuf::from(flat)
        } else {
            rest
        };
        if plugin != "file" {
            notes.push(format!(
                "`{}`: Moodle's `{plugin}` part (not a file hand-in) is kept as `{}`",
                prefix,
                file.display()
            ));
        }
        if file.as_os_str().is_empty() {
            continue;
        }
        let (name, id) = who(prefix);
        let f = by.entry(prefix.to_string()).or_insert_with(|| Found {
            label: name.clone(),
            members: vec![Identity {
                name: Some(name.clone()),
                lms_id: id.clone(),
                ..Identity::default()
            }],
            submitted: id.as_ref().and_then(|i| times.get(i).copied()),
            ..Found::default()
        });
        f.files.push((file, e.bytes.clone()));
    }
    if options.times.is_none() {
        notes.push("Moodle's download holds no submission times: give the grading worksheet with `--times` for the late rule".into());
    }
    Ok((by.into_values().collect(), notes))
}

/// The grading worksheet's "Last modified (submission)" by participant id ("Participant 123456").
fn worksheet(
    path: &Path,
    tz: &jiff::tz::TimeZone,
) -> anyhow::Result<BTreeMap<String, jiff::Timestamp>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read the worksheet `{}`: {e}", path.display()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes());
    let header = reader.headers()?.clone();
    let col = |name: &str| header.iter().position(|h| h.trim() == name);
    let (Some(id), Some(when)) = (col("Identifier"), col("Last modified (submission)")) else {
        anyhow::bail!("`{}` is not a Moodle grading worksheet (no `Identifier` and `Last modified (submission)` columns)", path.display());
    };
    let mut out = BTreeMap::new();
    for record in reader.records() {
        let record = record?;
        let who: String = record
            .get(id)
            .unwrap_or_default()
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        let at = record.get(when).unwrap_or_default().trim();
        if let Some(t) = moodle_time(at, tz) {
            out.insert(who, t);
        }
    }
    Ok(out)
}

/// `Tuesday, 30 March 2021, 11:59 PM` (Moodle's English date), in the course's time zone.
fn moodle_time(text: &str, tz: &jiff::tz::TimeZone) -> Option<jiff::Timestamp> {
    let civil = jiff::civil::DateTime::strptime("%A, %d %B %Y, %I:%M %p", text).ok()?;
    civil.to_zoned(tz.clone()).ok().map(|z| z.timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moodle_folders_files_teams_and_the_worksheet() {
        let dir = tempfile::tempdir().unwrap();
        let sheet = dir.path().join("grades.csv");
        std::fs::write(&sheet, "Identifier,Full name,Email address,Status,Last modified (submission)\nParticipant 111,Ann Lee,ann@x.edu,Submitted,\"Tuesday, 30 March 2021, 11:59 PM\"\n").unwrap();
        let e = |p: &str| Entry {
            path: p.into(),
            bytes: b"x".to_vec(),
        };
        let entries = [
            e("Ann Lee_111_assignsubmission_file/tictactoe.py"),
            e("Ann Lee_111_assignsubmission_file/src/util.py"),
            e("Bob Bell_222_assignsubmission_file_tictactoe.c"),
            e("Red Team_7_assignsubmission_file_/ai.scm"),
            e("stray.txt"),
        ];
        let options = Options {
            roster: None,
            timezone: jiff::tz::TimeZone::get("Australia/Adelaide").unwrap(),
            times: Some(&sheet),
        };
        let (found, notes) = parse(&entries, &options).unwrap();
        let labels: Vec<&str> = found.iter().map(|f| f.label.as_str()).collect();
        assert_eq!(labels, ["Ann Lee", "Bob Bell", "Red Team"]);
        assert_eq!(found[0].files.len(), 2);
        assert_eq!(
            found[0].submitted.unwrap().to_string(),
            "2021-03-30T13:29:00Z"
        );
        assert_eq!(found[1].files[0].0, PathBuf::from("tictactoe.c"));
        assert_eq!(found[2].members[0].lms_id.as_deref(), Some("7"));
        assert!(
            notes[0].starts_with("`stray.txt` is not named as Moodle names"),
            "{notes:?}"
        );
    }
}
