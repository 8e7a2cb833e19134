//! Issue 12, parts 3 and 5: what a run leaves behind and what a program prints are hostile. A
//! `visited.txt` that is a link (to a golden file, `/etc/shadow`, `/dev/zero`), a FIFO, a folder, a hard
//! link or a 100 MB file gets its own verdict with a clear reason, costs that case only, and nothing of
//! the host reaches a result, the gradebook or the terminal; student folders whose names lossy decoding
//! would merge, a formula as a folder name and a hand-in file of mode 000 are graded as themselves.
//! Every attack runs under `grader run` (one class holding them all) and `grader check`.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use crate::util::{case, grader, read, repo, scratch};

fn suite() -> PathBuf {
    repo().join("tests/fixtures/output-files")
}

fn golden_visited() -> PathBuf {
    suite().join("golden/plain-handout-example.visited")
}

/// A Python submission: on the finished board it prints and writes nothing (right: that case is
/// accepted); on the handout's board it prints the right move and then does `attack` to `visited.txt`.
fn attacker(attack: &str) -> String {
    format!(
        r#"import os, sys
board, path = sys.argv[1], sys.argv[2]
if board == "xxxoo----":
    sys.exit(0)
print("oxxxo-oxo")
sys.stdout.flush()
{attack}
"#
    )
}

/// Each attack on `visited.txt`, and the reason the feedback must open with.
fn attacks() -> Vec<(&'static str, String, &'static str)> {
    let link = "`visited.txt` is a symbolic link; write a regular file";
    let symlink = |to: &Path| format!("os.symlink({:?}, path)", to.display().to_string());
    vec![
        ("link-golden", symlink(&golden_visited()), link),
        ("link-shadow", symlink(Path::new("/etc/shadow")), link),
        ("link-zero", symlink(Path::new("/dev/zero")), link),
        (
            "link-environ",
            symlink(Path::new("/proc/self/environ")),
            link,
        ),
        (
            "fifo",
            "os.mkfifo(path)".into(),
            "`visited.txt` is a FIFO (named pipe), not a regular file; write a regular file",
        ),
        (
            "folder",
            "os.mkdir(path)".into(),
            "`visited.txt` is a folder, not a regular file; write a regular file",
        ),
        (
            "hard-link",
            "open(path + '.real', 'w').write('oxxxooox- 0\\n')\nos.link(path + '.real', path)"
                .into(),
            "`visited.txt` is a hard link to another file; write a regular file",
        ),
    ]
}

/// Every line of the host files an attack links to that the test can read: none may appear in anything
/// the grader writes or prints. (The golden file is no secret: feedback quotes its expected lines; a link
/// to it must only earn nothing.)
fn host_secrets() -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(text) = std::fs::read_to_string("/etc/shadow") {
        out.extend(text.lines().filter(|l| l.len() > 4).map(str::to_string));
    }
    // The grader's own environment, as /proc/self/environ would show it.
    out.extend(
        std::env::vars()
            .filter(|(k, _)| k == "PATH")
            .map(|(k, v)| format!("{k}={v}")),
    );
    out
}

fn write_student(root: &Path, name: &OsStr, program: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("tictactoe.py"), program).unwrap();
    dir
}

/// Prints an ESC/OSC sequence and a 64 KiB line where the move should be.
const ESCAPES: &str = r#"import sys
if sys.argv[1] == "xxxoo----":
    sys.exit(0)
print("\x1b]0;pwned\x07\x1b[2J\x9b31m" + "A" * 65536)
"#;

fn assert_nothing_leaks(what: &str, text: &str) {
    for secret in host_secrets() {
        assert!(!text.contains(&secret), "{what} shows `{secret}`:\n{text}");
    }
    assert!(!text.contains('\x1b'), "{what} holds a raw ESC:\n{text}");
    assert!(!text.contains('\u{9b}'), "{what} holds a raw CSI:\n{text}");
    assert!(
        !text.contains(&"A".repeat(2100)),
        "{what} holds the whole 64 KiB line"
    );
}

#[test]
fn a_hostile_class_is_graded_row_by_row_and_leaks_nothing() {
    let dir = scratch();
    let students = dir.path().join("students");
    for (name, attack, _) in attacks() {
        write_student(&students, OsStr::new(name), &attacker(&attack));
    }
    write_student(
        &students,
        OsStr::new("big"),
        &attacker("f = open(path, 'wb')\nf.truncate(100 << 20)\nf.close()"),
    );
    write_student(&students, OsStr::new("escapes"), ESCAPES);
    // Lossy decoding makes both of these `bob\u{fffd}`; one passes the finished board, one crashes.
    write_student(&students, OsStr::from_bytes(b"bob\xff"), &attacker(""));
    write_student(
        &students,
        OsStr::from_bytes(b"bob\xfe"),
        "raise SystemExit(3)\n",
    );
    write_student(
        &students,
        OsStr::new("=HYPERLINK(\"evil.example\",\"y\")"),
        &attacker(""),
    );
    // A newline and an ESC in a name, and a name a spreadsheet would read as a number.
    write_student(&students, OsStr::new("two\nlines\x1b[2J"), &attacker(""));
    write_student(&students, OsStr::new("-1"), &attacker(""));
    // A program of mode 000 reading a file of another owner (mode 600) in a folder of mode 000.
    let locked = write_student(
        &students,
        OsStr::new("mode-000"),
        "import os, sys\nopen(os.path.join(os.path.dirname(__file__), 'data', 'empty.txt')).read()\nif sys.argv[1] != 'xxxoo----':\n    print('x')\n",
    );
    std::fs::create_dir(locked.join("data")).unwrap();
    let data = locked.join("data/empty.txt");
    std::fs::write(&data, "").unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o600)).unwrap();
    // Only root can give a file away; elsewhere the modes alone are tried.
    let _ = std::os::unix::fs::chown(&data, Some(4242), Some(4242));
    for (path, mode) in [
        (locked.join("data"), 0o000),
        (locked.join("tictactoe.py"), 0o000),
    ] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    let out = dir.path().join("results");
    let run = grader()
        .arg("run")
        .arg(suite())
        .arg(&students)
        .arg("--out")
        .arg(&out)
        .args(["--jobs", "2"])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_nothing_leaks("stdout", &stdout);
    assert_nothing_leaks("stderr", &stderr);
    let results = out.join("output-files");
    let load = |key: &str| -> serde_json::Value {
        let text = read(&results.join(key).join("result.json"));
        assert_nothing_leaks(key, &text);
        assert!(text.len() < 20_000, "{key}: {} bytes", text.len());
        serde_json::from_str(&text).unwrap()
    };

    for (name, _, reason) in attacks() {
        let r = load(name);
        let c = case(&r, "handout-example");
        assert_eq!(c["verdict"], "wrong-answer", "{name}: {c}");
        assert_eq!(c["credit"], 0.0, "{name}");
        assert_eq!(c["summary"], reason, "{name}");
        // The refusal costs that case only.
        assert_eq!(case(&r, "x-won")["verdict"], "accepted", "{name}");
        assert_eq!(r["score"], 1.0, "{name}");
    }
    let big = load("big");
    assert_eq!(case(&big, "handout-example")["verdict"], "wrong-answer");
    assert_eq!(case(&big, "x-won")["verdict"], "accepted");
    let escapes = load("escapes");
    assert_eq!(case(&escapes, "handout-example")["verdict"], "wrong-answer");

    // Each `bob` has its own folder and row.
    assert_eq!(load("bob%FF")["score"], 1.0);
    assert_eq!(load("bob%FE")["score"], 0.0);
    // The unreadable hand-in is copied readable: graded as the program it is.
    let locked = load("mode-000");
    assert_eq!(locked["build"]["status"], "built");
    assert_eq!(case(&locked, "x-won")["verdict"], "accepted", "{locked}");
    assert_eq!(case(&locked, "handout-example")["verdict"], "wrong-answer");

    let csv = read(&results.join("grades.csv"));
    assert_nothing_leaks("grades.csv", &csv);
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), attacks().len() + 8, "{csv}");
    assert!(rows.contains(&"two%0Alines%1B[2J,1,1"), "{csv}");
    assert!(rows.contains(&"'-1,1,1"), "{csv}");
    assert_eq!(load("two%0Alines%1B[2J")["student"], "two%0Alines%1B[2J");
    assert!(rows.contains(&"bob%FE,0,0"), "{csv}");
    assert!(rows.contains(&"bob%FF,1,1"), "{csv}");
    assert!(
        rows.contains(&"\"'=HYPERLINK(\"\"evil.example\"\",\"\"y\"\")\",1,1"),
        "{csv}"
    );
    for row in &rows {
        assert!(
            !row.starts_with(['=', '+', '-', '@']),
            "a formula reaches the gradebook: {row}"
        );
    }
}

#[test]
fn check_refuses_each_planted_file_with_its_reason_and_leaks_nothing() {
    let dir = scratch();
    for (name, attack, reason) in attacks() {
        let student = write_student(dir.path(), OsStr::new(name), &attacker(&attack));
        let run = grader()
            .arg("check")
            .arg(suite())
            .arg(&student)
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{name}: {stdout}\n{stderr}");
        assert!(
            stdout.contains(&format!("✗ plain/handout-example wrong answer: {reason}\n")),
            "{name}: {stdout}"
        );
        assert!(stdout.contains("✓ plain/x-won"), "{name}: {stdout}");
        assert_nothing_leaks(name, &stdout);
        assert_nothing_leaks(name, &stderr);
    }
}

#[test]
fn check_shows_a_program_s_escape_sequences_escaped_and_cut() {
    let dir = scratch();
    let student = write_student(dir.path(), OsStr::new("escapes"), ESCAPES);
    let run = grader()
        .arg("check")
        .arg(suite())
        .arg(&student)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("✗ plain/handout-example wrong answer"),
        "{stdout}"
    );
    assert!(stdout.contains("\\u{1b}]0;pwned"), "{stdout}");
    assert_nothing_leaks("stdout", &stdout);
    assert_nothing_leaks("stderr", &String::from_utf8_lossy(&run.stderr));
    assert!(
        stdout.lines().all(|l| l.chars().count() <= 600),
        "a line over the cap:\n{stdout}"
    );
}

/// A player whose move is an OSC title, a screen clear, a raw CSI and a line of 60 KB (just under the
/// arena's flood limit, so it is read as a move and quoted).
const ESCAPING_PLAYER: &str = r#"def move(board, side):
    return "\x1b]0;pwned\x07\x1b[2J\u009b31m" + "A" * 60000
"#;

#[test]
fn fault_reasons_quoting_a_player_are_escaped_and_cut_in_check_and_in_results() {
    let dir = scratch();
    let student = dir.path().join("students/escaper");
    std::fs::create_dir_all(&student).unwrap();
    std::fs::write(student.join("player.py"), ESCAPING_PLAYER).unwrap();
    let play = repo().join("tests/fixtures/play-ttt");
    // `check` keeps the games in a temporary folder: this test's, removed with it.
    let run = grader()
        .env("TMPDIR", dir.path())
        .arg("check")
        .arg(&play)
        .arg(&student)
        .timeout(std::time::Duration::from_secs(200))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("wrong answer"), "{stdout}");
    assert!(stdout.contains("\\x1b]0;pwned"), "{stdout}");
    assert_nothing_leaks("stdout", &stdout);
    assert_nothing_leaks("stderr", &String::from_utf8_lossy(&run.stderr));
    assert!(
        stdout.lines().all(|l| l.chars().count() <= 600),
        "a line over the cap:\n{stdout}"
    );

    let out = crate::util::grade_class(dir.path(), &play, &dir.path().join("students"));
    let text = read(&out.join("escaper/result.json"));
    assert!(text.contains("pwned"), "{text}");
    assert_nothing_leaks("result.json", &text);
}

/// A Morris program asked for one move: the right move at `step-x`, nothing at the finished board,
/// and in both `attack` on the `visited.txt` it should write.
fn morris_attacker(attack: &str) -> String {
    format!(
        r#"import os, sys
path = sys.argv[2]
if sys.argv[1] == "xx-oxo-o-":
    print("x-xoxo-o-")
sys.stdout.flush()
{attack}
"#
    )
}

#[test]
fn a_position_case_refuses_a_planted_visited_file_without_hanging_or_quoting_it() {
    let dir = scratch();
    let suite = repo().join("tests/fixtures/output-files-morris");
    let cases = [
        (
            "link-shadow",
            "os.symlink('/etc/shadow', path)",
            "`visited.txt` is a symbolic link; write a regular file",
        ),
        (
            "fifo",
            "os.mkfifo(path)",
            "`visited.txt` is a FIFO (named pipe), not a regular file; write a regular file",
        ),
    ];
    for (name, attack, reason) in cases {
        let student = dir.path().join(name);
        std::fs::create_dir_all(&student).unwrap();
        std::fs::write(student.join("tmmorris.py"), morris_attacker(attack)).unwrap();
        let run = grader()
            .arg("check")
            .arg(&suite)
            .arg(&student)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{name}: {stdout}\n{stderr}");
        for case in ["step-x", "x-won"] {
            assert!(
                stdout.contains(&format!("✗ morris/{case} wrong answer: {reason}\n")),
                "{name}: {stdout}"
            );
        }
        assert_nothing_leaks(name, &stdout);
        assert_nothing_leaks(name, &stderr);
    }
}
