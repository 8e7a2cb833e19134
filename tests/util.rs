//! Shared helpers for the integration tests: a `grader` command builder and scratch directories.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The `grader` binary under test, with a clean, colourless environment.
#[must_use]
#[track_caller]
pub fn grader() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("grader").expect("the grader binary is built");
    cmd.env("NO_COLOR", "1");
    cmd
}

/// The repository root (where `Cargo.toml`, `suites/` and `examples/` live).
#[must_use]
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory, removed when dropped.
#[must_use]
pub fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// Reads a file the test expects to exist, naming it when it does not.
#[track_caller]
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// `grader run SUITE STUDENTS --out DIR/results --jobs 2` into `dir`, which must exit 0; returns the
/// suite's results folder (`DIR/results/<suite-name>`).
pub fn grade_class(dir: &Path, suite: &Path, students: &Path) -> PathBuf {
    let out = dir.join("results");
    let run = grader()
        .arg("run")
        .arg(suite)
        .arg(students)
        .arg("--out")
        .arg(&out)
        .args(["--jobs", "2"])
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    out.join(suite.file_name().unwrap())
}

/// `grader tournament GAME PLAYERS...`, for the caller to add its flags and run with [`output_ok`].
#[must_use]
pub fn tournament(game: &str, players: &[&str]) -> assert_cmd::Command {
    let mut cmd = grader();
    cmd.args(["tournament", game]).args(players);
    cmd
}

/// Runs `cmd`, which must exit 0 (else the test fails with what it printed); returns its stdout and
/// stderr.
#[track_caller]
pub fn output_ok(cmd: &mut assert_cmd::Command) -> (String, String) {
    let run = cmd.output().expect("the grader runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&run.stdout).into_owned(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    );
    assert_eq!(run.status.code(), Some(0), "{cmd:?}\n{stdout}\n{stderr}");
    (stdout, stderr)
}
