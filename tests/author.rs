//! `grader new` and `grader verify`: every built-in template is a suite that validates and whose
//! samples grade as their expectation files say, and a suite change that moves a sample's grade is
//! named until `--accept` takes it.

use std::path::Path;

use crate::util::{grader, read, repo, scratch};

/// Every built-in template, in `grader new --list`'s order; a template added without its test here
/// fails `the_list_is_every_template`.
const TEMPLATES: [&str; 4] = ["stdout", "play", "dialogue", "position"];

/// `grader verify` in `dir` with `args`: exit code, stdout, stderr.
fn verify(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = grader()
        .current_dir(dir)
        .arg("verify")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_list_is_every_template() {
    let listed = grader().args(["new", "--list"]).assert().success();
    let listed = String::from_utf8(listed.get_output().stdout.clone()).unwrap();
    let names: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names, TEMPLATES, "{listed}");
}

/// `grader new --from name` writes a suite that validates, and `verify` passes on its two samples at
/// once: the correct one earns every point, the flawed one does not.
fn template_validates_and_verifies_at_once(name: &str) {
    let dir = scratch();
    let suite = format!("my-{name}");
    grader()
        .current_dir(dir.path())
        .args(["new", &suite, "--from", name])
        .assert()
        .success();
    grader()
        .current_dir(dir.path())
        .args(["validate", &suite])
        .assert()
        .success();
    let (code, stdout, stderr) = verify(dir.path(), &[&suite]);
    assert_eq!(code, Some(0), "{name}: {stdout}{stderr}");
    assert_eq!(stdout.matches("ok  ").count(), 2, "{name}: {stdout}");
    let flawed = stdout.lines().find(|l| !l.contains("correct")).unwrap();
    let correct = stdout.lines().find(|l| l.contains(" correct ")).unwrap();
    let (got, of) = correct.rsplit_once(' ').unwrap().1.split_once('/').unwrap();
    assert_eq!(
        got, of,
        "{name}: the correct sample earns every point: {correct}"
    );
    assert!(
        !flawed.ends_with(&format!(" {of}/{of}")),
        "{name}: {flawed}"
    );
}

#[test]
fn the_stdout_template_verifies() {
    template_validates_and_verifies_at_once("stdout");
}

#[test]
fn the_play_template_verifies() {
    template_validates_and_verifies_at_once("play");
}

#[test]
fn the_dialogue_template_verifies() {
    template_validates_and_verifies_at_once("dialogue");
}

#[test]
fn the_position_template_verifies() {
    template_validates_and_verifies_at_once("position");
}

#[test]
fn a_moved_grade_is_named_until_accepted() {
    let dir = scratch();
    grader()
        .current_dir(dir.path())
        .args(["new", "w", "--from", "stdout"])
        .assert()
        .success();
    // The instructor makes the diagonals worth more, and one row case's expected output wrong.
    let toml = dir.path().join("w/suite.toml");
    std::fs::write(&toml, read(&toml).replace("points = 2 ", "points = 3 ")).unwrap();
    std::fs::write(dir.path().join("w/golden/draw.stdout"), "nobody\n").unwrap();
    let (code, stdout, stderr) = verify(dir.path(), &["w"]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("moved       correct"), "{stdout}");
    assert!(
        stdout.contains("case `rows/draw` accepted → wrong-answer"),
        "{stdout}"
    );
    assert!(stdout.contains("group `rows` 4.0 → 3.0"), "{stdout}");
    assert!(stdout.contains("group `diagonals` 2.0 → 3.0"), "{stdout}");
    // The correct sample's total did not move (3 of 4 rows, 3 of 3 diagonals); the flawed one's did.
    let correct = stdout.split("moved       no-diagonals").next().unwrap();
    assert!(!correct.contains("total"), "{stdout}");
    assert!(stdout.contains("total 4.0 → 3.0"), "{stdout}");
    assert!(stderr.contains("--accept"), "{stderr}");
    // A sample without a file is new, and fails until accepted.
    crate::util::copy_dir(
        &dir.path().join("w/samples/correct"),
        &dir.path().join("w/samples/copy"),
    );
    let (code, stdout, _) = verify(dir.path(), &["w", "--accept"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("new         copy"), "{stdout}");
    let pinned = read(&dir.path().join("w/samples/correct.expected.toml"));
    assert!(
        pinned.contains("\"rows/draw\" = \"wrong-answer\""),
        "{pinned}"
    );
    let (code, stdout, _) = verify(dir.path(), &["w"]);
    assert_eq!(code, Some(0), "{stdout}");
    // A file that pins only the total is checked on the total alone, and kept so by --accept.
    let only = dir.path().join("w/samples/copy.expected.toml");
    std::fs::write(&only, "total = 1.0\n").unwrap();
    let (code, stdout, _) = verify(dir.path(), &["w", "w/samples/copy"]);
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(stdout.matches("moved").count(), 1, "{stdout}");
    verify(dir.path(), &["w", "w/samples/copy", "--accept"]);
    let kept = read(&only);
    assert!(
        kept.contains("\ntotal = 6.0\n") && !kept.contains("\n[cases]"),
        "{kept}"
    );
}

#[test]
fn bad_input_to_new_and_verify_is_named() {
    let dir = scratch();
    let out = grader()
        .current_dir(dir.path())
        .args(["new", "x", "--from", "chess"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("`chess` is neither a template nor a suite folder"),
        "{stderr}"
    );
    assert!(
        stderr.contains("stdout, play, dialogue, position"),
        "{stderr}"
    );
    let suite = repo().join("suites/adelaide-2021-a1");
    let (code, _, stderr) = verify(dir.path(), &[suite.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no samples folder"), "{stderr}");
    grader()
        .current_dir(dir.path())
        .args(["new", "s", "--from", "stdout"])
        .assert()
        .success();
    std::fs::write(
        dir.path().join("s/samples/correct.expected.toml"),
        "totl = 1\n",
    )
    .unwrap();
    let (code, _, stderr) = verify(dir.path(), &["s"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("correct.expected.toml:1:1: unknown field `totl`"),
        "{stderr}"
    );
}

#[test]
fn a_copied_suite_validates_where_it_lands() {
    let dir = scratch();
    let from = repo().join("suites/adelaide-2021-a1");
    grader()
        .current_dir(dir.path())
        .args(["new", "a1-2027", "--from", from.to_str().unwrap()])
        .assert()
        .success();
    let toml = read(&dir.path().join("a1-2027/suite.toml"));
    assert!(toml.starts_with("#:schema suite.schema.json\n"), "{toml}");
    grader()
        .current_dir(dir.path())
        .args(["validate", "a1-2027"])
        .assert()
        .success();
}
