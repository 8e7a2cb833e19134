//! `grader merge --out DIR SHARDS...`: joins the folders of `grader run --shard K/N` into the results
//! one run would have written, and plays the class tournament the shards left to it; or those of
//! `grader tournament --shard K/N` into one round robin's records, standings and ranking.

use std::path::PathBuf;

use super::common::{class_outcome, environment_for, jobs, load_config, RunFlags};
use super::exit::{CliError, CmdResult, Exit};
use crate::grade::class::students;
use crate::grade::tournament;
use crate::report::class::{earlier_results, ClassReporter, Outputs};
use crate::report::events::{Event, Reporter};
use crate::report::result::SubmissionResult;
use crate::report::shard::{merge, read_round_robin, Manifest, Merged, TOURNAMENT_MANIFEST};
use crate::report::table::class_table;
use crate::report::{csv, write_atomic};
use crate::suite::validate::discover;
use crate::suite::{oracle, Suite};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shards' folders: each the `--out` of one `grader run --shard K/N`, or the `--records` of one
    /// `grader tournament --shard K/N`.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Where the merged results go, as `grader run --out` writes them (for a tournament: its records,
    /// and `<suite>/tournament.csv`).
    #[arg(long, default_value = "results", value_name = "DIR")]
    pub out: PathBuf,
    /// For the class tournament: the suites (a folder of suites, or one suite). Default: the suite
    /// folder each shard recorded.
    #[arg(long, value_name = "DIR")]
    pub suites: Option<PathBuf>,
    /// For the class tournament: the submissions, laid out as for `grader run`. Default: the class
    /// folder each shard recorded.
    #[arg(long, value_name = "DIR")]
    pub submissions: Option<PathBuf>,
    /// Games of the class tournament played at once (default: `grader.toml`'s `run.jobs`; 0 = one
    /// per core).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// For a sharded tournament: the SPRT printed between neighbours in a table, as `grader tournament
    /// --sprt` (give the shards' value).
    #[arg(long, default_value = "0,100", value_parser = crate::arena::event::sprt::Sprt::parse, value_name = "ELO0,ELO1")]
    pub sprt: crate::arena::event::sprt::Sprt,
    #[command(flatten)]
    pub flags: RunFlags,
}

/// `grader merge --out DIR SHARDS...`.
pub fn run(args: Args) -> CmdResult {
    if args
        .shards
        .iter()
        .any(|d| std::fs::symlink_metadata(d.join(TOURNAMENT_MANIFEST)).is_ok())
    {
        return round_robin(&args);
    }
    let merged = merge(&args.shards, &args.out)?;
    let mut exit = Exit::Success;
    for suite in merged {
        exit = exit.max(finish(&args, suite)?);
    }
    Ok(exit)
}

/// Writes one suite's gradebook (after its class tournament, when the shards left one to play), prints
/// its table, and says how it went, as `grader run` does.
fn finish(args: &Args, merged: Merged) -> Result<Exit, CliError> {
    let Merged {
        manifest,
        mut results,
    } = merged;
    let out = Outputs {
        dir: args.out.join(&manifest.suite),
    };
    eprintln!(
        "merged `{}`: {} submissions from {} shards",
        manifest.suite,
        results.len(),
        manifest.shards
    );
    let keys: Vec<&str> = results.iter().map(|r| r.student.as_str()).collect();
    let earlier = earlier_results(&out, &manifest.suite, &keys);
    if !earlier.is_empty() {
        eprintln!(
            "note: grades.csv keeps {} earlier result(s) of students not in the shards",
            earlier.len()
        );
    }
    let columns = &manifest.columns;
    let mut write_error = None;
    let title = if manifest.tournament {
        let suite = load_suite(args, &manifest)?;
        let class = class_of(args, &manifest, &results)?;
        let config = load_config(args.flags.config.as_deref())?;
        let jobs = jobs(args.jobs, &config);
        let env = environment_for(args.flags.sandbox.as_deref(), &config, false)?;
        let reporter = ClassReporter::new(&out, columns, results.len()).keeping(earlier);
        // The course's policy, as `grader run` applies it once the tournament is in.
        let course = crate::course::Course::for_suite(&suite.dir, &columns.groups)
            .map_err(CliError::usage)?;
        let submissions = crate::course::submissions::Submissions::load(&manifest.students_dir)
            .map_err(CliError::usage)?;
        let policy = crate::report::policy::Policy {
            course: course.as_ref(),
            submissions: submissions.as_ref(),
            groups: &columns.groups,
            marks: None,
        };
        write_error = tournament::play_and_mark(
            &suite,
            &policy,
            &class,
            &mut results,
            &env.sandbox,
            jobs,
            None,
            &out.dir,
            &reporter,
        );
        policy.apply(&mut results);
        // A person's marks given in the merged folder (`manual.toml`), as `grader run` counts them.
        manual_marks(&out, &mut results)?;
        reporter.report(&Event::Remarked { results: &results });
        if let Some(e) = reporter.take_error() {
            write_error.get_or_insert(e);
        }
        reporter.report(&Event::ClassFinished { results: &results });
        format!("{} ({})", suite.title, suite.name)
    } else {
        manual_marks(&out, &mut results)?;
        for r in &results {
            let path = out.result_path(&r.student);
            if let Err(e) = write_atomic(&path, r.to_json().as_bytes()) {
                write_error.get_or_insert(
                    anyhow::Error::new(e).context(format!("cannot write `{}`", path.display())),
                );
            }
        }
        let book = out.gradebook_path();
        if let Err(e) = write_atomic(
            &book,
            csv::gradebook(columns, results.iter().chain(&earlier)).as_bytes(),
        ) {
            write_error =
                Some(anyhow::Error::new(e).context(format!("cannot write `{}`", book.display())));
        }
        // The HTML report, as `grader run`'s class reporter writes it when the class is done.
        if let Err(e) = crate::report::html::class::write_suite(&out.dir) {
            write_error.get_or_insert(e);
        }
        manifest.suite.clone()
    };
    print!("{}", class_table(&title, columns, &results));
    println!();
    Ok(class_outcome(&results, write_error, &out.dir))
}

/// Re-totals the merged `results` with the marks of the merged folder (`manual.toml`), noting marks of
/// students with no result.
fn manual_marks(out: &Outputs, results: &mut [SubmissionResult]) -> Result<(), CliError> {
    for note in crate::report::manual::load_and_apply(&out.dir, results)? {
        eprintln!("note: {note}");
    }
    for flag in crate::report::manual::changed_since_marked(results) {
        eprintln!("note: {flag}");
    }
    Ok(())
}

/// The shards of `grader tournament --shard K/N`: every game checked against the schedule, then the
/// records, `standings.json`, the tables and (for a suite) `<suite>/tournament.csv` exactly as one
/// `grader tournament --records DIR --out DIR` writes and prints them.
fn round_robin(args: &Args) -> CmdResult {
    use crate::arena::event::tournament::{
        round_robin_results, round_robin_schedule, Format, Knobs,
    };
    let (m, records) = read_round_robin(&args.shards)?;
    let config = crate::arena::setup::event(&m.game).map_err(CliError::usage)?;
    let knobs = Knobs {
        format: Some(Format::RoundRobin),
        games: m.games_per_pairing,
        seed: m.seed,
        jobs: 1,
        sections: None,
        slots: None,
    };
    let schedule = round_robin_schedule(m.players.len(), &config, &knobs)
        .map_err(|e| CliError::usage(anyhow::anyhow!("{e}")))?;
    if schedule.len() != records.len() {
        return Err(CliError::usage(anyhow::anyhow!(
            "the shards scheduled {} games, and `{}` schedules {} for this field\nhint: merge with the same grader and GAME the shards played",
            records.len(),
            m.game,
            schedule.len()
        )));
    }
    for (i, (f, r)) in schedule.iter().zip(&records).enumerate() {
        let who = [m.players[f.first].clone(), m.players[f.second].clone()];
        if r.players != who || r.seed != f.seed {
            return Err(CliError::usage(anyhow::anyhow!(
                "`{}` is not game {} of the schedule ({} against {}, seed {})",
                crate::report::shard::round_robin_file(i),
                i + 1,
                who[0],
                who[1],
                f.seed
            )));
        }
    }
    let results = round_robin_results(&m.players, records, &config);
    crate::report::tournament::save_records(&args.out, &m.game_name, m.seed, &results)
        .map_err(CliError::internal)?;
    let placed = m
        .suite
        .as_ref()
        .map(|_| crate::arena::event::ranking::overall(&results, config.marks.as_ref()));
    if let (Some(suite), Some(placed)) = (&m.suite, &placed) {
        let file = crate::report::tournament::write_ranking(
            &args.out.join(suite),
            placed,
            &[],
            &m.not_graded,
        )
        .map_err(CliError::internal)?;
        eprintln!("wrote {}", file.display());
    }
    eprintln!(
        "merged a round robin of {} games from {} shards into `{}`",
        schedule.len(),
        m.shards,
        args.out.display()
    );
    Ok(super::tournament::print_event(
        &results,
        false,
        placed.as_deref(),
        &m.not_graded,
        Some(&args.sprt),
    ))
}

/// The suite the shards graded: `--suites` (the one of that name), else the folder they recorded.
fn load_suite(args: &Args, manifest: &Manifest) -> Result<Suite, CliError> {
    let config = load_config(args.flags.config.as_deref())?;
    let dirs = match &args.suites {
        Some(s) => discover(s)?,
        None => vec![manifest.suite_dir.clone()],
    };
    for dir in dirs {
        let suite = Suite::load(&dir, &config, oracle::builtin()).map_err(CliError::usage)?;
        if suite.name == manifest.suite {
            return Ok(suite);
        }
    }
    Err(CliError::usage(anyhow::anyhow!(
        "no suite `{}` in `{}` to play the class tournament with\nhint: pass the suites the shards graded with `--suites`",
        manifest.suite,
        args.suites.as_deref().unwrap_or(&manifest.suite_dir).display()
    )))
}

/// The class the tournament is played among: every student folder of `--submissions` (or the folder
/// the shards recorded), which must be the students the shards graded.
fn class_of(
    args: &Args,
    manifest: &Manifest,
    results: &[SubmissionResult],
) -> Result<Vec<(String, PathBuf)>, CliError> {
    let dir = match &args.submissions {
        Some(d) if d.join(&manifest.suite).is_dir() => d.join(&manifest.suite),
        Some(d) => d.clone(),
        None => manifest.students_dir.clone(),
    };
    let class = students(&dir)?;
    let graded: Vec<&str> = results.iter().map(|r| r.student.as_str()).collect();
    let here: Vec<&str> = class.iter().map(|(k, _)| k.as_str()).collect();
    if here != graded {
        let odd = here
            .iter()
            .find(|k| !graded.contains(k))
            .map(|k| format!("`{k}` is in `{}` but no shard graded it", dir.display()))
            .or_else(|| {
                graded
                    .iter()
                    .find(|k| !here.contains(k))
                    .map(|k| format!("`{k}` was graded but is not in `{}`", dir.display()))
            })
            .unwrap_or_default();
        return Err(CliError::usage(anyhow::anyhow!(
            "the class in `{}` is not the class the shards of `{}` graded: {odd}\nhint: pass the submissions the shards graded with `--submissions`",
            dir.display(),
            manifest.suite
        )));
    }
    Ok(class)
}
