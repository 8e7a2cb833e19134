//! `grader import FORMAT DOWNLOAD -o SUBMISSIONS`: an LMS download turned into a class folder
//! `grader run` grades (`crate::import`).

use std::path::PathBuf;

use anyhow::anyhow;

use super::exit::{CliError, CmdResult, Exit};
use crate::course::roster::Roster;
use crate::import::{self, Format, Options};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The LMS the download is from: `canvas`, `moodle`, `gradescope`, `blackboard` or
    /// `github-classroom`.
    #[arg(value_enum)]
    pub format: Format,
    /// The download: the zip file as the LMS gave it, or the folder it unpacks to (GitHub Classroom:
    /// the folder of repositories).
    pub download: PathBuf,
    /// The class folder to write (one folder per student or team, and `submissions.toml`), e.g.
    /// `submissions/<suite>`; must be new or empty.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: PathBuf,
    /// The course's roster (CSV): each submitter is matched to a student by LMS id, id, login, email
    /// or name, and the work goes into their folder (a team's). Default: the suite's (`--suite`).
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// A suite folder whose `course.toml` gives the roster and the time zone.
    #[arg(long, value_name = "DIR")]
    pub suite: Option<PathBuf>,
    /// The time zone of times the LMS writes without one (Blackboard, Moodle's worksheet), e.g.
    /// `Australia/Adelaide`. Default: the course's, else UTC.
    #[arg(long, value_name = "ZONE")]
    pub timezone: Option<String>,
    /// Submission times the download lacks: Moodle's grading worksheet, or GitHub Classroom's grades
    /// CSV (`gh classroom assignment-grades`).
    #[arg(long, value_name = "FILE")]
    pub times: Option<PathBuf>,
}

/// `grader import FORMAT DOWNLOAD -o SUBMISSIONS`.
pub fn run(args: Args) -> CmdResult {
    let course = match &args.suite {
        Some(dir) => {
            let suite = crate::suite::Suite::load(
                dir,
                &super::common::load_config(None)?,
                crate::suite::oracle::builtin(),
            )
            .map_err(CliError::usage)?;
            let groups = crate::grade::class::columns(&suite, false).groups;
            crate::course::Course::for_suite(dir, &groups).map_err(CliError::usage)?
        }
        None => None,
    };
    let roster = match &args.roster {
        Some(path) => Some(Roster::load(path).map_err(CliError::usage)?),
        None => course.as_ref().and_then(|c| c.roster.clone()),
    };
    let timezone = match &args.timezone {
        Some(name) => jiff::tz::TimeZone::get(name).map_err(|e| {
            CliError::usage(anyhow!(
                "unknown time zone `{name}` ({e})\nhint: an IANA name such as `Australia/Adelaide`"
            ))
        })?,
        None => course
            .as_ref()
            .map_or(jiff::tz::TimeZone::UTC, |c| c.timezone.clone()),
    };
    let options = Options {
        roster: roster.as_ref(),
        timezone,
        times: args.times.as_deref(),
    };
    let imported =
        import::import(args.format, &args.download, &options).map_err(CliError::usage)?;
    import::write(&imported, &args.out).map_err(CliError::usage)?;
    for note in &imported.notes {
        eprintln!("note: {note}");
    }
    let subs = &imported.submissions.submissions;
    let late = subs.values().filter(|r| r.late).count();
    let untimed = subs
        .values()
        .filter(|r| r.late && r.submitted.is_none())
        .count();
    eprintln!(
        "imported {} submission(s) from {} into `{}` ({} marked late by the LMS); times and students in `{}`",
        subs.len(),
        args.format.name(),
        args.out.display(),
        late,
        args.out.join(crate::course::submissions::FILE).display()
    );
    if untimed > 0 {
        eprintln!("warning: {untimed} late hand-in(s) have no time in this download: their totals stay blank until you set `submitted` in submissions.toml");
    }
    Ok(Exit::Success)
}
