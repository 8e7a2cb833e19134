//! The `review` verdict (a case the grader could not follow, waiting for a person) through every
//! place a verdict goes: grades.csv is pinned in `report::csv`'s unit tests; here the class page, the
//! student's page with its transcript, `grader report`, every export (never a zero) and the exit code.

use std::path::Path;

use serde_json::Value;

use crate::util::{copy_dir, grader, read, scratch};

/// A class of two from the WPI examples' results: `python-correct` as graded, and `puzzled`, the same
/// result with its `opening` case turned into one the grader could not follow, with a transcript
/// holding markup and a terminal escape.
fn class(dir: &Path) -> std::path::PathBuf {
    let graded = crate::wpi::graded();
    let results = dir.join("wpi-2000-ttt");
    copy_dir(
        &graded.join("python-correct"),
        &results.join("python-correct"),
    );
    copy_dir(&graded.join("python-correct"), &results.join("puzzled"));
    let path = results.join("puzzled/result.json");
    let mut r: Value = serde_json::from_str(&read(&path)).unwrap();
    r["student"] = "puzzled".into();
    for c in r["cases"].as_array_mut().unwrap() {
        if c["name"] == "opening" {
            c["verdict"] = "review".into();
            c["credit"] = 0.0.into();
            c["summary"] = "needs review: the grader could not follow the program before the first move in games 1–10 of 10: it asked a question the grader could not answer; this case is not scored until a person reads the dialogue".into();
            c["transcript"] = "Pick a symbol <script>alert(1)</script>\u{1b}[2J\n→ X\n".into();
        }
    }
    std::fs::write(&path, r.to_string()).unwrap();
    results
}

#[test]
fn a_review_case_is_shown_whole_and_exported_with_no_score_anywhere() {
    let dir = scratch();
    let results = class(dir.path());
    grader().arg("report").arg(&results).assert().success();
    let page = read(&results.join("puzzled/report.html"));
    assert!(page.contains("needs review"), "the verdict's words");
    assert!(
        page.contains("Pick a symbol &lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J\n→ X"),
        "the transcript, escaped: {}",
        &page[page.find("Pick a symbol").unwrap_or(0)..][..200.min(page.len())]
    );
    assert!(
        !page.contains("<script>alert"),
        "no markup from the program"
    );
    let index = read(&results.join("index.html"));
    assert!(
        index.contains(">review</td>"),
        "the class page's score cell"
    );

    let formats: [(&str, &[&str]); 6] = [
        ("gradescope", &[]),
        ("prairielearn", &[]),
        ("autolab", &[]),
        ("canvas", &[]),
        ("moodle", &[]),
        ("junit", &[]),
    ];
    for (format, args) in formats {
        let out = dir.path().join(format!("out-{format}"));
        let run = grader()
            .arg("export")
            .arg(&results)
            .args(["--to", format, "-o"])
            .arg(&out)
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(3), "{format}: {stderr}");
        assert!(
            stderr.contains("warning: `puzzled`: needs review: interface/opening: the grader could not follow the program")
                && stderr.contains("exported with no score (never a zero)"),
            "{format}: {stderr}"
        );
        let all = every_file(&out);
        match format {
            // No results file at all: Gradescope shows a failed autograder, never a score.
            "gradescope" => assert!(!out.join("puzzled").exists(), "{all}"),
            "prairielearn" => {
                let pl: Value =
                    serde_json::from_str(&read(&out.join("puzzled/results.json"))).unwrap();
                assert_eq!(pl["gradable"], false, "{pl}");
            }
            "canvas" => assert!(
                all.lines()
                    .any(|l| l.contains("puzzled") && l.ends_with(',')),
                "a blank grade: {all}"
            ),
            "moodle" => assert!(
                all.lines().any(|l| l.starts_with("puzzled,,")),
                "a blank grade: {all}"
            ),
            "autolab" => {
                let text = read(&out.join("puzzled/output.txt"));
                let last = text.lines().last().unwrap();
                assert!(
                    serde_json::from_str::<Value>(last).is_err(),
                    "no scores line: {text}"
                );
            }
            "junit" => assert!(
                all.contains("<error") && all.contains("needs review"),
                "an error, not a failure: {all}"
            ),
            _ => unreachable!(),
        }
    }
}

/// Every file under `dir` (or `dir` itself), as one text.
fn every_file(dir: &Path) -> String {
    if dir.is_file() {
        return read(dir);
    }
    let mut out = String::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        out.push_str(&every_file(&e.path()));
    }
    out
}
