//! The toolchains each suite needs, found or missing, with the Debian package or pyenv line that
//! provides it (`grader doctor` prints them); and the check `run`, `check`, `play` and `tournament` make
//! before they start.

use crate::error::Error;
use crate::suite::{Language, Suite};
use crate::toolchain::Toolchain;

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
    pub fn describe(self) -> String {
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
/// The machine's fault, listing each missing tool and what provides it.
pub fn require(suites: &[&Suite], allow_missing: bool) -> Result<(), Error> {
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
    Err(Error::machine(anyhow::anyhow!(
        "this machine lacks toolchains the suites need:\n{}\nhint: run `grader doctor --install`, or pass `--allow-missing` to grade the rest (those cases are `not-graded`)",
        list.join("\n")
    )))
}
