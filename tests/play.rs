//! Play cases end to end: a tic-tac-toe suite graded by playing the arena's bots (tests/fixtures/play-ttt)
//! with Python players behind a suite adapter: measures, credit, verdicts, summaries, game records,
//! transcripts, memoised games, manual columns, `[entries]`, and determinism.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{case, grader, read, repo, scratch};

fn suite() -> PathBuf {
    repo().join("tests/fixtures/play-ttt")
}

/// Copies the fixture class into `root/class` (only `students`), pointing the good player's game
/// counter at `root/starts.txt`.
fn class(root: &Path, students: &[&str]) -> PathBuf {
    let from = repo().join("tests/fixtures/play-ttt-class");
    let to = root.join("class");
    for s in students {
        std::fs::create_dir_all(to.join(s)).unwrap();
        for e in std::fs::read_dir(from.join(s)).unwrap() {
            let e = e.unwrap();
            let text = read(&e.path())
                .replace("@COUNTER@", &root.join("starts.txt").display().to_string());
            std::fs::write(to.join(s).join(e.file_name()), text).unwrap();
        }
    }
    to
}

fn run(class: &Path, out: &Path, jobs: &str) -> (String, String) {
    let o = grader()
        .arg("run")
        .arg(suite())
        .arg(class)
        .arg("--out")
        .arg(out)
        .args(["--sandbox", "basic", "--jobs", jobs])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{stdout}\n{stderr}");
    (stdout, stderr)
}

fn result(out: &Path, student: &str) -> Value {
    serde_json::from_str(&read(
        &out.join("play-ttt").join(student).join("result.json"),
    ))
    .unwrap()
}

#[test]
fn a_class_is_graded_by_playing() {
    let dir = scratch();
    let students = class(dir.path(), &["good", "illegal", "crash", "renamed"]);
    let out = dir.path().join("results");
    let (stdout, _) = run(&students, &out, "2");

    assert_eq!(
        read(&out.join("play-ttt/grades.csv")),
        "student,legal,bots,effort,total,total-note\n\
         crash,0,0,,,incomplete: 15 manual marks not given\n\
         good,5,10,,,incomplete: 15 manual marks not given\n\
         illegal,0,0,,,incomplete: 15 manual marks not given\n\
         renamed,5,10,,,incomplete: 15 manual marks not given\n"
    );
    assert!(
        stdout.contains("effort /15 (manual)  total /15"),
        "{stdout}"
    );

    let good = result(&out, "good");
    assert_eq!(good["score"], 15.0);
    assert_eq!(good["max"], 15.0);
    let manual = &good["groups"][2];
    assert_eq!(manual["name"], "effort");
    assert_eq!(manual["credit-rule"], "manual");
    assert!(manual["points"].is_null());
    assert_eq!(manual["max"], 15.0);
    for name in [
        "legal-vs-random",
        "vs-random",
        "won-vs-random",
        "vs-perfect",
        "self-play",
    ] {
        assert_eq!(case(&good, name)["verdict"], "accepted", "{name}: {good}");
        assert_eq!(case(&good, name)["credit"], 1.0, "{name}");
    }
    assert_eq!(
        case(&good, "vs-perfect")["summary"],
        "scored 1 of 2 against `perfect` (won 0, drew 2, lost 0); 1 needed"
    );
    assert_eq!(
        case(&good, "vs-random")["summary"],
        "won or drew 4 of 4 games against `random`; 2 needed"
    );

    // The same four games against `random` serve three cases: played once (4 starts), plus 2 games
    // against `perfect` and 2 against itself (two processes each).
    assert_eq!(read(&dir.path().join("starts.txt")).lines().count(), 10);
    // The three sets are played at once, ahead of the cases after the first (`grade::sets`); each
    // case that first asks for a set still counts its games' CPU and a share of the time they took,
    // and a case that only recalls games counts neither.
    for name in ["legal-vs-random", "vs-perfect", "self-play"] {
        let c = case(&good, name);
        assert!(c["wall-ms"].as_u64().unwrap() > 0, "{name}: {c}");
        assert!(c["cpu-ms"].as_u64().unwrap() > 0, "{name}: {c}");
    }
    for name in ["vs-random", "won-vs-random"] {
        let c = case(&good, name);
        assert_eq!(
            (&c["wall-ms"], &c["cpu-ms"]),
            (&0.into(), &0.into()),
            "{name}: {c}"
        );
    }

    // Records for every game of every case, replayable; the transcript beside result.json.
    let games = out.join("play-ttt/good/games");
    let mut names: Vec<String> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 16, "{names:?}");
    assert!(names.contains(&"vs-perfect-2.json".to_string()));
    let first: Value = serde_json::from_str(&read(&games.join("vs-random-1.json"))).unwrap();
    let same: Value = serde_json::from_str(&read(&games.join("legal-vs-random-1.json"))).unwrap();
    assert_eq!(first["players"], serde_json::json!(["good", "random"]));
    assert_eq!(first["moves"], same["moves"]);
    let replay = grader()
        .args(["play", "--replay"])
        .arg(games.join("vs-perfect-1.json"))
        .output()
        .unwrap();
    assert!(replay.status.success(), "{replay:?}");
    let transcript = read(&out.join("play-ttt/good/vs-perfect.txt"));
    assert!(
        transcript.starts_with("game 1: x good vs o perfect (seed "),
        "{transcript}"
    );
    assert!(
        transcript.contains("\nstart: ---------\nx (good) plays "),
        "{transcript}"
    );
    assert!(
        transcript.contains("result: x (good) draws with o (perfect)"),
        "{transcript}"
    );
    assert!(
        transcript.contains("\ngame 2: x perfect vs o good"),
        "{transcript}"
    );

    let selfplay = read(&out.join("play-ttt/good/self-play.txt"));
    assert!(
        selfplay.starts_with("game 1: x good vs o good (copy) (seed "),
        "{selfplay}"
    );
    assert!(
        selfplay.contains("result: x (good) draws with o (good (copy))"),
        "{selfplay}"
    );

    // `[entries]` sends `renamed` to its own module name.
    assert_eq!(result(&out, "renamed")["score"], 15.0);

    let illegal = result(&out, "illegal");
    let legal = case(&illegal, "legal-vs-random");
    assert_eq!(legal["verdict"], "wrong-answer");
    assert_eq!(legal["credit"], 0.0);
    assert_eq!(
        legal["summary"],
        "played legally in 0 of 4 games against `random`; 4 needed"
    );
    let details: Vec<&str> = legal["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    // The same fault in games of the same colour is said once, with the game numbers (issue 26).
    assert_eq!(
        details,
        [
            "games 1 and 3: it sent `0`: cell 0 is taken on move 3",
            "games 2 and 4: it sent `0`: cell 0 is taken on move 4"
        ],
        "{details:?}"
    );
    assert_eq!(
        case(&illegal, "self-play")["summary"],
        "played legally in 0 of 2 games against a copy of itself"
    );
    // Without `at-least`, the credit is the measure itself.
    assert_eq!(case(&illegal, "won-vs-random")["credit"], 0.0);

    let crash = result(&out, "crash");
    let details = case(&crash, "vs-random")["details"].to_string();
    assert!(
        details.contains(
            "games 1 and 3: it crashed (exit status 1) on move 3\",\"  stderr (last lines):\","
        ) && details.contains("\"    RuntimeError: boom\"")
            && details.contains(
                "\"games 2 and 4: it crashed (exit status 1) on move 4 (stderr as in game 1)\""
            ),
        "{details}"
    );
}

/// A result without what varies between runs: timings.
fn untimed(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for key in ["wall-ms", "cpu-ms", "peak-memory", "micros"] {
                    m.remove(key);
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

#[test]
fn play_results_are_deterministic() {
    let dir = scratch();
    let students = class(dir.path(), &["good", "illegal"]);
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    run(&students, &a, "1");
    run(&students, &b, "2");
    for student in ["good", "illegal"] {
        assert_eq!(
            untimed(result(&a, student)),
            untimed(result(&b, student)),
            "{student}"
        );
        let games = a.join("play-ttt").join(student).join("games");
        for e in std::fs::read_dir(&games).unwrap() {
            let name = e.unwrap().file_name();
            let other = b.join("play-ttt").join(student).join("games").join(&name);
            let x: Value = serde_json::from_str(&read(&games.join(&name))).unwrap();
            let y: Value = serde_json::from_str(&read(&other)).unwrap();
            assert_eq!(untimed(x), untimed(y), "{student}/{name:?}");
        }
    }
}

#[test]
fn check_plays_the_public_games_and_saves_them() {
    let dir = scratch();
    let students = class(dir.path(), &["good"]);
    let out = dir.path().join("mine");
    let o = grader()
        .arg("check")
        .arg(suite())
        .arg(students.join("good"))
        .arg("--out")
        .arg(&out)
        .args(["--sandbox", "basic"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("legal-vs-random"), "{stdout}");
    // Only the public group runs: the hidden `bots` cases do not.
    assert!(!stdout.contains("vs-perfect"), "{stdout}");
    assert!(stderr.contains("games: "), "{stderr}");
    let games = out.join("play-ttt/good/games");
    assert_eq!(std::fs::read_dir(&games).unwrap().count(), 4);
    assert_eq!(read(&dir.path().join("starts.txt")).lines().count(), 4);
}
