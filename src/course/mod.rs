//! A course's grading policy for one assignment: `course.toml` beside the suite's `suite.toml`. The
//! suite says what is tested and how each group scores; the course file says what the course makes of
//! it for each student: the tracks and their weights, the due dates (per track, with extensions), the
//! late rule, the tournament's entry deadline, team sizes, and the roster (identities, sections,
//! tracks, teams). It lives beside the suite, not in `grader.toml` (a machine's settings, found in the
//! working directory) nor in `suite.toml` (the tests, reused from term to term, and part of what each
//! result is graded from): granting an extension re-totals a class with `grader run --resume` without
//! grading anyone again.
//!
//! Raw serde structs mirror the file; [`Course::load`] checks them into the types below. The grade
//! arithmetic is [`grade`] (pure), the late rules [`late`].

pub mod grade;
pub mod late;
pub mod roster;
pub mod submissions;
pub mod time;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::toml_file::{form, read_toml, TomlError};
use roster::Roster;

/// The file's name, beside `suite.toml`.
pub const COURSE_FILE: &str = "course.toml";

/// A track: the parts a student on it is graded on, each worth its points.
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    pub name: String,
    /// This track's own due date, when it differs from the course's.
    pub due: Option<Timestamp>,
    pub parts: Vec<TrackPart>,
}

/// Some of the suite's groups, scaled together to `points`.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackPart {
    pub name: String,
    pub groups: Vec<String>,
    pub points: f64,
}

/// A student's extension: a new due date, or more time after the usual one.
#[derive(Clone, Debug, PartialEq)]
pub enum Extension {
    Until(Timestamp),
    By(jiff::SignedDuration),
}

/// A checked `course.toml`.
#[derive(Clone, Debug)]
pub struct Course {
    pub path: PathBuf,
    pub timezone: jiff::tz::TimeZone,
    pub due: Option<Timestamp>,
    pub late: late::Policy,
    pub tracks: Vec<Track>,
    /// The track of a student the roster gives none.
    pub default_track: Option<String>,
    /// By roster folder, login, id or email.
    pub extensions: Vec<(String, Extension)>,
    pub roster: Option<Roster>,
    /// The most students a team may have.
    pub team_size: Option<usize>,
    /// The tournament's entry deadline: a hand-in entered for the tournament after it does not play.
    pub entry_due: Option<Timestamp>,
}

/// `course.toml`: a course's policy for one assignment (docs/instructor-week.md).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[schemars(title = "course.toml")]
pub(crate) struct RawCourse {
    /// An IANA time zone (`Australia/Adelaide`) for dates written without an offset; UTC otherwise.
    timezone: Option<String>,
    /// The due date of every track that gives none of its own.
    #[schemars(with = "Option<form::When>")]
    due: Option<toml::Value>,
    /// The class's roster (CSV), relative to this file.
    roster: Option<PathBuf>,
    /// The track of a student the roster gives none.
    default_track: Option<String>,
    /// The most students a team may have.
    #[schemars(range(min = 1))]
    team_size: Option<usize>,
    /// What a late hand-in costs; without it lateness costs nothing.
    late: Option<RawLate>,
    /// The tracks, by name: the parts a student on each is graded on.
    #[serde(default)]
    tracks: BTreeMap<String, RawTrack>,
    /// By roster folder, login, id or email: a new due date, or more time (`48h`).
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, form::Extension>")]
    extensions: BTreeMap<String, toml::Value>,
    /// The class tournament's entry deadline.
    tournament: Option<RawTournament>,
}

/// `[late]`: what a late hand-in costs.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct RawLate {
    /// `cap` (the maximum falls per day), `subtract` (marks off per day) or `none`.
    #[schemars(extend("enum" = ["cap", "subtract", "none"]))]
    rule: String,
    /// Percent of the maximum per day or part of a day.
    #[schemars(range(min = 0, max = 100))]
    per_day: Option<f64>,
    /// Lateness forgiven before the rule applies.
    #[schemars(with = "Option<form::Span>")]
    grace: Option<String>,
    /// Later than this after the due date, a hand-in earns nothing.
    #[schemars(with = "Option<form::Span>")]
    cut_off: Option<String>,
}

/// `[tracks.NAME]`: a track's due date and parts.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct RawTrack {
    /// This track's due date, over the course's `due`.
    #[schemars(with = "Option<form::When>")]
    due: Option<toml::Value>,
    /// The parts a student on this track is graded on; a group in none of them is not counted.
    parts: Vec<RawPart>,
}

/// Some of the suite's groups, scaled together to `points`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct RawPart {
    /// The part's name in reports (`tic-tac-toe`).
    name: String,
    /// The suite's groups in the part (their `name`s); a group a hand-in did not attempt earns 0.
    groups: Vec<String>,
    /// What the part's groups are scaled to together.
    #[schemars(range(min = 0, max = 10000))]
    points: f64,
}

/// `[tournament]`: the class tournament's entry deadline.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct RawTournament {
    /// A hand-in entered for the tournament after it does not play.
    #[schemars(with = "Option<form::When>")]
    entry_due: Option<toml::Value>,
}

impl Course {
    /// The course file of the suite in `suite_dir`, if it has one, checked against the suite's
    /// `groups` (name and points).
    ///
    /// # Errors
    /// A file that cannot be read, is not valid TOML, or breaks a rule (each named with the file and key).
    pub fn for_suite(
        suite_dir: &Path,
        groups: &[(String, f64)],
    ) -> Result<Option<Course>, TomlError> {
        let path = suite_dir.join(COURSE_FILE);
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok(None);
        }
        Course::load(&path, groups).map(Some)
    }

    /// Reads and checks the course file at `path`.
    ///
    /// # Errors
    /// As [`Course::for_suite`].
    pub fn load(path: &Path, groups: &[(String, f64)]) -> Result<Course, TomlError> {
        let (raw, _text): (RawCourse, String) = read_toml(path)?;
        let bad = |message: String| TomlError::Invalid {
            at: path.display().to_string(),
            message,
        };
        let timezone = match &raw.timezone {
            Some(name) => jiff::tz::TimeZone::get(name).map_err(|e| {
                bad(format!("`timezone`: unknown time zone `{name}` ({e})\nhint: an IANA name such as `Australia/Adelaide` or `America/Chicago`"))
            })?,
            None => jiff::tz::TimeZone::UTC,
        };
        let when = |key: &str, v: &Option<toml::Value>| -> Result<Option<Timestamp>, TomlError> {
            v.as_ref()
                .map(|v| time::parse_value(v, &timezone, raw.timezone.is_some()))
                .transpose()
                .map_err(|e| bad(format!("`{key}`: {e}")))
        };
        let due = when("due", &raw.due)?;
        let entry_due = when(
            "tournament.entry-due",
            &raw.tournament.as_ref().and_then(|t| t.entry_due.clone()),
        )?;
        let late = raw
            .late
            .as_ref()
            .map(|l| late_policy(l).map_err(&bad))
            .transpose()?
            .unwrap_or_default();
        if late.rule != late::Rule::None
            && due.is_none()
            && raw.tracks.values().all(|t| t.due.is_none())
        {
            return Err(bad("`late` has a rule but no due date is set\nhint: add `due = 2021-03-30T23:59:00` (with `timezone`)".into()));
        }
        let mut tracks = Vec::new();
        for (name, t) in &raw.tracks {
            tracks.push(Track {
                name: name.clone(),
                due: when(&format!("tracks.{name}.due"), &t.due)?,
                parts: parts(name, &t.parts, groups).map_err(&bad)?,
            });
        }
        if let Some(d) = &raw.default_track {
            if !tracks.iter().any(|t| &t.name == d) {
                return Err(bad(format!(
                    "`default-track`: no track `{d}` in `[tracks]`"
                )));
            }
        }
        let mut extensions = Vec::new();
        for (who, v) in &raw.extensions {
            let e = match v {
                toml::Value::String(s) if time::parse_span(s).is_ok() => Extension::By(time::parse_span(s).map_err(|e| bad(format!("`extensions.{who}`: {e}")))?),
                other => Extension::Until(time::parse_value(other, &timezone, raw.timezone.is_some()).map_err(|e| bad(format!("`extensions.{who}`: {e}\nhint: a date (`2021-04-02T23:59:00`) or more time (`48h`, `2d`)")))?),
            };
            extensions.push((who.clone(), e));
        }
        let roster = match &raw.roster {
            Some(rel) => {
                let file = path.parent().unwrap_or(Path::new(".")).join(rel);
                Some(
                    Roster::load(&file)
                        .map_err(|e| bad(format!("`roster`: {}", crate::error::chain_line(&e))))?,
                )
            }
            None => None,
        };
        let course = Course {
            path: path.to_path_buf(),
            timezone,
            due,
            late,
            tracks,
            default_track: raw.default_track,
            extensions,
            roster,
            team_size: raw.team_size,
            entry_due,
        };
        course.check_roster().map_err(bad)?;
        Ok(course)
    }

    /// Every roster track is a track of the course, and no team is larger than `team-size`.
    fn check_roster(&self) -> Result<(), String> {
        let Some(roster) = &self.roster else {
            return Ok(());
        };
        for s in &roster.students {
            if let Some(t) = &s.track {
                if !self.tracks.iter().any(|k| &k.name == t) {
                    return Err(format!(
                        "`{}`: `{}` is on track `{t}`, which `[tracks]` does not define",
                        roster.path.display(),
                        s.folder
                    ));
                }
            }
        }
        if let Some(most) = self.team_size {
            for s in &roster.students {
                let n = roster.members(&s.folder).count();
                if s.team.is_some() && n > most {
                    return Err(format!(
                        "`{}`: team `{}` has {n} members; the course allows at most {most}",
                        roster.path.display(),
                        s.team.as_deref().unwrap_or_default()
                    ));
                }
            }
        }
        Ok(())
    }

    /// The track named `name`.
    #[must_use]
    pub fn track(&self, name: &str) -> Option<&Track> {
        self.tracks.iter().find(|t| t.name == name)
    }
}

/// `[late]` checked: a known rule with its percentage, durations as seconds.
fn late_policy(raw: &RawLate) -> Result<late::Policy, String> {
    let percent = || {
        raw.per_day
            .filter(|p| (0.0..=100.0).contains(p) && *p > 0.0)
            .ok_or_else(|| format!("`late.per-day`: the `{}` rule needs a percentage of the maximum per day, above 0 and at most 100", raw.rule))
    };
    let rule = match raw.rule.as_str() {
        "cap" => late::Rule::Cap { percent: percent()? },
        "subtract" => late::Rule::Subtract { percent: percent()? },
        "none" => late::Rule::None,
        other => return Err(format!("`late.rule`: unknown rule `{other}`\nhint: `cap` (the maximum falls per day), `subtract` (marks off per day) or `none`")),
    };
    let seconds = |key: &str, v: &Option<String>| -> Result<Option<i64>, String> {
        v.as_deref()
            .map(|s| {
                time::parse_span(s)
                    .map(|d| d.as_secs())
                    .map_err(|e| format!("`late.{key}`: {e}"))
            })
            .transpose()
    };
    Ok(late::Policy {
        rule,
        grace_s: seconds("grace", &raw.grace)?.unwrap_or(0),
        cut_off_s: seconds("cut-off", &raw.cut_off)?,
    })
}

/// A track's parts, each group a group of the suite and in one part at most.
fn parts(track: &str, raw: &[RawPart], groups: &[(String, f64)]) -> Result<Vec<TrackPart>, String> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for p in raw {
        for g in &p.groups {
            if !groups.iter().any(|(n, _)| n == g) {
                let names: Vec<&str> = groups.iter().map(|(n, _)| n.as_str()).collect();
                return Err(format!("`tracks.{track}`: part `{}` names group `{g}`, which the suite does not have\nhint: the suite's groups are {}", p.name, names.join(", ")));
            }
            if seen.contains(&g.as_str()) {
                return Err(format!("`tracks.{track}`: group `{g}` is in two parts"));
            }
            seen.push(g);
        }
        if let Err(e) = crate::units::check_points(p.points) {
            return Err(format!("`tracks.{track}`: part `{}`: {e}", p.name));
        }
        out.push(TrackPart {
            name: p.name.clone(),
            groups: p.groups.clone(),
            points: p.points,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups() -> Vec<(String, f64)> {
        [("plain", 5.0), ("prune", 5.0), ("morris", 3.0)]
            .iter()
            .map(|(n, p)| ((*n).to_string(), *p))
            .collect()
    }

    fn load(text: &str) -> Result<Course, String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("course.toml"), text).unwrap();
        std::fs::write(
            dir.path().join("roster.csv"),
            "login,track,team\na,pg,\nb,ug,t\nc,ug,t\nd,ug,t\n",
        )
        .unwrap();
        Course::for_suite(dir.path(), &groups())
            .map(|c| c.unwrap())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_course_file_is_checked_against_the_suite_and_its_roster() {
        let c = load(
            "timezone = \"Australia/Adelaide\"\ndue = 2021-03-30T23:59:00\ndefault-track = \"ug\"\n\
             [late]\nrule = \"cap\"\nper-day = 25\n\
             [tracks.ug]\nparts = [{ name = \"ttt\", groups = [\"plain\", \"prune\"], points = 15 }]\n\
             [tracks.pg]\ndue = 2021-04-01T12:00:00+00:00\nparts = [{ name = \"ttt\", groups = [\"plain\", \"prune\"], points = 12 }, { name = \"m\", groups = [\"morris\"], points = 3 }]\n\
             [extensions]\nalee = \"2d\"\nbob = 2021-04-02T23:59:00\n",
        )
        .unwrap();
        // 23:59 in Adelaide on 30 March 2021 is daylight time, UTC+10:30.
        assert_eq!(c.due.unwrap().to_string(), "2021-03-30T13:29:00Z");
        assert_eq!(c.track("pg").unwrap().parts.len(), 2);
        assert_eq!(
            c.extensions[0],
            (
                "alee".to_string(),
                Extension::By(jiff::SignedDuration::from_hours(48))
            )
        );
        assert_eq!(c.late.rule, late::Rule::Cap { percent: 25.0 });
        for (text, want) in [
            ("[tracks.x]\nparts = [{ name = \"p\", groups = [\"nope\"], points = 1 }]\n", "part `p` names group `nope`, which the suite does not have"),
            ("[late]\nrule = \"cap\"\nper-day = 25\n", "`late` has a rule but no due date is set"),
            ("due = 2021-03-30T23:59:00Z\n[late]\nrule = \"halve\"\n", "`late.rule`: unknown rule `halve`"),
            ("timezone = \"Mars/Olympus\"\n", "unknown time zone `Mars/Olympus`"),
            ("due = 2021-03-30T23:59:00\n", "`due`: `2021-03-30T23:59:00` has no UTC offset and the course sets no `timezone`"),
            ("roster = \"roster.csv\"\n", "is on track `pg`, which `[tracks]` does not define"),
            ("roster = \"roster.csv\"\nteam-size = 2\n[tracks.ug]\nparts = []\n[tracks.pg]\nparts = []\n", "team `t` has 3 members; the course allows at most 2"),
            ("surprise = 1\n", "unknown field `surprise`"),
        ] {
            let got = load(text).unwrap_err();
            assert!(got.contains(want), "{text}: {got}");
        }
    }
}
