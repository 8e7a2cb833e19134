//! A person's part of the grade (issue 32): `grader review`'s page in Chromium (tick a rubric item,
//! settle a `review` case, reload: both kept), the server's refusals, the marks in grades.csv and a
//! Canvas export (UT3 out of 100), two TAs' files merged with a conflict named, a spreadsheet
//! imported, and a regrade that flags marks given to code that changed since.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{copy_dir, grade_class, grader, read, repo, scratch};

/// The UT3 examples `decent` and `random-handout`, graded once: (the class folder, the results).
fn graded() -> &'static (PathBuf, PathBuf) {
    static CLASS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    CLASS.get_or_init(|| {
        let dir = scratch().keep();
        let students = dir.join("students");
        for s in ["decent", "random-handout"] {
            copy_dir(
                &repo().join("examples/submissions/iiit-2015-ut3").join(s),
                &students.join(s),
            );
        }
        let results = grade_class(&dir, &repo().join("suites/iiit-2015-ut3"), &students);
        (students, results)
    })
}

/// A copy of the graded class in `dir` (its own submissions and results), with `decent`'s
/// `legal-vs-random` case turned into one the grader could not follow (a transcript holding markup,
/// a bidirectional override and a line separator), and a link to `/etc/passwd` in its hand-in.
fn class(dir: &Path) -> (PathBuf, PathBuf) {
    let (students, results) = graded();
    let (s, r) = (dir.join("students"), dir.join("results/iiit-2015-ut3"));
    copy_dir(students, &s);
    copy_dir(results, &r);
    std::os::unix::fs::symlink("/etc/passwd", s.join("decent/passwd")).unwrap();
    let path = r.join("decent/result.json");
    let mut result: Value = serde_json::from_str(&read(&path)).unwrap();
    for c in result["cases"].as_array_mut().unwrap() {
        if c["name"] == "legal-vs-random" {
            c["verdict"] = "review".into();
            c["credit"] = 0.0.into();
            c["summary"] =
                "needs review: the grader could not follow the program in game 2 of 4".into();
            c["transcript"] =
                "Your move? <script>alert(1)</script>\u{202e}\u{2028}\u{200f}\n→ 4 4\n".into();
        }
    }
    std::fs::write(&path, result.to_string()).unwrap();
    grader().arg("report").arg(&r).assert().success();
    (s, r)
}

/// `grader review` started on a class: the child and the page's address.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(results: &Path, students: &Path, by: &str) -> Server {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("grader"))
            .arg("review")
            .arg(results)
            .arg(students)
            .args(["--by", by])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line.trim().to_string();
        assert!(
            url.starts_with("http://127.0.0.1:") && url.ends_with('/'),
            "{url}"
        );
        Server { child, url }
    }

    /// `host:port`.
    fn addr(&self) -> &str {
        self.url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap()
    }

    /// The path part of the page's address: `/TOKEN/`.
    fn base(&self) -> String {
        format!(
            "/{}/",
            self.url.trim_end_matches('/').rsplit('/').next().unwrap()
        )
    }

    /// One raw HTTP/1.1 request: (status, body).
    fn raw(&self, request: &str) -> (u16, String) {
        let mut s = TcpStream::connect(self.addr()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = text
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    fn get(&self, path: &str, host: &str) -> (u16, String) {
        self.raw(&format!(
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        ))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_server_refuses_anything_without_the_token_or_outside_the_class() {
    let dir = scratch();
    let (students, results) = class(dir.path());
    let server = Server::start(&results, &students, "ta1");
    let host = server.addr().to_string();
    let base = server.base();
    let (ok, page) = server.get(&format!("{base}s/decent"), &host);
    assert_eq!(ok, 200);
    assert!(
        page.contains("a symbolic link: not followed"),
        "the link in the hand-in is named"
    );
    for path in [
        "/".to_string(),
        "/s/decent".into(),
        "/0123456789abcdef0123456789abcdef/s/decent".into(),
        format!(
            "{}s/decent",
            base.trim_end_matches('/')
                .replace(|c: char| c.is_ascii_hexdigit(), "0")
                + "/"
        ),
        format!("{base}../../../../etc/passwd"),
        format!("{base}s/..%2F..%2F..%2Fetc%2Fpasswd"),
        format!("{base}s/nobody"),
        format!("{base}s/decent/../../manual.toml"),
        format!("{base}decent/result.json"),
        format!("{base}manual.toml"),
        "/etc/passwd".into(),
    ] {
        let (status, body) = server.get(&path, &host);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(
            !body.contains("root:") && !body.contains("decent"),
            "{path}: {body}"
        );
    }
    // The right path from a name that is not this machine's (DNS rebinding), or a save that is not
    // same-origin JSON, is refused too; nothing was saved.
    assert_eq!(
        server.get(&format!("{base}s/decent"), "evil.example:80").0,
        404
    );
    let form = format!(
        "POST {base}s/decent/mark HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    );
    assert_eq!(server.raw(&form).0, 404);
    let body = r#"{"group":"manual","items":["minimax"]}"#;
    let cross = format!(
        "POST {base}s/decent/mark HTTP/1.1\r\nHost: {host}\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    assert_eq!(server.raw(&cross).0, 404);
    assert!(!results.join("manual.toml").exists());
    // A save of an item the rubric does not have is refused with why, and saves nothing.
    let bad = r#"{"group":"manual","items":["<script>"]}"#;
    let (status, why) = server.raw(&format!(
        "POST {base}s/decent/mark HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{bad}",
        bad.len()
    ));
    assert_eq!(status, 400);
    assert!(
        why.starts_with("not saved: no item `<script>` in `manual`"),
        "{why}"
    );
    assert!(!results.join("manual.toml").exists());
}

/// Polls `expr` on the page until it is true (10 s at most).
fn wait(browser: &mut crate::cdp::Browser, expr: &str) {
    let start = Instant::now();
    while browser.eval(expr) != Value::Bool(true) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "never true: {expr}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn chromium_ticks_an_item_settles_a_review_case_and_both_are_kept_into_grades_and_canvas() {
    let Some(mut browser) = crate::cdp::Browser::launch() else {
        return;
    };
    let dir = scratch();
    let (students, results) = class(dir.path());
    let server = Server::start(&results, &students, "ta1");
    browser.goto(&server.url);
    // The first student's page: its status, the rubric, the case to settle with its transcript
    // escaped, the code highlighted.
    assert_eq!(
        browser.eval("document.querySelector('h1').textContent.startsWith('decent')"),
        true
    );
    assert_eq!(
        browser.eval("document.getElementById('status').textContent"),
        "needs review"
    );
    let transcript = browser.eval("document.querySelector('pre.transcript').textContent");
    let transcript = transcript.as_str().unwrap();
    assert!(
        transcript.contains("<script>alert(1)</script>"),
        "shown as text: {transcript}"
    );
    assert!(
        transcript.contains("\\u{202e}")
            && transcript.contains("\\u{2028}")
            && transcript.contains("\\u{200f}"),
        "{transcript}"
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('pre.src .k').length > 0"),
        true
    );
    // Key 1 ticks the first item (a basic working minimax, 30), saved at once.
    browser.press("1", 49);
    wait(
        &mut browser,
        "document.getElementById('saved').textContent === 'saved'",
    );
    assert_eq!(
        browser.eval("document.querySelector('input[data-key=\"1\"]').checked"),
        true
    );
    assert_eq!(
        browser.eval("document.querySelector('fieldset.group legend .points').textContent"),
        "30 / 60"
    );
    // The review case settled: full credit, and why.
    browser.eval("document.querySelector('input[data-credit]').value = '100'");
    browser.eval("document.querySelector('input[data-reason]').value = 'asks row then column; every move legal'");
    browser.eval("document.getElementById('saved').textContent = ''");
    browser.eval("document.querySelector('button[data-settle]').click()");
    wait(
        &mut browser,
        "document.getElementById('saved').textContent === 'saved'",
    );
    assert_eq!(
        browser.eval("document.getElementById('status').textContent"),
        "70 / 100"
    );
    // Reloaded: both kept.
    browser.goto(&format!("{}s/decent", server.url));
    assert_eq!(
        browser.eval("document.querySelector('input[data-key=\"1\"]').checked"),
        true
    );
    assert_eq!(
        browser.eval("document.querySelector('input[data-reason]').value"),
        "asks row then column; every move legal"
    );
    assert_eq!(
        browser.eval("document.querySelector('input[data-credit]').value"),
        "100"
    );
    assert_eq!(
        browser.eval("document.getElementById('status').textContent"),
        "70 / 100"
    );
    // The next student (`n`, or the link), whose marks are still to give.
    assert_eq!(
        browser.eval("document.getElementById('next').getAttribute('href')"),
        "random-handout"
    );
    browser.goto(&format!("{}s/random-handout", server.url));
    assert_eq!(
        browser.eval("document.getElementById('status').textContent"),
        "incomplete: 60 manual marks not given"
    );
    assert!(browser.errors.is_empty(), "{:?}", browser.errors);
    drop(server);
    let marks = read(&results.join("manual.toml"));
    assert!(
        marks.contains("[students.decent.groups.manual]")
            && marks.contains("items = [\"minimax\"]")
            && marks.contains("by = \"ta1\""),
        "{marks}"
    );
    assert!(
        marks.contains("[students.decent.review.\"plays-legally/legal-vs-random\"]"),
        "{marks}"
    );
    // grades.csv and Canvas: decent's 40 tournament marks and 30 manual, out of 100; the other
    // team incomplete, never exported as complete unless asked.
    let grades = read(&results.join("grades.csv"));
    assert!(
        grades.contains("\ndecent,pass,100%,40,30,100,,,70"),
        "{grades}"
    );
    assert!(
        grades.contains("\nrandom-handout,pass,50%,38,,100,,,,"),
        "{grades}"
    );
    assert!(
        grades.contains("incomplete: 60 manual marks not given"),
        "{grades}"
    );
    let canvas = dir.path().join("canvas.csv");
    let out = grader()
        .arg("export")
        .arg(&results)
        .args(["--to", "canvas", "-o"])
        .arg(&canvas)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "error: `random-handout`: incomplete: 60 manual marks not given; exported with no grade"
    ));
    let text = read(&canvas);
    assert!(text.contains("Points Possible,,,,,100\n"), "{text}");
    assert!(text.contains("decent,,,decent,,70\n"), "{text}");
    assert!(
        text.contains("random-handout,,,random-handout,,\n"),
        "{text}"
    );
    grader()
        .arg("export")
        .arg(&results)
        .args(["--to", "canvas", "--allow-incomplete", "-o"])
        .arg(&canvas)
        .assert()
        .success();
    assert!(read(&canvas).contains("random-handout,,,random-handout,,38\n"));
}

fn ta_file(dir: &Path, name: &str, items: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!(
            "suite = \"iiit-2015-ut3\"\n[students.decent.groups.manual]\nitems = [{items}]\nby = \"{name}\"\nat = \"2026-11-26T14:00:00Z\"\n\
             [students.random-handout.groups.manual]\nitems = [\"minimax\"]\nby = \"{name}\"\nat = \"2026-11-26T14:00:00Z\"\n"
        ),
    )
    .unwrap();
    path
}

#[test]
fn two_tas_files_merge_and_a_conflicting_mark_is_named_with_both_values() {
    let dir = scratch();
    let (_, results) = class(dir.path());
    let one = ta_file(dir.path(), "ta1", "\"minimax\"");
    let two = ta_file(dir.path(), "ta2", "\"minimax\", \"pruning\"");
    let out = grader()
        .args(["marks", "merge"])
        .arg(&results)
        .arg(&one)
        .arg(&two)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr
            .contains("conflict: `decent` manual: items minimax by ta1 at 2026-11-26T14:00:00Z (")
            && stderr.contains("/ items minimax, pruning by ta2 at 2026-11-26T14:00:00Z ("),
        "{stderr}"
    );
    // The mark both gave alike is in; the one in conflict is in neither, so that row waits.
    let grades = read(&results.join("grades.csv"));
    assert!(
        grades.contains("\nrandom-handout,pass,50%,38,30,100,,,68"),
        "{grades}"
    );
    let decent = grades.lines().find(|l| l.starts_with("decent,")).unwrap();
    assert!(decent.contains(",40,,100,"), "{grades}");
    // A file that is not a marks file is named with its line.
    std::fs::write(dir.path().join("bad.toml"), "suite = \"iiit-2015-ut3\"\n[students.decent.groups.manual]\nitems = [\"minimax\"]\nby = \"ta3\"\nat = \"tuesday\"\n").unwrap();
    let out = grader()
        .args(["marks", "merge"])
        .arg(&results)
        .arg(dir.path().join("bad.toml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("bad.toml:5:6: `students.decent.groups.manual.at`: `tuesday` is not a time"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_spreadsheet_imports_and_a_regrade_flags_marks_given_to_code_that_changed() {
    let dir = scratch();
    let (students, results) = class(dir.path());
    let sheet = dir.path().join("marks.csv");
    std::fs::write(
        &sheet,
        "student,manual,manual-comment\ndecent,45,clean alpha-beta\nrandom-handout,,\nnobody,3,\n",
    )
    .unwrap();
    let out = grader()
        .args(["marks", "import"])
        .arg(&results)
        .arg(&sheet)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("marks.csv`:4: `nobody` has no result in this class"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(
        &sheet,
        "student,manual-items\ndecent,minimax;pruning\nrandom-handout,minimax\n",
    )
    .unwrap();
    grader()
        .args(["marks", "import", "--by", "head-ta"])
        .arg(&results)
        .arg(&sheet)
        .assert()
        .success();
    let grades = read(&results.join("grades.csv"));
    assert!(
        grades.contains("\nrandom-handout,pass,50%,38,30,100,,,68"),
        "{grades}"
    );
    // decent's hand-in changes; the class is graded again: random-handout keeps its marks, decent's
    // are flagged and its total waits for a person to check them.
    let ai = std::fs::read_dir(students.join("decent"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "py"))
        .unwrap();
    let mut code = read(&ai);
    code.push_str("\n# resubmitted\n");
    std::fs::write(&ai, code).unwrap();
    let out = grader()
        .arg("run")
        .arg(repo().join("suites/iiit-2015-ut3"))
        .arg(&students)
        .arg("--out")
        .arg(results.parent().unwrap())
        .args(["--jobs", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("`decent`: `manual`: the code changed since head-ta marked it"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("`random-handout`: `manual`: the code changed"),
        "{stderr}"
    );
    let grades = read(&results.join("grades.csv"));
    assert!(
        grades.contains("\nrandom-handout,pass,50%,38,30,100,,,68"),
        "{grades}"
    );
    assert!(
        grades.contains("incomplete: `manual`: the code changed since head-ta marked it"),
        "{grades}"
    );
}
