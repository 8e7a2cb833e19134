//! Same fault, no replay (`grade::samefault`): a program that fails the same way before any move in
//! games 1 and 2 of a play case has the case's other games scored as that fault, not played. Each test
//! grades the same program with the rule on and off (`GRADER_REPLAY_FAULTS=1`) and pins that the marks
//! agree, that the games were not played (the program's starts are counted), and what the feedback
//! and `result.json` say.

use std::path::Path;

use serde_json::Value;

use crate::util::{grader, read, repo, scratch};

/// `grader run SUITE CLASS --out OUT`, with the rule off when `replay_all`; returns the suite's
/// results folder.
fn run(suite: &Path, class: &Path, out: &Path, replay_all: bool) -> std::path::PathBuf {
    let mut cmd = grader();
    cmd.arg("run")
        .arg(suite)
        .arg(class)
        .arg("--out")
        .arg(out)
        .args(["--sandbox", "basic", "--jobs", "1"]);
    if replay_all {
        cmd.env("GRADER_REPLAY_FAULTS", "1");
    } else {
        cmd.env_remove("GRADER_REPLAY_FAULTS");
    }
    let o = cmd.output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    out.join(suite.file_name().unwrap())
}

fn result(results: &Path, student: &str) -> Value {
    serde_json::from_str(&read(&results.join(student).join("result.json"))).unwrap()
}

fn case<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case `{name}` in {r}"))
}

/// How many times the program started (one line a start in `counter`), then empties the counter.
fn starts(counter: &Path) -> usize {
    let n = std::fs::read_to_string(counter).map_or(0, |t| t.lines().count());
    let _ = std::fs::remove_file(counter);
    n
}

/// What the rule must not change: every case's verdict, credit and summary, every group's points, the
/// score.
fn marks(r: &Value) -> Value {
    let cases: Vec<Value> = r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| serde_json::json!([c["name"], c["verdict"], c["credit"], c["summary"]]))
        .collect();
    serde_json::json!({ "cases": cases, "groups": r["groups"], "score": r["score"] })
}

/// The game records a case saved, by number.
fn saved(results: &Path, student: &str, case: &str) -> Vec<u32> {
    let mut games: Vec<u32> = std::fs::read_dir(results.join(student).join("games"))
        .map(|d| {
            d.filter_map(|e| {
                let name = e.ok()?.file_name().to_string_lossy().into_owned();
                let k = name
                    .strip_prefix(&format!("{case}-"))?
                    .strip_suffix(".json")?;
                k.parse().ok()
            })
            .collect()
        })
        .unwrap_or_default();
    games.sort_unstable();
    games
}

#[test]
fn a_program_whose_opening_is_never_understood_plays_two_games_a_set() {
    // The WPI suite with a 1 s wait for the opening question instead of 5 s.
    let dir = scratch();
    let suite = dir.path().join("wpi-2000-ttt");
    std::fs::create_dir_all(&suite).unwrap();
    let toml = read(&repo().join("suites/wpi-2000-ttt/suite.toml"));
    assert!(toml.contains("expect-timeout = \"5s\""));
    std::fs::write(
        suite.join("suite.toml"),
        toml.replace("expect-timeout = \"5s\"", "expect-timeout = \"1s\""),
    )
    .unwrap();
    // A program with a banner of its own that waits for a key the grader never sends.
    let counter = dir.path().join("starts.txt");
    let student = dir.path().join("class/banner");
    std::fs::create_dir_all(&student).unwrap();
    std::fs::write(
        student.join("tictactoe.py"),
        format!(
            "import sys\nwith open({:?}, 'a') as f:\n    f.write('start\\n')\n\
             print('Welcome to TIC-TAC-TOE 2000! Press Enter to begin.', flush=True)\n\
             for line in sys.stdin:\n    pass\n",
            counter.display().to_string()
        ),
    )
    .unwrap();
    let class = dir.path().join("class");

    let on = run(&suite, &class, &dir.path().join("on"), false);
    // Three sets of games (10 against `random`, 6 against `perfect`, 4 with invalid inputs): two
    // games of each played.
    assert_eq!(starts(&counter), 6);
    let off = run(&suite, &class, &dir.path().join("off"), true);
    assert_eq!(starts(&counter), 10 + 6 + 4);

    let (r_on, r_off) = (result(&on, "banner"), result(&off, "banner"));
    assert_eq!(marks(&r_on), marks(&r_off));
    assert_eq!(r_on["score"], 0.0);

    let opening = case(&r_on, "opening");
    assert_eq!(
        opening["summary"],
        "asked for the mark and then moved in turn in 0 of 10 games against `random`"
    );
    assert_eq!(
        opening["not-played"]["games"],
        serde_json::json!([3, 4, 5, 6, 7, 8, 9, 10])
    );
    let fault = opening["not-played"]["fault"].as_str().unwrap();
    assert!(fault.starts_with("x failed to start: "), "{fault}");
    let details: Vec<&str> = opening["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    // The same fault in both games is said once, with the games' numbers.
    assert!(
        details[0].starts_with("games 1 and 2: the game never started: "),
        "{details:#?}"
    );
    assert_eq!(
        details[1],
        format!(
            "games 3–10 were not played: games 1 and 2 ended in the same fault before any move \
             ({fault}), and a game of either colour would end so again; each is scored as that fault"
        )
    );
    assert_eq!(details.len(), 2, "{details:#?}");
    assert_eq!(
        case(&r_on, "rejects-invalid")["not-played"]["games"],
        serde_json::json!([3, 4])
    );
    assert_eq!(saved(&on, "banner", "opening"), [1, 2]);

    // With the rule off every game is played and saved, and nothing says otherwise.
    let opening = case(&r_off, "opening");
    assert!(opening.get("not-played").is_none(), "{opening}");
    assert_eq!(
        saved(&off, "banner", "opening"),
        (1..=10).collect::<Vec<_>>()
    );
    assert!(!opening["details"].to_string().contains("not played"));
}

#[test]
fn a_fault_after_a_move_or_only_in_one_colour_is_played_out() {
    let dir = scratch();
    let suite = repo().join("tests/fixtures/play-ttt");
    let counter = dir.path().join("starts.txt");
    let count = format!(
        "with open({:?}, 'a') as f:\n    f.write('start\\n')\n",
        counter.display().to_string()
    );
    let class = dir.path().join("class");
    let write = |student: &str, body: &str| {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::write(
            class.join(student).join("player.py"),
            format!("{count}{body}"),
        )
        .unwrap();
    };
    // Cannot load what it needs, whatever its colour: the same fault before any move.
    write("missing", "WEIGHTS = open('weights.txt').read()\n");
    let on = run(&suite, &class, &dir.path().join("on"), false);
    // 4 games against `random` shared by three cases (2 played), 2 against `perfect`, 2 against
    // itself (two programs a game).
    assert_eq!(starts(&counter), 2 + 2 + 2 * 2);
    let off = run(&suite, &class, &dir.path().join("off"), true);
    assert_eq!(starts(&counter), 4 + 2 + 2 * 2);
    let (r_on, r_off) = (result(&on, "missing"), result(&off, "missing"));
    assert_eq!(marks(&r_on), marks(&r_off));
    let legal = case(&r_on, "legal-vs-random");
    assert_eq!(legal["not-played"]["games"], serde_json::json!([3, 4]));
    assert!(
        legal["details"].to_string().contains("FileNotFoundError"),
        "{legal}"
    );
    // Two games are all the case has: nothing to leave out.
    assert!(case(&r_on, "vs-perfect").get("not-played").is_none());

    // Fails only when it moves second: games 1 and 2 differ, so all four are played.
    std::fs::remove_dir_all(&class).unwrap();
    write(
        "second",
        "def move(board, side):\n    if side == 'o':\n        raise RuntimeError('o')\n    \
         return str(board.index('-'))\n",
    );
    let on = run(&suite, &class, &dir.path().join("on2"), false);
    let r = result(&on, "second");
    assert!(case(&r, "legal-vs-random").get("not-played").is_none());
    assert_eq!(saved(&on, "second", "legal-vs-random"), [1, 2, 3, 4]);
}
