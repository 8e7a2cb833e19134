//! `grader validate`: checks suites (format, golden files, reference cases) without running anything.

use std::path::PathBuf;

use super::common::load_config;
use super::exit::{CmdResult, Exit};
use crate::suite::validate::discover;
use crate::suite::{oracle, Suite, Visibility};

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
    let config = load_config(args.config.as_deref())?;
    let oracle = oracle::builtin();
    let mut failed = false;
    for path in &args.suites {
        for dir in discover(path)? {
            match Suite::load(&dir, &config, oracle.clone()) {
                Ok(suite) => {
                    let cases = suite.cases().count();
                    let public = suite
                        .cases()
                        .filter(|(_, c)| c.visibility == Visibility::Public)
                        .count();
                    let languages: Vec<&str> =
                        suite.languages.iter().map(|l| l.name.as_str()).collect();
                    let manual: String = suite
                        .manual
                        .iter()
                        .map(|m| format!(", manual: {} /{}", m.name, m.points))
                        .collect();
                    println!(
                        "ok: `{}`: {} groups, {cases} cases ({public} public), {} points{manual}, languages: {}",
                        suite.name,
                        suite.groups.len(),
                        suite.total_points(),
                        if languages.is_empty() { "none".to_string() } else { languages.join(", ") }
                    );
                }
                Err(e) => {
                    failed = true;
                    eprintln!("error: {e}");
                }
            }
        }
    }
    Ok(if failed { Exit::Failure } else { Exit::Success })
}
