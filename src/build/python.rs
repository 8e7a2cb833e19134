//! Which Python runs a submission: a suite's `versions` list, and for a suite accepting both 3 and 2,
//! a compile check in the sandbox (a file that does not compile under 3 but does under 2 is Python 2:
//! print statements, tabs mixed with spaces, `except E, e`).

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::recipe::PythonVersion;
use super::BuildError;
use crate::sandbox::{Limits, Sandbox, Spec, Status, Stdin};
use crate::toolchain::Toolchain;

/// The interpreter a program ran under, as `result.json` names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Interpreter {
    pub path: String,
    /// `X.Y.Z`.
    pub version: String,
}

/// Compiles each file without writing bytecode (`compile()` is what `py_compile` runs, minus the
/// `.pyc`), under Python 2 and 3 alike; the traceback of the first failure is the log.
const CHECK: &str =
    "import sys\nfor f in sys.argv[1:]:\n    compile(open(f, 'rb').read(), f, 'exec')\n";

/// What a run command's `python3` becomes, and the interpreter to name in the result.
pub struct Choice {
    /// `python3` or `python2` (a toolchain name, resolved by the caller).
    pub tool: &'static str,
}

/// Picks the interpreter for a recipe accepting `versions` whose run command is `command` (already
/// filled in). With both 3 and 2 accepted, the student's files are compiled under 3, then under 2; a
/// file that compiles under neither runs under the first version listed (its errors show at run time,
/// as before versions existed). The reasoning goes to `log`.
///
/// # Errors
/// The grader's own failures: the sandbox, or an interpreter the check needs that is missing.
#[allow(clippy::too_many_arguments)]
pub fn choose(
    sandbox: &dyn Sandbox,
    toolchain: &Toolchain,
    language: &str,
    versions: &[PythonVersion],
    command: &[String],
    support: &[PathBuf],
    dir: &Path,
    env: &[(OsString, OsString)],
    limits: &Limits,
    log: &mut String,
) -> Result<Choice, BuildError> {
    let Some(&first) = versions.first() else {
        return Ok(Choice { tool: "python3" });
    };
    if versions.len() == 1 {
        return Ok(Choice { tool: first.tool() });
    }
    let files = student_files(command, support, dir);
    if files.is_empty() {
        return Ok(Choice { tool: first.tool() });
    }
    let mut order = versions.to_vec();
    // Python 3 first: a file valid in both is Python 3 (the issue: "it fails to compile under 3").
    order.sort_by_key(|v| *v != PythonVersion::Three);
    let mut failures = Vec::new();
    for version in order {
        match compiles(
            sandbox, toolchain, language, version, &files, dir, env, limits,
        )? {
            None => {
                if !failures.is_empty() {
                    let names: Vec<String> = files.iter().map(|f| format!("`{f}`")).collect();
                    let _ = writeln!(
                        log,
                        "python: {} compiles under Python {}, not under {}",
                        names.join(", "),
                        major(version),
                        failures.join(" or "),
                    );
                }
                return Ok(Choice {
                    tool: version.tool(),
                });
            }
            Some(why) => {
                let _ = writeln!(log, "python: under Python {}: {why}", major(version));
                failures.push(major(version).to_string());
            }
        }
    }
    let _ = writeln!(
        log,
        "python: compiles under no accepted version; running with Python {}",
        major(first)
    );
    Ok(Choice { tool: first.tool() })
}

fn major(v: PythonVersion) -> &'static str {
    match v {
        PythonVersion::Two => "2",
        PythonVersion::Three => "3",
    }
}

/// The `.py` files the run command names in the copy, the suite's adapters left out; when that leaves
/// none (an adapter loads the student's module), every top-level `.py` file but the adapters. Names
/// relative to `dir`, sorted.
fn student_files(command: &[String], support: &[PathBuf], dir: &Path) -> Vec<String> {
    let adapters: Vec<&std::ffi::OsStr> = support.iter().filter_map(|p| p.file_name()).collect();
    let ours = |name: &str| adapters.iter().any(|a| *a == name);
    let mut named: Vec<String> = command
        .iter()
        .filter_map(|a| Path::new(a).strip_prefix(dir).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| p.ends_with(".py") && !ours(p) && dir.join(p).is_file())
        .collect();
    if named.is_empty() {
        named = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".py") && !ours(n))
                    .collect()
            })
            .unwrap_or_default();
    }
    named.sort();
    named.dedup();
    named
}

/// `None` when every file compiles under `version`; else the last line of the interpreter's complaint.
#[allow(clippy::too_many_arguments)]
fn compiles(
    sandbox: &dyn Sandbox,
    toolchain: &Toolchain,
    language: &str,
    version: PythonVersion,
    files: &[String],
    dir: &Path,
    env: &[(OsString, OsString)],
    limits: &Limits,
) -> Result<Option<String>, BuildError> {
    let tool = version.tool();
    let Some(exe) = toolchain.tool(tool) else {
        return Err(BuildError::MissingTool {
            language: language.to_string(),
            tool: tool.to_string(),
            reason: toolchain
                .missing(tool)
                .unwrap_or("not found on this machine")
                .to_string(),
        });
    };
    let mut args: Vec<OsString> = vec!["-S".into(), "-B".into(), "-c".into(), CHECK.into()];
    args.extend(files.iter().map(OsString::from));
    let spec = Spec {
        program: exe.into(),
        args,
        workdir: dir.to_path_buf(),
        env: env.to_vec(),
        stdin: Stdin::Null,
        limits: limits.clone(),
        read_only: Vec::new(),
    };
    let outcome = sandbox.run(&spec).map_err(|source| BuildError::Sandbox {
        language: language.to_string(),
        source,
    })?;
    if outcome.status == Status::Exited(0) && outcome.limit.is_none() {
        return Ok(None);
    }
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    // The traceback's last lines name the file, the line and the error.
    let tail: Vec<&str> = stderr.lines().rev().take(4).collect();
    let tail: Vec<String> = tail
        .into_iter()
        .rev()
        .filter(|l| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with("Traceback") && !l.starts_with("File \"<string>\"")
        })
        .map(|l| crate::untrusted::one_line(l.trim(), 200))
        .collect();
    Ok(Some(if tail.is_empty() {
        format!("the check failed ({:?})", outcome.status)
    } else {
        tail.join(" | ")
    }))
}
