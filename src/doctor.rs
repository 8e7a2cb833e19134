//! `grader doctor`: the toolchains each suite needs, found (path and version) or missing (with the
//! Debian package or pyenv line that provides it), `--install` to fetch what apt-get can; and the same
//! check `run`, `check`, `play` and `tournament` make before they start.

use std::path::PathBuf;

use crate::exit::{CliError, CmdResult, Exit};
use crate::suite::validate::{discover, load_config};
use crate::suite::{oracle, Language, Suite};
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

/// One program some suite's recipes start, and who needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Need {
    pub tool: String,
    /// `suite (language)`, once each.
    pub needed_by: Vec<String>,
}

/// The programs a language's recipe (and its extra programs) start by name: every build command's
/// and the run command's first word, with `python3` replaced by the interpreters of `versions`.
fn tools_of(language: &Language) -> Vec<String> {
    let mut argv0: Vec<&String> = language.build.iter().filter_map(|b| b.first()).collect();
    argv0.extend(language.run.first());
    for p in &language.programs {
        argv0.extend(p.build.iter().filter_map(|b| b.first()));
        argv0.extend(p.run.first());
    }
    let mut out: Vec<String> = Vec::new();
    for name in argv0 {
        // `{dir}/…` is the student's own program.
        if name.contains('/') || name.contains('{') {
            continue;
        }
        let names: Vec<String> = if name == "python3" && !language.python.is_empty() {
            language
                .python
                .iter()
                .map(|v| v.tool().to_string())
                .collect()
        } else {
            vec![name.clone()]
        };
        for n in names {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// Every tool the suites need, in first-seen order.
#[must_use]
pub fn needs(suites: &[&Suite]) -> Vec<Need> {
    let mut out: Vec<Need> = Vec::new();
    for suite in suites {
        for language in &suite.languages {
            let user = format!("{} ({})", suite.name, language.name);
            for tool in tools_of(language) {
                match out.iter_mut().find(|n| n.tool == tool) {
                    Some(n) if !n.needed_by.contains(&user) => n.needed_by.push(user.clone()),
                    Some(_) => {}
                    None => out.push(Need {
                        tool,
                        needed_by: vec![user.clone()],
                    }),
                }
            }
        }
    }
    out
}

/// What provides a tool: the Debian package, or (for what Debian does not ship) what to do instead.
#[must_use]
pub fn provider(tool: &str) -> Provider {
    let apt = |p: &'static str| Provider::Apt(p);
    match tool {
        "python3" => apt("python3"),
        "python2" => Provider::Manual(
            "Debian 12 has no Python 2 package: `pyenv install 2.7.18`, or set `[toolchains] python2` in grader.toml",
        ),
        "cc" | "gcc" => apt("gcc"),
        "c++" | "g++" => apt("g++"),
        "make" => apt("make"),
        "java" => apt("default-jre-headless"),
        "javac" => apt("default-jdk-headless"),
        "guile" => apt("guile-3.0"),
        "swipl" => apt("swi-prolog-nox"),
        "cargo" => apt("cargo"),
        "rustc" => apt("rustc"),
        "sh" => apt("dash"),
        _ => Provider::Manual("no known package: install it so it is on `PATH`"),
    }
}

/// Where a missing tool comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// A Debian package `apt-get install` can fetch.
    Apt(&'static str),
    /// Something to do by hand.
    Manual(&'static str),
}

impl Provider {
    fn describe(self) -> String {
        match self {
            Provider::Apt(p) => format!("apt-get install {p}"),
            Provider::Manual(text) => text.to_string(),
        }
    }
}

/// The tools `suites` need that `toolchain` lacks, with why and what provides them.
#[must_use]
pub fn missing(toolchain: &Toolchain, suites: &[&Suite]) -> Vec<(Need, String)> {
    needs(suites)
        .into_iter()
        .filter_map(|n| match toolchain.locate(&n.tool) {
            Ok(_) => None,
            Err(why) => Some((n, why)),
        })
        .collect()
}

/// The check grading commands make before they start: with a tool missing, the list on stderr and
/// exit 3, unless `allow_missing` (then a note, and the cases that need it are `not-graded`).
///
/// # Errors
/// The machine's fault (exit 3), listing each missing tool and what provides it.
pub fn require(suites: &[&Suite], allow_missing: bool) -> Result<(), CliError> {
    let missing = missing(Toolchain::global(), suites);
    if missing.is_empty() {
        return Ok(());
    }
    let list: Vec<String> = missing
        .iter()
        .map(|(n, why)| {
            format!(
                "  `{}` ({}), needed by {}: {}",
                n.tool,
                why,
                n.needed_by.join(", "),
                provider(&n.tool).describe()
            )
        })
        .collect();
    if allow_missing {
        eprintln!(
            "note: this machine lacks toolchains; cases that need them are not graded:\n{}",
            list.join("\n")
        );
        return Ok(());
    }
    Err(CliError::internal(anyhow::anyhow!(
        "this machine lacks toolchains the suites need:\n{}\nhint: run `grader doctor --install`, or pass `--allow-missing` to grade the rest (those cases are `not-graded`)",
        list.join("\n")
    )))
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
            return Ok(report(&fresh, &refs));
        }
    }
    Ok(report(toolchain, &refs))
}

/// Prints the table; exit 3 when something is missing.
fn report(toolchain: &Toolchain, suites: &[&Suite]) -> Exit {
    let needs = needs(suites);
    let rows: Vec<[String; 3]> = needs
        .iter()
        .map(|n| {
            let status = match toolchain.locate(&n.tool) {
                Ok(path) => match toolchain.version(&n.tool) {
                    Some(v) => format!("found: `{}` ({v})", path.display()),
                    None => format!("found: `{}`", path.display()),
                },
                Err(why) => format!("MISSING ({why}): {}", provider(&n.tool).describe()),
            };
            [n.tool.clone(), n.needed_by.join(", "), status]
        })
        .collect();
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .max()
            .unwrap_or(0)
            .max(["toolchain", "needed by"][i].len())
    };
    let (w0, w1) = (width(0), width(1));
    println!("{:w0$}  {:w1$}  status", "toolchain", "needed by");
    for [tool, by, status] in &rows {
        println!("{tool:w0$}  {by:w1$}  {status}");
    }
    let missing = rows.iter().filter(|r| r[2].starts_with("MISSING")).count();
    if missing == 0 {
        eprintln!("every toolchain the suites need is here");
        Exit::Success
    } else {
        eprintln!(
            "{missing} missing\nhint: `grader doctor --install` (as root) installs the Debian packages"
        );
        Exit::Internal
    }
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
