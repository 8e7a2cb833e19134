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
