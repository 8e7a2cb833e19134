//! `grader validate`: checks suites (format, golden files, reference cases) without running anything.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::config::Config;
use crate::exit::{CliError, CmdResult, Exit};
use crate::suite::{oracle, Suite, Visibility, SUITE_FILE};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Suite folders, or folders of suites.
    #[arg(required = true)]
    pub suites: Vec<PathBuf>,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// The user's configuration: `--config`, else `./grader.toml` when present, over the built-in defaults.
pub fn load_config(explicit: Option<&Path>) -> Result<Config, CliError> {
    let local = Path::new("grader.toml");
    let path = explicit.or_else(|| local.is_file().then_some(local));
    let config = Config::load(path).map_err(CliError::usage)?;
    crate::toolchain::Toolchain::configure(config.python2.clone());
    Ok(config)
}

/// The suite folders under `path`: itself when it holds `suite.toml`, else its children that do.
pub fn discover(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if path.join(SUITE_FILE).is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path)
        .with_context(|| format!("cannot read suite folder `{}`", path.display()))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(SUITE_FILE).is_file())
        .collect();
    found.sort();
    if found.is_empty() {
        anyhow::bail!(
            "no suite in `{}`\nhint: a suite is a folder holding `{SUITE_FILE}`; pass it, or a folder of suites",
            path.display()
        );
    }
    Ok(found)
}

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
