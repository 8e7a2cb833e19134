//! `grader bundle gradescope|prairielearn|autolab SUITE -o OUT`: a suite and the grader (stripped)
//! packed for an autograder platform's per-submission container; `grader bundle github-classroom`:
//! a starter repository whose workflow checks the suite's public cases with the student build.

use std::path::{Path, PathBuf};

use super::exit::{CliError, CmdResult, Exit};
use crate::bundle::{self, Plan, Shipped};
use crate::report::export::gradescope::Shown;
use crate::suite::{oracle, Suite};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub platform: Platform,
}

#[derive(Debug, clap::Subcommand)]
pub enum Platform {
    /// Gradescope's autograder zip: `setup.sh` and `run_autograder` at its root.
    Gradescope {
        #[command(flatten)]
        common: Common,
        /// The zip to write.
        #[arg(
            long,
            short = 'o',
            value_name = "ZIP",
            default_value = "autograder.zip"
        )]
        out: PathBuf,
        /// When students see a hidden case's result: `hidden` (never), `after-due-date`,
        /// `after-published` (once the instructor publishes the grades) or `visible`. Public cases
        /// are always `visible`.
        #[arg(long, value_enum, default_value = Shown::DEFAULT, value_name = "WHEN")]
        hidden_visibility: Shown,
    },
    /// PrairieLearn's folders: the question's `tests/`, the course's `serverFilesCourse/grader/`, and
    /// the question's `externalGradingOptions` in `info.json`.
    Prairielearn {
        #[command(flatten)]
        common: Common,
        /// The folder to write (new, or empty).
        #[arg(long, short = 'o', value_name = "DIR")]
        out: PathBuf,
        /// PrairieLearn's time limit for one grading job, in seconds (PrairieLearn allows at most 600).
        #[arg(long, default_value_t = 600, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=600))]
        timeout: u64,
        /// The Docker image `info.json` names: one with the suite's toolchains (the grader's
        /// `setup.sh` installs them when run once in an image built from this one).
        #[arg(
            long,
            default_value = "prairielearn/grader-python",
            value_name = "IMAGE"
        )]
        image: String,
    },
    /// Autolab's `autograde.tar` and `autograde-Makefile`, for an assessment's "Autograder" settings.
    Autolab {
        #[command(flatten)]
        common: Common,
        /// The folder to write the two files in (new, or empty).
        #[arg(long, short = 'o', value_name = "DIR", default_value = "autolab")]
        out: PathBuf,
        /// The assessment's handin file name (a `.tar`, `.tar.gz`, `.zip`, or one source file).
        #[arg(long, value_name = "NAME", default_value = bundle::autolab::HANDIN)]
        handin: String,
        /// Autolab shows students all the feedback: a hidden case is masked (group and verdict)
        /// unless this is `visible`.
        #[arg(long, value_enum, default_value = Shown::DEFAULT, value_name = "WHEN")]
        hidden_visibility: Shown,
    },
    /// A GitHub Classroom starter repository: the suite's student kit in `.grader/<suite>/` and
    /// `.github/workflows/classroom.yml`, which checks every push against the public cases and reports
    /// each group's points to Classroom. Hidden cases never go there (students see their repository).
    GithubClassroom {
        /// The suite folder.
        suite: PathBuf,
        /// The starter repository's folder (new, or empty).
        #[arg(long, short = 'o', value_name = "DIR")]
        out: PathBuf,
        /// The command the workflow installs the student build with.
        #[arg(long, value_name = "COMMAND", default_value_t = format!("python -m pip install grader-student=={}", env!("CARGO_PKG_VERSION")))]
        install: String,
        /// Minutes the workflow's job may take.
        #[arg(long, value_name = "MINUTES", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=360))]
        timeout: u32,
        /// A file of the suite to add to the kit under `docs/` (as `grader kit --include`).
        #[arg(long, value_name = "FILE")]
        include: Vec<PathBuf>,
        /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
}

#[derive(Debug, clap::Args)]
pub struct Common {
    /// The suite folder (hidden cases included: the platform's container is out of students' sight).
    pub suite: PathBuf,
    /// Ship the grader's source (a checkout) instead of this executable; the setup script builds it.
    #[arg(long, value_name = "DIR")]
    pub source: Option<PathBuf>,
    /// A `grader.toml` the bundled grader runs with (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The plan `common` describes, once the suite is known to load, and the folder holding the stripped
/// copy of this executable it ships (kept until the bundle is written).
fn plan(common: &Common) -> Result<(Plan, Option<tempfile::TempDir>), CliError> {
    let local = std::path::Path::new("grader.toml");
    let config = common
        .config
        .clone()
        .or_else(|| local.is_file().then(|| local.to_path_buf()));
    let settings = super::common::load_config(config.as_deref())?;
    Suite::load(&common.suite, &settings, oracle::builtin()).map_err(CliError::usage)?;
    let (grader, scratch) = match &common.source {
        Some(dir) => (Shipped::Source(dir.clone()), None),
        None => {
            let exe = std::env::current_exe().map_err(|e| {
                CliError::internal(anyhow::Error::new(e).context("cannot find this executable"))
            })?;
            let (scratch, stripped) = bundle::stripped(&exe)?;
            (Shipped::Binary(stripped), Some(scratch))
        }
    };
    let plan = Plan {
        suite: common.suite.clone(),
        grader,
        config,
    };
    Ok((plan, scratch))
}

/// `grader bundle`.
pub fn run(args: Args) -> CmdResult {
    let (common, written, out) = match &args.platform {
        Platform::GithubClassroom {
            suite,
            out,
            install,
            timeout,
            include,
            config,
        } => return classroom(suite, out, install, *timeout, include, config.as_deref()),
        Platform::Gradescope {
            common,
            out,
            hidden_visibility,
        } => {
            let (plan, _stripped) = plan(common)?;
            let written = bundle::gradescope(&plan, hidden_visibility.flag(), out)?;
            (common, written, out)
        }
        Platform::Prairielearn {
            common,
            out,
            timeout,
            image,
        } => {
            let (plan, _stripped) = plan(common)?;
            (
                common,
                bundle::prairielearn(&plan, image, *timeout, out)?,
                out,
            )
        }
        Platform::Autolab {
            common,
            out,
            handin,
            hidden_visibility,
        } => {
            let (plan, _stripped) = plan(common)?;
            let written = bundle::autolab::bundle(&plan, hidden_visibility.flag(), handin, out)?;
            (common, written, out)
        }
    };
    match &common.source {
        Some(dir) => eprintln!(
            "grader: the source in `{}`, built by the setup script",
            dir.display()
        ),
        None => eprintln!(
            "grader: this executable, stripped, built for x86-64 Linux (`--source DIR` ships the source instead)"
        ),
    }
    eprintln!(
        "{} in `{}`",
        super::common::plural(written.len(), "file", "files"),
        out.display()
    );
    Ok(Exit::Success)
}

/// `grader bundle github-classroom`.
fn classroom(
    suite: &Path,
    out: &Path,
    install: &str,
    timeout: u32,
    include: &[PathBuf],
    config: Option<&Path>,
) -> CmdResult {
    let settings = super::common::load_config(config)?;
    let suite = Suite::load(suite, &settings, oracle::builtin()).map_err(CliError::usage)?;
    super::kit::public_or_warn(&suite)?;
    let plan = bundle::classroom::Plan { install, timeout };
    let mut kit = bundle::classroom::starter(&suite, include, &plan, out)?;
    let kit_dir = out.join(bundle::classroom::KITS).join(&suite.name);
    super::kit::finish(&kit_dir, &settings, &mut kit)?;
    println!(
        "wrote `{}`: `{}` and the kit of `{}` in `{}` ({} public cases, {} hidden cases left out)",
        out.display(),
        bundle::classroom::WORKFLOW,
        suite.name,
        kit_dir.display(),
        kit.public,
        kit.hidden
    );
    super::kit::say(&kit);
    if kit.hidden > 0 {
        eprintln!(
            "note: the {} hidden cases are not in the starter repository: a student's repository is visible to the student, so tests there are never hidden; grade them with `grader run` on the collected repositories, or on Gradescope, PrairieLearn or Autolab",
            kit.hidden
        );
    }
    Ok(Exit::Success)
}
