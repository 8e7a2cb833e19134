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
/// as before versions existed). Code that compiles under 3 but shows Python 2's signs (`raw_input`,
/// `xrange`, a module of its package imported by its bare name) runs under 2 when every file of the
/// folder compiles there ([`python2_signs`]). The reasoning goes to `log`.
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
    let check = Check {
        sandbox,
        toolchain,
        language,
        dir,
        env,
        limits,
    };
    let mut order = versions.to_vec();
    // Python 3 first: a file valid in both is Python 3 (the issue: "it fails to compile under 3").
    order.sort_by_key(|v| *v != PythonVersion::Three);
    let mut failures = Vec::new();
    for version in order {
        match check.compiles(version, &files)? {
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
                if version == PythonVersion::Three
                    && versions.contains(&PythonVersion::Two)
                    && check.python2_signs(support, log)?
                {
                    return Ok(Choice { tool: "python2" });
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

/// What a check in the sandbox needs: the submission's copy and how to run an interpreter there.
struct Check<'a> {
    sandbox: &'a dyn Sandbox,
    toolchain: &'a Toolchain,
    language: &'a str,
    dir: &'a Path,
    env: &'a [(OsString, OsString)],
    limits: &'a Limits,
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

impl Check<'_> {
    /// Runs `tool` (`python3`, `python2`) in the sandbox with `args`, in the copy.
    fn run(&self, tool: &str, args: Vec<OsString>) -> Result<crate::sandbox::Outcome, BuildError> {
        let Some(exe) = self.toolchain.tool(tool) else {
            return Err(BuildError::MissingTool {
                language: self.language.to_string(),
                tool: tool.to_string(),
                reason: self
                    .toolchain
                    .missing(tool)
                    .unwrap_or("not found on this machine")
                    .to_string(),
            });
        };
        let spec = Spec {
            program: exe.into(),
            args,
            workdir: self.dir.to_path_buf(),
            env: self.env.to_vec(),
            stdin: Stdin::Null,
            limits: self.limits.clone(),
            read_only: Vec::new(),
        };
        self.sandbox
            .run(&spec)
            .map_err(|source| BuildError::Sandbox {
                language: self.language.to_string(),
                source,
            })
    }

    /// `None` when every file compiles under `version`; else the last lines of the interpreter's
    /// complaint.
    fn compiles(
        &self,
        version: PythonVersion,
        files: &[String],
    ) -> Result<Option<String>, BuildError> {
        let mut args: Vec<OsString> = vec!["-S".into(), "-B".into(), "-c".into(), CHECK.into()];
        args.extend(files.iter().map(OsString::from));
        let outcome = self.run(version.tool(), args)?;
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

    /// Code that compiles under Python 3 may still be Python 2, as a TA reading it sees at once: it
    /// calls `raw_input` or `xrange` (names Python 3 does not have), or imports a module of its own
    /// package by its bare name (`from player import Player` in a package's file: Python 2 finds the
    /// file beside it, Python 3 does not). Each `.py` file of the copy is read by Python 3's own parser
    /// in the sandbox ([`SIGNS`]); uses a program guards (`try: … except NameError`, `if
    /// sys.version_info …`) or binds itself are no sign. With signs, and every file compiling under
    /// Python 2, it runs with Python 2 (`true`); the log says why, or why not.
    fn python2_signs(&self, support: &[PathBuf], log: &mut String) -> Result<bool, BuildError> {
        let files = tree_files(self.dir, support);
        if files.is_empty() {
            return Ok(false);
        }
        let mut args: Vec<OsString> = vec!["-S".into(), "-B".into(), "-c".into(), SIGNS.into()];
        args.extend(files.iter().map(OsString::from));
        let outcome = self.run(PythonVersion::Three.tool(), args)?;
        let stdout = String::from_utf8_lossy(&outcome.stdout);
        let signs: Vec<String> = stdout
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| crate::untrusted::one_line(l.trim(), 200))
            .collect();
        let Some(sign) = signs.first() else {
            return Ok(false);
        };
        let more = match signs.len() - 1 {
            0 => String::new(),
            n => format!(" (and {n} more such line{})", if n == 1 { "" } else { "s" }),
        };
        match self.compiles(PythonVersion::Two, &files)? {
            None => {
                let _ = writeln!(
                    log,
                    "python: Python 2 code: {sign}{more}; every file compiles under Python 2, so it runs with Python 2, as a TA would run it"
                );
                Ok(true)
            }
            Some(why) => {
                let _ = writeln!(
                    log,
                    "python: {sign} looks like Python 2, but under Python 2: {why}; running with Python 3"
                );
                Ok(false)
            }
        }
    }
}

/// Python 2's signs in code Python 3 compiles, found by Python 3's `ast` (run in the sandbox on the
/// student's files): one line per sign, `` `file` line N: what ``, in file and line order, the first 20.
const SIGNS: &str = r#"import ast, os, sys
GONE = {'raw_input', 'xrange', 'unichr', 'basestring', 'unicode', 'long', 'execfile', 'reload',
        'cmp', 'intern', 'apply', 'buffer', 'file', 'reduce'}
METHODS = {'iteritems', 'iterkeys', 'itervalues', 'has_key'}
STD = set(getattr(sys, 'stdlib_module_names', ()))
CAUGHT = {'NameError', 'Exception', 'BaseException', 'ImportError', 'AttributeError'}
def catches(h):
    names = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
    return h.type is None or any(isinstance(n, ast.Name) and n.id in CAUGHT for n in names)
def versioned(test):
    return any(isinstance(n, ast.Attribute) and n.attr in ('version_info', 'version', 'hexversion')
               or isinstance(n, ast.Name) and n.id.upper() in ('PY2', 'PY3', 'PY3K', 'IS_PY2', 'IS_PY3')
               for n in ast.walk(test))
def guarded(tree):
    out = set()
    for n in ast.walk(tree):
        parts = []
        if isinstance(n, ast.Try) and any(catches(h) for h in n.handlers):
            parts = n.body
        elif isinstance(n, ast.If) and versioned(n.test):
            parts = n.body + n.orelse
        elif isinstance(n, ast.IfExp) and versioned(n.test):
            parts = [n.body, n.orelse]
        for p in parts:
            out.update(id(m) for m in ast.walk(p))
    return out
def bound(tree):
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            out.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.arg):
            out.add(n.arg)
        elif isinstance(n, ast.alias):
            out.add((n.asname or n.name).split('.')[0])
    return out
def signs(tree, path, found):
    skip = guarded(tree)
    mine = bound(tree)
    star = any(isinstance(n, ast.ImportFrom) and any(a.name == '*' for a in n.names) for n in ast.walk(tree))
    here = os.path.dirname(path)
    package = here and os.path.isfile(os.path.join(here, '__init__.py'))
    for n in ast.walk(tree):
        if id(n) in skip:
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in GONE and n.id not in mine and not star:
            found.append((path, n.lineno, '`%s`, a name Python 2 has and Python 3 does not' % n.id))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in METHODS:
            found.append((path, n.lineno, '`.%s()`, a Python 2 dictionary method' % n.func.attr))
        elif package and isinstance(n, (ast.Import, ast.ImportFrom)) and getattr(n, 'level', 0) == 0:
            names = [a.name for a in n.names] if isinstance(n, ast.Import) else [n.module or '']
            for m in names:
                top = m.split('.')[0]
                beside = os.path.isfile(os.path.join(here, top + '.py')) or os.path.isfile(os.path.join(here, top, '__init__.py'))
                if top and beside and not os.path.exists(top + '.py') and not os.path.isdir(top) and top not in STD:
                    found.append((path, n.lineno, '`import %s` by its bare name, a module beside it in its package (Python 2 finds it so, Python 3 does not)' % m))
found = []
for path in sys.argv[1:]:
    try:
        with open(path, 'rb') as f:
            tree = ast.parse(f.read(), path)
    except SyntaxError as e:
        found.append((path, e.lineno or 0, 'does not compile under Python 3 (%s)' % e.msg))
        continue
    except Exception:
        continue
    try:
        signs(tree, path, found)
    except RecursionError:
        pass
found.sort(key=lambda f: (f[0], f[1]))
for path, line, what in found[:20]:
    print('`%s` line %s: %s' % (path, line, what))
"#;

/// Most `.py` files of a copy read for Python 2's signs, and how deep.
const TREE_FILES: usize = 200;
const TREE_DEPTH: usize = 6;

/// Every `.py` file of the copy (a program in a package runs files the run command does not name),
/// the suite's adapters, hidden folders, caches and virtual environments left out; links are not
/// followed. Names relative to `dir`, sorted; at most [`TREE_FILES`].
fn tree_files(dir: &Path, support: &[PathBuf]) -> Vec<String> {
    let adapters: Vec<&std::ffi::OsStr> = support.iter().filter_map(|p| p.file_name()).collect();
    let mut out = Vec::new();
    let mut folders = vec![(PathBuf::new(), 0)];
    while let Some((rel, depth)) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(dir.join(&rel)) else {
            continue;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for e in entries {
            let name = e.file_name();
            let text = name.to_string_lossy();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                let skipped = text.starts_with('.')
                    || [
                        "__pycache__",
                        "venv",
                        "env",
                        "site-packages",
                        "node_modules",
                    ]
                    .contains(&text.as_ref());
                if !skipped && depth < TREE_DEPTH {
                    folders.push((rel.join(&name), depth + 1));
                }
            } else if kind.is_file()
                && text.ends_with(".py")
                && !(depth == 0 && adapters.contains(&name.as_os_str()))
            {
                out.push(rel.join(&name).to_string_lossy().into_owned());
                if out.len() >= TREE_FILES {
                    out.sort();
                    return out;
                }
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`SIGNS`] run by the machine's Python 3 in `dir` on its files (outside the sandbox: the script
    /// is what is tested), or `None` when the machine has no Python 3.
    fn signs(dir: &Path) -> Option<Vec<String>> {
        let files = tree_files(dir, &[]);
        let out = std::process::Command::new("python3")
            .args(["-S", "-B", "-c", SIGNS])
            .args(&files)
            .current_dir(dir)
            .output()
            .ok()?;
        assert!(out.status.success(), "{out:?}");
        Some(
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(str::to_string)
                .collect(),
        )
    }

    fn write(dir: &Path, name: &str, text: &str) {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn python_2_names_and_bare_package_imports_are_signs() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "main.py", "from game.play import run\nrun()\n");
        write(dir.path(), "game/__init__.py", "");
        write(dir.path(), "game/board.py", "SIZE = 3\n");
        write(
            dir.path(),
            "game/play.py",
            "from board import SIZE\nimport random\n\ndef run():\n    for k in xrange(SIZE):\n        print(k)\n    d = {}\n    if d.has_key(1):\n        pass\n",
        );
        let Some(found) = signs(dir.path()) else {
            return eprintln!("skipped: no python3 on this machine");
        };
        assert_eq!(
            found,
            [
                "`game/play.py` line 1: `import board` by its bare name, a module beside it in its package (Python 2 finds it so, Python 3 does not)",
                "`game/play.py` line 5: `xrange`, a name Python 2 has and Python 3 does not",
                "`game/play.py` line 8: `.has_key()`, a Python 2 dictionary method",
            ]
        );
    }

    #[test]
    fn python_3_code_that_minds_python_2_shows_no_sign() {
        let dir = tempfile::tempdir().unwrap();
        // Guarded, bound by the program, imported, or a module at the top of the folder (Python 3's
        // own path): none of these is Python 2 code.
        write(
            dir.path(),
            "tictactoe.py",
            "import sys\nfrom functools import reduce\nimport board\ntry:\n    input = raw_input\nexcept NameError:\n    pass\nif sys.version_info[0] < 3:\n    range = xrange\ndef unicode(s):\n    return s\nprint(reduce(max, [1, 2]), unicode('x'), file=sys.stderr)\n",
        );
        write(dir.path(), "board.py", "SIZE = 3\n");
        // Left out: a virtual environment, a cache.
        write(dir.path(), "venv/lib/old.py", "print xrange(3)\n");
        write(dir.path(), "__pycache__/x.py", "print xrange(3)\n");
        let Some(found) = signs(dir.path()) else {
            return eprintln!("skipped: no python3 on this machine");
        };
        assert!(found.is_empty(), "{found:?}");
        assert_eq!(tree_files(dir.path(), &[]), ["board.py", "tictactoe.py"]);
    }

    #[test]
    fn the_folder_walk_follows_no_link_and_leaves_out_the_adapters() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "a.py", "");
        write(dir.path(), "adapter.py", "");
        std::os::unix::fs::symlink("/usr/lib", dir.path().join("lib")).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", dir.path().join("b.py")).unwrap();
        let support = [PathBuf::from("/suite/adapters/adapter.py")];
        assert_eq!(tree_files(dir.path(), &support), ["a.py"]);
    }
}
