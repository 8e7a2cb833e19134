//! `grader check`: a student's view of their own folder (public cases, one sentence per failure, a score).

use std::path::Path;

use crate::util::{grader, repo, scratch};

/// Exit code, stdout and stderr of `grader check` on `dir`, with temp paths and timings filtered.
fn check(dir: &Path) -> String {
    let suite = repo().join("suites/adelaide-2021-a1");
    let out = grader().arg("check").arg(&suite).arg(dir).output().unwrap();
    let text = format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    filter(&text.replace(&dir.display().to_string(), "[DIR]"))
}

/// Timings vary, the sandbox tier depends on the machine, and a run's file name on the student's key
/// (here a temporary folder's name).
pub fn filter(text: &str) -> String {
    let text = regex::Regex::new(r"\d+\.\d\ds")
        .unwrap()
        .replace_all(text, "[TIME]");
    let text = regex::Regex::new(r"-[0-9a-f]{8}\.txt")
        .unwrap()
        .replace_all(&text, "-[HEX].txt");
    let text = regex::Regex::new(r"(?m)^warning: the full sandbox is not available.*\n")
        .unwrap()
        .replace_all(&text, "");
    regex::Regex::new(r"sandbox (none|basic|full)")
        .unwrap()
        .replace_all(&text, "sandbox [TIER]")
        .into_owned()
}

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots/check", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

#[test]
fn an_empty_folder_is_told_what_the_suite_looks_for() {
    let dir = scratch();
    snapshot!("empty_folder", check(dir.path()));
}

#[test]
fn a_program_that_writes_no_trace_is_told_so() {
    let dir = scratch();
    // Prints the handout's answer for every board and never writes the visited file.
    std::fs::write(dir.path().join("tictactoe.py"), "print('oxxxo-oxo')\n").unwrap();
    snapshot!("no_trace", check(dir.path()));
}

#[test]
fn a_crash_is_a_runtime_error_with_its_stderr() {
    let dir = scratch();
    std::fs::write(
        dir.path().join("tictactoe.py"),
        "import sys\nsys.exit('cannot parse the board')\n",
    )
    .unwrap();
    snapshot!("crash", check(dir.path()));
}

#[test]
fn a_missing_folder_is_bad_input() {
    let dir = scratch();
    let out = check(&dir.path().join("nope"));
    assert!(out.starts_with("exit: 2\n"), "{out}");
    assert!(out.contains("error: no submission folder `[DIR]`"), "{out}");
}

#[test]
fn a_program_under_another_name_is_named_with_what_to_do() {
    let dir = scratch();
    std::fs::write(
        dir.path().join("MinMaxTictactoe.java"),
        "class MinMaxTictactoe { public static void main(String[] a) {} }\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.txt"), "my notes\n").unwrap();
    let text = check(dir.path());
    assert!(text.starts_with("exit: 1\n"), "{text}");
    assert!(
        text.contains("found `MinMaxTictactoe.java`: name your program as the suite expects"),
        "{text}"
    );
    assert!(!text.contains("notes.txt"), "{text}");
}

/// A wrong pruning variant is told where its search parts from the reference's: the first node it
/// visits that the reference's search prunes.
#[test]
fn a_strict_cut_off_names_the_node_the_reference_prunes() {
    let dir = repo().join("examples/submissions/adelaide-2021-a1/prune-strict");
    let text = check(&dir);
    assert!(
        text.contains("    line 7: your search visits `xoxoxo-xo`, a node the reference never visits (its search prunes it, or never reaches it)\n"),
        "{text}"
    );
    // The correct program's report says nothing of the kind.
    let text = check(&repo().join("examples/submissions/adelaide-2021-a1/c-correct"));
    assert!(!text.contains("your search "), "{text}");
}
