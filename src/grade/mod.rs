//! Grading: runs a suite's cases on submissions, judges them, applies the rubric (`run`, `check`).

pub mod case;
pub mod class;
pub mod dialogue;
pub mod integrity;
pub mod names;
pub mod pipeline;
pub mod play;
pub mod position;
pub mod score;
pub mod tournament;
pub mod wire;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::cli::use_color;
use crate::config::parse_tier;
use crate::exit::{CliError, CmdResult, Exit};
use crate::report::feedback::{student_report, Paint};
use crate::report::table::class_table;
use crate::suite::validate::{discover, load_config};
use crate::suite::{oracle, Suite, Visibility};
use class::{grade_class, students, Outputs};

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
    /// The sandbox tier: `full`, `basic` or `none` (default: `grader.toml`'s `run.sandbox`).
    #[arg(long, value_name = "TIER")]
    pub sandbox: Option<String>,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Grade even when a toolchain the suite needs is missing: its cases are `not-graded` (exit 3).
    #[arg(long)]
    pub allow_missing: bool,
    /// Skip the class tournament of a suite with `[arena.marks]` (grades.csv then has no `tournament`
    /// column); `grader tournament` plays it on its own.
    #[arg(long)]
    pub no_tournament: bool,
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The suite folder (`suites/adelaide-2021-a1`).
    pub suite: PathBuf,
    /// The submission folder to check.
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Where game records and transcripts go: `<out>/<suite>/<student>/` (default: a scratch folder,
    /// named on stderr, when the suite plays games).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The sandbox tier: `full`, `basic` or `none` (default: `grader.toml`'s `run.sandbox`).
    #[arg(long, value_name = "TIER")]
    pub sandbox: Option<String>,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Grade even when a toolchain the suite needs is missing: its cases are `not-graded` (exit 3).
    #[arg(long)]
    pub allow_missing: bool,
}

fn tier(
    flag: Option<&str>,
    config: &crate::config::Config,
) -> Result<crate::sandbox::Tier, CliError> {
    match flag {
        Some(t) => parse_tier(t).map_err(|m| CliError::usage(anyhow::anyhow!("{m}"))),
        None => Ok(config.sandbox),
    }
}

/// The sandbox every command that runs submissions uses (`run`, `check`, `play`, `tournament`), chosen
/// one way: `--sandbox` when given, else `grader.toml`'s `run.sandbox`. Never weaker than that without
/// `--sandbox`, except that `allow_degrade` (`check`, on a student's own machine) may fall back to
/// `basic` with a notice on stderr.
///
/// # Errors
/// An unknown tier (usage), or a tier this machine cannot provide (internal, with a hint).
pub fn environment_for(
    flag: Option<&str>,
    config: &crate::config::Config,
    allow_degrade: bool,
) -> Result<wire::Environment, CliError> {
    wire::environment(tier(flag, config)?, allow_degrade)
}

/// `grader run SUITES SUBMISSIONS`.
pub fn run(args: Args) -> CmdResult {
    let config = load_config(args.config.as_deref())?;
    let jobs = match args.jobs {
        Some(0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n,
        None => config.jobs,
    };
    let single = args.suites.join(crate::suite::SUITE_FILE).is_file();
    let oracle = oracle::builtin();
    // Load every suite before running anything: a broken suite is bad input, reported up front.
    let mut plan: Vec<(Suite, PathBuf)> = Vec::new();
    for dir in discover(&args.suites)? {
        let suite = Suite::load(&dir, &config, oracle.clone()).map_err(CliError::usage)?;
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
    let suites: Vec<&Suite> = plan.iter().map(|(s, _)| s).collect();
    crate::doctor::require(&suites, args.allow_missing)?;
    let env = environment_for(args.sandbox.as_deref(), &config, false)?;
    let mut exit = Exit::Success;
    for (suite, students_dir) in &plan {
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
        let (mut results, mut write_error) = grade_class(
            &env.sandbox,
            &*env.prepare,
            suite,
            &class,
            jobs,
            &out,
            &columns,
            config.scratch,
        );
        if play && results.len() == class.len() {
            if let Some(e) = tournament::play_and_mark(
                suite,
                &class,
                &mut results,
                &env.sandbox,
                jobs,
                &out,
                &columns,
            ) {
                write_error.get_or_insert(e);
            }
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
        if let Some(e) = write_error {
            eprintln!("error: {e:#}");
            exit = Exit::Internal;
        }
        if results.iter().any(|r| r.has_internal_error()) {
            eprintln!("warning: some cases hit an internal error (the grader's fault); see their result.json");
            exit = Exit::Internal;
        }
        if results.iter().any(|r| r.not_graded().is_some()) {
            eprintln!("warning: some submissions were not graded (a toolchain is missing); see grades.csv");
            exit = Exit::Internal;
        }
        eprintln!("results: {}", out.dir.display());
    }
    Ok(exit)
}

/// `grader check SUITE [DIR]`.
pub fn check(args: CheckArgs) -> CmdResult {
    let config = load_config(args.config.as_deref())?;
    let suite = Suite::load(&args.suite, &config, oracle::builtin()).map_err(CliError::usage)?;
    if !args.dir.is_dir() {
        return Err(CliError::usage(anyhow::anyhow!(
            "no submission folder `{}`\nhint: run `grader check {} PATH` with the folder holding your program",
            args.dir.display(),
            args.suite.display()
        )));
    }
    crate::doctor::require(&[&suite], args.allow_missing)?;
    let env = environment_for(args.sandbox.as_deref(), &config, true)?;
    let student = name_of(&args.dir);
    let scratch = crate::sandbox::scratch::Scratch::new()
        .context("cannot make a scratch folder")
        .map_err(CliError::internal)?;
    let bounded = (env.sandbox.tier() == crate::sandbox::Tier::Full).then_some(config.scratch);
    let work = scratch
        .sub("s", bounded)
        .context("cannot make a scratch folder")
        .map_err(CliError::internal)?;
    eprintln!(
        "checking `{}` against the public cases of `{}` (sandbox {})",
        args.dir.display(),
        suite.name,
        env.sandbox.tier()
    );
    let graded = pipeline::grade(
        &env.sandbox,
        &*env.prepare,
        &suite,
        &student,
        &args.dir,
        &work,
        &|v| v == Visibility::Public,
    );
    if !graded.artifacts.is_empty() {
        let dir = match &args.out {
            Some(out) => out.join(&suite.name).join(&student),
            None => tempfile::Builder::new()
                .prefix("grader-check-games-")
                .tempdir()
                .context("cannot make a folder for the game records")
                .map_err(CliError::internal)?
                .keep(),
        };
        class::save_student(&dir, &graded).map_err(CliError::internal)?;
        eprintln!("games: {}", dir.display());
    }
    let result = graded.result;
    print!(
        "{}",
        student_report(&result, Paint(use_color(&std::io::stdout())))
    );
    if result.has_internal_error() || result.not_graded().is_some() {
        return Ok(Exit::Internal);
    }
    Ok(
        if result.failures().next().is_none() && !result.cases.is_empty() {
            Exit::Success
        } else {
            Exit::Failure
        },
    )
}

fn name_of(dir: &Path) -> String {
    dir.canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(class::student_key))
        .unwrap_or_else(|| "submission".to_string())
}
