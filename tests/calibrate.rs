//! Time limits that fit the language: `grader calibrate` writes `calibration.toml`, `run` applies it
//! (and says where a limit came from), a case near its limit is run twice, and a time-limit verdict
//! states the CPU measured. Also the one no-move rule: an empty file is writing nothing.

use std::path::{Path, PathBuf};

use crate::util::{copy_dir, grader, output_ok, read, repo, scratch};

const EXAMPLES: &str = "examples/submissions/adelaide-2021-a1";

/// A one-case Python suite: plain minimax with `o` to move (59,704 visited nodes), `cpu` its limit.
fn python_suite(root: &Path, cpu: &str) -> PathBuf {
    let suite = root.join("slow-python");
    std::fs::create_dir_all(&suite).unwrap();
    std::fs::write(
        suite.join("suite.toml"),
        format!(
            r#"title = "Plain minimax, o to move"
seed = 1

[limits]
cpu = "{cpu}"
wall = "60s"

[[languages]]
name = "python"
detect = ["tictactoe.py"]
run = ["python3", "{{dir}}/tictactoe.py"]

[[groups]]
name = "plain"
title = "Minimax"
points = 1
credit = "proportional"

[[groups.cases]]
name = "o-to-move"
visibility = "public"
args = ["x--------", "{{work}}/visited.txt"]
stdout = {{ reference = "tictactoe" }}
files."visited.txt" = {{ reference = "tictactoe", compare = "trace" }}
"#
        ),
    )
    .unwrap();
    suite
}

/// What `calibrate` would write on a machine where Python's reference needs a second on this case.
const PYTHON_CALIBRATION: &str = r#"machine = "a test machine"
date = "2026-11-24T18:00:00Z"
factor = 5.0
samples = 3
suite-cpu = "0.300s"

[languages.python]
reference = "../../examples/submissions/adelaide-2021-a1/python-correct"
heaviest-case = "plain/o-to-move"
measured-cpu = "1.000s"
cpu = "5.000s"
"#;

/// `grader run SUITE CLASS` with one student, `folder`; returns its result.json.
fn run_one(root: &Path, suite: &Path, folder: &str) -> serde_json::Value {
    let class = root.join("class");
    let _ = std::fs::remove_dir_all(&class);
    copy_dir(&repo().join(EXAMPLES).join(folder), &class.join(folder));
    let out = root.join("results");
    let _ = std::fs::remove_dir_all(&out);
    output_ok(
        grader()
            .arg("run")
            .arg(suite)
            .arg(&class)
            .arg("--out")
            .arg(&out),
    );
    let name = suite.file_name().unwrap();
    serde_json::from_str(&read(&out.join(name).join(folder).join("result.json"))).unwrap()
}

/// The seconds in "used 1.23 s of CPU time".
fn used_seconds(summary: &str) -> f64 {
    let rest = summary
        .split_once("used ")
        .unwrap_or_else(|| panic!("no measurement in `{summary}`"))
        .1;
    rest.split_once(" s of CPU time")
        .unwrap_or_else(|| panic!("no measurement in `{summary}`"))
        .0
        .parse()
        .unwrap()
}

#[test]
fn calibrate_measures_the_c_reference_and_writes_sane_limits() {
    let dir = scratch();
    let suite = dir.path().join("adelaide-2021-a1");
    copy_dir(&repo().join("suites/adelaide-2021-a1"), &suite);
    // The copy's `[calibrate]` folders, relative to the repository's suite, would point nowhere
    // (`validate` says so below): point them at the examples.
    let toml = read(&suite.join("suite.toml")).replace(
        "\"../../examples/",
        &format!("\"{}/examples/", repo().display()),
    );
    std::fs::write(suite.join("suite.toml"), toml).unwrap();
    let reference = repo().join(EXAMPLES).join("c-correct");
    let run = grader()
        .arg("calibrate")
        .arg(&suite)
        .arg("--reference")
        .arg(&reference)
        .args(["--samples", "3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let written: toml::Value = toml::from_str(&read(&suite.join("calibration.toml"))).unwrap();
    assert!(!written["machine"].as_str().unwrap().is_empty());
    let date = written["date"].as_str().unwrap();
    assert!(date.len() == 20 && date.ends_with('Z'), "{date}");
    assert_eq!(written["factor"].as_float(), Some(5.0));
    assert_eq!(written["suite-cpu"].as_str(), Some("5.000s"));
    let c = &written["languages"]["c"];
    // The plain blank board (549,945 nodes) is by far the heaviest case for any correct program.
    assert_eq!(c["heaviest-case"].as_str(), Some("plain/blank-board"));
    let measured = c["measured-cpu"].as_str().unwrap();
    let secs: f64 = measured.trim_end_matches('s').parse().unwrap();
    assert!(secs > 0.0 && secs < 5.0, "C measured {measured}");
    // 5 × well under a second stays under the suite's 5 s, which is the floor.
    assert_eq!(c["cpu"].as_str(), Some("5.000s"));
    assert_eq!(written["languages"].as_table().unwrap().len(), 1);
    // The file it wrote is one the suite then loads.
    grader().arg("validate").arg(&suite).assert().success();
}

#[test]
fn a_calibration_raises_the_python_limit_so_a_slow_correct_program_passes() {
    let dir = scratch();
    // 0.3 s: python-slow needs about 0.9 s here (three times its reference), so it is over.
    let suite = python_suite(dir.path(), "0.3s");
    let without = run_one(dir.path(), &suite, "python-slow");
    let case = &without["cases"][0];
    assert_eq!(case["verdict"], "time-limit", "{case}");
    assert_eq!(case["cpu-limit"]["ms"], 300);
    assert_eq!(case["cpu-limit"]["from"], "suite");
    // Over its limit: run a second time, and both runs are reported.
    assert_eq!(case["rerun"]["first-verdict"], "time-limit", "{case}");
    assert!(
        case["rerun"]["second-cpu-ms"].as_u64().unwrap() > 0,
        "{case}"
    );

    std::fs::write(suite.join("calibration.toml"), PYTHON_CALIBRATION).unwrap();
    let with = run_one(dir.path(), &suite, "python-slow");
    let case = &with["cases"][0];
    assert_eq!(case["verdict"], "accepted", "{case}");
    assert_eq!(case["cpu-limit"]["ms"], 5000);
    assert_eq!(case["cpu-limit"]["from"], "calibration");
    assert_eq!(with["score"], 1.0);
}

#[test]
fn a_time_limit_states_the_cpu_measured_and_the_limit() {
    let dir = scratch();
    let suite = python_suite(dir.path(), "0.3s");
    let r = run_one(dir.path(), &suite, "python-slow");
    let case = &r["cases"][0];
    let summary = case["summary"].as_str().unwrap();
    assert!(
        summary.contains("of CPU time, over the 0.3 s limit"),
        "{summary}"
    );
    let used = used_seconds(summary);
    assert!(used >= 0.3, "{summary}");
    // The number shown is the one recorded.
    let ms = case["cpu-ms"].as_u64().unwrap() as f64 / 1000.0;
    assert!((used - ms).abs() < 0.01, "{summary} vs {ms}");
}

#[test]
fn a_bad_calibration_file_is_a_located_error() {
    let dir = scratch();
    let suite = python_suite(dir.path(), "0.3s");
    std::fs::write(
        suite.join("calibration.toml"),
        PYTHON_CALIBRATION.replace("cpu = \"5.000s\"", "cpu = \"fast\""),
    )
    .unwrap();
    let run = grader().arg("validate").arg(&suite).output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("calibration.toml:11:7: bad duration `fast`"),
        "{stderr}"
    );

    std::fs::write(
        suite.join("calibration.toml"),
        PYTHON_CALIBRATION.replace("[languages.python]", "[languages.pyhton]"),
    )
    .unwrap();
    let run = grader().arg("validate").arg(&suite).output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("calibration.toml:7:12: calibrated language `pyhton` is not one of the suite's languages"),
        "{stderr}"
    );
}

#[test]
fn calibrate_refuses_a_reference_that_fails_a_case() {
    let dir = scratch();
    let suite = dir.path().join("adelaide-2021-a1");
    copy_dir(&repo().join("suites/adelaide-2021-a1"), &suite);
    let run = grader()
        .arg("calibrate")
        .arg(&suite)
        .arg("--reference")
        .arg(repo().join(EXAMPLES).join("debug-prints"))
        .args(["--samples", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot calibrate: case `plain/handout-example`"),
        "{stderr}"
    );
    assert!(!suite.join("calibration.toml").exists());
}
