//! `grader export`: a class graded by `grader run`, then exported to every format and checked against
//! each platform's published schema (written down in each test, with the page it comes from).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::util::{grade_class, grader, read, repo, scratch};

const SUITE: &str = "suites/adelaide-2021-a1";
/// The suite's groups (suite.toml), the names Autolab's scores must use.
const GROUPS: [&str; 8] = [
    "plain",
    "prune",
    "ply",
    "no-move",
    "morris-moves",
    "morris-no-move",
    "morris-tactics",
    "morris-play",
];

/// A class graded once: `python-correct` (the shipped example, 15/15), `silent` (2/15), `crash`,
/// `hostile` (prints markup, a formula and terminal escapes), and `lost`: `silent`'s result made
/// `not-graded` (the machine lacked its toolchain) the way `grader run --allow-missing` writes one
/// (the build and every case `not-graded`), as no toolchain can be counted on to be missing here.
fn graded() -> &'static Path {
    static RESULTS: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, results) = RESULTS.get_or_init(|| {
        let dir = scratch();
        let class = dir.path().join("class");
        let write = |student: &str, program: &str| {
            std::fs::create_dir_all(class.join(student)).unwrap();
            std::fs::write(class.join(student).join("tictactoe.py"), program).unwrap();
        };
        let correct =
            read(&repo().join("examples/submissions/adelaide-2021-a1/python-correct/tictactoe.py"));
        write("python-correct", &correct);
        write("silent", "pass\n");
        write("crash", "raise SystemExit(3)\n");
        write(
            "hostile",
            "print('=HYPERLINK(\"x\")</failure>]]><b>&amp;\\x1b[2J\\x07')\n",
        );
        let results = grade_class(dir.path(), &repo().join(SUITE), &class);
        let mut lost: Value =
            serde_json::from_str(&read(&results.join("silent/result.json"))).unwrap();
        lost["student"] = "lost".into();
        lost["build"]["status"] = "not-graded".into();
        lost["build"]["log"] = "`python3` not found on this machine".into();
        lost["score"] = 0.0.into();
        for c in lost["cases"].as_array_mut().unwrap() {
            c["verdict"] = "not-graded".into();
            c["credit"] = 0.0.into();
            c["summary"] = "not graded: `python3` not found on this machine".into();
            c["details"] = Value::Array(Vec::new());
        }
        for g in lost["groups"].as_array_mut().unwrap() {
            g["points"] = 0.0.into();
            g["passed"] = 0.into();
        }
        std::fs::create_dir_all(results.join("lost")).unwrap();
        std::fs::write(results.join("lost/result.json"), lost.to_string()).unwrap();
        (dir, results)
    });
    results
}

/// Every student but `hostile` (left out to test an unmatched folder); `absent` handed nothing in.
const ROSTER: &str = "folder,id,login,email,name,section\n\
python-correct,1001,pc,pc@uni.edu,\"Correct, Pat\",A\n\
silent,1002,si,si@uni.edu,=cmd|' /C calc'!A0,B\n\
crash,1003,cr,,Cr Ash,A\n\
lost,1004,lo,lo@uni.edu,Lost Lo,B\n\
absent,1005,ab,ab@uni.edu,Ab Sent,A\n";

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    out: PathBuf,
    _dir: tempfile::TempDir,
}

/// `grader export RESULTS --to FORMAT -o OUT [ARGS]` into a fresh folder (unless `ARGS` has `-o`), with `roster` when given.
fn export(format: &str, roster: Option<&str>, args: &[&str]) -> Run {
    let dir = scratch();
    let out = dir.path().join(format!("out-{format}"));
    let mut cmd = grader();
    cmd.arg("export").arg(graded()).args(["--to", format]);
    if !args.contains(&"-o") {
        cmd.arg("-o").arg(&out);
    }
    if let Some(text) = roster {
        let path = dir.path().join("roster.csv");
        std::fs::write(&path, text).unwrap();
        cmd.arg("--roster").arg(path);
    }
    let run = cmd.args(args).output().unwrap();
    Run {
        code: run.status.code(),
        stdout: String::from_utf8_lossy(&run.stdout).into(),
        stderr: String::from_utf8_lossy(&run.stderr).into(),
        out,
        _dir: dir,
    }
}

fn result(student: &str) -> Value {
    serde_json::from_str(&read(&graded().join(student).join("result.json"))).unwrap()
}

/// Checks that `object` has every key of `required`, and no key outside `required` and `optional`.
#[track_caller]
fn keys(object: &Value, required: &[&str], optional: &[&str]) {
    let map = object
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {object}"));
    for k in required {
        assert!(map.contains_key(*k), "`{k}` missing from {object}");
    }
    for k in map.keys() {
        assert!(
            required.contains(&k.as_str()) || optional.contains(&k.as_str()),
            "`{k}` is not in the schema: {object}"
        );
    }
}

#[track_caller]
fn no_terminal_escapes(text: &str) {
    assert!(!text.contains(['\x1b', '\x07', '\u{9b}']), "{text:?}");
}

/// Gradescope's autograder output (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>,
/// "Output format"): top level `score` (number), `execution_time` (seconds), `output`,
/// `output_format`, `tests`, `leaderboard`, optional `visibility`, `stdout_visibility`, `extra_data`,
/// `test_output_format`, `test_name_format`; each test `score`, `max_score`, `status` (`passed` or
/// `failed`), `name`, `number` (a string), `output`, `output_format` and `visibility` (`hidden`,
/// `after_due_date`, `after_published`, `visible`), `tags` (strings); output formats `text`, `html`,
/// `simple_format`, `md`, `ansi`.
#[test]
fn gradescope_results_follow_the_autograder_schema() {
    const FORMATS: [&str; 5] = ["text", "html", "simple_format", "md", "ansi"];
    const SHOWN: [&str; 4] = ["hidden", "after_due_date", "after_published", "visible"];
    let run = export("gradescope", None, &[]);
    // `lost` was not graded: no results.json (Gradescope reports a failed autograder, not a 0).
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert!(
        run.stderr.contains("warning: `lost`: not graded: `python3` not found on this machine; exported with no score (never a zero)"),
        "{}",
        run.stderr
    );
    assert!(!run.out.join("lost").exists());
    for student in ["python-correct", "silent", "crash", "hostile"] {
        let text = read(&run.out.join(student).join("results.json"));
        no_terminal_escapes(&text);
        let json: Value = serde_json::from_str(&text).unwrap();
        keys(
            &json,
            &["score", "tests"],
            &[
                "execution_time",
                "output",
                "output_format",
                "test_output_format",
                "test_name_format",
                "visibility",
                "stdout_visibility",
                "extra_data",
                "leaderboard",
            ],
        );
        assert!(json["execution_time"].is_u64());
        assert!(FORMATS.contains(&json["output_format"].as_str().unwrap()));
        let own = result(student);
        assert_eq!(json["score"], own["score"], "{student}");
        let tests = json["tests"].as_array().unwrap();
        assert_eq!(tests.len(), own["cases"].as_array().unwrap().len());
        let mut sum = 0.0;
        let mut most = 0.0;
        for t in tests {
            keys(
                t,
                &["name", "max_score"],
                &[
                    "score",
                    "status",
                    "number",
                    "output",
                    "output_format",
                    "tags",
                    "visibility",
                    "extra_data",
                    "name_format",
                ],
            );
            assert!(["passed", "failed"].contains(&t["status"].as_str().unwrap()));
            assert!(SHOWN.contains(&t["visibility"].as_str().unwrap()));
            assert!(FORMATS.contains(&t["output_format"].as_str().unwrap()));
            assert!(t["number"].is_string() && t["output"].is_string());
            assert!(t["tags"].as_array().unwrap().iter().all(Value::is_string));
            sum += t["score"].as_f64().unwrap();
            most += t["max_score"].as_f64().unwrap();
        }
        // The cases' shares add up to the score and the most a student could get.
        assert!(
            (sum - own["score"].as_f64().unwrap()).abs() < 0.01,
            "{student}: {sum}"
        );
        assert!(
            (most - own["max"].as_f64().unwrap()).abs() < 0.01,
            "{student}: {most}"
        );
    }
    let correct: Value =
        serde_json::from_str(&read(&run.out.join("python-correct/results.json"))).unwrap();
    assert_eq!(correct["score"], 15.0);
    let first = &correct["tests"][0];
    assert_eq!(first["name"], "plain/handout-example");
    assert_eq!(first["number"], "1.1");
    assert_eq!(first["status"], "passed");
    assert_eq!(first["visibility"], "visible");
    let hidden = |json: &Value| -> Vec<String> {
        let tests = json["tests"].as_array().unwrap();
        let cases = result("python-correct")["cases"]
            .as_array()
            .unwrap()
            .clone();
        tests
            .iter()
            .zip(cases)
            .filter(|(_, c)| c["visibility"] == "hidden")
            .map(|(t, _)| t["visibility"].as_str().unwrap().to_string())
            .collect()
    };
    let default = hidden(&correct);
    assert!(!default.is_empty() && default.iter().all(|v| v == "after_published"));
    // Configurable: `--hidden-as`.
    let due = export("gradescope", None, &["--hidden-as", "after-due-date"]);
    let json: Value =
        serde_json::from_str(&read(&due.out.join("python-correct/results.json"))).unwrap();
    assert!(hidden(&json).iter().all(|v| v == "after_due_date"));
    // A group with no program in the hand-in (Three Men's Morris) is said, not scored.
    assert!(
        correct["output"]
            .as_str()
            .unwrap()
            .contains("morris-moves: not attempted"),
        "{correct}"
    );
}

/// PrairieLearn's external grading results (<https://prairielearn.readthedocs.io/en/latest/externalGrading/>,
/// "Grading results"): `gradable` (boolean), `score` in [0, 1], `format_errors` (a string or strings),
/// `message`, `output`, `images`; each test `name`, `description`, `points`, `max_points`, `message`,
/// `output`, `images`; the file under 1 MB.
#[test]
fn prairielearn_results_follow_the_external_grading_schema() {
    let run = export("prairielearn", None, &[]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    for student in ["python-correct", "silent", "crash", "hostile", "lost"] {
        let text = read(&run.out.join(student).join("results.json"));
        assert!(text.len() < 1_000_000);
        no_terminal_escapes(&text);
        let json: Value = serde_json::from_str(&text).unwrap();
        keys(
            &json,
            &["gradable"],
            &[
                "score",
                "format_errors",
                "message",
                "output",
                "images",
                "tests",
            ],
        );
        for t in json["tests"].as_array().unwrap() {
            keys(
                t,
                &["name"],
                &[
                    "description",
                    "points",
                    "max_points",
                    "message",
                    "output",
                    "images",
                ],
            );
            assert!(t["points"].as_f64().unwrap() <= t["max_points"].as_f64().unwrap() + 1e-9);
        }
        if student == "lost" {
            // The machine's fault: not gradable, why, and no score at all (never a zero).
            assert_eq!(json["gradable"], false);
            assert!(json.get("score").is_none(), "{json}");
            assert_eq!(
                json["format_errors"],
                serde_json::json!(["not graded: `python3` not found on this machine"])
            );
            continue;
        }
        assert_eq!(json["gradable"], true);
        let own = result(student);
        let want = own["score"].as_f64().unwrap() / own["max"].as_f64().unwrap();
        let score = json["score"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&score));
        assert!((score - want).abs() < 1e-4, "{student}: {score} vs {want}");
    }
}

/// Autolab's autograder output (<https://docs.autolabproject.com/lab/>, "Writing autograders"): the
/// last line of output is `{"scores": {"<problem>": number, …}, "scoreboard": [value, …]}`, the
/// problems named as the assessment's (here the suite's groups).
#[test]
fn autolab_output_ends_with_the_autoresult_line() {
    let run = export("autolab", None, &[]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    for student in ["python-correct", "silent", "crash", "hostile"] {
        let text = read(&run.out.join(student).join("output.txt"));
        no_terminal_escapes(&text);
        let last = text.lines().last().unwrap();
        let json: Value = serde_json::from_str(last).unwrap();
        keys(&json, &["scores"], &["scoreboard"]);
        let own = result(student);
        let mut total = 0.0;
        for (problem, points) in json["scores"].as_object().unwrap() {
            assert!(GROUPS.contains(&problem.as_str()), "{problem}");
            total += points.as_f64().unwrap();
        }
        assert!(
            (total - own["score"].as_f64().unwrap()).abs() < 0.01,
            "{student}"
        );
        let board = json["scoreboard"].as_array().unwrap();
        assert_eq!(board[0], own["score"]);
        assert!(board.iter().all(|v| v.is_number() || v.is_null()));
    }
    let correct = read(&run.out.join("python-correct/output.txt"));
    assert!(
        correct.ends_with(
            "{\"scoreboard\":[15.0,5.0,5.0,3.0,2.0],\"scores\":{\"no-move\":2.0,\"plain\":5.0,\"ply\":3.0,\"prune\":5.0}}\n"
        ),
        "{correct}"
    );
    // Not graded: the reason, and no autoresult (Autolab reports the autograder's failure, not a 0).
    let lost = read(&run.out.join("lost/output.txt"));
    let last = lost.lines().last().unwrap();
    assert!(serde_json::from_str::<Value>(last).is_err(), "{lost}");
    assert!(
        last.starts_with("not graded: `python3` not found"),
        "{lost}"
    );
}

/// Canvas's gradebook import (Canvas guide "How do I import grades in the Gradebook?"): a header
/// `Student,ID,SIS User ID,SIS Login ID,Section,<assignment>`, a `Points Possible` row, then one row
/// per student; a blank grade leaves the grade unchanged.
#[test]
fn canvas_csv_keys_on_the_roster_and_reports_the_unmatched() {
    let run = export(
        "canvas",
        Some(ROSTER),
        &["--assignment", "A1 (tic-tac-toe)"],
    );
    // `hostile` is not in the roster: no identity, no row, a failed export.
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("error: unmatched: `hostile` is not in the roster"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("note: `absent` is in the roster but has no result"),
        "{}",
        run.stderr
    );
    assert_eq!(
        read(&run.out),
        "Student,ID,SIS User ID,SIS Login ID,Section,A1 (tic-tac-toe)\n\
         Points Possible,,,,,15\n\
         Cr Ash,,1003,cr,A,0\n\
         Lost Lo,,1004,lo,B,\n\
         \"Correct, Pat\",,1001,pc,A,15\n\
         '=cmd|' /C calc'!A0,,1002,si,B,2\n\
         Ab Sent,,1005,ab,A,\n"
    );
    // Without a roster, every folder is a row, by its name; the one file can go to stdout.
    let plain = export("canvas", None, &["-o", "-"]);
    assert_eq!(plain.code, Some(3), "{}", plain.stderr);
    assert!(plain.stdout.starts_with("Student,ID,SIS User ID,SIS Login ID,Section,adelaide-2021-a1\nPoints Possible,,,,,15\n"), "{}", plain.stdout);
    assert!(
        plain.stdout.contains("\nhostile,,,hostile,,0\n"),
        "{}",
        plain.stdout
    );
}

/// Moodle's grade import from CSV (Moodle docs "Grade import", CSV file): a header row; one column
/// identifying the user (`username`, `email` or `idnumber`), one grade column per item, and a feedback
/// column mapped to the item's feedback.
#[test]
fn moodle_csv_has_one_identity_one_grade_and_feedback() {
    let run = export("moodle", Some(ROSTER), &["--identity", "email"]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    // `crash` has no email in the roster, `hostile` is not in it.
    assert!(
        run.stderr
            .contains("error: unmatched: `crash` has no `email`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("error: unmatched: `hostile` has no `email`"),
        "{}",
        run.stderr
    );
    let text = read(&run.out);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, ["email", "adelaide-2021-a1", "feedback"]);
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    let row = |who: &str| {
        rows.iter()
            .find(|r| r[0] == who)
            .unwrap_or_else(|| panic!("{who}: {text}"))
    };
    assert_eq!(rows.len(), 4, "{text}");
    assert_eq!(row("pc@uni.edu")[1], "15");
    assert_eq!(row("pc@uni.edu")[2], "15/15 points");
    assert_eq!(row("si@uni.edu")[1], "2");
    assert!(
        row("si@uni.edu")[2].starts_with("2/15 points; plain/handout-example: "),
        "{text}"
    );
    // Not graded: a blank grade and why, never a zero.
    assert_eq!(row("lo@uni.edu")[1], "");
    assert!(
        row("lo@uni.edu")[2].starts_with("not graded: `python3` not found"),
        "{text}"
    );
    assert_eq!(row("ab@uni.edu")[1..], ["", "no hand-in was graded"]);
}

/// JUnit XML as GitLab reads it (<https://docs.gitlab.com/ci/testing/unit_test_reports>, "JUnit XML
/// format specification"): `testsuites` > `testsuite` (`name`, `tests`, `failures`, `errors`,
/// `skipped`, `time`) > `testcase` (`classname`, `name`, `time`, `file`) holding at most one of
/// `failure`, `error` (`message`, `type`, text) or `skipped` (`message`), and `system-out`/`system-err`.
#[test]
fn junit_xml_has_a_testsuite_per_student_and_a_testcase_per_case() {
    let run = export("junit", Some(ROSTER), &[]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert!(
        run.stderr.contains("note: `hostile` is not in the roster"),
        "{}",
        run.stderr
    );
    let xml = read(&run.out);
    no_terminal_escapes(&xml);
    let allowed: &[(&str, &[&str])] = &[
        (
            "testsuites",
            &["name", "tests", "failures", "errors", "skipped", "time"],
        ),
        (
            "testsuite",
            &[
                "name",
                "tests",
                "failures",
                "errors",
                "skipped",
                "time",
                "timestamp",
                "hostname",
                "id",
                "package",
            ],
        ),
        ("testcase", &["classname", "name", "time", "file"]),
        ("failure", &["message", "type"]),
        ("error", &["message", "type"]),
        ("skipped", &["message"]),
        ("properties", &[]),
        ("property", &["name", "value"]),
        ("system-out", &[]),
    ];
    let tag = regex::Regex::new(r#"<(/?)([a-z-]+)((?:\s+[a-z]+="[^"<]*")*)\s*(/?)>"#).unwrap();
    let attr = regex::Regex::new(r#"([a-z]+)="([^"]*)""#).unwrap();
    let body = xml
        .strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .unwrap();
    let mut open: Vec<String> = Vec::new();
    let mut suites = Vec::new();
    let mut last = 0;
    for m in tag.captures_iter(body) {
        let whole = m.get(0).unwrap();
        // Text between tags holds no markup: `<`, and `&` only as an entity.
        let text = &body[last..whole.start()];
        assert!(!text.contains('<'), "{text}");
        last = whole.end();
        let name = &m[2];
        if &m[1] == "/" {
            assert_eq!(open.pop().as_deref(), Some(name), "{xml}");
            continue;
        }
        let (_, names) = allowed
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("<{name}>"));
        for a in attr.captures_iter(&m[3]) {
            assert!(names.contains(&&a[1]), "<{name} {}>", &a[1]);
        }
        let parent = open.last().map(String::as_str);
        let want = match name {
            "testsuites" => None,
            "testsuite" => Some("testsuites"),
            "testcase" | "properties" => Some("testsuite"),
            "property" => Some("properties"),
            _ => Some("testcase"),
        };
        assert_eq!(parent, want, "<{name}> in {parent:?}");
        if name == "testsuite" {
            let name = attr.captures_iter(&m[3]).find(|a| &a[1] == "name").unwrap()[2].to_string();
            suites.push(name);
        }
        if m[4].is_empty() {
            open.push(name.to_string());
        }
    }
    assert!(open.is_empty());
    // By the roster's login; `hostile`, not in it, by its folder name.
    assert_eq!(suites, ["cr", "hostile", "lo", "pc", "si"]);
    assert!(
        xml.contains("<testcase classname=\"pc.plain\" name=\"handout-example\" time=\""),
        "{xml}"
    );
    // Three Men's Morris: no program in these hand-ins, so skipped, never failed.
    assert!(xml.contains("<skipped message=\"not attempted: "), "{xml}");
    // The machine's fault is an error, the student's a failure.
    assert!(
        xml.contains("<error message=") && xml.contains("<failure message="),
        "{xml}"
    );
    let well_formed = std::process::Command::new("python3")
        .args(["-c", "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(len(r), r.get('tests'))"])
        .arg(&run.out)
        .output()
        .unwrap();
    assert!(
        well_formed.status.success(),
        "{}",
        String::from_utf8_lossy(&well_formed.stderr)
    );
    let cases = regex::Regex::new("<testcase ")
        .unwrap()
        .find_iter(&xml)
        .count();
    assert_eq!(
        String::from_utf8_lossy(&well_formed.stdout),
        format!("5 {cases}\n")
    );
}

#[test]
fn a_bad_roster_or_results_folder_is_bad_input_naming_it() {
    let run = export("canvas", Some("folder,id\npc,1\npc,2\n"), &[]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("roster.csv`: line 3: folder `pc` is already on line 2"),
        "{}",
        run.stderr
    );
    let empty = scratch();
    let run = grader()
        .arg("export")
        .arg(empty.path())
        .args(["--to", "junit"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("error: no `<student>/result.json` in `"),
        "{stderr}"
    );
    assert!(
        stderr.contains("hint: export a suite's results folder"),
        "{stderr}"
    );
}

#[test]
fn the_default_output_is_beside_the_results_and_not_read_back_as_a_student() {
    let dir = scratch();
    let results = dir.path().join("adelaide-2021-a1");
    for student in ["silent", "python-correct"] {
        std::fs::create_dir_all(results.join(student)).unwrap();
        std::fs::copy(
            graded().join(student).join("result.json"),
            results.join(student).join("result.json"),
        )
        .unwrap();
    }
    for _ in 0..2 {
        grader()
            .arg("export")
            .arg(&results)
            .args(["--to", "gradescope"])
            .assert()
            .success();
    }
    assert!(results
        .join("export/gradescope/silent/results.json")
        .is_file());
    grader()
        .arg("export")
        .arg(&results)
        .args(["--to", "junit"])
        .assert()
        .success();
    let xml = read(&results.join("export/junit.xml"));
    assert_eq!(xml.matches("<testsuite ").count(), 2, "{xml}");
}

/// Gradescope's `leaderboard` (same page: `name`, `value`, `order` `asc` or `desc`) from the class
/// tournament `grader run` plays for UT3, whose checks carry no points and whose 40 marks come from
/// the ranking; Autolab names the marks' problem `tournament`.
#[test]
fn the_class_tournament_makes_the_gradescope_leaderboard() {
    let dir = scratch();
    let class = dir.path().join("class");
    for name in ["decent", "random-handout"] {
        std::fs::create_dir_all(&class).unwrap();
        std::os::unix::fs::symlink(
            repo().join("examples/submissions/iiit-2015-ut3").join(name),
            class.join(name),
        )
        .unwrap();
    }
    let results = grade_class(dir.path(), &repo().join("suites/iiit-2015-ut3"), &class);
    let out = dir.path().join("gradescope");
    // The 60 manual marks are not given (issue 32): without --allow-incomplete no score goes.
    let held = grader()
        .arg("export")
        .arg(&results)
        .args(["--to", "gradescope", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(held.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&held.stderr).contains(
        "error: `decent`: incomplete: 60 manual marks not given; exported with no grade"
    ));
    assert!(!out.join("decent/results.json").exists());
    grader()
        .arg("export")
        .arg(&results)
        .args(["--to", "gradescope", "--allow-incomplete", "-o"])
        .arg(&out)
        .assert()
        .success();
    let mut ranks = Vec::new();
    for name in ["decent", "random-handout"] {
        let json: Value =
            serde_json::from_str(&read(&out.join(name).join("results.json"))).unwrap();
        let own = result_in(&results, name);
        assert_eq!(json["score"], own["score"]);
        let board = json["leaderboard"].as_array().unwrap();
        for entry in board {
            keys(entry, &["name", "value"], &["order"]);
            assert!(["asc", "desc"].contains(&entry["order"].as_str().unwrap()));
            assert!(entry["value"].is_number());
        }
        assert_eq!(board[0]["name"], "rank");
        assert_eq!(board[0]["order"], "asc");
        assert_eq!(
            board[0]["value"],
            own["tournament"]["rank"].as_f64().unwrap()
        );
        ranks.push(board[0]["value"].as_f64().unwrap());
        let tests = json["tests"].as_array().unwrap();
        let tournament = tests
            .iter()
            .find(|t| t["name"] == "tournament")
            .unwrap()
            .clone();
        let manual = tests.last().unwrap();
        assert_eq!(
            (&manual["name"], &manual["max_score"]),
            (&"manual: manual".into(), &60.0.into())
        );
        assert!(manual.get("score").is_none(), "{manual}");
        assert_eq!(tournament["max_score"], 40.0);
        assert_eq!(tournament["score"], own["tournament"]["marks"]);
        // Checks worth no points carry none, so the tests still add up to the score.
        let sum: f64 = json["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["score"].as_f64())
            .sum();
        assert!(
            (sum - own["score"].as_f64().unwrap()).abs() < 0.01,
            "{json}"
        );
    }
    ranks.sort_by(f64::total_cmp);
    assert_eq!(ranks, [1.0, 2.0]);
}

fn result_in(results: &Path, student: &str) -> Value {
    serde_json::from_str(&read(&results.join(student).join("result.json"))).unwrap()
}
