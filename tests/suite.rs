//! `grader validate`: good suites load, malformed ones fail with path:line:col errors (snapshots).

use std::path::Path;

use crate::util::{grader, scratch};

/// A minimal valid suite using only a hand-written golden file (the fuzzing of `suite.toml` starts
/// from it too).
pub const GOOD: &str = r#"title = "Echo"
seed = 7

[limits]
cpu = "2s"

[[languages]]
name = "python"
detect = ["echo.py"]
run = ["python3", "{dir}/echo.py"]

[[groups]]
name = "basic"
points = 3
visibility = "public"

[[groups.cases]]
name = "hello"
args = ["hello", "{work}/out.txt"]
stdout = { golden = "golden/hello.stdout", compare = "tokens" }
"#;

/// Runs `grader validate` on a suite folder holding `toml` (and a golden file), returning the transcript.
fn validate(toml: &str) -> String {
    let dir = scratch();
    let suite = dir.path().join("echo");
    std::fs::create_dir_all(suite.join("golden")).unwrap();
    std::fs::write(suite.join("golden/hello.stdout"), "hello\n").unwrap();
    std::fs::write(suite.join("suite.toml"), toml).unwrap();
    transcript(&suite, dir.path())
}

fn transcript(suite: &Path, root: &Path) -> String {
    let out = grader().arg("validate").arg(suite).output().unwrap();
    let text = format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    text.replace(&root.display().to_string(), "[TMP]")
}

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots/suite", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

#[test]
fn a_good_suite_validates() {
    snapshot!("good", validate(GOOD));
}

#[test]
fn an_unknown_key_is_located() {
    snapshot!(
        "unknown_key",
        validate(&GOOD.replace("points = 3", "points = 3\npoint = 4"))
    );
}

#[test]
fn a_bad_type_is_located() {
    snapshot!(
        "bad_type",
        validate(&GOOD.replace("points = 3", "points = \"three\""))
    );
}

#[test]
fn a_missing_golden_file_is_located() {
    snapshot!(
        "missing_golden",
        validate(&GOOD.replace("golden/hello.stdout", "golden/bye.stdout"))
    );
}

#[test]
fn a_bad_duration_is_located() {
    snapshot!(
        "bad_duration",
        validate(&GOOD.replace("\"2s\"", "\"2 seconds\""))
    );
}

#[test]
fn bad_values_are_located() {
    snapshot!(
        "bad_visibility",
        validate(&GOOD.replace("\"public\"", "\"secret\""))
    );
    snapshot!(
        "bad_placeholder",
        validate(&GOOD.replace("{work}", "{tmp}"))
    );
    snapshot!(
        "bad_comparator",
        validate(&GOOD.replace("\"tokens\"", "\"fuzzy\""))
    );
    snapshot!(
        "no_expectation",
        validate(&GOOD.replace("golden = \"golden/hello.stdout\", ", ""))
    );
    snapshot!(
        "unknown_reference",
        validate(&GOOD.replace("golden = \"golden/hello.stdout\"", "reference = \"chess\""))
    );
}

#[test]
fn a_folder_without_a_suite_is_named() {
    let dir = scratch();
    snapshot!("not_a_suite", transcript(dir.path(), dir.path()));
}

/// A valid suite graded by playing: an arena, entries, a manual column, a play and a position case.
const GAMES: &str = r#"title = "Games"
seed = 7

[arena]
game = "tictactoe"
move-limit = "1s"

[entries]
default = "my-ai"
students = { team-07 = "Team7" }

[[languages]]
name = "python"
detect = ["*.py"]
support = ["adapters/run.py"]
run = ["python3", "{dir}/run.py", "{entry}"]

[[manual]]
name = "effort"
title = "Organisation and apparent effort"
points = 15

[[groups]]
name = "play"
points = 10
visibility = "public"

[[groups.cases]]
name = "vs-random"
play = { opponent = "random", games = 4, measure = "won", at-least = 0.5 }

[[groups.cases]]
name = "takes-win"
position = { state = "xx-oo----", side = "x", expect = "win" }
"#;

/// `grader validate` on a games suite folder holding `toml` and its adapter.
fn validate_games(toml: &str) -> String {
    let dir = scratch();
    let suite = dir.path().join("games");
    std::fs::create_dir_all(suite.join("adapters")).unwrap();
    std::fs::write(suite.join("adapters/run.py"), "").unwrap();
    std::fs::write(suite.join("suite.toml"), toml).unwrap();
    transcript(&suite, dir.path())
}

#[test]
fn a_good_games_suite_validates() {
    snapshot!("games_good", validate_games(GAMES));
}

#[test]
fn bad_play_cases_are_located() {
    let cases = [
        ("play_unknown_bot", "\"random\"", "\"grandmaster\""),
        ("play_bad_bot_parameter", "\"random\"", "\"minimax:deep\""),
        (
            "play_other_game",
            "games = 4,",
            "games = 4, game = \"oska:5\",",
        ),
        ("play_zero_games", "games = 4", "games = 0"),
        ("play_at_least_out_of_range", "at-least = 0.5", "at-least = 1.5"),
        ("play_unknown_measure", "\"won\"", "\"lost\""),
        ("play_bad_move_limit", "games = 4,", "games = 4, move-limit = \"quick\","),
        (
            "play_bad_transcript",
            "games = 4,",
            "games = 4, transcript = \"../x.txt\",",
        ),
        (
            "play_mixed_with_run_keys",
            "name = \"vs-random\"",
            "name = \"vs-random\"\nargs = [\"x\"]",
        ),
        (
            "play_and_position",
            "name = \"vs-random\"",
            "name = \"vs-random\"\nposition = { state = \"---------\", side = \"x\", expect = \"legal\" }",
        ),
    ];
    for (name, from, to) in cases {
        assert!(GAMES.contains(from), "{name}: `{from}` not in the suite");
        snapshot!(name, validate_games(&GAMES.replacen(from, to, 1)));
    }
    let again = "\n[[groups]]\nname = \"more\"\npoints = 1\n\n[[groups.cases]]\nname = \"vs-random\"\nplay = { opponent = \"perfect\", games = 2, measure = \"legal\" }\n";
    snapshot!(
        "play_case_in_two_groups",
        validate_games(&format!("{GAMES}{again}"))
    );
    let transcripts = format!(
        "{}{}",
        GAMES.replacen("games = 4,", "games = 4, transcript = \"t.txt\",", 1),
        again
            .replace("\"vs-random\"", "\"vs-perfect\"")
            .replace("games = 2,", "games = 2, transcript = \"t.txt\",")
    );
    snapshot!("play_transcript_twice", validate_games(&transcripts));
}

#[test]
fn bad_position_cases_are_located() {
    let cases = [
        ("position_bad_state", "\"xx-oo----\"", "\"xx-oo---\""),
        ("position_bad_side", "side = \"x\"", "side = \"white\""),
        ("position_wrong_side", "side = \"x\"", "side = \"o\""),
        ("position_unknown_expect", "\"win\"", "\"draw\""),
        (
            "position_file_without_comparator",
            "expect = \"win\" }",
            "expect = \"win\" }\nfiles.\"visited.txt\" = { golden = \"g\" }",
        ),
        (
            "position_in_dialogue_suite",
            "move-limit = \"1s\"",
            "protocol = \"dialogue\"\n[arena.dialogue]\nprompt = \"move\"\nreply = '(?P<move>\\d)'",
        ),
    ];
    for (name, from, to) in cases {
        assert!(GAMES.contains(from), "{name}: `{from}` not in the suite");
        snapshot!(name, validate_games(&GAMES.replacen(from, to, 1)));
    }
}

#[test]
fn bad_game_tables_are_located() {
    let cases = [
        (
            "games_no_arena",
            "[arena]\ngame = \"tictactoe\"\nmove-limit = \"1s\"\n",
            "",
        ),
        (
            "arena_bad_move_limit",
            "move-limit = \"1s\"",
            "move-limit = \"fast\"",
        ),
        (
            "arena_unknown_game",
            "game = \"tictactoe\"",
            "game = \"chess\"",
        ),
        ("detect_bad_pattern", "[\"*.py\"]", "[\"src/*.py\"]"),
        ("support_missing", "adapters/run.py", "adapters/gone.py"),
        ("support_outside", "adapters/run.py", "../run.py"),
        ("manual_negative_points", "points = 15", "points = -1"),
        (
            "manual_clashes_with_group",
            "name = \"effort\"",
            "name = \"play\"",
        ),
        (
            "entries_unknown_key",
            "default = \"my-ai\"",
            "fallback = \"my-ai\"",
        ),
    ];
    for (name, from, to) in cases {
        assert!(GAMES.contains(from), "{name}: `{from}` not in the suite");
        snapshot!(name, validate_games(&GAMES.replacen(from, to, 1)));
    }
    // Issue 17: `grader run` writes `[arena.marks]` into a `tournament` column, entered through a gate.
    let marks =
        "move-limit = \"1s\"\n\n[arena.marks]\nby-rank = [10, 5]\nall-faults = 0\ngate = \"legal\"";
    let with_marks = GAMES.replacen("move-limit = \"1s\"", marks, 1);
    snapshot!("marks_gate_names_no_group", validate_games(&with_marks));
    snapshot!(
        "marks_column_named_tournament",
        validate_games(&with_marks.replacen("\"legal\"", "\"play\"", 1).replacen(
            "name = \"effort\"",
            "name = \"tournament\"",
            1
        ))
    );
}

#[test]
fn python_versions_are_checked_with_their_place() {
    let with = |versions: &str| {
        GOOD.replace(
            "run = [\"python3\", \"{dir}/echo.py\"]",
            &format!("run = [\"python3\", \"{{dir}}/echo.py\"]\nversions = {versions}"),
        )
    };
    let ok = validate(&with(r#"["3", "2"]"#));
    assert!(ok.starts_with("exit: 0"), "{ok}");
    let bad = validate(&with(r#"["3", "2.7"]"#));
    assert!(bad.starts_with("exit: 1"), "{bad}");
    assert!(
        bad.contains("suite.toml:11:18: `languages[0].versions[1]`: unknown value `2.7`\n"),
        "{bad}"
    );
    let twice = validate(&with(r#"["2", "2"]"#));
    assert!(
        twice.contains("Python version `2` is listed twice"),
        "{twice}"
    );
    let not_python =
        validate(&with(r#"["3"]"#).replace("[\"python3\", \"{dir}/echo.py\"]", "[\"{dir}/echo\"]"));
    assert!(
        not_python.contains("sets `versions`, but its `run` command does not start with `python3`"),
        "{not_python}"
    );
}

/// One run reports every problem: unknown keys with the nearest known one, absurd points, a value of
/// the wrong form; then, once the file's form is right, every part the loader refuses (issue 30).
#[test]
fn every_problem_is_reported_in_one_run() {
    let many = GOOD
        .replace("points = 3", "pionts = 3\npoints = 1e308")
        .replace("cpu = \"2s\"", "cpu = \"2s\"\nwal = \"4s\"")
        .replace("visibility = \"public\"", "visibility = \"pubic\"");
    snapshot!("every_problem", validate(&many));
    let loaded = GOOD.replace("golden/hello.stdout", "golden/bye.stdout")
        + "\n[[groups]]\nname = \"more\"\npoints = 1\n[[groups.cases]]\nname = \"x\"\nargs = [\"{tmp}\"]\nstdout = { golden = \"golden/hello.stdout\" }\n\n[calibrate]\npython = \"../../examples/submissions/echo/python-correct\"\n";
    snapshot!("every_problem_loaded", validate(&loaded));
}

/// A suite without `[[languages]]` is refused (every student would get a compile error blamed on
/// them), by `validate` and by the commands that load it.
#[test]
fn a_suite_without_languages_is_refused() {
    let none = GOOD.replace(
        "[[languages]]\nname = \"python\"\ndetect = [\"echo.py\"]\nrun = [\"python3\", \"{dir}/echo.py\"]\n",
        "",
    );
    let out = validate(&none);
    assert!(out.starts_with("exit: 1"), "{out}");
    assert!(
        out.contains("suite.toml: the file has no `[[languages]]`"),
        "{out}"
    );
    let dir = scratch();
    let suite = dir.path().join("echo");
    std::fs::create_dir_all(suite.join("golden")).unwrap();
    std::fs::write(suite.join("golden/hello.stdout"), "hello\n").unwrap();
    std::fs::write(suite.join("suite.toml"), &none).unwrap();
    let students = dir.path().join("class");
    std::fs::create_dir_all(students.join("ann")).unwrap();
    let run = grader()
        .arg("run")
        .arg(&suite)
        .arg(&students)
        .arg("--out")
        .arg(dir.path().join("r"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the suite has no `[[languages]]`"),
        "{stderr}"
    );
}

/// A file in another encoding is named with the byte, its line and column, and what it likely is.
#[test]
fn a_file_that_is_not_utf8_says_why() {
    let dir = scratch();
    let suite = dir.path().join("echo");
    std::fs::create_dir_all(suite.join("golden")).unwrap();
    std::fs::write(suite.join("golden/hello.stdout"), "hello\n").unwrap();
    let mut bytes = GOOD
        .replace("title = \"Echo\"", "title = \"Écho\"")
        .into_bytes();
    // `É` in Latin-1, as an editor set to it saves the file.
    let at = bytes.iter().position(|&b| b == 0xC3).unwrap();
    bytes.splice(at..at + 2, [0xC9]);
    std::fs::write(suite.join("suite.toml"), bytes).unwrap();
    let out = transcript(&suite, dir.path());
    assert!(out.starts_with("exit: 1"), "{out}");
    assert!(
        out.contains("suite.toml:1:10: invalid UTF-8: byte 0xC9 is not UTF-8; in Latin-1 or Windows-1252 it is `É`"),
        "{out}"
    );
    assert!(out.contains("hint: save the file as UTF-8"), "{out}");
}
