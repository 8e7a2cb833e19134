//! `grader export RESULTS/SUITE --to FORMAT`: a graded class's results in a grading platform's or CI's
//! format, read from the results folder alone (nothing is run again).

use std::path::{Path, PathBuf};

use anyhow::anyhow;

use super::exit::{CliError, CmdResult, Exit};
use crate::report::export::gradescope::Shown;
use crate::report::export::moodle::Identity;
use crate::report::export::roster::Roster;
use crate::report::export::{self, Class, Format};
use crate::report::write_atomic;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A suite's results folder, as `grader run` wrote it (`results/<suite>`).
    pub results: PathBuf,
    /// The format: `gradescope`, `prairielearn`, `autolab` (a file per student), `canvas`, `moodle`,
    /// `junit` (one file).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub to: Format,
    /// Where to write: the folder of the per-student files, or the one file (`-` for stdout).
    /// Default: `RESULTS/export/<format>/`, or `RESULTS/export/<canvas.csv|moodle.csv|junit.xml>`.
    #[arg(long, short = 'o', value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// A CSV mapping each results folder to the student's identities: a `folder` column and any of
    /// `id`, `login`, `email`, `name`, `section`.
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// Gradescope: when students see a hidden case (public cases are `visible`). PrairieLearn and
    /// Autolab show every test, so a hidden case is masked (group, points, verdict) unless this is
    /// `visible`.
    #[arg(
        long,
        alias = "hidden-as",
        value_enum,
        default_value = Shown::DEFAULT,
        value_name = "WHEN"
    )]
    pub hidden_visibility: Shown,
    /// Canvas and Moodle: the grade column's header, as the gradebook names the assignment (default:
    /// the suite's name).
    #[arg(long, value_name = "NAME")]
    pub assignment: Option<String>,
    /// Export a row still waiting for a person's manual marks with the marks given so far (by default
    /// it goes with no grade, and the export fails naming it).
    #[arg(long)]
    pub allow_incomplete: bool,
    /// Moodle: the user field rows are matched on (`username` is the roster's `login`, `idnumber` its
    /// `id`).
    #[arg(long, value_enum, default_value = "username", value_name = "FIELD")]
    pub identity: Identity,
}

/// `grader export RESULTS/SUITE --to FORMAT`.
pub fn run(args: Args) -> CmdResult {
    let mut results = export::read_class(&args.results)?;
    for note in crate::report::manual::load_and_apply(&args.results, &mut results)? {
        eprintln!("note: {note}");
    }
    let roster = match &args.roster {
        Some(path) => Some(Roster::load(path).map_err(CliError::usage)?),
        None => None,
    };
    let class = Class {
        suite: results[0].suite.clone(),
        results,
        roster,
        allow_incomplete: args.allow_incomplete,
    };
    let assignment = args
        .assignment
        .clone()
        .unwrap_or_else(|| class.suite.clone());
    let done = match args.to {
        Format::Gradescope => export::gradescope::export(&class, args.hidden_visibility),
        Format::Prairielearn => {
            export::prairielearn::export(&class, args.hidden_visibility == Shown::Visible)
        }
        Format::Autolab if args.hidden_visibility == Shown::Visible => {
            export::autolab::export(&class)
        }
        Format::Autolab => export::autolab::export(&Class {
            results: class
                .results
                .iter()
                .map(export::autolab::mask_hidden)
                .collect(),
            suite: class.suite.clone(),
            roster: class.roster.clone(),
            allow_incomplete: class.allow_incomplete,
        }),
        Format::Canvas => export::canvas::export(&class, &assignment),
        Format::Moodle => export::moodle::export(&class, args.identity, &assignment),
        Format::Junit => export::junit::export(&class),
    };
    // The default lies inside the results folder, whose contents are untrusted: written below it with
    // no link followed (an `export/` planted as a link is refused). A path given with `-o` is the
    // person's own, as given.
    let (out, root) = match &args.out {
        Some(path) => (path.clone(), None),
        None => (
            default_out(&args.results, args.to)?,
            Some(args.results.as_path()),
        ),
    };
    write(&out, root, args.to, &done)?;
    for note in &done.notes {
        eprintln!("note: {note}");
    }
    let mut exit = Exit::Success;
    for (student, why) in &done.not_graded {
        eprintln!("warning: `{student}`: {why}; exported with no score (never a zero)");
        exit = Exit::Internal;
    }
    for (student, why) in &done.incomplete {
        eprintln!("error: `{student}`: {why}; exported with no grade");
        exit = exit.max(Exit::Failure);
    }
    if !done.incomplete.is_empty() {
        eprintln!("hint: give the marks in `grader review {}`, or export what is given with --allow-incomplete", args.results.display());
    }
    for line in &done.unmatched {
        eprintln!("error: unmatched: {line}");
        exit = exit.max(Exit::Failure);
    }
    if !done.unmatched.is_empty() {
        eprintln!(
            "hint: add each unmatched folder to the roster with its identity, and export again"
        );
    }
    Ok(exit)
}

/// `RESULTS/export/<format>[.csv|.xml]`, unless a student's folder is named `export`.
fn default_out(results: &Path, format: Format) -> Result<PathBuf, CliError> {
    let dir = results.join("export");
    if dir.join("result.json").exists() {
        return Err(CliError::usage(anyhow!(
            "`{}` is a student's folder, so exports cannot go there\nhint: choose where with `-o PATH`",
            dir.display()
        )));
    }
    Ok(match format.single_file() {
        Some(file) => dir.join(file),
        None => dir.join(format.name()),
    })
}

/// Writes the export's files under `out` (or its one file to `out`, or stdout for `-`).
fn write(
    out: &Path,
    root: Option<&Path>,
    format: Format,
    done: &export::Export,
) -> Result<(), CliError> {
    let cannot = |path: &Path, e: std::io::Error| {
        CliError::internal(anyhow!(e).context(format!("cannot write `{}`", path.display())))
    };
    let write_atomic = |path: &Path, bytes: &[u8]| match root {
        Some(root) => {
            crate::report::write_within(root, path.strip_prefix(root).unwrap_or(path), bytes)
        }
        None => write_atomic(path, bytes),
    };
    if format.single_file().is_some() {
        let bytes = done
            .files
            .first()
            .map(|(_, b)| b.as_slice())
            .unwrap_or_default();
        if out == Path::new("-") {
            use std::io::Write as _;
            return std::io::stdout()
                .write_all(bytes)
                .map_err(|e| cannot(Path::new("stdout"), e));
        }
        write_atomic(out, bytes).map_err(|e| cannot(out, e))?;
        eprintln!("wrote {}", out.display());
        return Ok(());
    }
    for (rel, bytes) in &done.files {
        let path = out.join(rel);
        write_atomic(&path, bytes).map_err(|e| cannot(&path, e))?;
    }
    // A file an earlier export left for a student now not graded would still carry its old score.
    // (PrairieLearn writes a not-gradable file for the machine's fault; an incomplete row gets none.)
    if matches!(format, Format::Gradescope | Format::Prairielearn) {
        let gone = done
            .not_graded
            .iter()
            .filter(|_| format == Format::Gradescope);
        for (student, _) in gone.chain(&done.incomplete) {
            let stale = out.join(student).join("results.json");
            match std::fs::remove_file(&stale) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(cannot(&stale, e))
                }
                _ => {}
            }
        }
    }
    eprintln!(
        "wrote {} under {}",
        super::common::plural(done.files.len(), "file", "files"),
        out.display()
    );
    Ok(())
}
