//! The HTML report: a real UT3 class run writes the class page and each student's page with game
//! replays, `grader report` rewrites them byte for byte, and headless Chromium runs the replay script.

use std::path::Path;

use crate::util::{grade_class, grader, read, repo, scratch};

/// A UT3 class of two from the shipped examples, graded with its tournament.
fn ut3_class(dir: &Path) -> std::path::PathBuf {
    let students = dir.join("students");
    for s in ["decent", "random-handout"] {
        let from = repo().join("examples/submissions/iiit-2015-ut3").join(s);
        let to = students.join(s);
        std::fs::create_dir_all(&to).unwrap();
        for f in std::fs::read_dir(&from).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
        }
    }
    grade_class(dir, &repo().join("suites/iiit-2015-ut3"), &students)
}

#[test]
fn a_class_run_writes_the_class_page_and_student_pages_that_report_rewrites_identically() {
    let dir = scratch();
    let results = ut3_class(dir.path());
    let index = read(&results.join("index.html"));
    assert!(index.contains("href=\"decent/report.html\""), "{index}");
    assert!(index.contains("<h2>Tournament: "), "{index}");
    assert!(index.contains("class=\"cross\""), "{index}");
    let page = read(&results.join("decent/report.html"));
    assert!(
        page.contains("<section class=\"game\" id=\"game-1\""),
        "{page}"
    );
    assert!(page.contains("data-frames=\""), "no replay frames");
    assert!(
        page.contains("data-s=\"+\""),
        "no allowed block highlighted"
    );
    assert!(
        !page.contains("<link") && !page.contains("src=\"http"),
        "a page fetches nothing"
    );
    assert!(page.len() < 1 << 20, "{} bytes", page.len());
    let before = (index, page);
    std::fs::remove_file(results.join("index.html")).unwrap();
    grader().arg("report").arg(&results).assert().success();
    let after = (
        read(&results.join("index.html")),
        read(&results.join("decent/report.html")),
    );
    assert!(
        before == after,
        "grader report wrote other pages than grader run"
    );
}

#[test]
fn chromium_runs_the_replay_script_on_a_student_page() {
    if std::process::Command::new("chromium")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: Chromium (`chromium`) is not installed");
        return;
    }
    let dir = scratch();
    let results = ut3_class(dir.path());
    let page = results.join("decent/report.html");
    let out = std::process::Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    // The script unhid the controls and marked the current move in the list.
    assert!(dom.contains("<div class=\"controls\">"), "{dom}");
    assert!(dom.contains("aria-current=\"step\""), "{dom}");
}
