//! `grader doctor [SUITES] [--install]`: the toolchains each suite needs, found (path and version) or
//! missing (with what provides it), each interpreter started once in the sandbox `run` uses, `--install`
//! to fetch what apt-get can.

use std::path::PathBuf;

use super::common::load_config;
use super::exit::{CliError, CmdResult, Exit};
use crate::config::Config;
use crate::doctor::{missing, needs, probe, provider, Need, Provider};
use crate::suite::validate::discover;
use crate::suite::{oracle, Suite};
use crate::toolchain::Toolchain;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Suite folders, or folders of suites (default: `suites`).
    pub suites: Vec<PathBuf>,
    /// Install what is missing with the system's package manager (`apt-get`, as root).
    #[arg(long)]
    pub install: bool,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `grader doctor [SUITES] [--install]`.
pub fn run(args: Args) -> CmdResult {
    let config = load_config(args.config.as_deref())?;
    let roots = if args.suites.is_empty() {
        vec![PathBuf::from("suites")]
    } else {
        args.suites.clone()
    };
    let oracle = oracle::builtin();
    let mut suites = Vec::new();
    for root in &roots {
        for dir in discover(root)? {
            suites.push(Suite::load(&dir, &config, oracle.clone()).map_err(CliError::usage)?);
        }
    }
    let refs: Vec<&Suite> = suites.iter().collect();
    let toolchain = Toolchain::global();
    dolos(args.install);
    if args.install {
        let missing = missing(toolchain, &refs);
        let packages: Vec<&str> = missing
            .iter()
            .filter_map(|(n, _)| match provider(&n.tool) {
                Provider::Apt(p) => Some(p),
                Provider::Manual(_) => None,
            })
            .collect();
        install(&packages)?;
        for (n, _) in &missing {
            if let Provider::Manual(text) = provider(&n.tool) {
                eprintln!("cannot install `{}`: {text}", n.tool);
            }
        }
        if !packages.is_empty() {
            // Detected afresh: the global toolchain was read before the install.
            let fresh = Toolchain::detect_with(config.python2.as_deref());
            let broken = started(&config, &fresh, &refs);
            return Ok(report(&fresh, &refs, &broken));
        }
    }
    let broken = started(&config, toolchain, &refs);
    Ok(report(toolchain, &refs, &broken))
}

/// Each interpreter the suites need, started once in the sandbox `run` would use: the ones that could
/// not start, with why. A sandbox this machine cannot make is said on stderr (`run` would refuse too).
fn started(config: &Config, toolchain: &Toolchain, suites: &[&Suite]) -> Vec<(Need, String)> {
    match crate::sandbox::select(config.sandbox, toolchain.read_only_dirs()) {
        Ok(sandbox) => {
            eprintln!(
                "each interpreter started once in the `{}` sandbox",
                config.sandbox
            );
            probe(sandbox.as_ref(), toolchain, suites)
        }
        Err(e) => {
            eprintln!(
                "cannot start the interpreters in the `{}` sandbox: {e}",
                config.sandbox
            );
            Vec::new()
        }
    }
}

/// Prints the table; exit 3 when something is missing or cannot start in the sandbox.
fn report(toolchain: &Toolchain, suites: &[&Suite], broken: &[(Need, String)]) -> Exit {
    let needs = needs(suites);
    let rows: Vec<[String; 3]> = needs
        .iter()
        .map(|n| {
            let status = match (
                toolchain.locate(&n.tool),
                broken.iter().find(|b| b.0.tool == n.tool),
            ) {
                (Ok(_), Some((_, why))) => format!("CANNOT START in the sandbox: {why}"),
                (Ok(path), None) => match toolchain.version(&n.tool) {
                    Some(v) => format!("found: `{}` ({v})", path.display()),
                    None => format!("found: `{}`", path.display()),
                },
                (Err(why), _) => format!("MISSING ({why}): {}", provider(&n.tool).describe()),
            };
            [n.tool.clone(), by_suite(&n.needed_by), status]
        })
        .collect();
    // A tool and its status on one line, what needs it wrapped under it: a table with the needs in a
    // column was 200 columns wide on the shipped suites.
    let w0 = rows.iter().map(|r| r[0].chars().count()).max().unwrap_or(0);
    for [tool, by, status] in &rows {
        println!("{tool:w0$}  {status}");
        for line in wrap(&format!("for {by}"), 96 - w0.min(40)) {
            println!("{:w0$}  {line}", "");
        }
    }
    let missing = rows.iter().filter(|r| r[2].starts_with("MISSING")).count();
    if missing == 0 && broken.is_empty() {
        eprintln!("every toolchain the suites need is here");
        return Exit::Success;
    }
    if missing > 0 {
        eprintln!(
            "{missing} missing\nhint: `grader doctor --install` (as root) installs the Debian packages"
        );
    }
    if !broken.is_empty() {
        eprintln!(
            "{} cannot start in the sandbox: `run` refuses this machine until they can\nhint: the sandbox reads the system's folders and each tool's installation (links followed); install the tool in one place, or set `[toolchains] python2` to another Python 2",
            broken.len()
        );
    }
    Exit::Internal
}

/// `adelaide-2021-a1 (c, cpp), iiit-2015-ut3 (c)` from `suite (language)` entries: each suite once.
fn by_suite(needed_by: &[String]) -> String {
    let mut suites: Vec<(&str, Vec<&str>)> = Vec::new();
    for entry in needed_by {
        let (suite, language) = entry
            .strip_suffix(')')
            .and_then(|e| e.split_once(" ("))
            .unwrap_or((entry.as_str(), ""));
        match suites.iter_mut().find(|(s, _)| *s == suite) {
            Some((_, languages)) => languages.push(language),
            None => suites.push((suite, vec![language])),
        }
    }
    suites
        .into_iter()
        .map(|(suite, mut languages)| {
            languages.sort_unstable();
            languages.retain(|l| !l.is_empty());
            if languages.is_empty() {
                suite.to_string()
            } else {
                format!("{suite} ({})", languages.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `text` in lines of at most `width` characters, broken after commas (a longer piece stays whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for piece in text.split_inclusive(", ") {
        let last = lines.last_mut().expect("one line at least");
        if !last.is_empty() && last.chars().count() + piece.trim_end().chars().count() > width {
            let done = last.trim_end().to_string();
            *last = done;
            lines.push(String::new());
        }
        lines.last_mut().expect("one line at least").push_str(piece);
    }
    lines
}

/// `apt-get install -y PACKAGES` as root; says why when it cannot.
fn install(packages: &[&str]) -> Result<(), CliError> {
    if packages.is_empty() {
        return Ok(());
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Err(CliError::usage(anyhow::anyhow!(
            "installing needs root\nhint: run `sudo apt-get install -y {}`",
            packages.join(" ")
        )));
    }
    if !std::path::Path::new("/usr/bin/apt-get").is_file() {
        return Err(CliError::internal(anyhow::anyhow!(
            "no `apt-get` on this machine: install {} with its package manager",
            packages.join(", ")
        )));
    }
    eprintln!("$ apt-get install -y {}", packages.join(" "));
    let status = std::process::Command::new("/usr/bin/apt-get")
        .args(["install", "-y"])
        .args(packages)
        .status()
        .map_err(|e| CliError::internal(anyhow::Error::new(e).context("cannot run `apt-get`")))?;
    if !status.success() {
        return Err(CliError::internal(anyhow::anyhow!(
            "`apt-get install -y {}` failed ({status})\nhint: run `apt-get update` first",
            packages.join(" ")
        )));
    }
    Ok(())
}

/// Dolos for `grader similarity`: says whether it is installed, and with `install` puts it in its
/// folder with npm where Node and npm are present (no root needed). Never fails the command: the
/// suites do not need it.
fn dolos(install: bool) {
    let dir = crate::report::similarity::dolos_dir();
    if crate::report::similarity::available(&dir).is_ok() {
        eprintln!(
            "dolos (for `grader similarity`): found in `{}`",
            dir.display()
        );
        return;
    }
    let npm = Toolchain::global().locate("npm");
    match (install, npm) {
        (true, Ok(npm)) => {
            eprintln!(
                "$ npm install --prefix {} @dodona/dolos-lib",
                dir.display()
            );
            let ok = std::fs::create_dir_all(&dir).is_ok()
                && std::process::Command::new(npm)
                    .args(["install", "--no-audit", "--no-fund", "--prefix"])
                    .arg(&dir)
                    .arg("@dodona/dolos-lib")
                    .status()
                    .is_ok_and(|s| s.success());
            if !ok {
                eprintln!("dolos: `npm install` failed; `grader similarity` will say it is skipped");
            }
        }
        (true, Err(why)) => eprintln!("dolos: cannot install it: no `npm` ({why})"),
        (false, _) => eprintln!(
            "dolos (for `grader similarity`): not installed in `{}`; `grader doctor --install` installs it with npm",
            dir.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn needs_are_grouped_by_suite_and_wrapped() {
        let needs = ["a (cpp)", "a (c)", "b (python)"].map(String::from);
        assert_eq!(super::by_suite(&needs), "a (c, cpp), b (python)");
        let lines = super::wrap("for a (c), bb (c), ccc (c)", 16);
        assert_eq!(lines, ["for a (c),", "bb (c), ccc (c)"]);
    }
}
