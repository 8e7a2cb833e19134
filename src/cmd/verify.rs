//! `grader verify SUITE [SAMPLES]...`: grades a suite's sample submissions (every case, hidden ones
//! included) and compares each with what its `<sample>.expected.toml` pins, naming what moved;
//! `--accept` writes what the suite gives now (insta's review, for a course's suites in git).

use std::path::{Path, PathBuf};

use super::common::{environment_for, grade_folder, load_config, RunFlags};
use super::exit::{CliError, CmdResult, Exit};
use crate::author::verify::{changes, file_for, order, Expected};
use crate::suite::{oracle, Suite};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite folder.
    pub suite: PathBuf,
    /// Sample folders, or folders of them (default: the suite's `samples/`). Each sample `NAME` is
    /// pinned by `NAME.expected.toml` beside it.
    pub samples: Vec<PathBuf>,
    /// Write each sample's expectation from what the suite gives it now (review the diff first).
    #[arg(long)]
    pub accept: bool,
    #[command(flatten)]
    pub flags: RunFlags,
}

/// `grader verify SUITE [SAMPLES]...`.
pub fn run(args: Args) -> CmdResult {
    let config = load_config(args.flags.config.as_deref())?;
    let suite = Suite::load(&args.suite, &config, oracle::builtin()).map_err(CliError::usage)?;
    let roots = if args.samples.is_empty() {
        vec![args.suite.join("samples")]
    } else {
        args.samples.clone()
    };
    let samples = samples(&roots)?;
    crate::doctor::require(&[&suite], args.flags.allow_missing)?;
    let env = environment_for(args.flags.sandbox.as_deref(), &config, true)?;
    crate::doctor::require_runnable(env.sandbox.as_ref(), &[&suite])?;
    let mut tally = Tally::default();
    for sample in &samples {
        let name = sample.file_name().unwrap_or_default().to_string_lossy();
        let graded = grade_folder(&env, &config, &suite, &name, sample, &|_| true)?;
        tally.add(&name, sample, &graded.result, args.accept)?;
    }
    Ok(tally.finish(&args.suite, args.accept))
}

/// The samples under `roots`: a folder with a `NAME.expected.toml` beside it is a sample; any other
/// folder holds samples (its sub-folders not starting with `.`, in name order).
fn samples(roots: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut found = Vec::new();
    for root in roots {
        if !root.is_dir() {
            return Err(CliError::usage(anyhow::anyhow!(
                "no samples folder `{}`\nhint: give the folders of sample submissions: `grader verify SUITE SAMPLES...` (`grader new` puts them in the suite's `samples/`)",
                root.display()
            )));
        }
        if file_for(root).is_file() {
            found.push(root.clone());
            continue;
        }
        let mut inner: Vec<PathBuf> = std::fs::read_dir(root)
            .map_err(|e| CliError::usage(anyhow::anyhow!("cannot read `{}`: {e}", root.display())))?
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter(|e| !e.file_name().as_encoded_bytes().starts_with(b"."))
            .map(|e| e.path())
            .collect();
        inner.sort();
        found.extend(inner);
    }
    if found.is_empty() {
        return Err(CliError::usage(anyhow::anyhow!(
            "no sample submissions in {}",
            roots
                .iter()
                .map(|r| format!("`{}`", r.display()))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(found)
}

/// How the samples went, a line each on stdout as they are graded.
#[derive(Default)]
struct Tally {
    same: usize,
    moved: usize,
    new: usize,
    written: usize,
    not_graded: usize,
}

impl Tally {
    /// Compares one graded sample with its file (or writes the file under `--accept`).
    fn add(
        &mut self,
        name: &str,
        sample: &Path,
        result: &crate::report::result::SubmissionResult,
        accept: bool,
    ) -> Result<(), CliError> {
        let shown = format!(
            "{:<24} {}",
            crate::untrusted::one_line(name, 60),
            points(result)
        );
        if let Some(why) = result.not_graded().map(str::to_string).or_else(|| {
            result
                .has_internal_error()
                .then(|| "the grader's own error (see `grader check`)".to_string())
        }) {
            self.not_graded += 1;
            println!(
                "not-graded  {shown}: {}",
                crate::untrusted::one_line(&why, 200)
            );
            return Ok(());
        }
        let file = file_for(sample);
        // A file that pins nothing is no expectation: the sample is new until one is written.
        let pinned = if file.is_file() {
            Some(Expected::read(&file).map_err(CliError::usage)?).filter(|p| !p.pins_nothing())
        } else {
            None
        };
        let actual = Expected::of(result);
        let moved = pinned
            .as_ref()
            .map(|p| changes(p, &actual))
            .unwrap_or_default();
        match (&pinned, moved.is_empty()) {
            (Some(_), true) => {
                self.same += 1;
                println!("ok          {shown}");
                return Ok(());
            }
            (Some(_), false) => {
                self.moved += 1;
                println!("moved       {shown}");
                for change in &moved {
                    println!("              {change}");
                }
            }
            (None, _) => {
                self.new += 1;
                println!("new         {shown}: no `{}` yet", file.display());
            }
        }
        if accept {
            let kept = actual.shaped_like(&pinned.unwrap_or_default());
            crate::report::write_atomic(&file, kept.render(&order(result)).as_bytes()).map_err(
                |e| CliError::internal(anyhow::anyhow!("cannot write `{}`: {e}", file.display())),
            )?;
            self.written += 1;
        }
        Ok(())
    }

    /// The summary on stderr, and the exit code: 1 when something moved or is new (unless accepted),
    /// 3 when a sample could not be graded here.
    fn finish(self, suite: &Path, accept: bool) -> Exit {
        let total = self.same + self.moved + self.new + self.not_graded;
        eprintln!(
            "{}: {} as expected, {} moved, {} new, {} not graded",
            super::common::plural(total, "sample", "samples"),
            self.same,
            self.moved,
            self.new,
            self.not_graded
        );
        if accept && self.written > 0 {
            let files =
                super::common::plural(self.written, "expectation file", "expectation files");
            eprintln!("wrote {files}");
        } else if self.moved + self.new > 0 {
            eprintln!(
                "hint: if the suite is right, accept what it gives now: `grader verify {} ... --accept` (then review `git diff`)",
                suite.display()
            );
        }
        if self.not_graded > 0 {
            Exit::Internal
        } else if self.moved + self.new > 0 && !accept {
            Exit::Failure
        } else {
            Exit::Success
        }
    }
}

/// `7.67/10`, or `review/10` while a case waits for a person (never a zero).
fn points(result: &crate::report::result::SubmissionResult) -> String {
    let fmt = |x: f64| {
        let t = format!("{x:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let score = if result.needs_review().is_some() {
        "review".to_string()
    } else {
        fmt(result.score)
    };
    format!("{score}/{}", fmt(result.max))
}
