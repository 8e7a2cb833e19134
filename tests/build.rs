//! The build step: language detection, builds in every Adelaide language from tiny programs, compile
//! errors, limits, and the student's folder left untouched.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use grader::build::{self, BuildError, BuildOutcome, Built, Recipe};
use grader::sandbox::{self, BasicSandbox, Sandbox, Status, Stdin};
use grader::toolchain::Toolchain;

fn build_limits() -> sandbox::Limits {
    sandbox::Limits {
        cpu: Duration::from_secs(60),
        wall: Duration::from_secs(120),
        memory: 2 << 30,
        output: 1 << 20,
        file_size: 256 << 20,
        processes: 64,
        open_files: 256,
        stack: 8 << 20,
        address_space: Some(2 << 30),
        idle: None,
    }
}

/// A submission folder holding `files`.
fn submission(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = crate::util::scratch();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn build_in(sub: &Path, scratch: &Path, limits: &sandbox::Limits) -> BuildOutcome {
    build::build(
        &BasicSandbox,
        &Recipe::adelaide_defaults("tictactoe"),
        sub,
        &scratch.join("build"),
        limits,
    )
    .expect("the grader can build")
}

/// Skips (with a printed reason) when the machine lacks a tool.
fn have(tool: &str) -> bool {
    let tc = Toolchain::global();
    if tc.tool(tool).is_none() {
        eprintln!("skipped: `{tool}` is not available: {:?}", tc.missing(tool));
        return false;
    }
    true
}

fn built(outcome: BuildOutcome) -> Built {
    match outcome {
        BuildOutcome::Built(b) => b,
        other => panic!("expected a build, got {other:#?}"),
    }
}

/// Runs the built program with `args` in a fresh folder and returns its stdout.
fn run_built(b: &Built, args: &[&str]) -> String {
    let limits = sandbox::Limits {
        wall: Duration::from_secs(20),
        cpu: Duration::from_secs(20),
        ..build_limits()
    };
    let work = crate::util::scratch();
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let spec = b.spec(&args, work.path(), Stdin::Null, &limits);
    assert_eq!(spec.limits.address_space.is_some(), b.address_space);
    let out = BasicSandbox.run(&spec).unwrap();
    assert_eq!(
        out.status,
        Status::Exited(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const MAKEFILE_C: &str = "tictactoe: tictactoe.c\n\tcc -O2 -o tictactoe.bin tictactoe.c\n";
const HELLO_C: &str =
    "#include <stdio.h>\nint main(int c, char **v) { printf(\"c %s\\n\", c > 1 ? v[1] : \"-\"); return 0; }\n";

#[test]
fn c_with_makefile() {
    if !have("make") || !have("cc") {
        return;
    }
    let sub = submission(&[("Makefile", MAKEFILE_C), ("tictactoe.c", HELLO_C)]);
    let scratch = crate::util::scratch();
    let b = built(build_in(sub.path(), scratch.path(), &build_limits()));
    assert_eq!(b.language, "c");
    assert!(b.log.contains("$ make tictactoe"), "{}", b.log);
    assert_eq!(run_built(&b, &["x--------"]), "c x--------\n");
}

#[test]
fn cpp_with_makefile() {
    if !have("make") || !have("c++") {
        return;
    }
    let sub = submission(&[
        (
            "Makefile",
            "tictactoe:\n\tc++ -O2 -o tictactoe.bin tictactoe.cpp\n",
        ),
        (
            "tictactoe.cpp",
            "#include <iostream>\nint main() { std::cout << \"cpp\" << std::endl; }\n",
        ),
    ]);
    let scratch = crate::util::scratch();
    let b = built(build_in(sub.path(), scratch.path(), &build_limits()));
    assert_eq!(b.language, "cpp");
    assert_eq!(run_built(&b, &[]), "cpp\n");
}

#[test]
fn java() {
    if !have("javac") || !have("java") {
        return;
    }
    let sub = submission(&[(
        "tictactoe.java",
        "public class tictactoe { public static void main(String[] a) { System.out.println(\"java \" + a.length); } }\n",
    )]);
    let scratch = crate::util::scratch();
    let b = built(build_in(sub.path(), scratch.path(), &build_limits()));
    assert_eq!(b.language, "java");
    assert!(!b.address_space);
    assert_eq!(run_built(&b, &["a", "b"]), "java 2\n");
}

#[test]
fn java_with_the_wrong_class_name_leaves_no_program() {
    if !have("javac") {
        return;
    }
    let sub = submission(&[(
        "tictactoe.java",
        "class Game { public static void main(String[] a) {} }\n",
    )]);
    let scratch = crate::util::scratch();
    match build_in(sub.path(), scratch.path(), &build_limits()) {
        BuildOutcome::CompileError { log, .. } => {
            assert!(log.contains("no `tictactoe.class`"), "{log}")
        }
        other => panic!("{other:#?}"),
    }
}

#[test]
fn python() {
    if !have("python3") {
        return;
    }
    let sub = submission(&[(
        "tictactoe.py",
        "import sys\nprint('python', sys.version_info[0], sys.argv[1:])\n",
    )]);
    let scratch = crate::util::scratch();
    let b = built(build_in(sub.path(), scratch.path(), &build_limits()));
    assert_eq!(b.language, "python");
    assert!(b.outcome.is_none());
    assert_eq!(
        Path::new(&b.command[0]),
        Toolchain::global().tool("python3").unwrap()
    );
    assert_eq!(run_built(&b, &["o"]), "python 3 ['o']\n");
}

#[test]
fn rust_with_cargo() {
    if !have("cargo") {
        return;
    }
    let sub = submission(&[
        (
            "Cargo.toml",
            "[package]\nname = \"tictactoe\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        ("src/main.rs", "fn main() { println!(\"rust\"); }\n"),
    ]);
    let scratch = crate::util::scratch();
    let b = built(build_in(sub.path(), scratch.path(), &build_limits()));
    assert_eq!(b.language, "rust");
    assert_eq!(run_built(&b, &[]), "rust\n");
}

#[test]
fn compile_error_carries_the_compiler_message() {
    if !have("make") || !have("cc") {
        return;
    }
    let sub = submission(&[
        ("Makefile", MAKEFILE_C),
        ("tictactoe.c", "int main() { return undeclared_thing; }\n"),
    ]);
    let scratch = crate::util::scratch();
    match build_in(sub.path(), scratch.path(), &build_limits()) {
        BuildOutcome::CompileError {
            language,
            log,
            outcome,
        } => {
            assert_eq!(language, "c");
            assert!(log.contains("undeclared_thing"), "{log}");
            assert!(
                log.contains("build failed: the compiler exited with status 2"),
                "{log}"
            );
            assert_eq!(outcome.status, Status::Exited(2));
        }
        other => panic!("{other:#?}"),
    }
}

#[test]
fn make_that_builds_nothing_is_a_compile_error() {
    if !have("make") {
        return;
    }
    let sub = submission(&[("Makefile", "tictactoe:\n\t@echo nothing to do\n")]);
    let scratch = crate::util::scratch();
    match build_in(sub.path(), scratch.path(), &build_limits()) {
        BuildOutcome::CompileError { log, outcome, .. } => {
            assert!(log.contains("nothing to do"), "{log}");
            assert!(
                log.contains("the build left no `tictactoe.bin` to run"),
                "{log}"
            );
            assert_eq!(outcome.status, Status::Exited(0));
        }
        other => panic!("{other:#?}"),
    }
}

#[test]
fn a_build_that_hangs_hits_the_wall_limit() {
    if !have("make") {
        return;
    }
    let sub = submission(&[("Makefile", "tictactoe:\n\tsleep 30\n")]);
    let scratch = crate::util::scratch();
    let limits = sandbox::Limits {
        wall: Duration::from_millis(300),
        ..build_limits()
    };
    match build_in(sub.path(), scratch.path(), &limits) {
        BuildOutcome::CompileError { log, outcome, .. } => {
            assert!(
                log.contains("build failed: the wall-clock limit of 0.3s was reached"),
                "{log}"
            );
            assert_eq!(outcome.limit, Some(sandbox::LimitHit::Wall));
        }
        other => panic!("{other:#?}"),
    }
}

#[test]
fn no_allowed_language_lists_what_was_looked_for() {
    let sub = submission(&[("README", "hello")]);
    let scratch = crate::util::scratch();
    match build_in(sub.path(), scratch.path(), &build_limits()) {
        BuildOutcome::NoLanguage { looked_for } => {
            assert_eq!(looked_for.len(), 6);
            assert_eq!(
                looked_for[3],
                ("java".into(), vec!["tictactoe.java".into()])
            );
        }
        other => panic!("{other:#?}"),
    }
}

/// Every path under `root` with its kind, bytes, permissions and modification time.
fn fingerprint(root: &Path) -> BTreeMap<PathBuf, (String, Vec<u8>, u32, SystemTime)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let bytes = if meta.is_file() {
                std::fs::read(&path).unwrap()
            } else if meta.file_type().is_symlink() {
                std::fs::read_link(&path)
                    .unwrap()
                    .into_os_string()
                    .into_encoded_bytes()
            } else {
                stack.push(path.clone());
                Vec::new()
            };
            let kind = format!("{:?}", meta.file_type());
            out.insert(
                path.strip_prefix(root).unwrap().to_path_buf(),
                (
                    kind,
                    bytes,
                    meta.permissions().mode(),
                    meta.modified().unwrap(),
                ),
            );
        }
    }
    out
}

#[test]
fn the_students_folder_is_left_byte_identical() {
    if !have("make") || !have("cc") {
        return;
    }
    let outside = crate::util::scratch();
    std::fs::write(outside.path().join("secret"), "not yours").unwrap();
    let sub = submission(&[
        ("Makefile", MAKEFILE_C),
        ("tictactoe.c", HELLO_C),
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("notes/readme.txt", "hi"),
        ("tictactoe.bin", "\x7fELF stale binary"),
    ]);
    std::os::unix::fs::symlink(outside.path().join("secret"), sub.path().join("leak")).unwrap();
    std::os::unix::fs::symlink("notes/readme.txt", sub.path().join("inside")).unwrap();
    let before = fingerprint(sub.path());
    let scratch = crate::util::scratch();
    let b = built(build_in(sub.path(), scratch.path(), &build_limits()));
    assert_eq!(fingerprint(sub.path()), before);

    assert!(!b.dir.join(".git").exists());
    assert!(!b.dir.join("leak").exists());
    assert_eq!(std::fs::read_to_string(b.dir.join("inside")).unwrap(), "hi");
    assert!(
        b.log
            .contains("not copied: leak (a symbolic link out of the submission)"),
        "{}",
        b.log
    );
    assert!(
        b.log
            .contains("not copied: tictactoe.bin (a prebuilt binary"),
        "{}",
        b.log
    );
    // The stale binary was not used: the program is the one built from source.
    assert_eq!(run_built(&b, &[]), "c -\n");
}

#[test]
fn scratch_must_be_fresh_and_outside_the_submission() {
    let sub = submission(&[("tictactoe.py", "print(1)\n")]);
    let recipes = Recipe::adelaide_defaults("tictactoe");
    let err = build::build(
        &BasicSandbox,
        &recipes,
        sub.path(),
        &sub.path().join("build"),
        &build_limits(),
    )
    .unwrap_err();
    assert!(
        matches!(err, BuildError::ScratchInsideSubmission { .. }),
        "{err}"
    );
    let scratch = crate::util::scratch();
    std::fs::write(scratch.path().join("x"), "").unwrap();
    let err = build::build(
        &BasicSandbox,
        &recipes,
        sub.path(),
        scratch.path(),
        &build_limits(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("is not empty"), "{err}");
    let err = build::build(
        &BasicSandbox,
        &recipes,
        &sub.path().join("missing"),
        &scratch.path().join("b"),
        &build_limits(),
    )
    .unwrap_err();
    assert!(!err.is_internal());
    assert!(err.to_string().contains("missing"), "{err}");
}

#[test]
fn toolchain_sees_through_shims_and_builds_a_clean_env() {
    let tc = Toolchain::global();
    if let Some(python) = tc.tool("python3") {
        let real = python.canonicalize().unwrap();
        let head = std::fs::read(&real).unwrap();
        assert!(
            head.starts_with(b"\x7fELF"),
            "{} is not a binary",
            real.display()
        );
    }
    let home = Path::new("/tmp/somewhere");
    let env = tc.env(home);
    let keys: Vec<_> = env.iter().map(|(k, _)| k.to_str().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "PATH",
            "HOME",
            "TMPDIR",
            "LANG",
            "PYTHONHASHSEED",
            "CARGO_HOME"
        ]
    );
    let path = env[0].1.to_str().unwrap();
    assert!(path.ends_with("/usr/local/bin:/usr/bin:/bin"), "{path}");
    assert!(!path.contains("shims"), "{path}");
    let dirs = tc.read_only_dirs();
    assert!(dirs.iter().any(|d| d == Path::new("/usr")));
    for a in dirs {
        for b in dirs {
            assert!(a == b || !a.starts_with(b), "{a:?} inside {b:?}");
        }
    }
}

#[test]
fn a_build_output_that_is_not_a_program_is_a_compile_error() {
    if !have("make") {
        return;
    }
    let sub = submission(&[(
        "Makefile",
        "tictactoe:\n\techo 'just text' > tictactoe.bin\n\tchmod +x tictactoe.bin\n",
    )]);
    let scratch = crate::util::scratch();
    match build_in(sub.path(), scratch.path(), &build_limits()) {
        BuildOutcome::CompileError { log, .. } => {
            assert!(log.contains("`tictactoe.bin` is not a program"), "{log}")
        }
        other => panic!("{other:#?}"),
    }
}

/// A Scheme-like recipe: any `*.scm` file, and the suite's adapter copied in as `run.scm`.
fn adapter_recipe(support: PathBuf) -> Vec<Recipe> {
    vec![Recipe {
        language: "scheme".into(),
        detect: vec!["*.scm".into()],
        build: Vec::new(),
        run: vec!["/bin/cat".into(), "{dir}/run.scm".into()],
        address_space: true,
        support: vec![support],
        python: Vec::new(),
    }]
}

#[test]
fn globbed_detect_and_support_files() {
    let suite = crate::util::scratch();
    let adapter = suite.path().join("adapters/run.scm");
    std::fs::create_dir_all(adapter.parent().unwrap()).unwrap();
    std::fs::write(&adapter, "(the suite's adapter)\n").unwrap();

    // A file name that only the glob matches; the student's own `run.scm` is replaced and the log says so.
    let sub = submission(&[
        ("team7.scm", "(define (ai b w) b)\n"),
        ("run.scm", "mine\n"),
    ]);
    let out = crate::util::scratch();
    let b = built(
        build::build(
            &BasicSandbox,
            &adapter_recipe(adapter.clone()),
            sub.path(),
            &out.path().join("build"),
            &build_limits(),
        )
        .unwrap(),
    );
    assert_eq!(
        std::fs::read_to_string(b.dir.join("run.scm")).unwrap(),
        "(the suite's adapter)\n"
    );
    assert!(b.dir.join("team7.scm").is_file());
    assert!(
        b.log
            .contains("note: the suite's `run.scm` replaces the submission's own"),
        "{}",
        b.log
    );
    // The student's folder is untouched.
    assert_eq!(
        std::fs::read_to_string(sub.path().join("run.scm")).unwrap(),
        "mine\n"
    );

    // No `*.scm` at the top: nothing matches (a nested one does not count).
    let sub = submission(&[("src/ai.scm", "x"), ("notes.txt", "x")]);
    let out = crate::util::scratch();
    let outcome = build::build(
        &BasicSandbox,
        &adapter_recipe(adapter),
        sub.path(),
        &out.path().join("build"),
        &build_limits(),
    )
    .unwrap();
    assert!(
        matches!(&outcome, BuildOutcome::NoLanguage { looked_for } if looked_for[0].1 == ["*.scm"]),
        "{outcome:?}"
    );
}
