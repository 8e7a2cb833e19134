//! `grader check SUITE [DIR]`: a suite's public cases on one submission folder, each failure explained.

use std::path::PathBuf;

use anyhow::Context;

use super::common::{environment_for, grade_folder, load_config, student_name, RunFlags};
use super::exit::{CliError, CmdResult, Exit};
use super::use_color;
use crate::report::feedback::{check_report, check_summary, Paint};
use crate::report::result::SubmissionResult;
use crate::suite::{oracle, Hidden, Suite, Visibility};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite folder (`suites/adelaide-2021-a1`).
    pub suite: PathBuf,
    /// The submission folder to check.
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Where game records and transcripts go: `<out>/<suite>/<student>/` (default: a scratch folder,
    /// named on stderr, when the suite plays games).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Also write the results as a self-contained HTML page (every case, a replay of every game) to
    /// FILE (default `report.html`).
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "report.html")]
    pub html: Option<PathBuf>,
    /// Print the result as JSON for a tool (an editor, a CI step) instead of the report: the score on
    /// the public cases, what the grade counts beyond them, and every case as `result.json` has it.
    #[arg(long)]
    pub json: bool,
    /// Also append each group's result to FILE as GitHub Classroom's autograding reporter reads it
    /// (`runners=...` and a base64 line per group; give it `$GITHUB_OUTPUT`).
    #[arg(long, value_name = "FILE")]
    pub github_output: Option<PathBuf>,
    #[command(flatten)]
    pub flags: RunFlags,
}

/// `grader check SUITE [DIR]`.
pub fn run(args: Args) -> CmdResult {
    let config = load_config(args.flags.config.as_deref())?;
    let suite = Suite::load(&args.suite, &config, oracle::builtin()).map_err(CliError::usage)?;
    if !args.dir.is_dir() {
        return Err(CliError::usage(anyhow::anyhow!(
            "no submission folder `{}`\nhint: run `grader check {} PATH` with the folder holding your program",
            args.dir.display(),
            args.suite.display()
        )));
    }
    crate::doctor::require(&[&suite], args.flags.allow_missing)?;
    let env = environment_for(args.flags.sandbox.as_deref(), &config, true)?;
    crate::doctor::require_runnable(env.sandbox.as_ref(), &[&suite])?;
    let student = student_name(&args.dir);
    eprintln!(
        "checking `{}` against the public cases of `{}` (sandbox {})",
        args.dir.display(),
        suite.name,
        env.sandbox.tier()
    );
    let graded = grade_folder(&env, &config, &suite, &student, &args.dir, &|v| {
        v == Visibility::Public
    })?;
    if !graded.artifacts.is_empty() {
        let (root, key) = match &args.out {
            Some(out) => (out.join(&suite.name), student.clone()),
            None => (
                tempfile::Builder::new()
                    .prefix("grader-check-games-")
                    .tempdir()
                    .context("cannot make a folder for the game records")
                    .map_err(CliError::internal)?
                    .keep(),
                "games".to_string(),
            ),
        };
        let dir = root.join(&key);
        crate::report::class::save_student(&root, &key, &graded.result, &graded.artifacts)
            .map_err(CliError::internal)?;
        eprintln!("games: {}", dir.display());
    }
    if let Some(file) = &args.html {
        let games = page_games(&graded.artifacts);
        let html = crate::report::html::student::page_for(&graded.result, &games, &[], false);
        crate::report::write_atomic(file, html.as_bytes())
            .with_context(|| format!("cannot write `{}`", file.display()))
            .map_err(CliError::internal)?;
        eprintln!("page: {}", file.display());
    }
    let result = graded.result;
    if let Some(file) = &args.github_output {
        append(file, &crate::report::classroom::step_outputs(&result))?;
    }
    if args.json {
        println!("{}", to_json(&result, &suite.hidden));
    } else {
        let paint = Paint(use_color(&std::io::stdout()));
        print!("{}", check_report(&result, &suite.hidden, paint));
    }
    if result.has_internal_error()
        || result.not_graded().is_some()
        || result.needs_review().is_some()
    {
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

/// The game records among a check's artifacts (`games/<case>-<k>.json`), in game order, as the page
/// replays them.
fn page_games(
    artifacts: &[crate::report::result::Artifact],
) -> Vec<(String, crate::arena::game::record::GameRecord)> {
    let mut games: Vec<_> = artifacts
        .iter()
        .filter(|a| a.path.starts_with("games"))
        .filter_map(|a| {
            let name = a.path.file_stem()?.to_str()?.to_string();
            let record = serde_json::from_slice(&a.bytes).ok()?;
            crate::arena::game::replay::check(&record).ok()?;
            Some((name, record))
        })
        .collect();
    games.sort_by_key(|(name, _): &(String, _)| crate::report::html::student::order(name));
    games.truncate(crate::report::html::student::MAX_GAMES);
    games
}

/// `check --json`: the check's numbers and summary line, then the whole result (`result.json`'s form).
fn to_json(r: &SubmissionResult, hidden: &Hidden) -> String {
    let result: serde_json::Value =
        serde_json::from_str(&r.to_json()).expect("a result reads back");
    let value = serde_json::json!({
        "suite": r.suite,
        "student": r.student,
        "score": r.score,
        "max": r.max,
        "cases": r.cases.len(),
        "passed": r.cases.iter().filter(|c| c.credit >= 1.0).count(),
        "hidden": {
            "cases": hidden.cases,
            "points": crate::report::export::round4(hidden.points),
            "total": crate::report::export::round4(hidden.total),
        },
        "summary": check_summary(r, hidden),
        "result": result,
    });
    serde_json::to_string_pretty(&value).expect("json")
}

/// Appends `text` to `file` (GitHub's `$GITHUB_OUTPUT` collects every step's lines).
fn append(file: &std::path::Path, text: &str) -> Result<(), CliError> {
    use std::io::Write as _;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .with_context(|| format!("cannot write `{}`", file.display()))
        .map_err(CliError::internal)
}
