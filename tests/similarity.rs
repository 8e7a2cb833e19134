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

/// Whether `node` runs here (the stand-in Dolos of the tests below needs it, not Dolos itself).
fn node_runs() -> bool {
    std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Four students of one suite, each handing in `file` with `text`, and a stale `similarity.csv`.
fn hostile_class(dir: &Path, hand_ins: &[(&str, &str, &str)]) {
    for (student, file, text) in hand_ins {
        let sub = dir.join("subs").join(student);
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join(file), text).unwrap();
        let res = dir.join("results/s").join(student);
        std::fs::create_dir_all(&res).unwrap();
        std::fs::write(res.join("result.json"), result(student, None)).unwrap();
    }
    std::fs::write(
        dir.join("results/s/similarity.csv"),
        "kind,student,other,similarity,longest-fragment,detail\npair,old,older,99.0%,1,stale\n",
    )
    .unwrap();
}

/// `grader similarity` over `dir`'s class with the Dolos in `dolos` (the installed one when `None`)
/// under `--sandbox basic` unless `extra` says otherwise: the exit code, stderr and the CSV written.
fn similarity(dir: &Path, dolos: Option<&Path>, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut cmd = grader();
    if let Some(dolos) = dolos {
        cmd.env("GRADER_DOLOS", dolos);
    }
    let out = cmd
        .arg("similarity")
        .arg(dir.join("results/s"))
        .arg(dir.join("subs"))
        .args(if extra.contains(&"--sandbox") {
            &[][..]
        } else {
            &["--sandbox", "basic"][..]
        })
        .args(extra)
        .output()
        .unwrap();
    let csv = std::fs::read_to_string(dir.join("results/s/similarity.csv")).unwrap_or_default();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        csv,
    )
}

/// The attack of the second audit: one student's never-compiled C file with 60,000 nested parentheses
/// overflowed Dolos's parser, and no one's pairs were written. Now that file alone is left out, named
/// with why, and the copiers are still found.
#[test]
fn a_file_that_overflows_dolos_removes_only_itself() {
    if !dolos_installed() {
        eprintln!("skipped: Dolos is not installed (`grader doctor --install` installs it where Node and npm are present)");
        return;
    }
    let dir = scratch();
    let c = std::fs::read_to_string(
        repo().join("examples/submissions/adelaide-2021-a1/c-correct/tictactoe.c"),
    )
    .unwrap();
    let deep = format!(
        "int main(void) {{ return {}1{}; }}\n",
        "(".repeat(60_000),
        ")".repeat(60_000)
    );
    hostile_class(
        dir.path(),
        &[
            ("amy", "tictactoe.c", &c),
            ("bob", "main.c", &c),
            ("cat", "deep.c", &deep),
        ],
    );
    // Under `full` where the machine has it, as `grader similarity` runs by default.
    let full = grader::grade::wire::environment(grader::sandbox::Tier::Full, false).is_ok();
    let tier = if full { "full" } else { "basic" };
    let (code, stderr, csv) = similarity(dir.path(), None, &["--sandbox", tier]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(csv.contains("\npair,amy,bob,100.0%,"), "{csv}");
    assert!(
        csv.contains("\nnot-compared,cat,,,,deep.c: Dolos cannot read it: RangeError: Maximum call stack size exceeded\n"),
        "{csv}"
    );
    assert!(!csv.contains("stale"), "{csv}");
}

/// A file that kills Dolos (a crash, as a native parser's would be) or makes it run forever is found by
/// reading the files one by one, left out with why, and everyone else's pairs are written; it never
/// costs the class its similarity.
#[test]
fn files_that_crash_or_hang_dolos_are_left_out_and_the_others_compared() {
    if !node_runs() {
        eprintln!("skipped: no `node` here");
        return;
    }
    let dir = scratch();
    hostile_class(
        dir.path(),
        &[
            ("amy", "a.c", "int same;\n"),
            ("bob", "b.c", "int same;\n"),
            ("cat", "c.c", "/* CRASH */\n"),
            ("dan", "d.c", "/* SPIN */\n"),
            ("eve", "e.c", "int other;\n"),
        ],
    );
    // A class page already written is brought up to date, naming what was left out.
    std::fs::write(dir.path().join("results/s/index.html"), "old").unwrap();
    let fake = repo().join("tests/fixtures/fake-dolos");
    let (code, stderr, csv) = similarity(dir.path(), Some(&fake), &["--timeout", "2"]);
    assert_eq!(code, Some(0), "{stderr}");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[1], "pair,amy,bob,100.0%,10,a.c ~ b.c", "{csv}");
    assert_eq!(
        rows.iter().filter(|r| r.starts_with("pair,")).count(),
        3,
        "{csv}"
    );
    assert!(
        csv.contains("\nnot-compared,cat,,,,c.c: Dolos crashed (signal 11) reading it\n"),
        "{csv}"
    );
    assert!(
        csv.contains("\nnot-compared,dan,,,,d.c: Dolos ran past its 2 s reading it\n"),
        "{csv}"
    );
    assert!(!csv.contains("stale"), "{csv}");
    let page = std::fs::read_to_string(dir.path().join("results/s/index.html")).unwrap();
    assert!(
        page.contains("<a href=\"cat/report.html\">cat</a>: not compared: c.c: Dolos crashed (signal 11) reading it</li>"),
        "{page}"
    );
}

/// A Dolos that does not load is the machine's fault: exit 3, every student of the language said to
/// be not compared with why, no pair invented and no stale file left.
#[test]
fn a_broken_dolos_is_the_machines_fault_and_leaves_no_stale_csv() {
    if !node_runs() {
        eprintln!("skipped: no `node` here");
        return;
    }
    let dir = scratch();
    hostile_class(
        dir.path(),
        &[("amy", "a.c", "int same;\n"), ("bob", "b.c", "int same;\n")],
    );
    let broken = repo().join("tests/fixtures/broken-dolos");
    let (code, stderr, csv) = similarity(dir.path(), Some(&broken), &[]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(
        stderr.contains("Dolos failed on a whole language, c: Dolos failed before reading a file"),
        "{stderr}"
    );
    assert!(!csv.contains("pair,") && !csv.contains("stale"), "{csv}");
    assert!(csv.contains("\nnot-compared,amy,,,,its c files: Dolos failed before reading a file: failed (exit status 1): Error: this Dolos is broken\n"), "{csv}");
    // A run that fails before it compares anything leaves no CSV at all, never the earlier one.
    hostile_class(dir.path(), &[]);
    let gone = dir.path().join("subs-moved");
    std::fs::rename(dir.path().join("subs"), &gone).unwrap();
    let (code, _, csv) = similarity(dir.path(), Some(&broken), &[]);
    assert_eq!(code, Some(2));
    assert_eq!(csv, "");
}
