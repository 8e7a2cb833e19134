//! The real compilers and interpreters on this machine, resolved once from the grader's own `PATH`, and
//! the clean environment that sandboxed builds and runs get (nothing else of the grader's leaks in).
//!
//! Shims are seen through: `python3` is asked for `sys.executable` (pyenv's shim is a bash script that
//! needs the grader's environment), and `cargo`/`rustc` come from `rustc --print sysroot` rather than
//! the rustup proxies (which need `RUSTUP_HOME` and a toolchain choice at every call). Links are
//! followed: every tool's installation (an interpreter's prefixes, under the names it reports and as
//! they really are) is readable in the `full` sandbox, and a tool found through a link in a folder the
//! sandbox does not see is started by a name it does (`links`).
//!
//! Python 2 (old hand-ins) is `python2`: `grader.toml`'s `[toolchains] python2` when set, else the first
//! of `python2.7`/`python2` on `PATH` that really runs (a pyenv shim for a version not selected does
//! not), else the newest 2.x in pyenv's versions folder.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use crate::sandbox::{self, Sandbox, Spec, Status, Stdin};

mod links;

/// Tools found by name on the grader's `PATH`, with no shim to see through.
const PLAIN_TOOLS: &[&str] = &["make", "cc", "c++", "gcc", "g++", "java", "javac", "sh"];
/// Always on the sandbox `PATH` (after the tool directories): what build scripts expect.
const SYSTEM_PATH: &[&str] = &["/usr/local/bin", "/usr/bin", "/bin"];
/// Read-only for every program in the `full` tier: the system's own files.
const SYSTEM_DIRS: &[&str] = &["/usr", "/bin", "/lib", "/lib32", "/lib64", "/etc"];

/// The resolved tools, the sandbox `PATH`, and the directories they need to read.
#[derive(Clone, Debug, Default)]
pub struct Toolchain {
    tools: BTreeMap<String, PathBuf>,
    /// `X.Y.Z` of the interpreters asked for it (`python3`, `python2`).
    versions: BTreeMap<String, String>,
    missing: BTreeMap<String, String>,
    path: Vec<PathBuf>,
    read_only: Vec<PathBuf>,
}

impl Toolchain {
    /// The machine's toolchain, detected on first use (a second or so: the pyenv shim is slow).
    pub fn global() -> &'static Toolchain {
        static GLOBAL: OnceLock<Toolchain> = OnceLock::new();
        GLOBAL.get_or_init(|| {
            let python2 = PYTHON2.lock().map(|p| p.clone()).unwrap_or_default();
            Toolchain::detect_with(python2.as_deref())
        })
    }

    /// Sets the Python 2 interpreter `grader.toml` names, before the first [`Toolchain::global`] call
    /// (later calls change nothing: the toolchain is detected once).
    pub fn configure(python2: Option<PathBuf>) {
        if let Ok(mut p) = PYTHON2.lock() {
            *p = python2;
        }
    }

    /// Resolves every known tool from the grader's own `PATH` now.
    pub fn detect() -> Toolchain {
        Toolchain::detect_with(None)
    }

    /// [`Toolchain::detect`], with Python 2 at `python2` when given.
    pub fn detect_with(python2: Option<&Path>) -> Toolchain {
        let mut tc = Toolchain::default();
        let mut roots: Vec<PathBuf> = SYSTEM_DIRS
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.exists())
            .collect();
        // Found tools in `PATH` order, and whether their folder goes on the sandbox `PATH`.
        let mut found: Vec<(String, PathBuf, bool)> = Vec::new();

        // Both ask a program (pyenv's shim takes about half a second): ask at the same time.
        let (python, python2, rust) = std::thread::scope(|s| {
            let python = s.spawn(python3);
            let old = s.spawn(move || find_python2(python2));
            let rust = rust_sysroot();
            let python = python
                .join()
                .unwrap_or_else(|_| Err("detecting `python3` panicked".into()));
            let old = old
                .join()
                .unwrap_or_else(|_| Err("detecting `python2` panicked".into()));
            (python, old, rust)
        });
        // Python 2 is not on the sandbox `PATH`: a recipe names it only through its resolved path, so a
        // student's `#!/usr/bin/env python` keeps meaning what it did.
        for (name, python, on_path) in [("python3", python, true), ("python2", python2, false)] {
            match python {
                Ok(p) => {
                    roots.extend(links::both_names(&p.prefixes));
                    roots.extend(p.exe.canonicalize().ok().as_deref().and_then(links::home));
                    tc.versions.insert(name.into(), p.version);
                    found.push((name.into(), p.exe, on_path));
                }
                Err(why) => {
                    tc.missing.insert(name.into(), why);
                }
            }
        }
        match rust {
            Ok(sysroot) => {
                for name in ["cargo", "rustc"] {
                    let exe = sysroot.join("bin").join(name);
                    if is_executable(&exe) {
                        found.push((name.into(), exe, true));
                    } else {
                        tc.missing
                            .insert(name.into(), format!("`{}` is missing", exe.display()));
                    }
                }
                roots.extend(links::both_names(&[sysroot]));
            }
            Err(why) => {
                tc.missing.insert("cargo".into(), why.clone());
                tc.missing.insert("rustc".into(), why);
            }
        }
        for &name in PLAIN_TOOLS {
            match which(name) {
                Some(exe) => {
                    // The JVM finds its home from its real path: it must be readable.
                    roots.extend(exe.canonicalize().ok().as_deref().and_then(links::home));
                    found.push((name.into(), exe, true));
                }
                None => {
                    tc.missing
                        .insert(name.into(), "not found on the grader's `PATH`".into());
                }
            }
        }
        tc.read_only = outermost(roots);
        // Each tool by a name the sandbox can reach: a link outside what it sees is followed.
        for (name, exe, on_path) in found {
            let exe = links::runnable(&exe, &tc.read_only);
            if on_path {
                tc.add_dir(&exe);
            }
            tc.tools.insert(name, exe);
        }
        for dir in SYSTEM_PATH {
            tc.add_path(Path::new(dir));
        }
        tc
    }

    /// Puts the directory holding `exe` on the sandbox `PATH` (once; system directories come last, in
    /// their usual order).
    fn add_dir(&mut self, exe: &Path) {
        if let Some(dir) = exe.parent() {
            if !SYSTEM_PATH.iter().any(|s| Path::new(s) == dir) {
                self.add_path(dir);
            }
        }
    }

    fn add_path(&mut self, dir: &Path) {
        if !self.path.iter().any(|d| d == dir) {
            self.path.push(dir.to_path_buf());
        }
    }

    /// The real executable for a tool name (`python3`, `javac`, `cargo`, ...), if this machine has it.
    pub fn tool(&self, name: &str) -> Option<&Path> {
        self.tools.get(name).map(PathBuf::as_path)
    }

    /// The `X.Y.Z` version of an interpreter the toolchain asked (`python3`, `python2`).
    pub fn version(&self, name: &str) -> Option<&str> {
        self.versions.get(name).map(String::as_str)
    }

    /// Where a program named in a recipe is found: a tool the toolchain tracks, else the first
    /// executable of that name on the sandbox `PATH`. `Err` says why it is not there.
    pub fn locate(&self, name: &str) -> Result<PathBuf, String> {
        if let Some(path) = self.tool(name) {
            return Ok(path.to_path_buf());
        }
        if let Some(why) = self.missing(name) {
            return Err(why.to_string());
        }
        if name.contains('/') {
            let path = PathBuf::from(name);
            return if is_executable(&path) {
                Ok(path)
            } else {
                Err(format!("`{name}` is not an executable file"))
            };
        }
        self.path
            .iter()
            .map(|dir| dir.join(name))
            .find(|p| is_executable(p))
            .ok_or_else(|| "not found on the sandbox `PATH`".to_string())
    }

    /// Why a tool is unavailable, or `None` when it is available or unknown.
    pub fn missing(&self, name: &str) -> Option<&str> {
        self.missing.get(name).map(String::as_str)
    }

    /// The `PATH` programs get: the tools' directories (first match wins, as on the grader's `PATH`),
    /// then the system directories.
    pub fn path_var(&self) -> OsString {
        std::env::join_paths(&self.path).unwrap_or_else(|_| sandbox::rlimits::DEFAULT_PATH.into())
    }

    /// The complete environment for a sandboxed build or run whose writable directory is `home`.
    pub fn env(&self, home: &Path) -> Vec<(OsString, OsString)> {
        vec![
            ("PATH".into(), self.path_var()),
            ("HOME".into(), home.into()),
            ("TMPDIR".into(), home.into()),
            ("LANG".into(), "C.UTF-8".into()),
            // Python's string hashing (the order of a set of names) the same at every run: the same
            // inputs give the same moves.
            ("PYTHONHASHSEED".into(), "0".into()),
            // Cargo must not write to (or need) the grader's own ~/.cargo.
            ("CARGO_HOME".into(), home.join(".cargo").into()),
        ]
    }

    /// The directories a program may need to read: the system's, and each tool's installation root
    /// (the `full` tier binds these read-only). No entry lies inside another.
    pub fn read_only_dirs(&self) -> &[PathBuf] {
        &self.read_only
    }
}

/// The Python 2 set in `grader.toml` (`[toolchains] python2`), if any, for [`Toolchain::global`].
static PYTHON2: Mutex<Option<PathBuf>> = Mutex::new(None);

/// A Python interpreter as it describes itself.
#[derive(Debug)]
struct Python {
    exe: PathBuf,
    /// Where it reads its library from: `sys.prefix` (a virtual environment's own folder), the base
    /// installation's (`base_prefix`, Python 2 virtualenv's `real_prefix`), and their `exec_prefix`es.
    prefixes: Vec<PathBuf>,
    version: String,
}

/// Prints `X.Y.Z`, the executable, then its prefixes one a line, under Python 2 and 3 alike.
const DESCRIBE: &str = "import sys;print('%d.%d.%d' % tuple(sys.version_info[:3]));print(sys.executable);g=lambda n:getattr(sys,n,'');print('\\n'.join([sys.prefix,sys.exec_prefix,g('base_prefix'),g('base_exec_prefix'),g('real_prefix')]))";

/// Asks the `python3` on the grader's `PATH` for its real executable, prefix and version.
fn python3() -> Result<Python, String> {
    let exe = which("python3").ok_or("`python3` not found on the grader's `PATH`")?;
    describe(&exe, "python3", '3')
}

/// Python 2: the configured path, else `python2.7`/`python2` on `PATH`, else pyenv's newest 2.x.
fn find_python2(configured: Option<&Path>) -> Result<Python, String> {
    if let Some(path) = configured {
        return describe(path, &format!("{}", path.display()), '2')
            .map_err(|why| format!("{why} (set in `grader.toml` as `[toolchains] python2`)"));
    }
    let mut candidates: Vec<(PathBuf, String)> = ["python2.7", "python2"]
        .into_iter()
        .filter_map(|name| which(name).map(|exe| (exe, name.to_string())))
        .collect();
    candidates.extend(pyenv_pythons2().into_iter().map(|exe| {
        let shown = exe.display().to_string();
        (exe, shown)
    }));
    first_python2(&candidates)
}

/// The first of `candidates` (each an executable and how to name it) that is Python 2, else why
/// none is. Every candidate is asked at once, the answers taken in order: a pyenv shim for a version
/// that is not selected takes a fifth of a second to fail, and there may be two.
fn first_python2(candidates: &[(PathBuf, String)]) -> Result<Python, String> {
    let answers: Vec<Result<Python, String>> = std::thread::scope(|s| {
        let asked: Vec<_> = candidates
            .iter()
            .map(|(exe, shown)| s.spawn(move || describe(exe, shown, '2')))
            .collect();
        asked
            .into_iter()
            .zip(candidates)
            .map(|(h, (_, shown))| {
                h.join()
                    .unwrap_or_else(|_| Err(format!("detecting `{shown}` panicked")))
            })
            .collect()
    });
    let mut tried = Vec::new();
    for answer in answers {
        match answer {
            Ok(found) => return Ok(found),
            Err(why) => tried.push(why),
        }
    }
    Err(if tried.is_empty() {
        "no `python2.7` or `python2` on the grader's `PATH`, and no 2.x in pyenv's versions folder"
            .to_string()
    } else {
        tried.join("; ")
    })
}

/// `$PYENV_ROOT/versions/2.*/bin/python2` (default root `~/.pyenv`), newest first.
fn pyenv_pythons2() -> Vec<PathBuf> {
    let root = std::env::var_os("PYENV_ROOT")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pyenv")));
    let Some(Ok(entries)) = root.map(|r| std::fs::read_dir(r.join("versions"))) else {
        return Vec::new();
    };
    let mut found: Vec<(Vec<u32>, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let rest = name.strip_prefix("2.")?;
            let key: Vec<u32> = rest.split('.').map_while(|p| p.parse().ok()).collect();
            let exe = e.path().join("bin").join("python2");
            is_executable(&exe).then_some((key, exe))
        })
        .collect();
    found.sort();
    found.into_iter().rev().map(|(_, exe)| exe).collect()
}

/// Runs `exe` with [`DESCRIBE`] and checks it is Python `major`.
fn describe(exe: &Path, shown: &str, major: char) -> Result<Python, String> {
    let out = ask(exe, shown, &["-c", DESCRIBE])?;
    let mut lines = out.lines();
    match (lines.next(), lines.next()) {
        (Some(version), Some(real)) if is_executable(Path::new(real)) => {
            if !version.starts_with(major) {
                return Err(format!("`{shown}` is Python {version}, not {major}"));
            }
            Ok(Python {
                exe: PathBuf::from(real),
                prefixes: lines.filter(|l| !l.is_empty()).map(PathBuf::from).collect(),
                version: version.to_string(),
            })
        }
        _ => Err(format!(
            "`{shown}` did not report its executable (said `{}`)",
            out.trim()
        )),
    }
}

fn rust_sysroot() -> Result<PathBuf, String> {
    let exe = which("rustc").ok_or("`rustc` not found on the grader's `PATH`")?;
    let out = ask(&exe, "rustc", &["--print", "sysroot"])?;
    let sysroot = PathBuf::from(out.trim());
    if sysroot.is_dir() {
        Ok(sysroot)
    } else {
        Err(format!("`rustc --print sysroot` gave `{}`", out.trim()))
    }
}

/// The bounds a tool is asked a question or started once under (detection, `doctor`'s probes): time
/// enough for a JVM on a loaded machine, and never unbounded.
#[must_use]
pub fn tool_limits() -> sandbox::Limits {
    sandbox::Limits {
        cpu: Duration::from_secs(20),
        wall: Duration::from_secs(30),
        memory: 2 << 30,
        output: 1 << 20,
        file_size: 1 << 20,
        processes: 64,
        open_files: 256,
        stack: 8 << 20,
        address_space: None,
        idle: None,
    }
}

/// Runs a tool from the grader's own environment (shims need it), bounded in time like anything else.
fn ask(exe: &Path, program: &str, args: &[&str]) -> Result<String, String> {
    let workdir = std::env::temp_dir();
    let spec = Spec {
        program: exe.into(),
        args: args.iter().map(OsString::from).collect(),
        workdir: workdir.clone(),
        env: std::env::vars_os().collect(),
        stdin: Stdin::Null,
        limits: tool_limits(),
        read_only: Vec::new(),
    };
    match sandbox::NoSandbox.run(&spec) {
        Ok(out) if out.status == Status::Exited(0) => {
            Ok(String::from_utf8_lossy(&out.stdout).into())
        }
        Ok(out) => Err(format!(
            "`{program}` failed ({:?}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Err(format!("`{program}` could not run: {e}")),
    }
}

/// The first executable `name` on the grader's `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Drops duplicates and any directory inside another on the list.
fn outermost(mut dirs: Vec<PathBuf>) -> Vec<PathBuf> {
    dirs.sort();
    dirs.dedup();
    let mut out: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        if !out.iter().any(|kept| dir.starts_with(kept)) {
            out.push(dir);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A script that answers [`DESCRIBE`] as a Python of `version` whose executable is the script
    /// itself, after `delay` seconds.
    fn fake_python(dir: &Path, name: &str, version: &str, delay: &str) -> (PathBuf, String) {
        let exe = dir.join(name);
        std::fs::write(
            &exe,
            format!("#!/bin/sh\nsleep {delay}\necho {version}\necho \"$0\"\necho /usr\n"),
        )
        .unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        (exe, name.to_string())
    }

    #[test]
    fn python2_is_the_first_candidate_in_order_that_is_one_whichever_answers_first() {
        let dir = tempfile::tempdir().unwrap();
        let candidates = [
            fake_python(dir.path(), "python2.7", "3.11.7", "0"),
            fake_python(dir.path(), "python2", "2.7.18", "0.3"),
            fake_python(dir.path(), "pyenv-python2", "2.7.5", "0"),
        ];
        let found = first_python2(&candidates).unwrap();
        assert_eq!(found.version, "2.7.18");
        assert_eq!(found.exe, candidates[1].0);
        // None is Python 2: every reason, in order.
        let why = first_python2(&candidates[..1]).unwrap_err();
        assert_eq!(why, "`python2.7` is Python 3.11.7, not 2");
        let none = first_python2(&[]).unwrap_err();
        assert!(none.starts_with("no `python2.7` or `python2`"), "{none}");
    }
}
