//! `grader validate`: good suites load, malformed ones fail with path:line:col errors (snapshots).

use std::path::Path;

use crate::util::{grader, scratch};

/// A minimal valid suite using only a hand-written golden file.
const GOOD: &str = r#"title = "Echo"
seed = 7

[limits]
cpu = "2s"

[[languages]]
name = "python"
detect = ["echo.py"]
run = ["python3", "{dir}/echo.py"]

[[groups]]
name = "basic"
points = 3
visibility = "public"

[[groups.cases]]
name = "hello"
args = ["hello", "{work}/out.txt"]
stdout = { golden = "golden/hello.stdout", compare = "tokens" }
"#;

/// Runs `grader validate` on a suite folder holding `toml` (and a golden file), returning the transcript.
fn validate(toml: &str) -> String {
    let dir = scratch();
    let suite = dir.path().join("echo");
    std::fs::create_dir_all(suite.join("golden")).unwrap();
    std::fs::write(suite.join("golden/hello.stdout"), "hello\n").unwrap();
    std::fs::write(suite.join("suite.toml"), toml).unwrap();
    transcript(&suite, dir.path())
}

fn transcript(suite: &Path, root: &Path) -> String {
    let out = grader().arg("validate").arg(suite).output().unwrap();
    let text = format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    text.replace(&root.display().to_string(), "[TMP]")
}

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots/suite", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

#[test]
fn a_good_suite_validates() {
    snapshot!("good", validate(GOOD));
}

#[test]
fn an_unknown_key_is_located() {
    snapshot!(
        "unknown_key",
        validate(&GOOD.replace("points = 3", "points = 3\npoint = 4"))
    );
}

#[test]
fn a_bad_type_is_located() {
    snapshot!(
        "bad_type",
        validate(&GOOD.replace("points = 3", "points = \"three\""))
    );
}

#[test]
fn a_missing_golden_file_is_located() {
    snapshot!(
        "missing_golden",
        validate(&GOOD.replace("golden/hello.stdout", "golden/bye.stdout"))
    );
}

#[test]
fn a_bad_duration_is_located() {
    snapshot!(
        "bad_duration",
        validate(&GOOD.replace("\"2s\"", "\"2 seconds\""))
    );
}

#[test]
fn bad_values_are_located() {
    snapshot!(
        "bad_visibility",
        validate(&GOOD.replace("\"public\"", "\"secret\""))
    );
    snapshot!(
        "bad_placeholder",
        validate(&GOOD.replace("{work}", "{tmp}"))
    );
    snapshot!(
        "bad_comparator",
        validate(&GOOD.replace("\"tokens\"", "\"fuzzy\""))
    );
    snapshot!(
        "no_expectation",
        validate(&GOOD.replace("golden = \"golden/hello.stdout\", ", ""))
    );
    snapshot!(
        "unknown_reference",
        validate(&GOOD.replace("golden = \"golden/hello.stdout\"", "reference = \"chess\""))
    );
}

#[test]
fn a_folder_without_a_suite_is_named() {
    let dir = scratch();
    snapshot!("not_a_suite", transcript(dir.path(), dir.path()));
}
