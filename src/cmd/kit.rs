//! `grader kit SUITE [-o DIR]`: the suite with its public cases only, for students' `grader check`.

use std::path::{Path, PathBuf};

use super::common::load_config;
use super::exit::{CliError, CmdResult, Exit};
use crate::bundle::kit::Kit;
use crate::config::Config;
use crate::suite::{oracle, Suite, Visibility};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The suite folder.
    pub suite: PathBuf,
    /// The kit's folder (new, or empty). Default: a folder named as the suite, here.
    #[arg(long, short = 'o', value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// A file of the suite to add to the kit under `docs/` (its README, a protocol document),
    /// relative to the suite folder; repeatable. Check it first: a suite's README may describe its
    /// hidden cases.
    #[arg(long, value_name = "FILE")]
    pub include: Vec<PathBuf>,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `grader kit`.
pub fn run(args: Args) -> CmdResult {
    let config = load_config(args.config.as_deref())?;
    let suite = Suite::load(&args.suite, &config, oracle::builtin()).map_err(CliError::usage)?;
    public_or_warn(&suite)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(&suite.name));
    let mut kit = crate::bundle::kit::write(&suite, &args.include, &out)?;
    let loaded = finish(&out, &config, &mut kit)?;
    println!(
        "wrote `{}`: the kit of `{}`, {}, {} left out, {}",
        out.display(),
        loaded.name,
        super::common::plural(kit.public, "public case", "public cases"),
        super::common::plural(kit.hidden, "hidden case", "hidden cases"),
        super::common::plural(kit.files, "file", "files")
    );
    say(&kit);
    Ok(Exit::Success)
}

/// Loads the kit written in `out` (it must load: a failure is the grader's own) and writes its
/// student guide from it.
pub(super) fn finish(out: &Path, config: &Config, kit: &mut Kit) -> Result<Suite, CliError> {
    let loaded = Suite::load(out, config, oracle::builtin()).map_err(|e| {
        CliError::internal(anyhow::Error::new(e).context(format!(
            "the kit written in `{}` does not load",
            out.display()
        )))
    })?;
    let folder = out
        .file_name()
        .map_or_else(|| loaded.name.clone(), |n| n.to_string_lossy().into_owned());
    let guide = crate::bundle::guide::readme(&loaded, &folder, &kit.documents);
    let readme = out.join("README.md");
    crate::report::write_atomic(&readme, guide.as_bytes()).map_err(|e| {
        CliError::internal(anyhow::anyhow!("cannot write `{}`: {e}", readme.display()))
    })?;
    kit.files += 1;
    Ok(loaded)
}

/// A suite with no public case gives a kit that checks nothing: said. Without an `[arena]` either, the
/// kit would hold no group and so be no suite at all: refused before anything is written.
pub(super) fn public_or_warn(suite: &Suite) -> Result<(), CliError> {
    let public = suite
        .cases()
        .filter(|(_, c)| c.visibility == Visibility::Public)
        .count();
    if public > 0 {
        return Ok(());
    }
    eprintln!(
        "warning: `{}` has no public case, so its kit checks nothing\nhint: mark cases `visibility = \"public\"` in the suite for students to check their work on",
        suite.name
    );
    if suite.arena.is_none() {
        return Err(CliError::usage(anyhow::anyhow!(
            "`{}` has no public case and no `[arena]`: its kit would hold no group, so none was written",
            suite.name
        )));
    }
    Ok(())
}

/// What the instructor should know of a kit: the groups and files it left out.
pub(super) fn say(kit: &Kit) {
    if !kit.groups_left_out.is_empty() {
        println!(
            "groups with no public case, left out: {}",
            kit.groups_left_out.join(", ")
        );
    }
    if !kit.left_out.is_empty() {
        println!(
            "left out (add one under docs/ with `--include FILE` once it gives nothing hidden away): {}",
            kit.left_out.join(", ")
        );
    }
}
