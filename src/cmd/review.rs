//! `grader review RESULTS/SUITE [SUBMISSIONS]`: a local web page that walks a TA through a graded
//! class (code, feedback, replays, review cases, rubric), saving every mark as it is given
//! (docs/review.md).

use std::io::Write as _;
use std::path::PathBuf;

use super::exit::{CliError, CmdResult, Exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A suite's results folder, as `grader run` wrote it (`results/<suite>`).
    pub results: PathBuf,
    /// The class's submissions (one folder per student), to show the code. Default: the folder
    /// `grader run` graded, when it is still there.
    pub submissions: Option<PathBuf>,
    /// Who is marking: written with every mark (default: `$USER`).
    #[arg(long, value_name = "NAME")]
    pub by: Option<String>,
    /// The port on 127.0.0.1 (default: any free one).
    #[arg(long, default_value_t = 0, value_name = "PORT")]
    pub port: u16,
}

/// `grader review RESULTS/SUITE [SUBMISSIONS]`.
pub fn run(args: Args) -> CmdResult {
    let by = args
        .by
        .clone()
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "ta".into());
    let by = crate::marks::check_name(&by)
        .map_err(|e| CliError::usage(anyhow::anyhow!("`--by`: {e}")))?;
    let mut class = crate::review::Class::open(&args.results, args.submissions.as_deref(), by)?;
    for n in &class.notes {
        eprintln!("note: {n}");
    }
    let students = class.students.len();
    crate::review::server::serve(&mut class, args.port, |url| {
        eprintln!(
            "reviewing {students} students of `{}`: open the address below in a browser on this machine (Ctrl-C stops; every mark is saved as it is given)",
            args.results.display()
        );
        println!("{url}");
        let _ = std::io::stdout().flush();
    })
    .map_err(CliError::internal)?;
    Ok(Exit::Success)
}
