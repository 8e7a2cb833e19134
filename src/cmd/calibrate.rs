//! `grader calibrate SUITE`: runs each language's reference hand-in on this machine and writes the
//! suite's `calibration.toml`, per-language CPU limits that `run` and `check` then apply.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, Context};

use super::common::load_config;
use super::exit::{CliError, CmdResult, Exit};
use crate::grade::case::{run_case_within, Program};
use crate::grade::names::Names;
use crate::grade::pipeline::Prepared;
use crate::grade::wire;
use crate::judge::Verdict;
use crate::sandbox::Sandbox;
use crate::suite::calibration::CALIBRATION_FILE;
use crate::suite::calibration::{derive_limit, seconds, Calibration, LanguageLimit, FACTOR};
use crate::suite::{oracle, Kind, Suite};

/// How many of the heaviest cases (by a first run) are sampled `--samples` times.
const HEAVIEST: usize = 2;

/// A reference is measured with this many times the suite's CPU limit, so that a machine slower
/// than the suite's author's still measures it instead of stopping it.
const ROOM: u32 = 10;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite folder (`suites/adelaide-2021-a1`); `calibration.toml` is written into it.
    pub suite: PathBuf,
    /// Runs of each of the heaviest cases; the median is the measurement.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub samples: u32,
    /// A reference hand-in to measure instead of the suite's `[calibrate]` table (repeat for more
    /// languages); its language is detected as a student's would be.
    #[arg(long, value_name = "DIR")]
    pub reference: Vec<PathBuf>,
    /// The sandbox tier: `full`, `basic` or `none` (default: `grader.toml`'s `run.sandbox`).
    #[arg(long, value_name = "TIER")]
    pub sandbox: Option<String>,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `grader calibrate SUITE`.
pub fn run(args: Args) -> CmdResult {
    let config = load_config(args.config.as_deref())?;
    let suite = Suite::load(&args.suite, &config, oracle::builtin()).map_err(CliError::usage)?;
    if args.samples == 0 {
        return Err(CliError::usage(anyhow!(
            "`--samples 0` measures nothing\nhint: pass 1 or more (3 by default)"
        )));
    }
    let references = references(&args, &suite)?;
    let tier = match args.sandbox.as_deref() {
        Some(t) => crate::config::parse_tier(t).map_err(|m| CliError::usage(anyhow!("{m}")))?,
        None => config.sandbox,
    };
    let env = wire::environment(tier, false)?;
    let scratch = tempfile::Builder::new()
        .prefix("grader-calibrate-")
        .tempdir()
        .context("cannot make a scratch folder")
        .map_err(CliError::internal)?;
    let mut languages: Vec<LanguageLimit> = Vec::new();
    for (k, (named, dir)) in references.iter().enumerate() {
        let work = scratch.path().join(format!("ref-{k}"));
        let program = build_reference(&env, &suite, dir, &work)?;
        if let Some(named) = named.as_ref().filter(|n| **n != program.language) {
            return Err(failed(
                dir,
                &format!(
                    "`[calibrate]` names it `{named}`, but it builds as `{}`",
                    program.language
                ),
            ));
        }
        if languages.iter().any(|l| l.name == program.language) {
            return Err(CliError::usage(anyhow!(
                "two references for `{}`\nhint: give one hand-in per language",
                program.language
            )));
        }
        let (heaviest, measured) =
            measure(&*env.sandbox, &suite, &program, dir, args.samples, &work)?;
        let cpu = derive_limit(suite.limits.cpu, FACTOR, measured);
        eprintln!(
            "{}: heaviest case `{heaviest}`, median {} of {} runs; limit {}",
            program.language,
            seconds(measured),
            args.samples,
            seconds(cpu)
        );
        languages.push(LanguageLimit {
            name: program.language.clone(),
            reference: shown(&suite.dir, dir),
            heaviest_case: heaviest,
            measured_cpu: measured,
            cpu,
        });
    }
    languages.sort_by(|a, b| a.name.cmp(&b.name));
    write_calibration(&suite, args.samples, languages)
}

/// The hand-ins to measure: `--reference` folders, else the suite's `[calibrate]` table.
fn references(args: &Args, suite: &Suite) -> Result<Vec<(Option<String>, PathBuf)>, CliError> {
    let references: Vec<(Option<String>, PathBuf)> = if args.reference.is_empty() {
        suite
            .calibrate
            .iter()
            .map(|(l, d)| (Some(l.clone()), d.clone()))
            .collect()
    } else {
        args.reference.iter().map(|d| (None, d.clone())).collect()
    };
    if references.is_empty() {
        return Err(CliError::usage(anyhow!(
            "suite `{}` names no reference hand-ins to measure\nhint: add a `[calibrate]` table to its suite.toml (`python = \"../../examples/submissions/{}/python-correct\"`), or pass `--reference DIR`",
            suite.name,
            suite.name
        )));
    }
    if let Some((_, dir)) = references.iter().find(|(_, d)| !d.is_dir()) {
        return Err(CliError::usage(anyhow!(
            "no reference hand-in folder `{}`\nhint: `[calibrate]` paths are relative to the suite folder",
            dir.display()
        )));
    }
    Ok(references)
}

/// One reference hand-in built in `work`; a reference that does not build cannot calibrate.
fn build_reference(
    env: &wire::Environment,
    suite: &Suite,
    dir: &Path,
    work: &Path,
) -> Result<crate::grade::case::Program, CliError> {
    match env
        .prepare
        .prepare(&*env.sandbox, suite, dir, &work.join("build"))
    {
        Prepared::Ready { program, .. } => Ok(program),
        Prepared::CompileError { language, log } => Err(failed(
            dir,
            &format!("it did not build as {language}:\n{log}"),
        )),
        Prepared::NoLanguage { message } => Err(failed(dir, &message)),
        Prepared::NotGraded { message } | Prepared::Internal { message } => {
            Err(CliError::internal(anyhow!(
                "cannot build the reference `{}`: {message}",
                dir.display()
            )))
        }
    }
}

/// Writes `calibration.toml` beside the suite and prints each language's limit.
fn write_calibration(suite: &Suite, samples: u32, languages: Vec<LanguageLimit>) -> CmdResult {
    let calibration = Calibration {
        machine: machine(),
        date: utc_now(),
        factor: FACTOR,
        samples,
        suite_cpu: suite.limits.cpu,
        languages,
    };
    let path = suite.dir.join(CALIBRATION_FILE);
    std::fs::write(&path, calibration.to_toml())
        .with_context(|| format!("cannot write `{}`", path.display()))
        .map_err(CliError::internal)?;
    for l in &calibration.languages {
        println!(
            "{:<8} {:>9} measured  {:>9} limit  ({})",
            l.name,
            seconds(l.measured_cpu),
            seconds(l.cpu),
            l.heaviest_case
        );
    }
    eprintln!("wrote {}", path.display());
    Ok(Exit::Success)
}

fn failed(dir: &Path, why: &str) -> CliError {
    CliError {
        exit: Exit::Failure,
        error: anyhow!(
            "the reference `{}` cannot calibrate: {why}\nhint: a reference must pass every case of the suite",
            dir.display()
        ),
    }
}

/// Every run case of the main program once, then the heaviest few `samples` times: the largest median,
/// with its case. Any case the reference fails is an error: a wrong reference measures nothing.
fn measure(
    sandbox: &dyn Sandbox,
    suite: &Suite,
    program: &Program,
    dir: &Path,
    samples: u32,
    work: &Path,
) -> Result<(String, Duration), CliError> {
    let runs: Vec<_> = suite
        .cases()
        .filter(|(g, c)| g.program.is_none() && matches!(c.kind, Kind::Run(_)))
        .collect();
    if runs.is_empty() {
        return Err(CliError::usage(anyhow!(
            "suite `{}` has no run cases to measure\nhint: calibration measures run cases; games and positions keep their own limits",
            suite.name
        )));
    }
    let mut n = 0;
    let mut once = |group, case: &crate::suite::Case| {
        n += 1;
        let mut limits = case.limits.clone();
        limits.cpu = case.limits.cpu * ROOM;
        limits.wall = limits.wall.max(limits.cpu * 2);
        let scratch = work.join(format!("run-{n}"));
        let r = run_case_within(
            sandbox,
            suite,
            group,
            case,
            program,
            &scratch,
            limits,
            "calibration".to_string(),
            &Names::as_written(),
        )
        .0;
        let _ = crate::sandbox::scratch::remove_tree(&scratch);
        if r.verdict != Verdict::Accepted {
            return Err(failed(
                dir,
                &format!(
                    "case `{}/{}`: {} ({})",
                    r.group,
                    r.name,
                    r.verdict.label(),
                    r.summary
                ),
            ));
        }
        Ok(Duration::from_millis(r.cpu_ms))
    };
    let mut first = Vec::new();
    for (g, c) in &runs {
        first.push((once(g, c)?, *g, *c));
    }
    first.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut best: Option<(String, Duration)> = None;
    for (cpu, g, c) in first.into_iter().take(HEAVIEST) {
        let mut times = vec![cpu];
        for _ in 1..samples {
            times.push(once(g, c)?);
        }
        times.sort();
        // The middle run; with an even count, the slower of the two middle ones.
        let median = times[times.len() / 2];
        if best.as_ref().is_none_or(|(_, b)| median > *b) {
            best = Some((format!("{}/{}", g.name, c.name), median));
        }
    }
    Ok(best.expect("at least one run case"))
}

/// The reference as the file records it: relative to the suite folder when it is inside the
/// repository next to it, else as given.
fn shown(suite_dir: &Path, dir: &Path) -> String {
    let (Ok(base), Ok(full)) = (suite_dir.canonicalize(), dir.canonicalize()) else {
        return dir.display().to_string();
    };
    let common = base
        .components()
        .zip(full.components())
        .take_while(|(a, b)| a == b)
        .count();
    if common < 2 {
        return full.display().to_string();
    }
    let ups = base.components().count() - common;
    let mut out = PathBuf::new();
    for _ in 0..ups {
        out.push("..");
    }
    out.extend(full.components().skip(common));
    out.display().to_string()
}

/// Host name, cores, CPU model and kernel: enough to tell whether a calibration fits this machine.
fn machine() -> String {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    let host = read("/proc/sys/kernel/hostname").trim().to_string();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let model = read("/proc/cpuinfo")
        .lines()
        .find_map(|l| {
            l.strip_prefix("model name")?
                .split_once(':')
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let kernel = read("/proc/sys/kernel/osrelease").trim().to_string();
    format!("{host}: {cores} cores, {model}, Linux {kernel}")
}

/// Now, in UTC, as `2026-11-24T18:02:11Z` (days to a civil date: Hinnant's `civil_from_days`).
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
