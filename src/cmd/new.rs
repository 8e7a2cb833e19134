//! `grader new DIR --from TEMPLATE|SUITE`: writes a working suite to start from (a built-in template
//! with samples `grader verify` passes at once, or a copy of a suite folder).

use std::path::PathBuf;

use super::exit::{CliError, CmdResult, Exit};
use crate::author::new::{from_suite, from_template, template, NewError, TEMPLATES};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The new suite's folder; its name is the suite's (lowercase, digits, `-`, `_`).
    #[arg(required_unless_present = "list")]
    pub dir: Option<PathBuf>,
    /// A built-in template (`stdout`, `play`, `dialogue`, `position`; `grader new --list` says what
    /// each is), or the folder of a suite to copy (`suites/adelaide-2021-a1`).
    #[arg(long, value_name = "TEMPLATE|SUITE", required_unless_present = "list")]
    pub from: Option<String>,
    /// List the built-in templates.
    #[arg(long, conflicts_with = "from")]
    pub list: bool,
}

/// `grader new DIR --from TEMPLATE|SUITE`.
pub fn run(args: Args) -> CmdResult {
    if args.list {
        for t in TEMPLATES {
            println!("{:<8} {}", t.name, t.about);
        }
        return Ok(Exit::Success);
    }
    let from = args.from.unwrap_or_default();
    let dir = args.dir.unwrap_or_default();
    let written = match template(&from) {
        Some(t) => from_template(t, &dir),
        None if PathBuf::from(&from).join(crate::suite::SUITE_FILE).is_file() => {
            from_suite(from.as_ref(), &dir)
        }
        None => {
            let names: Vec<&str> = TEMPLATES.iter().map(|t| t.name).collect();
            return Err(CliError::usage(anyhow::anyhow!(
                "`{from}` is neither a template nor a suite folder\nhint: a template ({}) or a folder holding `suite.toml`",
                names.join(", ")
            )));
        }
    }
    .map_err(|e| match e {
        NewError::Write { .. } => CliError::internal(e),
        _ => CliError::usage(e),
    })?;
    eprintln!(
        "wrote `{}` ({})\nnext: grader validate {0}   then: grader verify {0}",
        dir.display(),
        super::common::plural(written.len(), "file", "files")
    );
    Ok(Exit::Success)
}
