//! `submissions.toml`: what `grader import` learnt from an LMS download about each submission folder
//! beside it (when it was handed in, whether the LMS marked it late, who handed it in, the file names
//! it restored), and what `grader run` reads back to apply the course's late rule and to name each
//! row's students. An instructor may edit it (a time the LMS did not give, an entry kind).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::roster::Identity;
use crate::toml_file::TomlError;

/// The file's name, in a class's submissions folder.
pub const FILE: &str = "submissions.toml";

/// The most of the file read (a class of thousands is a few hundred kilobytes).
const CAP: u64 = 16 << 20;

/// Which parts of the assignment a hand-in is for (Super-Tic-Tac-Toe's form, 000:24).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Entry {
    /// "Tournament + regular assignment": graded and entered.
    #[default]
    Both,
    /// "Tournament only": entered; its regular part is graded from another hand-in.
    Tournament,
    /// "Regular (i.e., non-tournament) only": graded, not entered.
    Regular,
}

/// One submission folder's record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Record {
    /// When it was handed in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted: Option<toml::value::Datetime>,
    /// The LMS marked it late (a Canvas download's `LATE`), whether or not it says when.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub late: bool,
    #[serde(default, skip_serializing_if = "is_both")]
    pub entry: Entry,
    /// Who handed it in, as the LMS names them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Identity>,
    /// Each restored file name and the name the LMS gave it (`tictactoe.py` ← `tictactoe-1.py`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub renamed: BTreeMap<String, String>,
}

fn is_both(e: &Entry) -> bool {
    *e == Entry::Both
}

/// The whole file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Submissions {
    /// The LMS the download came from (`canvas`, `moodle`, ...).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// By submission folder.
    #[serde(default)]
    pub submissions: BTreeMap<String, Record>,
    #[serde(skip)]
    pub path: PathBuf,
}

impl Submissions {
    /// The file in `class_dir`, if there is one, read as any file a download left: no link followed,
    /// capped.
    ///
    /// # Errors
    /// A file that cannot be read or is not a valid submissions file (located).
    pub fn load(class_dir: &Path) -> Result<Option<Submissions>, TomlError> {
        let path = class_dir.join(FILE);
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok(None);
        }
        let read = crate::untrusted::read_output(class_dir, Path::new(FILE), CAP).map_err(|e| {
            TomlError::Read {
                path: path.clone(),
                source: std::io::Error::other(e.to_string()),
            }
        })?;
        if read.truncated {
            return Err(TomlError::Invalid {
                at: path.display().to_string(),
                message: format!("larger than {CAP} bytes"),
            });
        }
        let text = String::from_utf8_lossy(&read.bytes);
        let mut s: Submissions = crate::toml_file::parse_toml(&path, &text)?;
        s.path = path;
        Ok(Some(s))
    }

    /// The file's text, with a comment saying what it is.
    #[must_use]
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!(
            "# Written by `grader import {}`: one table per submission folder beside this file.\n\
             # `grader run` reads it: `submitted` for the course's late rule, `members` for each row's students.\n\
             # Edit a `submitted` time the LMS did not give (UTC, or with an offset).\n\n{body}",
            self.source
        )
    }

    /// The record of submission folder `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Record> {
        self.submissions.get(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_import_writes_run_reads_back() {
        let mut s = Submissions {
            source: "canvas".into(),
            ..Submissions::default()
        };
        s.submissions.insert(
            "leeann".into(),
            Record {
                submitted: Some("2021-03-31T00:30:00Z".parse().unwrap()),
                late: true,
                members: vec![Identity {
                    name: Some("leeann".into()),
                    lms_id: Some("12345".into()),
                    ..Identity::default()
                }],
                renamed: [("tictactoe.py".to_string(), "tictactoe-1.py".to_string())].into(),
                ..Record::default()
            },
        );
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), s.to_toml()).unwrap();
        let back = Submissions::load(dir.path()).unwrap().unwrap();
        assert_eq!(back.submissions, s.submissions);
        assert!(Submissions::load(&dir.path().join("none"))
            .unwrap()
            .is_none());
        std::fs::write(dir.path().join(FILE), "[submissions.a]\nlate = \"yes\"\n").unwrap();
        let e = Submissions::load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("submissions.toml:2:8"), "{e}");
    }
}
