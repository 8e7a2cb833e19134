//! The toolchains each suite needs, found or missing, with the Debian package or pyenv line that
//! provides it (`grader doctor` prints them); the check `run`, `check`, `play` and `tournament` make
//! before they start; and one start of each interpreter in the sandbox, so a machine where one cannot
//! run there is refused before grading, never mid-class.

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::sandbox::{Sandbox, Spec, Status, Stdin};
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

/// How each interpreter is started once to show that it runs in the sandbox: its standard library
/// loaded, nothing of the student's. Compilers are left out: a build that cannot start is already a
/// machine fault, reported with the build.
const PROBES: &[(&str, &[&str])] = &[
    ("python3", &["-c", "import os, random"]),
    ("python2", &["-c", "import os, random"]),
    ("java", &["-XX:+UseSerialGC", "-version"]),
    ("swipl", &["-q", "-g", "halt"]),
    ("guile", &["--no-auto-compile", "-c", "0"]),
    ("node", &["-e", "0"]),
];

/// Runs each interpreter `suites` need (of [`PROBES`], those the machine has) once in `sandbox`, all at
/// once: `Err` names each one that cannot start there, with what it said.
pub fn probe(
    sandbox: &dyn Sandbox,
    toolchain: &Toolchain,
    suites: &[&Suite],
) -> Vec<(Need, String)> {
    let wanted: Vec<(Need, PathBuf, &[&str])> = needs(suites)
        .into_iter()
        .filter_map(|n| {
            let (_, args) = PROBES.iter().find(|(t, _)| *t == n.tool)?;
            let exe = toolchain.locate(&n.tool).ok()?;
            Some((n, exe, *args))
        })
        .collect();
    std::thread::scope(|s| {
        let runs: Vec<_> = wanted
            .iter()
            .map(|(_, exe, args)| s.spawn(move || start_once(sandbox, toolchain, exe, args)))
            .collect();
        wanted
            .iter()
            .zip(runs)
            .filter_map(|((need, _, _), run)| {
                let result = run
                    .join()
                    .unwrap_or_else(|_| Err("the probe panicked".into()));
                result.err().map(|why| (need.clone(), why))
            })
            .collect()
    })
}

/// One start of `exe ARGS` in a fresh folder: `Err` with the status and the last lines it printed.
fn start_once(
    sandbox: &dyn Sandbox,
    toolchain: &Toolchain,
    exe: &Path,
    args: &[&str],
) -> Result<(), String> {
    let dir = tempfile::Builder::new()
        .prefix("grader-probe-")
        .tempdir()
        .map_err(|e| format!("cannot make a folder to run it in: {e}"))?;
    let spec = Spec {
        program: exe.into(),
        args: args.iter().map(Into::into).collect(),
        workdir: dir.path().to_path_buf(),
        env: toolchain.env(dir.path()),
        stdin: Stdin::Null,
        limits: crate::toolchain::tool_limits(),
        read_only: Vec::new(),
    };
    let outcome = sandbox.run(&spec).map_err(|e| {
        let own = ["/tmp", "/dev/shm"].iter().any(|d| exe.starts_with(d));
        format!(
            "{:#}{}",
            anyhow::Error::new(e),
            if own && sandbox.tier() == crate::sandbox::Tier::Full {
                " (the sandbox has a `/tmp` and `/dev/shm` of its own: nothing installed there can run in it)"
            } else {
                ""
            }
        )
    })?;
    if outcome.status == Status::Exited(0) && outcome.limit.is_none() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&outcome.stderr);
    let tail: Vec<&str> = said
        .lines()
        .rev()
        .filter(|l| !l.trim().is_empty())
        .take(2)
        .collect();
    let tail: Vec<String> = tail
        .into_iter()
        .rev()
        .map(|l| crate::untrusted::one_line(l.trim(), 160))
        .collect();
    Err(format!(
        "`{} {}` ended with {:?}{}{}",
        exe.display(),
        args.join(" "),
        outcome
            .limit
            .map_or_else(|| format!("{:?}", outcome.status), |l| format!("{l:?}")),
        if tail.is_empty() { "" } else { ": " },
        tail.join(" | ")
    ))
}

/// The check grading commands make once their sandbox is ready: every interpreter the suites need
/// starts in it, or the machine is refused before anything is graded (exit 3). `--allow-missing` does
/// not skip it: an interpreter that is there but cannot start would fail every case it runs.
///
/// # Errors
/// The machine's fault, naming each interpreter, what it said, and what to do.
pub fn require_runnable(sandbox: &dyn Sandbox, suites: &[&Suite]) -> Result<(), Error> {
    let broken = probe(sandbox, Toolchain::global(), suites);
    if broken.is_empty() {
        return Ok(());
    }
    let list: Vec<String> = broken
        .iter()
        .map(|(n, why)| {
            format!(
                "  `{}`, needed by {}: {why}",
                n.tool,
                n.needed_by.join(", ")
            )
        })
        .collect();
    Err(Error::machine(anyhow::anyhow!(
        "interpreters the suites need cannot start in the `{}` sandbox:\n{}\nhint: `grader doctor` shows where each was found; the sandbox reads the system's folders and each tool's installation (links followed), not files elsewhere it may need: install it in one place, set `[toolchains] python2` to another Python 2, or grade with `--sandbox basic`",
        sandbox.tier(),
        list.join("\n")
    )))
}
