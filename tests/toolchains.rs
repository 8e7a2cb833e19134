//! Interpreters found on `PATH` through links and shims run in the sandbox; one that cannot start there
//! is refused before anything is graded; Python 2 hand-ins are graded wherever a course could have
//! written them. Each layout is built by the test, around the machine's real interpreters.

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::util::{copy_dir, grade_class, grader, read, repo, scratch};

/// The machine's real Python 3 and 2 executables (links resolved), or why a test cannot use them.
fn real_pythons() -> Result<(PathBuf, PathBuf), String> {
    let tc = grader::toolchain::Toolchain::global();
    let real = |name: &str| {
        tc.tool(name)
            .and_then(|p| p.canonicalize().ok())
            .ok_or_else(|| format!("no `{name}` on this machine"))
    };
    Ok((real("python3")?, real("python2")?))
}

/// A `PATH` of system folders after `bin`, and no pyenv to fall back on: the interpreters are what
/// `bin` holds.
fn only(cmd: &mut assert_cmd::Command, bin: &Path, home: &Path) {
    cmd.env(
        "PATH",
        format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display()),
    )
    .env("PYENV_ROOT", home.join("no-pyenv"))
    .env("HOME", home);
}

/// `bin/python3`, a shell script that execs the real one (as pyenv's shims do), and `bin/python2`, a
/// link to the real 2.7 (as `/usr/local/bin/python2 -> /opt/python2.7/bin/python2.7`).
fn linked_bin(dir: &Path, python3: &Path, python2: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let shim = bin.join("python3");
    std::fs::write(
        &shim,
        format!("#!/bin/sh\nexec {} \"$@\"\n", python3.display()),
    )
    .unwrap();
    std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755)).unwrap();
    symlink(python2, bin.join("python2")).unwrap();
    bin
}

#[test]
fn interpreters_found_through_a_link_or_a_shim_run_in_the_sandbox() {
    let (python3, python2) = match real_pythons() {
        Ok(p) => p,
        Err(why) => return eprintln!("skipped: {why}"),
    };
    let dir = scratch();
    let bin = linked_bin(dir.path(), &python3, &python2);

    let mut doctor = grader();
    only(&mut doctor, &bin, dir.path());
    let out = doctor
        .arg("doctor")
        .arg(repo().join("suites/iiit-2015-ut3"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(!stdout.contains("CANNOT START"), "{stdout}");

    // Both interpreters graded a hand-in: the link's folder (a temporary one) is not in the sandbox.
    for (example, python) in [("python-correct", "3"), ("python2-correct", "2")] {
        let mut check = grader();
        only(&mut check, &bin, dir.path());
        let out = check
            .arg("check")
            .arg(repo().join("suites/adelaide-2021-a1"))
            .arg(
                repo()
                    .join("examples/submissions/adelaide-2021-a1")
                    .join(example),
            )
            .arg("--allow-missing")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stdout.contains("score: 15/15 points"),
            "Python {python}: {stdout}\n{stderr}"
        );
    }
}

#[test]
fn a_machine_whose_interpreter_cannot_start_in_the_sandbox_is_refused_before_grading() {
    let (python3, python2) = match real_pythons() {
        Ok(p) => p,
        Err(why) => return eprintln!("skipped: {why}"),
    };
    // A copy of the interpreter installed under `/tmp`: it runs here, but the sandbox has a `/tmp` of
    // its own, so no link or mount can show it there.
    let dir = scratch();
    if !dir.path().starts_with("/tmp") {
        return eprintln!("skipped: the temporary folder is not under `/tmp`");
    }
    let copy = dir.path().join("opt/py27");
    std::fs::create_dir_all(copy.join("bin")).unwrap();
    let exe = copy.join("bin").join(python2.file_name().unwrap());
    std::fs::copy(&python2, &exe).unwrap();
    let real_home = python2.parent().unwrap().parent().unwrap();
    symlink(real_home.join("lib"), copy.join("lib")).unwrap();
    let bin = linked_bin(dir.path(), &python3, &exe);

    let mut doctor = grader();
    only(&mut doctor, &bin, dir.path());
    let out = doctor
        .arg("doctor")
        .arg(repo().join("suites/adelaide-2021-a1"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let row = stdout
        .lines()
        .find(|l| l.starts_with("python2"))
        .unwrap_or("");
    if row.contains("MISSING") {
        return eprintln!(
            "skipped: the copied Python 2 does not run even outside the sandbox: {row}"
        );
    }
    let full = String::from_utf8_lossy(&out.stderr).contains("started once in the `full` sandbox");
    if !full {
        return eprintln!(
            "skipped: no full sandbox here: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(row.contains("CANNOT START in the sandbox"), "{row}");
    assert!(
        row.contains("has a `/tmp` and `/dev/shm` of its own"),
        "{row}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("python3") && l.contains("found:")),
        "{stdout}"
    );

    let class = dir.path().join("class");
    copy_dir(
        &repo().join("examples/submissions/adelaide-2021-a1/python-correct"),
        &class.join("alice"),
    );
    let mut run = grader();
    only(&mut run, &bin, dir.path());
    let results = dir.path().join("results");
    let out = run
        .arg("run")
        .arg(repo().join("suites/adelaide-2021-a1"))
        .arg(&class)
        .arg("--out")
        .arg(&results)
        .arg("--allow-missing")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("cannot start in the `full` sandbox") && stderr.contains("`python2`"),
        "{stderr}"
    );
    // Refused before grading: not even the Python 3 hand-in got a result.
    assert!(
        !results.join("adelaide-2021-a1/alice/result.json").exists(),
        "{stderr}"
    );
}

#[test]
fn python_2_programs_are_graded_in_the_interactive_suite() {
    if real_pythons().is_err() {
        return eprintln!("skipped: no Python 2 on this machine");
    }
    let dir = scratch();
    let class = dir.path().join("class");
    copy_dir(
        &repo().join("examples/submissions/wpi-2000-ttt/python2-correct"),
        &class.join("python2-correct"),
    );
    let results = grade_class(dir.path(), &repo().join("suites/wpi-2000-ttt"), &class);
    let result: serde_json::Value =
        serde_json::from_str(&read(&results.join("python2-correct/result.json"))).unwrap();
    let interpreter = &result["build"]["interpreter"];
    assert!(
        interpreter["version"].as_str().unwrap().starts_with("2."),
        "{result}"
    );
    assert_eq!(result["score"].as_f64(), Some(100.0), "{result}");
}
