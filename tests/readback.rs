//! What a results folder, a shard or a record holds is read back as untrusted input (issue 28's third
//! and fourth findings): a crafted game record, result or manifest is a clear error naming the file,
//! never a panic, the other files are still processed, and no name from a file writes outside the
//! folder it belongs in.

use std::path::{Path, PathBuf};

use crate::util::{grader, output_ok, read, repo, scratch};

/// A real record of one tic-tac-toe game between two bots, as `grader play --records` saves it.
fn a_record(dir: &Path) -> serde_json::Value {
    let records = dir.join("records");
    output_ok(
        grader()
            .args([
                "play",
                "tictactoe",
                "random",
                "offensive",
                "--seed",
                "3",
                "--records",
            ])
            .arg(&records),
    );
    let file = std::fs::read_dir(&records)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    serde_json::from_str(&read(&file)).unwrap()
}

/// The second audit's crafted records, each of which panicked five commands, and a game whose result
/// the rules cannot give.
fn crafted(good: &serde_json::Value) -> Vec<(&'static str, serde_json::Value)> {
    let mut out = Vec::new();
    let mut r = good.clone();
    r["result"] = serde_json::json!({ "win": 5 });
    out.push(("win-5", r));
    let mut r = good.clone();
    r["result"] = serde_json::json!({ "draw": { "edge": 9 } });
    out.push(("edge-9", r));
    let mut r = good.clone();
    r["moves"][0]["side"] = serde_json::json!(7);
    out.push(("side-7", r));
    let mut r = good.clone();
    let winner = if r["result"] == serde_json::json!({ "win": 0 }) {
        1
    } else {
        0
    };
    r["result"] = serde_json::json!({ "win": winner });
    out.push(("impossible", r));
    out
}

fn write_json(path: &Path, value: &serde_json::Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

/// What a command must never do with a crafted file: panic (101) or die of a signal.
#[track_caller]
fn no_panic(out: &std::process::Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.code().is_some_and(|c| c != 101) && !stderr.contains("panicked"),
        "{:?}\n{stderr}",
        out.status
    );
    stderr
}

#[test]
fn play_replay_refuses_a_crafted_record_naming_it_and_replays_a_good_one() {
    let dir = scratch();
    let good = a_record(dir.path());
    let ok = dir.path().join("ok.json");
    write_json(&ok, &good);
    let (stdout, _) = output_ok(grader().args(["play", "--replay"]).arg(&ok));
    assert!(stdout.contains(" x ") || stdout.contains("x "), "{stdout}");
    for (name, record) in crafted(&good) {
        let file = dir.path().join(format!("{name}.json"));
        write_json(&file, &record);
        let out = grader()
            .args(["play", "--replay"])
            .arg(&file)
            .output()
            .unwrap();
        let stderr = no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("{name}.json`: not a valid game record")),
            "{name}: {stderr}"
        );
    }
}

/// A FIFO waits for a writer for ever and `/dev/zero` never ends: `play --replay` refuses both at
/// once, as every reader of untrusted files does.
#[test]
fn play_replay_refuses_a_fifo_and_dev_zero_without_blocking_or_filling_memory() {
    let dir = scratch();
    let fifo = dir.path().join("game.json");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    for (file, says) in [
        (fifo.as_path(), "FIFO"),
        (Path::new("/dev/zero"), "a device"),
    ] {
        let out = grader()
            .args(["play", "--replay"])
            .arg(file)
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        let stderr = no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", file.display());
        assert!(stderr.contains(says), "{stderr}");
    }
}

/// A results folder holding a crafted record (a student's game, the class tournament's) and a
/// tampered result: `report`, `similarity` and `grader run --out` into it name each bad file and
/// still write every other page.
#[test]
fn crafted_records_and_results_in_a_results_folder_are_named_and_the_rest_reported() {
    let dir = scratch();
    let good = a_record(dir.path());
    let suite = repo().join("tests/fixtures/play-ttt");
    let class = repo().join("tests/fixtures/play-ttt-class");
    let out = dir.path().join("results");
    let graded = grader()
        .arg("run")
        .arg(&suite)
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    no_panic(&graded);
    let results = out.join(suite_name(&suite));
    let games = results.join("good/games");
    for (name, record) in crafted(&good) {
        write_json(&games.join(format!("{name}-1.json")), &record);
    }
    let mut tampered: serde_json::Value =
        serde_json::from_str(&read(&results.join("crash/result.json"))).unwrap();
    tampered["score"] = serde_json::json!(-5.0);
    write_json(&results.join("crash/result.json"), &tampered);
    std::fs::remove_file(results.join("index.html")).ok();

    let report = grader().arg("report").arg(&results).output().unwrap();
    let stderr = no_panic(&report);
    assert_eq!(report.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("`games/win-5-1.json`: not a valid game record"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`crash/result.json` (not a valid result: the score is -5"),
        "{stderr}"
    );
    let page = read(&results.join("index.html"));
    assert!(page.contains("good/report.html"), "{page}");
    assert!(read(&results.join("good/report.html")).contains("win-5-1.json"));

    let similarity = grader()
        .env("GRADER_DOLOS", dir.path().join("no-dolos"))
        .arg("similarity")
        .arg(&results)
        .arg(&class)
        .output()
        .unwrap();
    let stderr = no_panic(&similarity);
    assert!(
        stderr.contains("crash/result.json`: not a valid result"),
        "{stderr}"
    );

    // A run into the same folder, keeping the students whose results are current (`good`, with the
    // crafted records in its folder), writes its class page over them; the tampered result is
    // graded again.
    std::fs::remove_file(results.join("index.html")).unwrap();
    let again = grader()
        .arg("run")
        .arg(&suite)
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .arg("--resume")
        .output()
        .unwrap();
    let stderr = no_panic(&again);
    assert_eq!(again.status.code(), graded.status.code(), "{stderr}");
    assert!(
        stderr.contains("`games/side-7-1.json`: not a valid game record"),
        "{stderr}"
    );
    assert!(results.join("index.html").is_file(), "{stderr}");
    let regraded: serde_json::Value =
        serde_json::from_str(&read(&results.join("crash/result.json"))).unwrap();
    assert!(regraded["score"].as_f64().unwrap() >= 0.0);
}

/// The fixture suite's name: its folder's (its `suite.toml` names none).
fn suite_name(suite: &Path) -> String {
    suite.file_name().unwrap().to_string_lossy().into_owned()
}

/// Exports refuse a tampered number (a score of NaN, negative, or above its maximum) with a clear
/// error naming the file, never passing it on to a gradebook.
#[test]
fn exports_refuse_tampered_numbers_naming_the_file() {
    let dir = scratch();
    let results = dir.path().join("s");
    for (student, score, max) in [("amy", "7.0", "10.0"), ("bob", "NaN", "10.0")] {
        let json = format!(
            r#"{{"suite": "s", "student": "{student}", "sandbox": "none",
                "build": {{"status": "built", "language": "c", "log": "", "wall-ms": 0}},
                "cases": [], "groups": [], "score": {score}, "max": {max}}}"#
        );
        std::fs::create_dir_all(results.join(student)).unwrap();
        std::fs::write(results.join(student).join("result.json"), json).unwrap();
    }
    for (score, says) in [
        ("NaN", "not a result"),
        ("-1.0", "the score is -1"),
        ("11.0", "the score is 11"),
    ] {
        let json = read(&results.join("bob/result.json"))
            .replace(r#""score": NaN"#, &format!(r#""score": {score}"#))
            .replace(r#""score": -1.0"#, &format!(r#""score": {score}"#))
            .replace(r#""score": 11.0"#, &format!(r#""score": {score}"#));
        std::fs::write(results.join("bob/result.json"), json).unwrap();
        let out = grader()
            .arg("export")
            .arg(&results)
            .args(["--to", "canvas", "-o"])
            .arg(dir.path().join("export"))
            .output()
            .unwrap();
        let stderr = no_panic(&out);
        assert_eq!(out.status.code(), Some(2), "{score}: {stderr}");
        assert!(
            stderr.contains("bob/result.json`: ") && stderr.contains(says),
            "{score}: {stderr}"
        );
    }
}

/// `grader merge SHARDS --out OUT`, which must be refused as bad input (exit 2) without a panic;
/// returns its stderr.
#[track_caller]
fn merge_refused(shards: &[PathBuf], out: &Path, why: &str) -> String {
    let run = grader()
        .arg("merge")
        .args(shards)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let stderr = no_panic(&run);
    assert_eq!(run.status.code(), Some(2), "{why}: {stderr}");
    stderr
}

/// A tournament shard of `grader tournament --shard K/N`, played by two bots, whose manifest and games
/// the test then tampers with.
fn round_robin_shards(dir: &Path) -> Vec<PathBuf> {
    let mut shards = Vec::new();
    for k in 1..=2 {
        let records = dir.join(format!("shard-{k}"));
        output_ok(
            grader()
                .args([
                    "tournament",
                    "tictactoe",
                    "random",
                    "offensive",
                    "--format",
                    "round-robin",
                ])
                .args(["--games", "2", "--shard", &format!("{k}/2"), "--records"])
                .arg(&records),
        );
        shards.push(records);
    }
    shards
}

/// The audit's merge attacks: a shard naming its suite `../../../x` (or an absolute path) made the
/// merge create that folder and write `tournament.csv` there; a game with an impossible result was
/// accepted. Both are refused, naming the file, and nothing is written outside `--out`.
#[test]
fn a_tournament_merge_refuses_a_suite_outside_out_and_an_impossible_game() {
    let dir = scratch();
    let shards = round_robin_shards(dir.path());
    let manifest = shards[0].join("tournament-shard.json");
    let original: serde_json::Value = serde_json::from_str(&read(&manifest)).unwrap();
    let out = dir.path().join("deep/er/merged");
    let outside = dir.path().join("x");
    for suite in ["../../../x".to_string(), outside.display().to_string()] {
        let mut m = original.clone();
        m["suite"] = serde_json::json!(suite);
        write_json(&manifest, &m);
        let stderr = merge_refused(&shards, &out, &suite);
        assert!(
            stderr.contains("tournament-shard.json`: the name"),
            "{stderr}"
        );
        assert!(!outside.exists(), "{suite}: the merge wrote outside --out");
    }
    write_json(&manifest, &original);
    let game = shards[0].join("round-robin-0001.json");
    let mut record: serde_json::Value = serde_json::from_str(&read(&game)).unwrap();
    let winner = if record["result"] == serde_json::json!({ "win": 0 }) {
        1
    } else {
        0
    };
    record["result"] = serde_json::json!({ "win": winner });
    write_json(&game, &record);
    let stderr = merge_refused(&shards, &out, "an impossible result");
    assert!(
        stderr.contains("round-robin-0001.json`: not a valid game record: the result"),
        "{stderr}"
    );
}

/// A class graded in two shards, into `dir/shard-K`, returning the shards' folders and the suite's
/// name.
fn class_shards(dir: &Path) -> (Vec<PathBuf>, String) {
    let suite = repo().join("tests/fixtures/play-ttt");
    let class = repo().join("tests/fixtures/play-ttt-class");
    let mut shards = Vec::new();
    for k in 1..=2 {
        let out = dir.join(format!("shard-{k}"));
        let run = grader()
            .arg("run")
            .arg(&suite)
            .arg(&class)
            .args(["--shard", &format!("{k}/2"), "--out"])
            .arg(&out)
            .output()
            .unwrap();
        no_panic(&run);
        shards.push(out);
    }
    (shards, suite_name(&suite))
}

/// A shard naming a student `.` would have the merge remove `--out/<suite>` whole (kept students,
/// `grades.csv`, `index.html`); one naming its suite `../x` would write beside `--out`. Both are
/// refused before anything is removed or written.
#[test]
fn a_class_merge_refuses_names_that_are_not_one_plain_component() {
    let dir = scratch();
    let (shards, suite) = class_shards(dir.path());
    let out = dir.path().join("merged");
    let kept = out.join(&suite).join("kept-student");
    std::fs::create_dir_all(&kept).unwrap();
    std::fs::write(kept.join("note"), "mine").unwrap();
    let manifest = shards[0].join(&suite).join("shard.json");
    let original: serde_json::Value = serde_json::from_str(&read(&manifest)).unwrap();
    for (field, value) in [
        ("students", serde_json::json!(["."])),
        ("students", serde_json::json!([".."])),
        ("students", serde_json::json!(["a/b"])),
        ("suite", serde_json::json!("../x")),
    ] {
        let mut m = original.clone();
        m[field] = value.clone();
        write_json(&manifest, &m);
        let stderr = merge_refused(&shards, &out, &value.to_string());
        assert!(
            stderr.contains("shard.json`: the name"),
            "{value}: {stderr}"
        );
        assert_eq!(read(&kept.join("note")), "mine", "{value}");
        assert!(!dir.path().join("x").exists(), "{value}");
    }
}
