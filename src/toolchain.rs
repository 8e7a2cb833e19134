//! The real compilers and interpreters on this machine, resolved once from the grader's own `PATH`, and
//! the clean environment that sandboxed builds and runs get (nothing else of the grader's leaks in).
//!
//! Shims are seen through: `python3` is asked for `sys.executable` (pyenv's shim is a bash script that
//! needs the grader's environment), and `cargo`/`rustc` come from `rustc --print sysroot` rather than
//! the rustup proxies (which need `RUSTUP_HOME` and a toolchain choice at every call).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use crate::sandbox::{self, Sandbox, Spec, Status, Stdin};

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
    missing: BTreeMap<String, String>,
    path: Vec<PathBuf>,
    read_only: Vec<PathBuf>,
}

impl Toolchain {
    /// The machine's toolchain, detected on first use (a second or so: the pyenv shim is slow).
    pub fn global() -> &'static Toolchain {
        static GLOBAL: OnceLock<Toolchain> = OnceLock::new();
        GLOBAL.get_or_init(Toolchain::detect)
    }

    /// Resolves every known tool from the grader's own `PATH` now.
    pub fn detect() -> Toolchain {
        let mut tc = Toolchain::default();
        let mut roots: Vec<PathBuf> = SYSTEM_DIRS
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.exists())
            .collect();

        // Both ask a program (pyenv's shim takes about half a second): ask at the same time.
        let (python, rust) = std::thread::scope(|s| {
            let python = s.spawn(python);
            let rust = rust_sysroot();
            let python = python
                .join()
                .unwrap_or_else(|_| Err("detecting `python3` panicked".into()));
            (python, rust)
        });
        match python {
            Ok((exe, prefix)) => {
                tc.add_dir(&exe);
                tc.tools.insert("python3".into(), exe);
                roots.push(prefix);
            }
            Err(why) => {
                tc.missing.insert("python3".into(), why);
            }
        }
        match rust {
            Ok(sysroot) => {
                for name in ["cargo", "rustc"] {
                    let exe = sysroot.join("bin").join(name);
                    if is_executable(&exe) {
                        tc.add_dir(&exe);
                        tc.tools.insert(name.into(), exe);
                    } else {
                        tc.missing
                            .insert(name.into(), format!("`{}` is missing", exe.display()));
                    }
                }
                roots.push(sysroot);
            }
            Err(why) => {
                tc.missing.insert("cargo".into(), why.clone());
                tc.missing.insert("rustc".into(), why);
            }
        }
        for &name in PLAIN_TOOLS {
            match which(name) {
                Some(found) => {
                    if let Ok(real) = found.canonicalize() {
                        // The JVM finds its home from its real path: it must be readable.
                        if let Some(home) = real.parent().and_then(Path::parent) {
                            roots.push(home.to_path_buf());
                        }
                    }
                    tc.add_dir(&found);
                    tc.tools.insert(name.into(), found);
                }
                None => {
                    tc.missing
                        .insert(name.into(), "not found on the grader's `PATH`".into());
                }
            }
        }
        for dir in SYSTEM_PATH {
            tc.add_path(Path::new(dir));
        }
        tc.read_only = outermost(roots);
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

    /// Why a tool is unavailable, or `None` when it is available or unknown.
    pub fn missing(&self, name: &str) -> Option<&str> {
        self.missing.get(name).map(String::as_str)
    }

    /// The `PATH` programs get: the tools' directories (first match wins, as on the grader's `PATH`),
    /// then the system directories.
    pub fn path_var(&self) -> OsString {
        std::env::join_paths(&self.path).unwrap_or_else(|_| sandbox::process::DEFAULT_PATH.into())
    }

    /// The complete environment for a sandboxed build or run whose writable directory is `home`.
    pub fn env(&self, home: &Path) -> Vec<(OsString, OsString)> {
        vec![
            ("PATH".into(), self.path_var()),
            ("HOME".into(), home.into()),
            ("TMPDIR".into(), home.into()),
            ("LANG".into(), "C.UTF-8".into()),
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

/// Asks the `python3` on the grader's `PATH` for its real executable and installation prefix.
fn python() -> Result<(PathBuf, PathBuf), String> {
    let out = ask(
        "python3",
        &[
            "-c",
            "import sys;print(sys.executable);print(sys.base_prefix)",
        ],
    )?;
    let mut lines = out.lines();
    match (lines.next(), lines.next()) {
        (Some(exe), Some(prefix)) if is_executable(Path::new(exe)) => {
            Ok((PathBuf::from(exe), PathBuf::from(prefix)))
        }
        _ => Err(format!(
            "`python3` did not report its executable (said `{out}`)"
        )),
    }
}

fn rust_sysroot() -> Result<PathBuf, String> {
    let out = ask("rustc", &["--print", "sysroot"])?;
    let sysroot = PathBuf::from(out.trim());
    if sysroot.is_dir() {
        Ok(sysroot)
    } else {
        Err(format!("`rustc --print sysroot` gave `{}`", out.trim()))
    }
}

/// Runs a tool from the grader's own environment (shims need it), bounded in time like anything else.
fn ask(program: &str, args: &[&str]) -> Result<String, String> {
    let Some(exe) = which(program) else {
        return Err(format!("`{program}` not found on the grader's `PATH`"));
    };
    let workdir = std::env::temp_dir();
    let spec = Spec {
        program: exe.into(),
        args: args.iter().map(OsString::from).collect(),
        workdir: workdir.clone(),
        env: std::env::vars_os().collect(),
        stdin: Stdin::Null,
        limits: sandbox::Limits {
            cpu: Duration::from_secs(20),
            wall: Duration::from_secs(20),
            memory: 4 << 30,
            output: 1 << 20,
            file_size: 1 << 20,
            processes: 64,
            open_files: 256,
            stack: 8 << 20,
            address_space: None,
        },
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
