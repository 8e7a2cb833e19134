//! `grader validate`: checks suites (format, golden files, reference cases, the course file) without
//! running anything, and reports every problem it finds in one run.
//!
//! Each file is first checked against its JSON Schema (`author::check`: every unknown key with the
//! nearest known one, every value of the wrong type or form); a file that passes is then loaded as
//! the commands load it, strictly (`Suite::load_strict`), which reports every part that is wrong.

use std::path::{Path, PathBuf};

use super::common::{load_config, plural};
use super::exit::{CmdResult, Exit};
use crate::author::check::check;
use crate::author::schema::{schema, FileKind};
use crate::suite::validate::discover;
use crate::suite::{oracle, Suite, Visibility};
use crate::toml_file::{located, read_text};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Suite folders, or folders of suites.
    #[arg(required = true)]
    pub suites: Vec<PathBuf>,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `grader validate SUITES...`.
pub fn run(args: Args) -> CmdResult {
    let local = Path::new("grader.toml");
    let config_file = args
        .config
        .as_deref()
        .or_else(|| local.is_file().then_some(local));
    if let Some(file) = config_file {
        let problems = against_schema(file, FileKind::Grader);
        if problems > 0 {
            eprintln!(
                "error: {} in `{}`",
                plural(problems, "problem", "problems"),
                file.display()
            );
            return Ok(Exit::Failure);
        }
    }
    let mut problems = 0;
    let config = load_config(args.config.as_deref())?;
    let oracle = oracle::builtin();
    let (mut good, mut bad) = (0, 0);
    for path in &args.suites {
        for dir in discover(path)? {
            let found = suite(&dir, &config, &oracle);
            problems += found;
            if found == 0 {
                good += 1;
            } else {
                bad += 1;
            }
        }
    }
    if bad == 0 {
        return Ok(Exit::Success);
    }
    summary(good, bad, problems);
    Ok(Exit::Failure)
}

/// `error: 5 problems in 2 suites (3 suites are fine)` on stderr.
fn summary(good: usize, bad: usize, problems: usize) {
    let fine = if good > 0 {
        format!(" ({} fine)", plural(good, "suite is", "suites are"))
    } else {
        String::new()
    };
    eprintln!(
        "error: {} in {}{fine}",
        plural(problems, "problem", "problems"),
        plural(bad, "suite", "suites"),
    );
}

/// Checks one suite folder: its files against their schemas, then the suite (and its course file)
/// as the commands load them. Prints `ok: ...` or every problem; returns how many problems.
fn suite(
    dir: &Path,
    config: &crate::config::Config,
    oracle: &std::sync::Arc<dyn oracle::Oracle>,
) -> usize {
    let suite_file = dir.join(FileKind::Suite.file_name());
    let course_file = dir.join(FileKind::Course.file_name());
    let mut problems = against_schema(&suite_file, FileKind::Suite);
    let course_problems = if course_file.exists() {
        against_schema(&course_file, FileKind::Course)
    } else {
        0
    };
    problems += course_problems;
    if problems > 0 {
        return problems;
    }
    let suite = match Suite::load_strict(dir, config, oracle.clone()) {
        Ok(suite) => suite,
        Err(e) => {
            let all = e.problems();
            for p in &all {
                eprintln!("error: {p}");
            }
            return all.len();
        }
    };
    let columns = crate::grade::class::columns(&suite, false);
    if let Err(e) = crate::course::Course::for_suite(dir, &columns.groups) {
        eprintln!("error: {e}");
        return 1;
    }
    println!("{}", ok_line(&suite));
    0
}

/// Checks a file against its kind's schema, printing each problem; returns how many. A file that
/// cannot be read or is not UTF-8 is one problem.
fn against_schema(file: &Path, kind: FileKind) -> usize {
    let text = match read_text(file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let problems = check(&text, &schema(kind));
    for p in &problems {
        eprintln!(
            "error: {}",
            located(file, &text, p.span.clone(), &p.message)
        );
    }
    problems.len()
}

/// `ok: `adelaide-2021-a1`: 8 groups, 40 cases (12 public), 18 points, languages: c, ...`.
fn ok_line(suite: &Suite) -> String {
    let cases = suite.cases().count();
    let public = suite
        .cases()
        .filter(|(_, c)| c.visibility == Visibility::Public)
        .count();
    let languages: Vec<&str> = suite.languages.iter().map(|l| l.name.as_str()).collect();
    let manual: String = suite
        .manual
        .iter()
        .map(|m| format!(", manual: {} /{}", m.name, m.points))
        .collect();
    format!(
        "ok: `{}`: {} groups, {cases} cases ({public} public), {} points{manual}, languages: {}",
        suite.name,
        suite.groups.len(),
        suite.total_points(),
        languages.join(", ")
    )
}
