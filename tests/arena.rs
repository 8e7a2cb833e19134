//! The arena end to end: `grader play` and `grader tournament` with bots and with submission folders
//! speaking the persistent protocol, including players that misbehave.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::util::{grader, read, scratch};

/// A submission folder whose `player` is this `/bin/sh` script.
fn folder(root: &Path, name: &str, script: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let player = dir.join("player");
    std::fs::write(&player, format!("#!/bin/sh\n{script}")).unwrap();
    std::fs::set_permissions(&player, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir.to_string_lossy().into_owned()
}

/// A tic-tac-toe player in sh: answers `ready`, then plays the first blank of the board it is sent.
const FIRST_BLANK: &str = r#"while IFS="$(printf '\t')" read -r kind side last board; do
  case "$kind" in
    game) echo ready ;;
    turn) i=0; while [ "$(printf '%s' "$board" | cut -c$((i+1)))" != "-" ]; do i=$((i+1)); done; echo $i ;;
    end) exit 0 ;;
  esac
done
"#;

#[test]
fn play_bots_and_save_records() {
    let dir = scratch();
    let records = dir.path().join("records");
    let out = grader()
        .args([
            "play",
            "tictactoe",
            "random",
            "random",
            "--games",
            "3",
            "--seed",
            "5",
        ])
        .arg("--records")
        .arg(&records)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("game 2: x random#2 vs o random"), "{text}");
    assert!(text.contains("random: "), "{text}");
    let json = read(&records.join("game-0002.json"));
    let record: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(record["game"], "tictactoe");
    assert_eq!(record["players"][0], "random#2");
    assert!(record["moves"].as_array().unwrap().len() >= 5);
    assert!(record["reason"].as_str().unwrap().contains("by the rules"));
}

#[test]
fn show_prints_every_board() {
    let out = grader()
        .args([
            "play", "tmmorris", "random", "random", "--show", "--seed", "2",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("- - -\n- - -\n- - -"), "{text}");
    assert!(text.matches(" plays ").count() >= 5, "{text}");
}

#[test]
fn a_tournament_is_reproducible_for_any_jobs() {
    let run = |jobs: &str| {
        let out = grader()
            .args([
                "tournament",
                "tictactoe",
                "random",
                "random",
                "random",
                "random",
            ])
            .args(["--games", "4", "--seed", "9", "--jobs", jobs])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert!(one.starts_with("rank  player"), "{one}");
    assert_eq!(
        one.lines().filter(|l| l.contains(" ± ")).count(),
        4,
        "{one}"
    );
}

#[test]
fn a_staged_tournament_prints_each_stage() {
    let out = grader()
        .args([
            "tournament",
            "tictactoe",
            "random",
            "random",
            "random",
            "random",
            "random",
        ])
        .args(["--format", "staged", "--seed", "3"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("stage 1 group 1"), "{text}");
    assert!(text.contains("stage 1 group 2"), "{text}");
    assert!(text.contains("final"), "{text}");
}

#[test]
fn a_submission_plays_over_the_persistent_protocol() {
    let dir = scratch();
    let good = folder(dir.path(), "first-blank", FIRST_BLANK);
    let records = dir.path().join("records");
    grader()
        .args(["play", "tictactoe", &good, "random", "--games", "2"])
        .arg("--records")
        .arg(&records)
        .assert()
        .success();
    for n in ["game-0001.json", "game-0002.json"] {
        let r: serde_json::Value = serde_json::from_str(&read(&records.join(n))).unwrap();
        assert_ne!(r["ending"], "fault", "{r}");
    }
    let r: serde_json::Value =
        serde_json::from_str(&read(&records.join("game-0001.json"))).unwrap();
    assert_eq!(r["players"][0], "first-blank");
    assert_eq!(r["moves"][0]["sent"], "0");
}

#[test]
fn misbehaving_submissions_lose_cleanly_and_promptly() {
    let dir = scratch();
    let config = dir.path().join("arena.toml");
    std::fs::write(
        &config,
        "[arena]\ngame = \"tictactoe\"\nmove-limit = \"300ms\"\nstartup = \"1s\"\n",
    )
    .unwrap();
    let cases = [
        ("hangs", "read l; echo ready; sleep 100\n", "timed out"),
        (
            "floods",
            "read l; echo ready; read l; head -c 100000000 /dev/zero\n",
            "flooded",
        ),
        (
            "crashes",
            "read l; echo ready; read l; exit 3\n",
            "crashed (exit status 3)",
        ),
        (
            "garbage",
            "read l; echo ready; read l; printf '\\377\\376\\n'; sleep 5\n",
            "not UTF-8",
        ),
        (
            "closes",
            "read l; echo ready; exec 1>&-; sleep 100\n",
            "closed its pipe",
        ),
        (
            "forks",
            "read l; echo ready; read l; (sleep 100) & exit 0\n",
            "timed out",
        ),
        (
            "illegal",
            "read l; echo ready; read l; echo 42; sleep 5\n",
            "sent `42`",
        ),
        ("mute", "sleep 100\n", "failed to start"),
    ];
    for (name, script, reason) in cases {
        let player = folder(dir.path(), name, script);
        let started = Instant::now();
        let out = grader()
            .arg("play")
            .arg(&config)
            .args([&player, "random"])
            .timeout(Duration::from_secs(30))
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(&format!("o (random) beats x ({name})")),
            "{name}: {text}"
        );
        assert!(text.contains(reason), "{name}: `{reason}` not in {text}");
        assert!(
            started.elapsed() < Duration::from_secs(12),
            "{name} took {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn bad_games_bots_and_configs_are_usage_errors() {
    grader()
        .args(["play", "chess", "random", "random"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unknown game `chess`"))
        .stderr(predicates::str::contains("hint:"));
    grader()
        .args(["play", "tictactoe", "random", "genius"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bot `genius`"));
    let dir = scratch();
    let config = dir.path().join("arena.toml");
    std::fs::write(
        &config,
        "[arena]\ngame = \"tictactoe\"\nmove-limit = \"soon\"\n",
    )
    .unwrap();
    grader()
        .arg("play")
        .arg(&config)
        .args(["random", "random"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "arena.toml:3:14: bad move-limit `soon`",
        ));
}
