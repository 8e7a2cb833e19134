//! `grader autograde SUITE DIR --to PLATFORM [-o FILE]`: grades one submission on every case, hidden
//! ones included, and writes the platform's results file (Autolab's feedback, whose last line is the
//! autoresult, to stdout): what a bundle's `run_autograder`, `run.sh` or `Makefile` runs.

use std::path::PathBuf;

use super::common::{environment_for, grade_folder, load_config, RunFlags};
use super::exit::{CliError, CmdResult, Exit};
use crate::report::export::gradescope::{self, Shown};
use crate::report::export::prairielearn::{self, Via};
use crate::report::export::{autolab, Class};
use crate::report::feedback::{student_report, Paint};
use crate::report::result::SubmissionResult;
use crate::report::write_atomic;
use crate::suite::{oracle, Suite};

/// The platforms a results file is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Platform {
    Gradescope,
    Prairielearn,
    /// The feedback on stdout, the autoresult (`{"scores": ...}`) its last line.
    Autolab,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite folder.
    pub suite: PathBuf,
    /// The submission folder (Gradescope's `/autograder/submission`, PrairieLearn's `/grade/student`).
    pub dir: PathBuf,
    /// The platform whose results format to write.
    #[arg(long, value_enum)]
    pub to: Platform,
    /// The results file (`/autograder/results/results.json`, `/grade/results/results.json`); Autolab
    /// reads stdout.
    #[arg(long, short = 'o', value_name = "FILE", required_if_eq_any = [("to", "gradescope"), ("to", "prairielearn")])]
    pub out: Option<PathBuf>,
    /// Gradescope: when students see a hidden case (`hidden`, `after-due-date`, `after-published`,
    /// `visible`); public cases are always `visible`. Autolab shows all its feedback: a hidden case
    /// is masked there (group, verdict) unless `visible`.
    #[arg(long, value_enum, default_value = Shown::DEFAULT, value_name = "WHEN")]
    pub hidden_visibility: Shown,
    #[command(flatten)]
    pub flags: RunFlags,
}

/// `grader autograde`.
pub fn run(args: Args) -> CmdResult {
    let result = match grade(&args) {
        Ok(result) => result,
        Err(e) => {
            // The machine's fault before any case ran (a missing toolchain, a sandbox that cannot
            // start): PrairieLearn is told the submission is not gradable, so no attempt is charged.
            if let (Exit::Internal, Platform::Prairielearn, Some(out)) =
                (e.exit, args.to, &args.out)
            {
                let text = prairielearn::not_gradable(&format!("{:#}", e.error), Via::Autograde);
                write(out, &text)?;
            }
            return Err(e);
        }
    };
    let machine = crate::report::export::unscored(&result).is_some();
    match args.to {
        Platform::Autolab => autolab(&args, &result),
        Platform::Gradescope | Platform::Prairielearn => {
            let out = args.out.as_deref().expect("clap requires --out here");
            results_file(&args, &result, machine, out)?;
        }
    }
    if machine {
        eprintln!(
            "error: the machine could not grade this submission (a missing toolchain or an internal error); see above"
        );
        return Ok(Exit::Internal);
    }
    Ok(Exit::Success)
}

/// Gradescope's or PrairieLearn's results file, and for Gradescope the instructor's log.
fn results_file(
    args: &Args,
    result: &SubmissionResult,
    machine: bool,
    out: &std::path::Path,
) -> Result<(), CliError> {
    let text = match args.to {
        // Gradescope has no "not graded": without a results file the submission shows an autograder
        // failure the instructor can rerun, never a score the machine caused.
        Platform::Gradescope if machine => None,
        Platform::Gradescope => Some(gradescope::to_json(result, args.hidden_visibility)),
        // PrairieLearn's `gradable: false` charges the student no attempt.
        _ => Some(prairielearn::to_json(result, Via::Autograde)),
    };
    // Gradescope keeps run_autograder's output for the instructor: every case's feedback and the
    // integrity notes go there. PrairieLearn shows a job's output to the student, so it gets none of
    // it (a hidden case's feedback may quote its expected output).
    if args.to == Platform::Gradescope {
        print!("{}", student_report(result, Paint(false)));
        for note in &result.integrity {
            println!(
                "integrity: {}: {}",
                note.case,
                crate::untrusted::one_line(&note.what, crate::report::feedback::LINE_CAP)
            );
        }
    }
    if let Some(text) = text {
        write(out, &text)?;
    }
    Ok(())
}

/// Autolab's feedback on stdout, as `grader export --to autolab` writes a student's `output.txt`:
/// every case (hidden ones masked unless `--hidden-visibility visible`: Autolab shows the student
/// all of it), then the autoresult line, left out when the machine could not grade (Autolab then
/// reports the autograder's failure, never a score).
fn autolab(args: &Args, result: &SubmissionResult) {
    let shown = if args.hidden_visibility == Shown::Visible {
        result.clone()
    } else {
        autolab::mask_hidden(result)
    };
    let class = Class {
        suite: shown.suite.clone(),
        results: vec![shown],
        roster: None,
        // One fresh grading: no course file, no manual marks to wait for (the platform's own).
        allow_incomplete: false,
    };
    let done = autolab::export(&class);
    if let Some((_, bytes)) = done.files.first() {
        use std::io::Write as _;
        let mut stdout = std::io::stdout();
        let _ = stdout.write_all(bytes);
        let _ = stdout.flush();
    }
}

/// Grades the submission on every case.
fn grade(args: &Args) -> Result<SubmissionResult, CliError> {
    let config = load_config(args.flags.config.as_deref())?;
    let suite = Suite::load(&args.suite, &config, oracle::builtin()).map_err(CliError::usage)?;
    if !args.dir.is_dir() {
        return Err(CliError::usage(anyhow::anyhow!(
            "no submission folder `{}`",
            args.dir.display()
        )));
    }
    crate::doctor::require(&[&suite], args.flags.allow_missing)?;
    // A platform's container is its own isolation; where it forbids namespaces, `basic` is the best
    // this machine offers, and the notice says so in the instructor's log.
    let env = environment_for(args.flags.sandbox.as_deref(), &config, true)?;
    crate::doctor::require_runnable(env.sandbox.as_ref(), &[&suite])?;
    // The platform names every submission's folder alike: the key comes from what it holds.
    let student = crate::grade::names::content_key(&args.dir);
    eprintln!(
        "grading `{}` on every case of `{}` (sandbox {})",
        args.dir.display(),
        suite.name,
        env.sandbox.tier()
    );
    Ok(grade_folder(&env, &config, &suite, &student, &args.dir, &|_| true)?.result)
}

/// Writes the results file, saying where.
fn write(out: &std::path::Path, text: &str) -> Result<(), CliError> {
    write_atomic(out, text.as_bytes()).map_err(|e| {
        CliError::internal(anyhow::anyhow!("cannot write `{}`: {e}", out.display()))
    })?;
    eprintln!("results: {}", out.display());
    Ok(())
}
