//! Canvas's "Download Submissions" zip: every file at the top, named
//! `<name>_[LATE_]<user id>_<file id>_<file name>` (`<name>` the student's sortable name squashed to
//! lowercase word characters, `LATE` when Canvas counts the hand-in late, `anon_<id>` for the user
//! under anonymous grading), or `<name>_[LATE_]<user id>_text.html` / `_link.html` for a text entry or a
//! URL. A file handed in again under the same name was renamed by Canvas (`tictactoe-1.py`): the name
//! is restored. The zip holds no times: a `LATE` hand-in's time must come from Canvas (SpeedGrader).

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::archive::Entry;
use super::{restore_resubmission_name, Found};
use crate::course::roster::Identity;

/// A Canvas file name taken apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The squashed sortable name (`leeann`); empty under anonymous grading.
    pub who: String,
    pub late: bool,
    /// Canvas's user id, or `anon_<id>`.
    pub user: String,
    /// The file as handed in (`text.html` for a text entry).
    pub file: String,
}

/// Takes a Canvas download's file name apart, or `None` when it is not one.
#[must_use]
pub fn parse_name(name: &str) -> Option<Name> {
    let tokens: Vec<&str> = name.split('_').collect();
    let digits = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
    // The user id: the first all-digit token (or `anon` and its id) with something after it.
    let mut at = (0..tokens.len())
        .find(|&i| digits(tokens[i]) || (tokens[i] == "anon" && i + 1 < tokens.len()))?;
    let mut who_end = at;
    let mut user = tokens[at].to_string();
    if tokens[at] == "anon" {
        at += 1;
        user = format!("anon_{}", tokens[at]);
    }
    let late = who_end > 0 && tokens[who_end - 1] == "LATE";
    if late {
        who_end -= 1;
    }
    let who = tokens[..who_end].join("_");
    let rest = &tokens[at + 1..];
    let file = match rest {
        [kind] if *kind == "text.html" || *kind == "link.html" => (*kind).to_string(),
        [file_id, file @ ..] if digits(file_id) && !file.is_empty() => file.join("_"),
        _ => return None,
    };
    Some(Name {
        who,
        late,
        user,
        file,
    })
}

/// Groups the download's files by submitter. Files in folders, and names not in Canvas's form, are
/// named in a note and left out.
#[must_use]
pub fn parse(entries: &[Entry]) -> (Vec<Found>, Vec<String>) {
    let mut by_user: BTreeMap<String, Found> = BTreeMap::new();
    let mut notes = Vec::new();
    for e in entries {
        let name = e.name();
        let parsed = (e.path.components().count() == 1)
            .then(|| parse_name(&name))
            .flatten();
        let Some(n) = parsed else {
            notes.push(format!(
                "`{}` is not named as Canvas names a submission's file; skipped",
                e.path.display()
            ));
            continue;
        };
        let f = by_user.entry(n.user.clone()).or_insert_with(|| Found {
            label: if n.who.is_empty() {
                n.user.clone()
            } else {
                n.who.clone()
            },
            members: vec![Identity {
                name: (!n.who.is_empty()).then(|| n.who.clone()),
                lms_id: Some(n.user.clone()),
                ..Identity::default()
            }],
            ..Found::default()
        });
        f.late |= n.late;
        f.files.push((PathBuf::from(&n.file), e.bytes.clone()));
    }
    for f in by_user.values_mut() {
        restore_names(f);
    }
    (by_user.into_values().collect(), notes)
}

/// Undoes Canvas's `-1` renames within one submission.
fn restore_names(f: &mut Found) {
    let names: Vec<String> = f
        .files
        .iter()
        .map(|(p, _)| p.display().to_string())
        .collect();
    for (path, _) in &mut f.files {
        let name = path.display().to_string();
        let taken = |n: &str| names.iter().any(|m| m == n);
        if let Some(restored) = restore_resubmission_name(&name, &taken) {
            f.renamed.insert(restored.clone(), name);
            *path = PathBuf::from(restored);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canvas_names_with_late_anonymous_and_text_entries() {
        let n = parse_name("leeann_LATE_12345_67890_tictactoe-1.py").unwrap();
        assert_eq!(
            (n.who.as_str(), n.late, n.user.as_str(), n.file.as_str()),
            ("leeann", true, "12345", "tictactoe-1.py")
        );
        let n = parse_name("smithjohn_222_333_my_file_name.py").unwrap();
        assert_eq!((n.late, n.file.as_str()), (false, "my_file_name.py"));
        let n = parse_name("anon_x7Yz_444_Makefile").unwrap();
        assert_eq!(
            (n.who.as_str(), n.user.as_str(), n.file.as_str()),
            ("", "anon_x7Yz", "Makefile")
        );
        let n = parse_name("LATE_anon_q1_444_a.c").unwrap();
        assert!(n.late);
        assert_eq!(
            parse_name("leeann_12345_text.html").unwrap().file,
            "text.html"
        );
        assert_eq!(parse_name("tictactoe.py"), None);
        assert_eq!(parse_name("leeann_12345"), None);
        let entries = vec![
            Entry {
                path: "leeann_LATE_1_9_tictactoe-1.py".into(),
                bytes: b"a".to_vec(),
            },
            Entry {
                path: "leeann_LATE_1_8_Makefile".into(),
                bytes: b"b".to_vec(),
            },
            Entry {
                path: "bobb_2_7_tictactoe.py".into(),
                bytes: b"c".to_vec(),
            },
            Entry {
                path: "notes/readme.txt".into(),
                bytes: b"d".to_vec(),
            },
        ];
        let (found, notes) = parse(&entries);
        assert_eq!(found.len(), 2);
        assert_eq!(notes.len(), 1);
        let lee = found.iter().find(|f| f.label == "leeann").unwrap();
        assert!(lee.late);
        assert_eq!(
            lee.renamed.get("tictactoe.py").map(String::as_str),
            Some("tictactoe-1.py")
        );
        assert!(lee
            .files
            .iter()
            .any(|(p, _)| p == &PathBuf::from("tictactoe.py")));
    }
}
