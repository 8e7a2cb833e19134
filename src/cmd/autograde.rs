//! `grader autograde SUITE DIR --to PLATFORM -o FILE`: grades one submission on every case, hidden
//! ones included, and writes the platform's results file: what a bundle's `run_autograder` runs.

use std::path::PathBuf;

use super::common::{environment_for, grade_folder, load_config, RunFlags};
use super::exit::{CliError, CmdResult, Exit};
use crate::report::export::gradescope::{self, Shown};
use crate::report::export::prairielearn::{self, Via};
use crate::report::write_atomic;
use crate::suite::{oracle, Suite};

/// The platforms a results file is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Platform {
    Gradescope,
    Prairielearn,
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
    /// The results file (`/autograder/results/results.json`, `/grade/results/results.json`).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
    /// Gradescope: when students see a hidden case (`hidden`, `after_due_date`, `after_published`,
    /// `visible`); public cases are always `visible`.
    #[arg(long, default_value = "hidden", value_name = "WHEN", value_parser = <Shown as std::str::FromStr>::from_str)]
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
            if e.exit == Exit::Internal && args.to == Platform::Prairielearn {
                let text = prairielearn::not_gradable(&format!("{:#}", e.error), Via::Autograde);
                write(&args.out, &text)?;
            }
            return Err(e);
        }
    };
    let machine = crate::report::export::unscored(&result).is_some();
    let text = match args.to {
        // Gradescope has no "not graded": without a results file the submission shows an autograder
        // failure the instructor can rerun, never a score the machine caused.
        Platform::Gradescope if machine => None,
        Platform::Gradescope => Some(gradescope::to_json(&result, args.hidden_visibility)),
        // PrairieLearn's `gradable: false` charges the student no attempt.
        Platform::Prairielearn => Some(prairielearn::to_json(&result, Via::Autograde)),
    };
    // Gradescope keeps run_autograder's output for the instructor: every case's feedback and the
    // integrity notes go there. PrairieLearn shows a job's output to the student, so it gets none of
    // it (a hidden case's feedback may quote its expected output).
    if args.to == Platform::Gradescope {
        print!(
            "{}",
            crate::report::feedback::student_report(&result, crate::report::feedback::Paint(false))
        );
    }
    for note in result
        .integrity
        .iter()
        .filter(|_| args.to == Platform::Gradescope)
    {
        println!(
            "integrity: {}: {}",
            note.case,
            crate::untrusted::one_line(&note.what, crate::report::feedback::LINE_CAP)
        );
    }
    if let Some(text) = text {
        write(&args.out, &text)?;
    }
    if machine {
        eprintln!(
            "error: the machine could not grade this submission (a missing toolchain or an internal error); see above"
        );
        return Ok(Exit::Internal);
    }
    Ok(Exit::Success)
}

/// Grades the submission on every case.
fn grade(args: &Args) -> Result<crate::report::result::SubmissionResult, CliError> {
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
