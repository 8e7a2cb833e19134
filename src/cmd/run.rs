//! `grader run SUITES SUBMISSIONS`: grades a class, suite by suite, and plays a suite's class
//! tournament when its marks come from one.

use std::path::{Path, PathBuf};

use super::common::{environment_for, load_config, RunFlags};
use super::exit::{CliError, CmdResult, Exit};
use crate::config::Config;
use crate::grade::class::{self, grade_class, students};
use crate::grade::tournament;
use crate::grade::wire::Environment;
use crate::report::class::{earlier_results, ClassReporter, Outputs};
use crate::report::events::{Event, Reporter};
use crate::report::table::class_table;
use crate::suite::validate::discover;
use crate::suite::{oracle, Suite};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A folder of suites (`suites/`), or one suite folder.
    pub suites: PathBuf,
    /// With a folder of suites: a folder holding `<suite-name>/<student>/`. With one suite: a folder of
    /// student folders.
    pub submissions: PathBuf,
    /// Where results go: `<out>/<suite>/<student>/result.json` and `<out>/<suite>/grades.csv`.
    #[arg(long, default_value = "results", value_name = "DIR")]
    pub out: PathBuf,
    /// Submissions graded in parallel (default: `grader.toml`'s `run.jobs`; 0 = one per core).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub flags: RunFlags,
    /// Skip the class tournament of a suite with `[arena.marks]` (grades.csv then has no `tournament`
    /// column); `grader tournament` plays it on its own.
    #[arg(long)]
    pub no_tournament: bool,
}

/// `grader run SUITES SUBMISSIONS`.
pub fn run(args: Args) -> CmdResult {
    let config = load_config(args.flags.config.as_deref())?;
    let jobs = match args.jobs {
        Some(0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n,
        None => config.jobs,
    };
    let plan = plan(&args, &config)?;
    let suites: Vec<&Suite> = plan.iter().map(|(s, _)| s).collect();
    crate::doctor::require(&suites, args.flags.allow_missing)?;
    let env = environment_for(args.flags.sandbox.as_deref(), &config, false)?;
    let mut exit = Exit::Success;
    for (suite, students_dir) in &plan {
        let graded = grade_suite(&args, &config, &env, jobs, suite, students_dir)?;
        exit = exit.max(graded);
    }
    Ok(exit)
}

/// Every suite with the folder of its students, loaded before anything runs: a broken suite is bad
/// input, reported up front.
fn plan(args: &Args, config: &Config) -> Result<Vec<(Suite, PathBuf)>, CliError> {
    let single = args.suites.join(crate::suite::SUITE_FILE).is_file();
    let oracle = oracle::builtin();
    let mut plan: Vec<(Suite, PathBuf)> = Vec::new();
    for dir in discover(&args.suites)? {
        let suite = Suite::load(&dir, config, oracle.clone()).map_err(CliError::usage)?;
        let students_dir = if single {
            let nested = args.submissions.join(&suite.name);
            if nested.is_dir() {
                nested
            } else {
                args.submissions.clone()
            }
        } else {
            args.submissions.join(&suite.name)
        };
        if !students_dir.is_dir() {
            if single {
                return Err(CliError::usage(anyhow::anyhow!(
                    "no submissions folder `{}`",
                    students_dir.display()
                )));
            }
            eprintln!(
                "note: no submissions for `{}` (no folder `{}`)",
                suite.name,
                students_dir.display()
            );
            continue;
        }
        plan.push((suite, students_dir));
    }
    if plan.is_empty() {
        return Err(CliError::usage(anyhow::anyhow!(
            "nothing to grade: no suite in `{}` has a folder in `{}`\nhint: lay submissions out as `SUBMISSIONS/<suite-name>/<student>/`",
            args.suites.display(),
            args.submissions.display()
        )));
    }
    Ok(plan)
}

/// Grades one suite's class (and plays its class tournament), prints its table, and says how it went:
/// `Internal` when a result could not be written or the machine failed a case.
fn grade_suite(
    args: &Args,
    config: &Config,
    env: &Environment,
    jobs: usize,
    suite: &Suite,
    students_dir: &Path,
) -> Result<Exit, CliError> {
    let class = students(students_dir)?;
    let out = Outputs {
        dir: args.out.join(&suite.name),
    };
    eprintln!(
        "grading `{}`: {} submissions × {} cases, sandbox {}, {jobs} jobs",
        suite.name,
        class.len(),
        suite.cases().count(),
        env.sandbox.tier()
    );
    let play = !args.no_tournament && suite.arena.as_ref().is_some_and(|a| a.marks.is_some());
    let columns = class::columns(suite, play);
    let keys: Vec<&str> = class.iter().map(|(k, _)| k.as_str()).collect();
    let earlier = earlier_results(&out, &suite.name, &keys);
    if !earlier.is_empty() {
        eprintln!(
            "note: grades.csv keeps {} earlier result(s) of students not in this run",
            earlier.len()
        );
    }
    let reporter = ClassReporter::new(&out, &columns, class.len()).keeping(earlier);
    let (mut results, mut write_error) = match grade_class(
        &env.sandbox,
        &*env.prepare,
        suite,
        &class,
        jobs,
        config.scratch,
        &reporter,
    ) {
        Ok(results) => (results, reporter.take_error()),
        Err(e) => (Vec::new(), Some(e)),
    };
    if play && results.len() == class.len() {
        if let Some(e) = tournament::play_and_mark(
            suite,
            &class,
            &mut results,
            &env.sandbox,
            jobs,
            &out.dir,
            &reporter,
        ) {
            write_error.get_or_insert(e);
        }
        if let Some(e) = reporter.take_error() {
            write_error.get_or_insert(e);
        }
    }
    reporter.report(&Event::ClassFinished { results: &results });
    if let Some(e) = reporter.take_error() {
        write_error.get_or_insert(e);
    }
    print!(
        "{}",
        class_table(
            &format!("{} ({})", suite.title, suite.name),
            &columns,
            &results
        )
    );
    println!();
    let mut exit = Exit::Success;
    if let Some(e) = write_error {
        eprintln!("error: {e:#}");
        exit = Exit::Internal;
    }
    if results.iter().any(|r| r.has_internal_error()) {
        eprintln!(
            "warning: some cases hit an internal error (the grader's fault); see their result.json"
        );
        exit = Exit::Internal;
    }
    if results.iter().any(|r| r.not_graded().is_some()) {
        eprintln!(
            "warning: some submissions were not graded (a toolchain is missing); see grades.csv"
        );
        exit = Exit::Internal;
    }
    eprintln!("results: {}", out.dir.display());
    if !results.is_empty() {
        eprintln!("report: {}", out.dir.join("index.html").display());
    }
    Ok(exit)
}
