//! The course's one roster: a CSV of students, each with the submission folder that holds their work,
//! their identities (the institution's `id`, `login`, `email`, `name`, the LMS's own `lms-id`), their
//! `section`, `track` and `team`. `grader import` matches LMS submitters to it, `grader run` takes each
//! student's track, section and team from it, and `grader export` keys each row on it. Read strictly,
//! every error naming the file and line.

use std::path::{Path, PathBuf};

/// The columns a roster may have. At least one of `folder`, `id`, `login`, `email`, `name` and
/// `lms-id` names each student.
pub const COLUMNS: [&str; 9] = [
    "folder", "id", "login", "email", "name", "section", "track", "team", "lms-id",
];

/// One student of the roster; an empty cell is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Student {
    /// The folder under the submissions (and results) folder holding the student's work: the `folder`
    /// cell, else the team, else the login, id, the email's part before `@`, the LMS id or the name
    /// (see [`folder_for`]). Team mates share their team's folder.
    pub folder: String,
    pub id: Option<String>,
    pub login: Option<String>,
    pub email: Option<String>,
    pub name: Option<String>,
    pub section: Option<String>,
    /// The course track (`course.toml`'s `[tracks]`), e.g. `postgraduate`.
    pub track: Option<String>,
    /// The team (group) the student hands in with; the team's folder holds the team's work.
    pub team: Option<String>,
    /// The LMS's own user id (Canvas's `ID`, the id in a Canvas download's file names).
    pub lms_id: Option<String>,
}

/// The folder a roster row's work is in when it has no `folder` cell: its team, else the first of its
/// login, id, the email before `@`, LMS id and name; each made a safe folder name ([`safe_name`]).
#[must_use]
pub fn folder_for(s: &Student) -> Option<String> {
    let email = s.email.as_deref().map(|e| e.split('@').next().unwrap_or(e));
    [
        s.team.as_deref(),
        s.login.as_deref(),
        s.id.as_deref(),
        email,
        s.lms_id.as_deref(),
        s.name.as_deref(),
    ]
    .into_iter()
    .flatten()
    .map(safe_name)
    .find(|n| !n.is_empty())
}

/// A name made a folder name that is the same on every system: letters, digits, `-`, `_` and `.` kept,
/// spaces and `,` turned into `-`, anything else dropped; never `.`/`..` or hidden; at most 100 bytes.
#[must_use]
pub fn safe_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
            out.push(c);
        } else if (c.is_whitespace() || c == ',') && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= 100 {
            break;
        }
    }
    let out = out.trim_matches(['-', '.']).to_string();
    out.trim_start_matches('.').to_string()
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
    #[error("`{path}` has no column naming students\nhint: the first line names the columns: any of `folder`, `id`, `login`, `email`, `name`, `lms-id`, with `section`, `track`, `team`")]
    NoFolder { path: PathBuf },
    #[error("`{path}`: line 1: unknown column `{column}`\nhint: a roster's columns are `folder`, `id`, `login`, `email`, `name`, `section`, `track`, `team` and `lms-id`")]
    UnknownColumn { path: PathBuf, column: String },
    #[error("`{path}`: line 1: column `{column}` appears twice")]
    Twice { path: PathBuf, column: String },
    #[error("`{path}`: line {line}: no cell names the student (`folder`, `id`, `login`, `email`, `name`, `team` or `lms-id`)")]
    EmptyFolder { path: PathBuf, line: u64 },
    #[error("`{path}`: line {line}: folder `{folder}` is already on line {first}\nhint: only members of one `team` share a folder")]
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
        if [0, 1, 2, 3, 4, 8].iter().all(|&k| index[k].is_none()) {
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
            let mut student = Student {
                folder: String::new(),
                id: cell(1),
                login: cell(2),
                email: cell(3),
                name: cell(4),
                section: cell(5),
                track: cell(6),
                team: cell(7),
                lms_id: cell(8),
            };
            let Some(folder) = cell(0).or_else(|| folder_for(&student)) else {
                return Err(RosterError::EmptyFolder { path, line });
            };
            student.folder = folder;
            let clash = students.iter().find(|(_, s)| {
                s.folder == student.folder && (s.team.is_none() || s.team != student.team)
            });
            if let Some((first, _)) = clash {
                return Err(RosterError::Duplicate {
                    path,
                    line,
                    folder: student.folder,
                    first: *first,
                });
            }
            students.push((line, student));
        }
        Ok(Roster {
            path,
            students: students.into_iter().map(|(_, s)| s).collect(),
        })
    }

    /// The (first) student whose folder is `folder`.
    #[must_use]
    pub fn get(&self, folder: &str) -> Option<&Student> {
        self.students.iter().find(|s| s.folder == folder)
    }

    /// Every student whose work is in `folder` (both members of a team), in the roster's order.
    pub fn members<'a>(&'a self, folder: &'a str) -> impl Iterator<Item = &'a Student> + 'a {
        self.students.iter().filter(move |s| s.folder == folder)
    }

    /// The student an LMS submitter is: the first roster row whose LMS id, id, login, email or name
    /// (in that order; names without regard to case or spacing) is the submitter's.
    #[must_use]
    pub fn find(&self, who: &Identity) -> Option<&Student> {
        let same = |a: &Option<String>, b: &Option<String>| matches!((a, b), (Some(a), Some(b)) if a.trim().eq_ignore_ascii_case(b.trim()));
        let squash = |n: &str| -> String {
            n.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect()
        };
        let by = |f: &dyn Fn(&Student) -> bool| self.students.iter().find(|s| f(s));
        by(&|s| same(&s.lms_id, &who.lms_id))
            .or_else(|| by(&|s| same(&s.id, &who.id)))
            .or_else(|| by(&|s| same(&s.login, &who.login)))
            .or_else(|| by(&|s| same(&s.email, &who.email)))
            .or_else(|| {
                let name = squash(who.name.as_deref()?);
                let names = |s: &Student| s.name.as_deref().map(squash);
                // Canvas writes "Lee, Ann" as `leeann`: either order of the words.
                by(&|s| names(s).is_some_and(|n| !n.is_empty() && n == name)).or_else(|| {
                    by(&|s| {
                        s.name.as_deref().is_some_and(|n| {
                            let mut words: Vec<&str> =
                                n.split([' ', ',']).filter(|w| !w.is_empty()).collect();
                            words.rotate_right(1);
                            squash(&words.concat()) == name
                        })
                    })
                })
            })
    }
}

/// Who an LMS says handed a submission in (any of these may be unknown).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Identity {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The institution's student id (Gradescope's SID).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub login: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// The LMS's own id for the user (Canvas's user id, Moodle's participant id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lms_id: Option<String>,
}

impl Identity {
    /// The student a roster row is, as an identity.
    #[must_use]
    pub fn of(s: &Student) -> Identity {
        Identity {
            name: s.name.clone(),
            id: s.id.clone(),
            login: s.login.clone(),
            email: s.email.clone(),
            lms_id: s.lms_id.clone(),
        }
    }

    /// A short name for notes: the name, else the login, email, id or LMS id.
    #[must_use]
    pub fn label(&self) -> String {
        [&self.name, &self.login, &self.email, &self.id, &self.lms_id]
            .into_iter()
            .flatten()
            .next()
            .cloned()
            .unwrap_or_else(|| "?".into())
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
                "section,track\n1,a\n",
                "`roster.csv` has no column naming students\nhint:",
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
                "folder,section\na,1\n,2\n",
                "`roster.csv`: line 3: no cell names the student",
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
        // Team mates share a folder; others never do.
        let team = "login,team\na,t\nb,t\nc,\n";
        assert_eq!(parse(team).unwrap().members("t").count(), 2);
        let clash = parse("folder,login,team\nx,a,t\nx,b,\n").unwrap_err();
        assert!(clash.contains("folder `x` is already on line 2"), "{clash}");
        let missing = Roster::load(Path::new("/nonexistent/roster.csv")).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "cannot read the roster `/nonexistent/roster.csv`"
        );
    }

    #[test]
    fn folders_default_to_the_team_then_an_identity_and_lms_submitters_are_found() {
        let r = parse(
            "name,login,email,id,lms-id,team,section,track\n\
             \"Lee, Ann\",alee,ann@x.edu,s1,101,Red Team,A,postgraduate\n\
             Bob Bell,,bob@x.edu,,102,Red Team,A,\n\
             Cy Dee,,,s3,,,B,\n\
             Di Ek,,di.ek@x.edu,,,,,\n",
        )
        .unwrap();
        let folders: Vec<&str> = r.students.iter().map(|s| s.folder.as_str()).collect();
        assert_eq!(folders, ["Red-Team", "Red-Team", "s3", "di.ek"]);
        assert_eq!(r.students[0].track.as_deref(), Some("postgraduate"));
        let who = |f: fn(&mut Identity)| {
            let mut i = Identity::default();
            f(&mut i);
            r.find(&i).map(|s| s.folder.clone())
        };
        assert_eq!(
            who(|i| i.lms_id = Some("102".into())),
            Some("Red-Team".into())
        );
        assert_eq!(
            who(|i| i.email = Some("DI.EK@x.edu".into())),
            Some("di.ek".into())
        );
        // Canvas's `leeann` (sortable name, squashed) and Moodle's "Ann Lee" both find Ann.
        assert_eq!(
            who(|i| i.name = Some("leeann".into())),
            Some("Red-Team".into())
        );
        assert_eq!(who(|i| i.name = Some("Cy  Dee".into())), Some("s3".into()));
        assert_eq!(who(|i| i.name = Some("Nobody".into())), None);
        assert_eq!(safe_name(" ../Ann Lee, Jr/ "), "Ann-Lee-Jr");
        assert_eq!(safe_name("..."), "");
    }
}
