//! `grader bundle gradescope|prairielearn SUITE -o OUT`: a suite and the grader packed for an
//! autograder platform's per-submission container.

use std::path::PathBuf;

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
        /// When students see a hidden case's result: `hidden` (never), `after_due_date`,
        /// `after_published` or `visible`. Public cases are always `visible`.
        #[arg(long, default_value = "hidden", value_name = "WHEN", value_parser = <Shown as std::str::FromStr>::from_str)]
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

/// The plan `common` describes, once the suite is known to load.
fn plan(common: &Common) -> Result<Plan, CliError> {
    let local = std::path::Path::new("grader.toml");
    let config = common
        .config
        .clone()
        .or_else(|| local.is_file().then(|| local.to_path_buf()));
    let settings = super::common::load_config(config.as_deref())?;
    Suite::load(&common.suite, &settings, oracle::builtin()).map_err(CliError::usage)?;
    let grader = match &common.source {
        Some(dir) => Shipped::Source(dir.clone()),
        None => Shipped::Binary(std::env::current_exe().map_err(|e| {
            CliError::internal(anyhow::Error::new(e).context("cannot find this executable"))
        })?),
    };
    Ok(Plan {
        suite: common.suite.clone(),
        grader,
        config,
    })
}

/// `grader bundle`.
pub fn run(args: Args) -> CmdResult {
    let (common, written, out) = match &args.platform {
        Platform::Gradescope {
            common,
            out,
            hidden_visibility,
        } => {
            let plan = plan(common)?;
            let written = bundle::gradescope(&plan, hidden_visibility.as_str(), out)?;
            (common, written, out)
        }
        Platform::Prairielearn {
            common,
            out,
            timeout,
            image,
        } => {
            let plan = plan(common)?;
            (
                common,
                bundle::prairielearn(&plan, image, *timeout, out)?,
                out,
            )
        }
    };
    match &common.source {
        Some(dir) => eprintln!(
            "grader: the source in `{}`, built by the setup script",
            dir.display()
        ),
        None => eprintln!(
            "grader: this executable, built for x86-64 Linux (`--source DIR` ships the source instead)"
        ),
    }
    eprintln!(
        "{} in `{}`",
        super::common::plural(written.len(), "file", "files"),
        out.display()
    );
    Ok(Exit::Success)
}
