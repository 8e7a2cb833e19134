//! A whole class of hostile hand-ins graded by one `grader run`: every attack on the grader's own doors
//! (files it reads back, trees it removes, names it writes, text it prints, its argv and environment) in
//! one class, with a correct hand-in graded after them. The run must finish, write every row, give each
//! attacker its own verdict, and let nothing of the host into any result, record or message.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use crate::attackers::attackers;
use crate::util::{grader, repo, scratch};

/// A secret the grader's own command line (a `--config` path it never prints) and environment carry: no
/// run may learn it.
const SECRET: &str = "argv-secret-7f3a91";

/// Every file below `dir` (no links followed), as bytes, for leak checks.
fn all_files(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let meta = std::fs::symlink_metadata(entry.path()).unwrap();
        assert!(
            !meta.file_type().is_symlink(),
            "a link in the results: {}",
            entry.path().display()
        );
        if meta.is_dir() {
            all_files(&entry.path(), out);
        } else {
            out.push((entry.path(), std::fs::read(entry.path()).unwrap()));
        }
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn a_class_of_attackers_is_graded_and_nothing_of_the_host_leaks() {
    let dir = scratch();
    let students = dir.path().join("class");
    std::fs::create_dir_all(&students).unwrap();
    let golden = repo().join("suites/adelaide-2021-a1/golden/prune-blank-board.visited");
    for (name, program) in attackers() {
        let folder = students.join(OsStr::from_bytes(name));
        std::fs::create_dir_all(&folder).unwrap();
        let program = program.replace("{golden}", golden.to_str().unwrap());
        std::fs::write(folder.join("tictactoe.py"), program).unwrap();
    }
    // A correct hand-in whose file the student left unreadable (mode 000), graded after every attacker.
    let good = students.join("zz-good-but-mode-000");
    std::fs::create_dir_all(&good).unwrap();
    std::fs::copy(
        repo().join("examples/submissions/adelaide-2021-a1/python-correct/tictactoe.py"),
        good.join("tictactoe.py"),
    )
    .unwrap();
    std::fs::set_permissions(
        good.join("tictactoe.py"),
        std::fs::Permissions::from_mode(0o0),
    )
    .unwrap();
    let before: Vec<(PathBuf, Vec<u8>)> = {
        let mut v = Vec::new();
        all_files(&students, &mut v);
        v
    };

    let out = dir.path().join("results");
    let config = dir.path().join(format!("grader-{SECRET}.toml"));
    std::fs::write(&config, "[run]\njobs = 2\n").unwrap();
    let run = grader()
        .arg("run")
        .arg(repo().join("suites/adelaide-2021-a1"))
        .arg(&students)
        .arg("--out")
        .arg(&out)
        .arg("--config")
        .arg(&config)
        .env("GRADER_TEST_SECRET", SECRET)
        // A grader that hangs on a planted FIFO must fail this test, not hang it.
        .timeout(std::time::Duration::from_secs(900))
        .output()
        .unwrap();
    let suite_out = out.join("adelaide-2021-a1");

    // The run finished and wrote a row for every student.
    let csv = std::fs::read(suite_out.join("grades.csv")).expect("grades.csv written");
    let csv_text = String::from_utf8_lossy(&csv).into_owned();
    let rows: Vec<&str> = csv_text.lines().skip(1).collect();
    assert_eq!(
        rows.len(),
        attackers().len() + 1,
        "one row per student:\n{csv_text}\nstderr: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        run.status.code() == Some(0) || run.status.code() == Some(1),
        "exit {:?}: {}",
        run.status.code(),
        String::from_utf8_lossy(&run.stderr)
    );

    // The two names that differ only in invalid bytes are two rows, two result folders.
    let bad: Vec<&&str> = rows.iter().filter(|r| r.contains("bad-name-")).collect();
    assert_eq!(bad.len(), 2, "{csv_text}");
    assert_ne!(bad[0].split(',').next(), bad[1].split(',').next());
    // A formula in a folder name is neutralised: no cell starts with `=`.
    for row in &rows {
        for cell in row.split(',') {
            let cell = cell.trim_start_matches('"');
            assert!(
                !cell.starts_with('='),
                "a formula cell in grades.csv: {row}"
            );
        }
    }

    // Every attacker got nothing for the traces: a link, a FIFO, a folder is never read as a trace.
    let score = |row: &str| -> f64 {
        row.rsplit(',')
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap_or(0.0)
    };
    for row in &rows {
        if row.starts_with("link-") || row.starts_with("fifo") || row.starts_with("folder-") {
            assert!(score(row) <= 2.0, "an attacker scored: {row}");
        }
    }
    // The correct hand-in after them all got full marks, its unreadable file notwithstanding.
    let good_row = rows
        .iter()
        .find(|r| r.starts_with("zz-good"))
        .expect("the good student's row");
    assert_eq!(score(good_row), 15.0, "{csv_text}");

    // The sleeper was stopped at the idle limit in its one case, long before the 30 s wall limit.
    let slept = std::fs::read_to_string(suite_out.join("sleeps/result.json")).unwrap();
    assert!(slept.contains("\"verdict\": \"idle\""), "{slept}");
    assert!(slept.contains("used no CPU for 2"), "{slept}");

    // The link attackers' feedback names the link, not the file behind it.
    let result = std::fs::read_to_string(suite_out.join("link-golden/result.json")).unwrap();
    assert!(result.contains("symbolic link"), "{result}");

    // Nothing of the host in any result, record or message: not the shadow file, not the golden trace
    // behind the link (its 18,296 lines), not the grader's argv or environment, no raw escape byte.
    let mut outputs = Vec::new();
    all_files(&out, &mut outputs);
    outputs.push(("stdout".into(), run.stdout.clone()));
    outputs.push(("stderr".into(), run.stderr.clone()));
    let shadow_first = std::fs::read_to_string("/etc/shadow")
        .ok()
        .and_then(|s| s.lines().next().map(str::to_owned))
        .unwrap_or_default();
    let golden_text = std::fs::read_to_string(&golden).unwrap();
    let golden_tail: Vec<&str> = golden_text.lines().rev().take(3).collect();
    for (path, bytes) in &outputs {
        let where_ = path.display();
        assert!(
            !contains(bytes, SECRET.as_bytes()),
            "the grader's argv or environment leaked into {where_}"
        );
        assert!(
            !contains(bytes, shadow_first.as_bytes()),
            "/etc/shadow leaked into {where_}"
        );
        for line in &golden_tail {
            assert!(
                !contains(bytes, format!("\n{line}\n").as_bytes()),
                "the golden trace leaked into {where_}"
            );
        }
        assert!(!contains(bytes, b"\x1b"), "a raw ESC reached {where_}");
        assert!(
            bytes.split(|&b| b == b'\n').all(|l| l.len() < 16 << 10),
            "a line over 16 KiB in {where_}"
        );
    }

    // The students' folders are as they were (the grader worked on copies).
    let mut after = Vec::new();
    all_files(&students, &mut after);
    assert_eq!(before, after, "a student's folder changed");
}
