//! The UBC 2004 Oska suite: the SWI-Prolog adapter on its own (entry discovery, student output, errors),
//! and the example players driven per move by `grader play` with the predicate's arguments.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{grader, read, repo, scratch};

const SUITE: &str = "suites/ubc-2004-oska";
const EXAMPLES: &str = "examples/submissions/ubc-2004-oska";
const START: &str = "[[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]";

/// `swipl`, or `None` after printing why the test is skipped.
fn swipl() -> Option<&'static str> {
    let found = Command::new("swipl").arg("--version").output().is_ok();
    if !found {
        eprintln!("skipped: `swipl` (SWI-Prolog) is not installed");
    }
    found.then_some("swipl")
}

/// A submission folder holding `files` and the suite's adapter, as the build copy would.
fn prolog_folder(root: &Path, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    std::fs::copy(
        repo().join(SUITE).join("adapters/oska_adapter.pl"),
        dir.join("oska_adapter.pl"),
    )
    .unwrap();
    dir
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn adapter(swipl: &str, dir: &Path, entry: &str, board: &str, colour: &str, depth: &str) -> Ran {
    let out = Command::new(swipl)
        .arg("-q")
        .arg(dir.join("oska_adapter.pl"))
        .arg(dir)
        .args([entry, board, colour, depth])
        .output()
        .unwrap();
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn example(name: &str, file: &str) -> String {
    read(&repo().join(EXAMPLES).join(name).join(file))
}

#[test]
fn the_adapter_finds_the_one_top_level_predicate_and_prints_its_board() {
    let Some(swipl) = swipl() else { return };
    let dir = scratch();
    let good = example("prolog-good", "oskaroo_k9z3.pl");
    let sub = prolog_folder(dir.path(), "good", &[("oskaroo_k9z3.pl", &good)]);
    let ran = adapter(swipl, &sub, "", START, "w", "2");
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(ran.stdout, "[[e,w,w,w],[w,e,e],[e,e],[e,e,e],[b,b,b,b]]\n");
    // Named explicitly (the suite's [entries]), the same predicate gives the same board.
    let named = adapter(swipl, &sub, "oskaroo_k9z3", START, "w", "2");
    assert_eq!(named.stdout, ran.stdout, "{}", named.stderr);
}

#[test]
fn the_adapter_says_when_the_predicate_is_missing_or_ambiguous() {
    let Some(swipl) = swipl() else { return };
    let dir = scratch();
    let two = example("prolog-two-tops", "oskaroo_k9z3.pl");
    let sub = prolog_folder(dir.path(), "two", &[("oskaroo_k9z3.pl", &two)]);
    let ran = adapter(swipl, &sub, "", START, "w", "2");
    assert_eq!(ran.code, Some(2));
    assert_eq!(ran.stdout, "");
    assert_eq!(
        ran.stderr.trim(),
        "error: several top-level 4-argument predicates in your file (`oskaroo_k9z3`, \
         `oskaroo_v1_k9z3`); keep one, or ask your instructor to name yours in the suite's [entries]"
    );
    // Naming one settles it.
    let named = adapter(swipl, &sub, "oskaroo_k9z3", START, "w", "2");
    assert_eq!(named.code, Some(0), "{}", named.stderr);

    let wrong = adapter(swipl, &sub, "oskamaniac", START, "w", "2");
    assert_eq!(wrong.code, Some(2));
    assert!(
        wrong
            .stderr
            .contains("error: no predicate `oskamaniac/4` in your file"),
        "{}",
        wrong.stderr
    );

    let none = prolog_folder(dir.path(), "none", &[("x.pl", "helper(A, B) :- A = B.\n")]);
    let ran = adapter(swipl, &none, "", START, "w", "2");
    assert_eq!(ran.code, Some(2));
    assert!(
        ran.stderr
            .contains("error: no predicate with four arguments"),
        "{}",
        ran.stderr
    );

    let empty = prolog_folder(dir.path(), "empty", &[("notes.txt", "hi")]);
    let ran = adapter(swipl, &empty, "", START, "w", "2");
    assert!(
        ran.stderr
            .contains("error: no Prolog file (*.pl) in your submission"),
        "{}",
        ran.stderr
    );
}

#[test]
fn student_output_goes_to_stderr_and_a_failing_predicate_prints_nothing() {
    let Some(swipl) = swipl() else { return };
    let dir = scratch();
    // CILOG syntax (`<-`, `&`), noise while loading and while thinking, and a clause that fails.
    let noisy = "\
:- format(\"loading...~n\").
play_q1(B, C, _, N) <- print(thinking(C)) & nl & pick_q1(B, N).
pick_q1([[w,w,w,w]|Rest], [[e,w,w,w]|Rest2]) <- Rest = [[e,e,e]|T] & Rest2 = [[w,e,e]|T].
";
    let sub = prolog_folder(dir.path(), "noisy", &[("noisy.pl", noisy)]);
    let ran = adapter(swipl, &sub, "", START, "w", "1");
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(ran.stdout, "[[e,w,w,w],[w,e,e],[e,e],[e,e,e],[b,b,b,b]]\n");
    assert!(ran.stderr.contains("loading..."), "{}", ran.stderr);
    assert!(ran.stderr.contains("thinking(w)"), "{}", ran.stderr);

    let fails = adapter(
        swipl,
        &sub,
        "",
        "[[e,e,e,e],[e,e,e],[e,e],[b,w,e],[b,b,b,e]]",
        "w",
        "1",
    );
    assert_eq!(fails.code, Some(0), "{}", fails.stderr);
    assert_eq!(
        fails.stdout, "",
        "a failing predicate is a pass: nothing on stdout"
    );
    assert!(
        fails.stderr.contains("note: `play_q1/4` failed"),
        "{}",
        fails.stderr
    );

    let raises = prolog_folder(
        dir.path(),
        "raises",
        &[("r.pl", "top_r(_, _, D, _) :- X is D / foo, print(X).\n")],
    );
    let ran = adapter(swipl, &raises, "", START, "w", "1");
    assert_eq!(ran.code, Some(2));
    assert!(
        ran.stderr.contains("error: `top_r/4` raised an error"),
        "{}",
        ran.stderr
    );
}

/// An arena table running a Python example per move, as the suite's recipe does.
fn python_arena(root: &Path, depth: &str, game: &str) -> PathBuf {
    let path = root.join(format!("oska-{game}-{depth}.toml").replace(':', "-"));
    std::fs::write(
        &path,
        format!(
            "[arena]\ngame = \"{game}\"\nprotocol = \"per-move\"\nreply = \"state\"\n\
             command = [\"python3\", \"oska.py\", \"{{state}}\", \"{{side}}\", \"{depth}\"]\n\
             move-limit = \"5s\"\n"
        ),
    )
    .unwrap();
    path
}

fn python3() -> bool {
    let found = Command::new("python3").arg("--version").output().is_ok();
    if !found {
        eprintln!("skipped: `python3` is not installed");
    }
    found
}

/// Plays `example` against `bot` and returns stdout, with records in `records`.
fn play(arena: &Path, example: &str, bot: &str, games: &str, records: &Path) -> String {
    let out = grader()
        .arg("play")
        .arg(arena)
        .arg(repo().join(EXAMPLES).join(example))
        .arg(bot)
        .args(["--games", games, "--seed", "4"])
        .arg("--records")
        .arg(records)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_python_player_gets_the_predicates_arguments_and_plays_legally() {
    if !python3() {
        return;
    }
    let dir = scratch();
    let records = dir.path().join("records");
    let out = play(
        &python_arena(dir.path(), "2", "oska:5"),
        "python-good",
        "random",
        "2",
        &records,
    );
    assert!(!out.contains("sent"), "no illegal board: {out}");
    let game = read(&records.join("game-0001.json"));
    // The first reply is the 5-piece board one white move on: the program got `w` (it refuses
    // anything else) and the board in the handout's notation.
    assert!(
        game.contains(
            "\"sent\": \"[[e,w,w,w,w],[w,e,e,e],[e,e,e],[e,e],[e,e,e],[e,e,e,e],[b,b,b,b,b]]\""
        ),
        "{game}"
    );
    assert!(!game.contains("\"ending\": \"fault\""), "{game}");
}

#[test]
fn flawed_players_lose_with_the_rule_they_broke() {
    if !python3() {
        return;
    }
    let dir = scratch();
    let records = dir.path().join("records");
    // At depth 2 every first move looks no better than standing still: the board comes back unchanged.
    let out = play(
        &python_arena(dir.path(), "2", "oska"),
        "python-unchanged",
        "random",
        "1",
        &records,
    );
    assert!(
        out.contains("white (random) beats black (python-unchanged)")
            || out.contains("black (random) beats white (python-unchanged)"),
        "{out}"
    );
    let game = read(&records.join("game-0001.json"));
    assert!(
        game.contains("the board is unchanged, but `w` has 6 legal moves; a side passes only when it cannot move"),
        "{game}"
    );
}

#[test]
fn the_suite_validates() {
    grader()
        .arg("validate")
        .arg(repo().join(SUITE))
        .assert()
        .success()
        .stdout(
            "ok: `ubc-2004-oska`: 5 groups, 15 cases (4 public), 55 points, manual: structure /10, \
             manual: docs /10, manual: wish-list /5, languages: c, java, prolog, python\n",
        );
}
