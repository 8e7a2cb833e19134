//! The shipped example submissions, graded once per test process on the Adelaide suite: every verdict
//! and every score is pinned by the `.expected.toml` beside each (known-good and known-bad, as
//! examples/…/EXPECTED.md explains them), and what the feedback says about each flaw.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::util::{copy_dir, grade_class, grader, read, repo, scratch};

const SUITE: &str = "suites/adelaide-2021-a1";
const EXAMPLES: &str = "examples/submissions/adelaide-2021-a1";

/// Grades every example except `loops-forever` (which spends the full time limit on 11 cases; it has
/// its own test with tighter limits) and `python-slow` (whose verdict depends on the machine's speed
/// unless the suite is calibrated: tests/calibrate.rs pins it with and without) once, with two jobs,
/// and keeps the results folder.
pub(crate) fn graded() -> &'static Path {
    static RESULTS: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, results) = RESULTS.get_or_init(|| {
        let dir = scratch();
        let class = dir.path().join("class");
        for entry in std::fs::read_dir(repo().join(EXAMPLES)).unwrap() {
            let entry = entry.unwrap();
            if entry.path().is_dir()
                && entry.file_name() != "loops-forever"
                && entry.file_name() != "python-slow"
            {
                copy_dir(&entry.path(), &class.join(entry.file_name()));
            }
        }
        let results = grade_class(dir.path(), &repo().join(SUITE), &class);
        (dir, results)
    });
    results
}

fn code(verdict: &str) -> &'static str {
    match verdict {
        "accepted" => "AC",
        "wrong-answer" => "WA",
        "runtime-error" => "RE",
        "compile-error" => "CE",
        "time-limit" | "wall-time-limit" => "TL",
        "memory-limit" => "MLE",
        "output-limit" => "OLE",
        other => panic!("unexpected verdict `{other}`"),
    }
}

/// `plain AC AC … | prune … | ply … | no-move …`, and the score.
fn signature(result: &serde_json::Value) -> (String, f64) {
    let groups: Vec<String> = ["plain", "prune", "ply", "no-move"]
        .iter()
        .map(|g| {
            let codes: Vec<&str> = result["cases"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["group"] == *g)
                .map(|c| code(c["verdict"].as_str().unwrap()))
                .collect();
            format!("{g} {}", codes.join(" "))
        })
        .collect();
    // The tic-tac-toe part only (the suites these tests change have their Morris groups too).
    let points: f64 = result["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| !g["name"].as_str().unwrap().starts_with("morris-"))
        .map(|g| g["points"].as_f64().unwrap())
        .sum();
    (groups.join(" | "), (points * 100.0).round() / 100.0)
}

pub(crate) fn result(student: &str) -> serde_json::Value {
    serde_json::from_str(&read(&graded().join(student).join("result.json"))).unwrap()
}

/// The examples the class run above leaves out; their `.expected.toml` files are checked by `grader
/// verify` alone (`loops-forever` would spend 10 × the 5 s limit here, and `python-slow`'s verdict
/// depends on the machine's speed unless the suite is calibrated: its file pins no case).
const GRADED_ELSEWHERE: &[&str] = &["loops-forever", "python-slow"];

/// The examples the class run grades, in name order.
fn students() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join(EXAMPLES))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !GRADED_ELSEWHERE.contains(&n.as_str()))
        .collect();
    names.sort();
    names
}

/// Every verdict, every group's points and the score of each example, as its
/// `<example>.expected.toml` pins them (the tic-tac-toe and the Morris groups; EXPECTED.md explains
/// each flaw), compared through the code `grader verify` uses.
#[test]
fn every_example_gets_its_pinned_verdicts_and_points() {
    crate::util::assert_as_expected(graded(), &repo().join(EXAMPLES), GRADED_ELSEWHERE);
}

#[test]
fn a_python_2_hand_in_names_its_interpreter() {
    let two = result("python2-correct");
    let interpreter = &two["build"]["interpreter"];
    assert!(
        interpreter["version"].as_str().unwrap().starts_with("2."),
        "{two}"
    );
    assert!(
        interpreter["path"].as_str().unwrap().contains("python2"),
        "{two}"
    );
    let log = two["build"]["log"].as_str().unwrap();
    assert!(
        log.contains("`tictactoe.py` compiles under Python 2, not under 3"),
        "{log}"
    );
    let three = result("python-correct");
    assert!(
        three["build"]["interpreter"]["version"]
            .as_str()
            .unwrap()
            .starts_with("3."),
        "{three}"
    );
}

/// A build's compilers and interpreter checks are programs the class needs: their CPU is in the
/// result beside the build's wall time (the floor `cargo bench --bench grading -- --floor` counts).
#[test]
fn a_build_records_the_cpu_its_compilers_used() {
    let c = result("c-correct");
    let cpu = c["build"]["cpu-ms"].as_u64().unwrap();
    let wall = c["build"]["wall-ms"].as_u64().unwrap();
    // gcc -O2 on a few hundred lines takes tens of milliseconds at the least, all of it CPU.
    assert!(cpu >= 5, "{}", c["build"]);
    assert!(cpu <= wall + 50, "{}", c["build"]);
    let two = result("python2-correct");
    assert!(
        two["build"]["cpu-ms"].as_u64().unwrap() >= 1,
        "{}",
        two["build"]
    );
    // A build that fails ran its compiler too.
    let failed = result("no-compile");
    assert_eq!(failed["build"]["status"], "compile-error");
    assert!(
        failed["build"]["cpu-ms"].as_u64().unwrap() >= 1,
        "{}",
        failed["build"]
    );
}

#[test]
fn the_gradebook_has_one_row_per_example() {
    let csv = read(&graded().join("grades.csv"));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("student,plain,prune,ply,no-move,morris-moves,morris-no-move,morris-tactics,morris-play,track,max,late-hours,late-deduction,total,integrity")
    );
    assert_eq!(lines.clone().count(), students().len());
    assert!(
        csv.contains("\nties-last-blank,2.5,1.67,1.5,2,,,,,undergraduate,15,,,7.67,\n"),
        "{csv}"
    );
    assert!(
        csv.contains("\nno-compile,0,0,0,0,,,,,undergraduate,15,,,0,\n"),
        "{csv}"
    );
    assert!(
        csv.contains("\nhard-coded-by-path,0,0,0,2,,,,,undergraduate,15,,,2,\n"),
        "{csv}"
    );
    assert!(
        csv.contains(&format!(
            "\npath-dependent,5,5,3,2,,,,,undergraduate,15,,,15,\"{PATH_DEPENDENT}\"\n"
        )),
        "{csv}"
    );
}

/// The integrity note `path-dependent` gets: its first passing case that writes a file, run again in
/// another folder under another name, wrote its nodes in another order.
const PATH_DEPENDENT: &str = "plain/handout-example: run again with only the output file's name and folder changed, the program wrote another `visited.txt`: line 1, `oxxxooox- 0` the first time, `oxxxoooxx 0` the second";

#[test]
fn path_dependent_output_is_flagged_for_the_instructor() {
    let r = result("path-dependent");
    assert_eq!(
        r["integrity"],
        serde_json::json!([{
            "case": "plain/handout-example",
            "what": PATH_DEPENDENT.split_once(": ").unwrap().1,
        }]),
        "{r}"
    );
    // Every other example, the cheat included, has no note (and so no `integrity` key).
    for student in students().iter().filter(|s| *s != "path-dependent") {
        assert!(result(student).get("integrity").is_none(), "{student}");
    }
    // Feedback speaks of the visited file by the handout's name, never by a run's own name.
    let cheat = result("hard-coded-by-path").to_string();
    assert!(cheat.contains("`visited.txt`: "), "{cheat}");
    assert!(!cheat.contains("visited-"), "{cheat}");
}

/// At the old fixed name (`file-names = "as-written"`), the cheat would have passed both cases whose
/// answer the handout prints: the unpredictable names are what fail it.
#[test]
fn the_cheat_passes_only_at_the_old_fixed_name() {
    let dir = scratch();
    let suite = dir.path().join("adelaide-2021-a1");
    copy_dir(&repo().join(SUITE), &suite);
    let toml = read(&suite.join("suite.toml")).replace(
        "seed = 2021\n",
        "seed = 2021\nfile-names = \"as-written\"\n",
    );
    assert!(toml.contains("as-written"), "the suite's seed line moved");
    std::fs::write(suite.join("suite.toml"), toml).unwrap();
    let class = dir.path().join("class");
    copy_dir(
        &repo().join(EXAMPLES).join("hard-coded-by-path"),
        &class.join("hard-coded-by-path"),
    );
    let out = grade_class(dir.path(), &suite, &class);
    let r: serde_json::Value =
        serde_json::from_str(&read(&out.join("hard-coded-by-path/result.json"))).unwrap();
    let (sig, score) = signature(&r);
    assert_eq!(
        (sig.as_str(), score),
        ("plain AC WA WA WA WA WA | prune AC WA WA WA WA WA | ply WA WA WA WA WA WA | no-move AC AC AC AC", 3.66)
    );
}

#[test]
fn flaws_are_explained_in_one_sentence() {
    let case_of = |student: &str, group: &str, case: &str| -> serde_json::Value {
        let r = result(student);
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["group"] == group && c["name"] == case)
            .unwrap()
            .clone()
    };
    let summary = |student: &str, group: &str, case: &str| -> String {
        case_of(student, group, case)["summary"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        summary("prune-strict", "prune", "blank-board"),
        "`visited.txt`: your trace is the `prune-strict` variant (alpha-beta that cuts only when a value goes strictly past the bound (v > beta, v < alpha) instead of reaching it)"
    );
    assert!(summary("post-order", "plain", "blank-board")
        .starts_with("accepted; `visited.txt`: your trace is the `post-order` variant"));
    assert_eq!(
        summary("ties-last-blank", "plain", "blank-board"),
        "stdout: expected `x--------`, got `--------x`"
    );
    assert_eq!(
        summary("writes-when-no-move", "no-move", "x-won"),
        "stdout: you printed `xxxooo---`, but no move is possible from this board: print nothing and write nothing"
    );
    assert!(summary("ply-off-by-one", "ply", "blank-ply-1")
        .starts_with("`visited.txt`: your trace is the `ply-one-deeper` variant"));
    assert!(summary("debug-prints", "plain", "handout-example")
        .starts_with("stdout: line 1: expected `oxxxo-oxo`, got `DEBUG:"));
    assert!(
        summary("crashes", "plain", "blank-board").starts_with("your program crashed with SIGABRT")
    );
    let details = |student: &str, group: &str, case: &str| -> Vec<String> {
        case_of(student, group, case)["details"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap().to_string())
            .collect()
    };
    // A traceback's last lines, whole: the student's file by its own name, the line, the error.
    let d = details("python-typo-in-prune", "prune", "interesting-1");
    assert_eq!(d[0], "stderr (last lines):");
    for line in [
        "    File \"tictactoe.py\", line 91, in value",
        "      beta = min(beta, vaule)",
        "  NameError: name 'vaule' is not defined",
    ] {
        assert!(d.iter().any(|l| l == line), "{line}: {d:#?}");
    }
    assert!(!d.iter().any(|l| l.contains("/tmp/")), "{d:#?}");
    // A case that fails on stdout says its trace was not scored, never that it earned full credit.
    assert_eq!(
        summary("post-order-ties-last", "plain", "blank-board"),
        "stdout: expected `x--------`, got `--------x`"
    );
    let d = details("post-order-ties-last", "plain", "blank-board");
    assert_eq!(
        d,
        ["`visited.txt`: your trace is the `post-order` variant (the same search, but each node is written after its children instead of before them); not scored: the case failed on stdout"]
    );
    // A post-order trace with a mistake is shown against the post-order reference, where it really
    // parts ways (line 4, where the strict cut-off searches on), not at line 1 of the pre-order one.
    assert_eq!(
        summary("post-order-strict", "prune", "interesting-1"),
        "`visited.txt`: your trace is written as the `post-order` variant (the same search, but each node is written after its children instead of before them), and differs from it: your trace visits 175 nodes where the reference visits 60; first difference at line 4: expected `xoxoxo-x- 1`, got `xoxoxoxxo 1`"
    );
    assert_eq!(
        details("post-order-strict", "prune", "interesting-1").last().unwrap(),
        "against the expected trace: your trace visits 175 nodes where the reference visits 60; first difference at line 1: expected `xoxox---- 1`, got `xoxoxox-- 1`"
    );
    assert_eq!(
        summary("terminal-at-ply", "ply", "interesting-1-ply-2")
            .split(" variant")
            .next(),
        Some("`visited.txt`: your trace is the `ply-terminal-utility`")
    );
    let log = result("no-compile")["build"]["log"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(log.contains("hasX"), "{log}");
}

fn case_of(student: &str, group: &str, case: &str) -> serde_json::Value {
    result(student)["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["group"] == group && c["name"] == case)
        .unwrap()
        .clone()
}

/// Every trace case counts the nodes visited against the reference in its mode; the searches that
/// visit other nodes than the reference's are told where they part and with which v, α, β the
/// reference decided there (computed by the reference, `reference/src/divergence.rs`).
#[test]
fn each_search_variant_names_where_it_parts_with_the_reference_window() {
    let search =
        |student: &str, group: &str, case: &str| case_of(student, group, case)["search"].clone();
    assert_eq!(
        search("c-correct", "plain", "blank-board"),
        serde_json::json!({"mode": "plain", "visited": 549_945, "reference-visited": 549_945})
    );
    assert_eq!(
        search("prune-strict", "prune", "blank-board"),
        serde_json::json!({"mode": "prune", "visited": 146_119, "reference-visited": 18_296})
    );
    assert_eq!(
        search("ply-off-by-one", "ply", "blank-ply-1"),
        serde_json::json!({"mode": "prune+ply", "ply": 1, "visited": 35, "reference-visited": 9})
    );
    // No search on a board with no move, and none for a program that wrote no trace.
    assert!(search("c-correct", "no-move", "x-won").is_null());
    assert!(search("crashes", "plain", "blank-board").is_null());
    // A correct hand-in visits what the reference visits in every mode.
    for c in result("c-correct")["cases"].as_array().unwrap() {
        let s = &c["search"];
        if !s.is_null() {
            assert_eq!(s["visited"], s["reference-visited"], "{c}");
        }
    }
    let parting = |student: &str, group: &str, case: &str| -> String {
        let c = case_of(student, group, case);
        let lines: Vec<String> = c["details"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d.as_str())
            .filter(|d| d.starts_with("line ") && d.contains(": your search "))
            .map(str::to_string)
            .collect();
        assert_eq!(lines.len(), 1, "{c}");
        lines[0].clone()
    };
    // Cutting on v > β: the reference cut at v = β (or v = α), named with its window.
    assert_eq!(
        parting("prune-strict", "prune", "blank-board"),
        "line 11: your search visits `xoxoxo-xo`, but the reference stops searching `xoxoxo-x-` after `xoxoxoox-` (line 9): a min node: v = 1, α = 1, β = +∞, and AIMA stops a min node once v ≤ α; v = α here, so a search that cuts only when v < α goes on"
    );
    assert_eq!(
        parting("prune-strict", "ply", "blank-ply-3"),
        "line 21: your search visits `x--ox----`, but the reference stops searching `x--o-----` after `x-xo-----` (line 20): a max node: v = 3, α = 2, β = 3, and AIMA stops a max node once v ≥ β; v = β here, so a search that cuts only when v > β goes on"
    );
    for case in ["interesting-1", "interesting-2", "o-to-move"] {
        assert!(
            parting("prune-strict", "prune", case)
                .contains("so a search that cuts only when v < α goes on"),
            "{case}"
        );
    }
    // Counting ply from the root's children: the reference's leaf at the ply limit is named.
    assert_eq!(
        parting("ply-off-by-one", "ply", "blank-ply-1"),
        "line 2: your search visits `xo-------` below `x--------`, but the reference values `x--------` as a leaf by E(s): it is 1 move below the root, the ply limit"
    );
    for case in [
        "interesting-1-ply-2",
        "interesting-2-ply-2",
        "blank-ply-3",
        "o-to-move-ply-4",
    ] {
        assert!(
            parting("ply-off-by-one", "ply", case).contains("as a leaf by E(s)"),
            "{case}"
        );
    }
}

/// `loops-forever` spins on every pruned search. Graded with tighter time limits (2 s CPU, 6 s wall)
/// so the test stays short; a loaded machine may stop it on either clock, so both count as a time limit.
/// The plain blank board (2.5 s of CPU in Python) is left out: under 2 s it would time out too.
#[test]
fn an_endless_loop_hits_the_time_limit_and_keeps_its_other_points() {
    let dir = scratch();
    let suite = dir.path().join("adelaide-2021-a1");
    copy_dir(&repo().join(SUITE), &suite);
    let toml = read(&suite.join("suite.toml"))
        .replace("cpu = \"5s\"", "cpu = \"2s\"")
        .replace("wall = \"30s\"", "wall = \"6s\"");
    assert!(
        toml.contains("cpu = \"2s\"") && toml.contains("wall = \"6s\""),
        "the suite's limits moved"
    );
    std::fs::write(suite.join("suite.toml"), toml).unwrap();
    let class = dir.path().join("class");
    copy_dir(
        &repo().join(EXAMPLES).join("loops-forever"),
        &class.join("loops-forever"),
    );
    let out = dir.path().join("results");
    grader()
        .arg("run")
        .arg(&suite)
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .args(["--jobs", "2"])
        .assert()
        .success();
    let r: serde_json::Value = serde_json::from_str(&read(
        &out.join("adelaide-2021-a1/loops-forever/result.json"),
    ))
    .unwrap();
    let (sig, _) = signature(&r);
    let (plain, rest) = sig.split_once(" | ").unwrap();
    assert!(plain.starts_with("plain AC AC AC AC AC "), "{sig}");
    assert_eq!(
        rest,
        "prune TL TL TL TL TL TL | ply TL AC TL AC TL TL | no-move AC AC AC AC"
    );
}

/// `result.json` without what the clock decides (CPU, wall time, memory, and a second run for time).
fn without_timings(mut v: serde_json::Value) -> serde_json::Value {
    match &mut v {
        serde_json::Value::Object(map) => {
            for key in ["cpu-ms", "wall-ms", "peak-memory", "rerun"] {
                map.remove(key);
            }
            for value in map.values_mut() {
                *value = without_timings(value.take());
            }
        }
        serde_json::Value::Array(items) => {
            for item in items.iter_mut() {
                *item = without_timings(item.take());
            }
        }
        _ => {}
    }
    v
}

/// The file names, the integrity re-run and its note depend on the suite seed, the case and the student
/// only: one job or three give byte-identical gradebooks and results (timings aside).
#[test]
fn one_job_or_three_give_the_same_grades_and_names() {
    let dir = scratch();
    let class = dir.path().join("class");
    for student in ["hard-coded-by-path", "path-dependent", "debug-prints"] {
        copy_dir(&repo().join(EXAMPLES).join(student), &class.join(student));
    }
    let graded = |jobs: &str| {
        let out = dir.path().join(format!("results-{jobs}"));
        grader()
            .arg("run")
            .arg(repo().join(SUITE))
            .arg(&class)
            .arg("--out")
            .arg(&out)
            .args(["--jobs", jobs])
            .assert()
            .success();
        out.join("adelaide-2021-a1")
    };
    let (one, three) = (graded("1"), graded("3"));
    assert_eq!(
        read(&one.join("grades.csv")),
        read(&three.join("grades.csv"))
    );
    assert!(read(&one.join("grades.csv")).contains(",integrity\n"));
    for student in ["hard-coded-by-path", "path-dependent", "debug-prints"] {
        let json = |results: &Path| -> serde_json::Value {
            let text = read(&results.join(student).join("result.json"));
            without_timings(serde_json::from_str(&text).unwrap())
        };
        assert_eq!(json(&one), json(&three), "{student}");
    }
}
