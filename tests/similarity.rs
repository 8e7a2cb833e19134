//! `grader similarity`: Dolos ranks two near-copies above unrelated hand-ins, and a submission the
//! integrity check flagged is listed. Skipped, with the reason printed, where Dolos is not installed.

use std::path::Path;

use crate::util::{grader, repo, scratch};

/// A `result.json` as `grader run` writes it, with or without an integrity note.
fn result(student: &str, note: Option<&str>) -> String {
    let integrity = note
        .map(|n| format!(r#", "integrity": [{{"case": "plain/blank-board", "what": "{n}"}}]"#))
        .unwrap_or_default();
    format!(
        r#"{{"suite": "s", "student": "{student}", "sandbox": "none",
            "build": {{"status": "built", "language": "c", "log": "", "wall-ms": 0}},
            "cases": [], "groups": [], "score": 0.0, "max": 0.0{integrity}}}"#
    )
}

fn class(dir: &Path) {
    let examples = repo().join("examples/submissions/adelaide-2021-a1");
    let c = std::fs::read_to_string(examples.join("c-correct/tictactoe.c")).unwrap();
    let hand_ins: [(&str, &str, String); 4] = [
        ("amy", "tictactoe.c", c.clone()),
        // A near-copy: renamed and with a comment added.
        (
            "bob",
            "main.c",
            format!("/* my own work */\n{}", c.replace("best", "top")),
        ),
        (
            "cat",
            "tmmorris.c",
            std::fs::read_to_string(examples.join("morris-c/tmmorris.c")).unwrap(),
        ),
        (
            "dan",
            "tictactoe.py",
            std::fs::read_to_string(examples.join("python-correct/tictactoe.py")).unwrap(),
        ),
    ];
    for (student, file, text) in &hand_ins {
        let sub = dir.join("subs").join(student);
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join(file), text).unwrap();
        let res = dir.join("results/s").join(student);
        std::fs::create_dir_all(&res).unwrap();
        let note = (*student == "dan").then_some("the output changed with the file's name");
        std::fs::write(res.join("result.json"), result(student, note)).unwrap();
    }
}

/// Whether Dolos is where `grader similarity` looks for it (`$GRADER_DOLOS`, else the default
/// folder; a test machine sets no `XDG_DATA_HOME`).
fn dolos_installed() -> bool {
    let dir = std::env::var_os("GRADER_DOLOS")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(|h| std::path::PathBuf::from(h).join(".local/share/grader/dolos"))
        });
    dir.is_some_and(|d| {
        d.join("node_modules/@dodona/dolos-lib/package.json")
            .is_file()
    }) && std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok()
}

#[test]
fn near_copies_rank_above_unrelated_hand_ins() {
    if !dolos_installed() {
        eprintln!("skipped: Dolos is not installed (`grader doctor --install` installs it where Node and npm are present)");
        return;
    }
    let dir = scratch();
    class(dir.path());
    let out = grader()
        .arg("similarity")
        .arg(dir.path().join("results/s"))
        .arg(dir.path().join("subs"))
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let csv = std::fs::read_to_string(dir.path().join("results/s/similarity.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "kind,student,other,similarity,longest-fragment,detail"
    );
    assert!(rows[1].starts_with("pair,amy,bob,"), "{csv}");
    let similarity = |row: &str| -> f64 {
        row.split(',')
            .nth(3)
            .unwrap()
            .trim_end_matches('%')
            .parse()
            .unwrap()
    };
    assert!(similarity(rows[1]) > 90.0, "{csv}");
    // The unrelated C hand-in is far below; the Python one is compared with no C file.
    assert!(
        rows[2..]
            .iter()
            .filter(|r| r.starts_with("pair,"))
            .all(|r| similarity(r) < 60.0),
        "{csv}"
    );
    assert!(!csv.contains("pair,amy,dan"), "{csv}");
    assert_eq!(
        rows.last().unwrap(),
        &"path-dependent,dan,,,,plain/blank-board: the output changed with the file's name"
    );
    assert!(
        stdout.contains("   1 ") && stdout.contains("amy ~ bob"),
        "{stdout}"
    );
}

#[test]
fn without_dolos_it_says_why_and_still_lists_path_dependent_hand_ins() {
    let dir = scratch();
    class(dir.path());
    let out = grader()
        .env("GRADER_DOLOS", dir.path().join("no-dolos-here"))
        .arg("similarity")
        .arg(dir.path().join("results/s"))
        .arg(dir.path().join("subs"))
        .assert()
        .code(3)
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("similarity skipped: "), "{stderr}");
    assert!(
        stderr.contains("hint: `grader doctor --install`"),
        "{stderr}"
    );
    let csv = std::fs::read_to_string(dir.path().join("results/s/similarity.csv")).unwrap();
    assert_eq!(
        csv,
        "kind,student,other,similarity,longest-fragment,detail\npath-dependent,dan,,,,plain/blank-board: the output changed with the file's name\n"
    );
}

#[test]
fn a_folder_without_results_is_bad_input() {
    let dir = scratch();
    grader()
        .arg("similarity")
        .arg(dir.path())
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no `<student>/result.json` in"));
}
