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
    output_ok(
        grader()
            .arg("run")
            .arg(suite)
            .arg(students)
            .arg("--out")
            .arg(&out)
            .args(["--jobs", "2"]),
    );
    out.join(suite.file_name().unwrap())
}

/// Copies the folder `from` into `to`, subfolders and all.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// The case `name` of a `result.json`, which must have it.
#[track_caller]
pub fn case<'a>(result: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    result["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case `{name}` in {result}"))
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

/// The machine's one-minute load average and its cores, for the timing tests that allow for a busy
/// machine; `None` where `/proc/loadavg` cannot be read.
pub fn load_and_cores() -> (Option<f64>, f64) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok());
    (load, cores)
}

/// Checks a class of a suite's samples, graded once by `grader run` into `results`, against the
/// `<sample>.expected.toml` files in `samples`, through the code `grader verify` compares with
/// (`author::verify`), so no sample is graded twice. Every sample folder must have its file; each not
/// in `elsewhere` must have been graded in `results` and not be `not-graded`. The caller says in a
/// comment where each of `elsewhere` is checked (or why it is not graded here).
#[track_caller]
pub fn assert_as_expected(results: &Path, samples: &Path, elsewhere: &[&str]) {
    use grader::author::verify::{changes, file_for, Expected};
    let mut wrong = Vec::new();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(samples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for sample in folders {
        let name = sample.file_name().unwrap().to_string_lossy().into_owned();
        let file = file_for(&sample);
        if !file.is_file() {
            wrong.push(format!("{name}: no `{}`", file.display()));
            continue;
        }
        let pinned = Expected::read(&file).unwrap_or_else(|e| panic!("{e}"));
        if elsewhere.contains(&name.as_str()) {
            continue;
        }
        let text = read(&results.join(&name).join("result.json"));
        let result: grader::report::result::SubmissionResult =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}'s result.json: {e}"));
        if let Some(why) = result.not_graded() {
            wrong.push(format!("{name}: not graded here: {why}"));
            continue;
        }
        let moved = changes(&pinned, &Expected::of(&result));
        if pinned.pins_nothing() || !moved.is_empty() {
            let moved: Vec<String> = moved.iter().map(|c| format!("\n  {c}")).collect();
            wrong.push(format!("{name} (`{}`):{}", file.display(), moved.concat()));
        }
    }
    assert!(
        wrong.is_empty(),
        "the suite no longer grades its samples as pinned (if it is right: `grader verify SUITE SAMPLES --accept`, then review the diff):\n{}",
        wrong.join("\n")
    );
}
