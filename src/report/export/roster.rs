//! The roster: a CSV mapping each results folder to a student's identities (id, login, email, name,
//! section), read strictly, every error naming the file and line.

use std::path::{Path, PathBuf};

/// The columns a roster may have; `folder` is required.
pub const COLUMNS: [&str; 6] = ["folder", "id", "login", "email", "name", "section"];

/// One student of the roster; an empty cell is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Student {
    /// The student's folder under the results (and submissions) folder.
    pub folder: String,
    pub id: Option<String>,
    pub login: Option<String>,
    pub email: Option<String>,
    pub name: Option<String>,
    pub section: Option<String>,
}

/// Why a roster cannot be used. Each is bad input, naming the file (and line).
#[derive(Debug, thiserror::Error)]
pub enum RosterError {
    #[error("cannot read the roster `{path}`")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{path}`: line {line}: not CSV")]
    Csv {
        path: PathBuf,
        line: u64,
        #[source]
        source: csv::Error,
    },
    #[error("`{path}` has no `folder` column\nhint: the first line names the columns: `folder` and any of `id`, `login`, `email`, `name`, `section`")]
    NoFolder { path: PathBuf },
    #[error("`{path}`: line 1: unknown column `{column}`\nhint: a roster's columns are `folder`, `id`, `login`, `email`, `name` and `section`")]
    UnknownColumn { path: PathBuf, column: String },
    #[error("`{path}`: line 1: column `{column}` appears twice")]
    Twice { path: PathBuf, column: String },
    #[error("`{path}`: line {line}: the `folder` cell is empty")]
    EmptyFolder { path: PathBuf, line: u64 },
    #[error("`{path}`: line {line}: folder `{folder}` is already on line {first}")]
    Duplicate {
        path: PathBuf,
        line: u64,
        folder: String,
        first: u64,
    },
}

/// A class's roster, in the file's order.
#[derive(Clone, Debug, Default)]
pub struct Roster {
    pub path: PathBuf,
    pub students: Vec<Student>,
}

impl Roster {
    /// Reads the roster at `path`.
    ///
    /// # Errors
    /// The file cannot be read, is not CSV, or breaks a rule above (named with its line).
    pub fn load(path: &Path) -> Result<Roster, RosterError> {
        let text = std::fs::read_to_string(path).map_err(|source| RosterError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Roster::parse(path, &text)
    }

    /// Reads a roster's text; `path` names it in errors.
    ///
    /// # Errors
    /// As [`Roster::load`].
    pub fn parse(path: &Path, text: &str) -> Result<Roster, RosterError> {
        let path = path.to_path_buf();
        // A spreadsheet's UTF-8 export often starts with a byte-order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let csv_error = |source: csv::Error| RosterError::Csv {
            path: path.clone(),
            line: source.position().map_or(1, csv::Position::line),
            source,
        };
        let header = reader.headers().map_err(csv_error)?.clone();
        let mut index = [None; COLUMNS.len()];
        for (at, name) in header.iter().enumerate() {
            let lower = name.to_ascii_lowercase();
            let Some(k) = COLUMNS.iter().position(|c| *c == lower) else {
                return Err(RosterError::UnknownColumn {
                    path,
                    column: name.to_string(),
                });
            };
            if index[k].replace(at).is_some() {
                return Err(RosterError::Twice {
                    path,
                    column: lower,
                });
            }
        }
        if index[0].is_none() {
            return Err(RosterError::NoFolder { path });
        }
        let mut students: Vec<(u64, Student)> = Vec::new();
        for record in reader.records() {
            let record = record.map_err(csv_error)?;
            let line = record.position().map_or(0, csv::Position::line);
            let cell = |k: usize| -> Option<String> {
                let text = record.get(index[k]?)?;
                (!text.is_empty()).then(|| text.to_string())
            };
            let Some(folder) = cell(0) else {
                return Err(RosterError::EmptyFolder { path, line });
            };
            if let Some((first, _)) = students.iter().find(|(_, s)| s.folder == folder) {
                return Err(RosterError::Duplicate {
                    path,
                    line,
                    folder,
                    first: *first,
                });
            }
            let student = Student {
                folder,
                id: cell(1),
                login: cell(2),
                email: cell(3),
                name: cell(4),
                section: cell(5),
            };
            students.push((line, student));
        }
        Ok(Roster {
            path,
            students: students.into_iter().map(|(_, s)| s).collect(),
        })
    }

    /// The student whose folder is `folder`.
    #[must_use]
    pub fn get(&self, folder: &str) -> Option<&Student> {
        self.students.iter().find(|s| s.folder == folder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Roster, String> {
        Roster::parse(Path::new("roster.csv"), text).map_err(|e| crate::error::chain_line(&e))
    }

    #[test]
    fn columns_in_any_order_and_case_with_blanks_as_none() {
        let r = parse("\u{feff}Email, folder ,name\nann@x.edu,ann,\"Lee, Ann\"\n,bob,\n").unwrap();
        assert_eq!(
            r.students,
            [
                Student {
                    folder: "ann".into(),
                    email: Some("ann@x.edu".into()),
                    name: Some("Lee, Ann".into()),
                    ..Student::default()
                },
                Student {
                    folder: "bob".into(),
                    ..Student::default()
                }
            ]
        );
        assert_eq!(r.get("bob").unwrap().folder, "bob");
        assert!(r.get("cy").is_none());
    }

    #[test]
    fn every_error_names_the_file_and_line() {
        for (text, want) in [
            (
                "id,login\n1,a\n",
                "`roster.csv` has no `folder` column\nhint:",
            ),
            (
                "folder,mail\n",
                "`roster.csv`: line 1: unknown column `mail`",
            ),
            (
                "folder,Folder\n",
                "`roster.csv`: line 1: column `folder` appears twice",
            ),
            (
                "folder,id\na,1\n,2\n",
                "`roster.csv`: line 3: the `folder` cell is empty",
            ),
            (
                "folder,id\na,1\nb,2\na,3\n",
                "`roster.csv`: line 4: folder `a` is already on line 2",
            ),
            ("folder,id\na,1\nb,2,3\n", "`roster.csv`: line 3: not CSV"),
        ] {
            let got = parse(text).unwrap_err();
            assert!(got.starts_with(want), "{text:?}: {got}");
        }
        let missing = Roster::load(Path::new("/nonexistent/roster.csv")).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "cannot read the roster `/nonexistent/roster.csv`"
        );
    }
}
