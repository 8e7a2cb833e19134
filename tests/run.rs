//! `grader run`: a class graded end to end, results written per student, the gradebook, exit codes.

use crate::util::{grader, read, repo, scratch};

/// A tiny class: an empty folder, a program that never writes its trace, one that does nothing at all,
/// one that crashes.
fn class(root: &std::path::Path) -> std::path::PathBuf {
    let students = root.join("students");
    std::fs::create_dir_all(students.join("empty")).unwrap();
    std::fs::create_dir_all(students.join("no-trace")).unwrap();
    std::fs::create_dir_all(students.join("crash")).unwrap();
    std::fs::create_dir_all(students.join("silent")).unwrap();
    std::fs::write(students.join("silent/tictactoe.py"), "pass\n").unwrap();
    std::fs::create_dir_all(students.join(".hidden")).unwrap();
    std::fs::write(
        students.join("no-trace/tictactoe.py"),
        "print('oxxxo-oxo')\n",
    )
    .unwrap();
    std::fs::write(students.join("crash/tictactoe.py"), "raise SystemExit(3)\n").unwrap();
    students
}

#[test]
fn a_class_is_graded_into_results_and_a_gradebook() {
    let dir = scratch();
    let students = class(dir.path());
    let out = dir.path().join("results");
    let run = grader()
        .arg("run")
        .arg(repo().join("suites/adelaide-2021-a1"))
        .arg(&students)
        .arg("--out")
        .arg(&out)
        .args(["--jobs", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stdout}\n{stderr}");
    let csv = read(&out.join("adelaide-2021-a1/grades.csv"));
    assert_eq!(
        csv,
        "student,plain,prune,ply,no-move,morris-moves,morris-no-move,morris-tactics,morris-play,total\ncrash,0,0,0,0,,,,,0\nempty,0,0,0,0,,,,,0\nno-trace,0,0,0,0,,,,,0\nsilent,0,0,0,2,,,,,2\n"
    );
    assert!(stdout.contains("no-trace  "), "{stdout}");
    assert!(stdout.contains("CE 22"), "{stdout}");
    assert!(stdout.contains("RE 22"), "{stdout}");
    // The program that prints nothing and writes nothing passes exactly the no-move cases.
    let result: serde_json::Value =
        serde_json::from_str(&read(&out.join("adelaide-2021-a1/silent/result.json"))).unwrap();
    assert_eq!(result["score"], 2.0);
    assert_eq!(result["max"], 15.0);
    assert_eq!(result["build"]["language"], "python");
    let cases = result["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 22);
    let accepted: Vec<&str> = cases
        .iter()
        .filter(|c| c["verdict"] == "accepted")
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(accepted, ["x-won", "o-won", "full-draw", "x-won-pruning"]);
    assert!(!out.join("adelaide-2021-a1/.hidden").exists());
}

#[test]
fn the_suites_layout_finds_students_under_the_suite_name() {
    let dir = scratch();
    let subs = dir.path().join("submissions/adelaide-2021-a1");
    std::fs::create_dir_all(subs.join("alone")).unwrap();
    std::fs::write(subs.join("alone/tictactoe.py"), "pass\n").unwrap();
    let out = dir.path().join("results");
    grader()
        .arg("run")
        .arg(repo().join("suites"))
        .arg(dir.path().join("submissions"))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert_eq!(
        read(&out.join("adelaide-2021-a1/grades.csv")),
        "student,plain,prune,ply,no-move,morris-moves,morris-no-move,morris-tactics,morris-play,total\nalone,0,0,0,2,,,,,2\n"
    );
}

#[test]
fn nothing_to_grade_is_bad_input() {
    let dir = scratch();
    let run = grader()
        .arg("run")
        .arg(repo().join("suites"))
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("error: nothing to grade"), "{stderr}");
    assert!(
        stderr.contains("hint: lay submissions out as `SUBMISSIONS/<suite-name>/<student>/`"),
        "{stderr}"
    );
}

#[test]
fn golden_files_match_the_reference() {
    grader()
        .args(["golden", "--check"])
        .arg(repo().join("suites"))
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "ok: 32 golden files match the reference solver",
        ));
}

#[test]
fn a_stale_golden_file_fails_the_check() {
    let dir = scratch();
    let suite = dir.path().join("adelaide-2021-a1");
    std::fs::create_dir_all(suite.join("golden")).unwrap();
    for entry in std::fs::read_dir(repo().join("suites/adelaide-2021-a1/golden")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), suite.join("golden").join(entry.file_name())).unwrap();
    }
    std::fs::copy(
        repo().join("suites/adelaide-2021-a1/suite.toml"),
        suite.join("suite.toml"),
    )
    .unwrap();
    std::fs::write(
        suite.join("golden/plain-handout-example.visited"),
        "oxxxoooxx 0\n",
    )
    .unwrap();
    let run = grader()
        .args(["golden", "--check"])
        .arg(&suite)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("plain-handout-example.visited` (differs from the reference)"),
        "{stderr}"
    );
    // Writing them repairs the suite.
    grader().arg("golden").arg(&suite).assert().success();
    grader()
        .args(["golden", "--check"])
        .arg(&suite)
        .assert()
        .success();
}
