//! The UT3 suite (seed 002) end to end: the Python adapter running classes written to the handout's
//! interface, each flawed example losing with its reason, and the suite's tournament with marks.

use std::path::{Path, PathBuf};

use crate::util::{grader, read, repo, scratch};

/// `grader run` on the suite and its examples: every check's summary pinned here, its verdict by the
/// example's `.expected.toml`.
#[test]
fn every_example_gets_its_pinned_verdicts() {
    let dir = scratch();
    grader()
        .arg("run")
        .arg(suite())
        .arg(repo().join("examples/submissions/iiit-2015-ut3"))
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    let root = dir.path().join("iiit-2015-ut3");
    let legal = |n: u32| format!("L{n}");
    // Since the ladder work (issue #5) `offensive` does not send the opponent to a block it completes
    // at once, which made it win 95% of decided games against `random` (85% before): `c-greedy` now
    // holds it in 1 game of 4 (4 before), the random agents in none (1 before), and `stale-state`
    // plays none of its 4 games against it without a fault (1 before).
    let pinned: [(&str, [String; 4]); 13] = [
        ("c-greedy", [legal(4), legal(4), "W3".into(), "N1".into()]),
        (
            "crashes-turn-5",
            [legal(0), legal(0), "W0".into(), "N0".into()],
        ),
        ("decent", [legal(4), legal(4), "W4".into(), "N4".into()]),
        // Calls sys.exit(1) on its first move as x; as o it plays random legal moves.
        (
            "exits-in-move",
            [legal(2), legal(2), "W2".into(), "N0".into()],
        ),
        ("illegal", [legal(0), legal(0), "W0".into(), "N0".into()]),
        ("malformed", [legal(0), legal(0), "W0".into(), "N0".into()]),
        (
            "modifies-board",
            [legal(0), legal(0), "W0".into(), "N0".into()],
        ),
        (
            "prints-stdout",
            [legal(4), legal(4), "W4".into(), "N0".into()],
        ),
        (
            "random-handout",
            [legal(4), legal(4), "W4".into(), "N0".into()],
        ),
        ("sleeps", [legal(2), legal(2), "W2".into(), "N0".into()]),
        // Python 2 (print statements, `has_key`, integer `/`), run with Python 2 by the adapter.
        (
            "python2-greedy",
            [legal(4), legal(4), "W2".into(), "N2".into()],
        ),
        (
            "stale-state",
            [legal(0), legal(0), "W0".into(), "N0".into()],
        ),
        // Its file does not load: every game is lost before the first move.
        (
            "syntax-error",
            [legal(0), legal(0), "W0".into(), "N0".into()],
        ),
    ];
    for (student, want) in pinned {
        let result: serde_json::Value =
            serde_json::from_str(&read(&root.join(student).join("result.json"))).unwrap();
        let got: Vec<String> = result["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let summary = c["summary"].as_str().unwrap();
                let count = summary
                    .split_whitespace()
                    .find_map(|w| w.parse::<u32>().ok())
                    .unwrap();
                let kind = if summary.starts_with("played legally") {
                    "L"
                } else if summary.starts_with("won or drew") {
                    "N"
                } else {
                    "W"
                };
                format!("{kind}{count}")
            })
            .collect();
        assert_eq!(got, want, "{student}");
    }
    // The verdicts (each count against its case's threshold: 4, 4, 3, 2) as the `.expected.toml`
    // files pin them, through the code `grader verify` uses.
    crate::util::assert_as_expected(
        &root,
        &repo().join("examples/submissions/iiit-2015-ut3"),
        &[],
    );
    let two: serde_json::Value =
        serde_json::from_str(&read(&root.join("python2-greedy/result.json"))).unwrap();
    assert!(
        two["build"]["interpreter"]["version"]
            .as_str()
            .unwrap()
            .starts_with("2."),
        "{two}"
    );
    // Issue 17: the run plays the class tournament. The checks carry no marks, so they read pass/fail
    // and a share (never `0/0`); the seven teams that fail `plays-legally` are left out with the
    // all-faults 0; the five others play the final round robin (seed 2015) for 40, 38, 36, 34, 32; the
    // manual column waits for a person (issue 32): each total is out of 100 and incomplete until the
    // 60 manual marks are given. EXPECTED.md explains each row.
    let grades = read(&root.join("grades.csv"));
    assert_eq!(
        grades,
        "student,plays-legally,benchmarks,tournament,manual,max,late-hours,late-deduction,total,total-note\n\
         c-greedy,pass,50%,38,,100,,,,incomplete: 60 manual marks not given\n\
         crashes-turn-5,fail,0%,0,,100,,,,incomplete: 60 manual marks not given\n\
         decent,pass,100%,40,,100,,,,incomplete: 60 manual marks not given\n\
         exits-in-move,fail,0%,0,,100,,,,incomplete: 60 manual marks not given\n\
         illegal,fail,0%,0,,100,,,,incomplete: 60 manual marks not given\n\
         malformed,fail,0%,0,,100,,,,incomplete: 60 manual marks not given\n\
         modifies-board,fail,0%,0,,100,,,,incomplete: 60 manual marks not given\n\
         prints-stdout,pass,50%,34,,100,,,,incomplete: 60 manual marks not given\n\
         python2-greedy,pass,50%,36,,100,,,,incomplete: 60 manual marks not given\n\
         random-handout,pass,50%,32,,100,,,,incomplete: 60 manual marks not given\n\
         sleeps,fail,0%,0,,100,,,,incomplete: 60 manual marks not given\n\
         stale-state,fail,0%,0,,100,,,,incomplete: 60 manual marks not given\n\
         syntax-error,fail,0%,0,,100,,,,incomplete: 60 manual marks not given\n"
    );
    // The adapter's explanation of a fault reaches the student.
    let crash: serde_json::Value =
        serde_json::from_str(&read(&root.join("crashes-turn-5/result.json"))).unwrap();
    let details = crash["cases"][0]["details"].to_string();
    assert!(
        details.contains("crashed (exit status 1) on move 9"),
        "{details}"
    );
    // Its traceback's last lines, whole: the team's file by its own name, with the line number.
    assert!(
        details.contains(r#""      File \"team_crash.py\", line 36, in move""#),
        "{details}"
    );
    assert!(
        details.contains(r#""    IndexError: list index out of range""#),
        "{details}"
    );
    assert!(!details.contains("/tmp/"), "{details}");
    // A file that does not load is named, with the line, in plain words (not the protocol's).
    let syntax: serde_json::Value =
        serde_json::from_str(&read(&root.join("syntax-error/result.json"))).unwrap();
    let first = syntax["cases"][0]["details"][0].as_str().unwrap();
    assert_eq!(
        first,
        "games 1 and 2: it failed to start: your file `team_syntax.py` could not be loaded: SyntaxError at line 19: expected ':'"
    );
    // Issue 17 (real hand-ins): `sys.exit` inside `move` is named as the reason, not the agent's last
    // debug print before it.
    let exits: serde_json::Value =
        serde_json::from_str(&read(&root.join("exits-in-move/result.json"))).unwrap();
    let details = exits["cases"][0]["details"].to_string();
    assert!(
        details.contains("it crashed (exit status 1) on move 1")
            && details.contains("move called sys.exit(1)"),
        "{details}"
    );
}

fn suite() -> PathBuf {
    repo().join("suites/iiit-2015-ut3")
}

fn example(name: &str) -> String {
    repo()
        .join("examples/submissions/iiit-2015-ut3")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// `grader play SUITE A random --games 2 --seed 1` (A moves first in game 1): stdout, one line a game.
#[track_caller]
fn play_random(a: &str, extra: &[&str]) -> Vec<String> {
    let out = grader()
        .arg("play")
        .arg(suite())
        .args([a, "random", "--games", "2", "--seed", "1"])
        .args(extra)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("game "))
        .map(String::from)
        .collect()
}

#[test]
fn good_classes_play_whole_games_and_win() {
    for (name, won) in [("decent", 2), ("c-greedy", 2), ("random-handout", 1)] {
        let lines = play_random(&example(name), &[]);
        assert_eq!(lines.len(), 3, "{name}: {lines:?}");
        assert!(
            lines[..2].iter().all(|l| l.contains("by the rules")),
            "{name} must finish both games by the rules: {lines:?}"
        );
        assert!(
            lines[2].starts_with(&format!("{name}: {won} won")),
            "{name}: {lines:?}"
        );
    }
}

#[test]
fn each_flaw_loses_the_game_with_its_reason() {
    let cases: [(&str, [&str; 2]); 6] = [
        (
            "malformed",
            [
                "x sent `list [0, 3]`: expected `(row, col)`",
                "o sent `list [4, 2]`",
            ],
        ),
        (
            "illegal",
            [
                "x sent `(0, 1)`: block 0 is not allowed",
                "o sent `(0, 1)`: block 0 is not allowed",
            ],
        ),
        (
            "modifies-board",
            [
                "x sent `changed current_board_game[0][3]`",
                "o sent `changed current_board_game[4][2]`",
            ],
        ),
        (
            "crashes-turn-5",
            [
                "x crashed (exit status 1) on move 9",
                "o crashed (exit status 1) on move 10",
            ],
        ),
        (
            "stale-state",
            [
                "x sent `(3, 2)`: cell `(3, 2)` is taken on move 23",
                "o sent `(3, 6)`: cell `(3, 6)` is taken on move 6",
            ],
        ),
        (
            // As x it sleeps 7 s on its third move; as o it plays in time (a draw on the tie-break).
            "sleeps",
            [
                "x timed out after",
                "x (random) draws with o (sleeps): drawn by the rules, tie-break to x",
            ],
        ),
    ];
    for (name, reasons) in cases {
        // The sleeper is held to 1 s so the test does not wait out the handout's 6 s.
        let extra: &[&str] = if name == "sleeps" {
            &["--move-limit", "1s"]
        } else {
            &[]
        };
        let lines = play_random(&example(name), extra);
        for (line, want) in lines.iter().zip(reasons) {
            assert!(line.contains(want), "{name}: `{line}` lacks `{want}`");
            // What was sent is quoted once, not echoed again by the reason.
            if name == "malformed" {
                let sent = want.split('`').nth(1).unwrap();
                assert_eq!(line.matches(sent).count(), 1, "{name}: `{line}`");
            }
        }
        assert!(
            lines[2].starts_with(&format!("{name}: 0 won")),
            "{name}: {lines:?}"
        );
    }
}

/// The applied moves of every game record in `dir`, in file order.
fn moves(dir: &Path) -> Vec<Vec<String>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            let r: serde_json::Value = serde_json::from_str(&read(f)).unwrap();
            r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["applied"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn prints_on_stdout_change_nothing_and_the_adapter_is_deterministic() {
    // `prints-stdout` is `random-handout` printing the board, its move and more from inside `move`:
    // with the same seed it must play exactly the same games.
    let dir = scratch();
    let (quiet, noisy) = (dir.path().join("quiet"), dir.path().join("noisy"));
    for (name, records) in [("random-handout", &quiet), ("prints-stdout", &noisy)] {
        play_random(&example(name), &["--records", records.to_str().unwrap()]);
    }
    let (a, b) = (moves(&quiet), moves(&noisy));
    assert_eq!(a.len(), 2);
    assert!(a.iter().all(|g| g.len() > 20), "whole games: {a:?}");
    assert_eq!(a, b, "the prints changed the games");
    let record = read(&noisy.join("game-0001.json"));
    assert!(record.contains("I play"), "the prints went to stderr");
}

/// A submission folder holding one Python file.
fn python_folder(root: &Path, name: &str, text: &str) -> String {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("agent.py"), text).unwrap();
    dir.to_string_lossy().into_owned()
}

#[test]
fn the_adapter_says_what_to_fix_when_it_cannot_find_the_class() {
    let dir = scratch();
    let two = "class A:\n    def move(self, b, s, m, f):\n        return (0, 0)\n\
               class B:\n    def move(self, b, s, m, f):\n        return (0, 0)\n";
    let none = "class A:\n    def play(self):\n        pass\n";
    let syntax = "class A:\n    def move(self, b, s, m, f)\n        return (0, 0)\n";
    let raises = "raise RuntimeError('no network here')\nclass A:\n    def move(self, b, s, m, f):\n        return (0, 0)\n";
    for (name, text, want) in [
        (
            "two",
            two,
            "several classes have a `move` method (agent.A, agent.B)",
        ),
        (
            "none",
            none,
            "no class with a `move` method in any .py file",
        ),
        (
            "syntax",
            syntax,
            "x failed to start: your file `agent.py` could not be loaded: SyntaxError at line 2: expected ':'",
        ),
        (
            "raises",
            raises,
            "x failed to start: your file `agent.py` could not be loaded: RuntimeError at line 1: no network here",
        ),
        // The suite assigns `random-handout` the file `team_random.py`.
        ("random-handout", two, "no file `team_random.py`"),
    ] {
        let lines = play_random(&python_folder(dir.path(), name, text), &[]);
        assert!(
            lines[0].contains("failed to start") && lines[0].contains(want),
            "{name}: {lines:?}"
        );
    }
}

/// A class that checks every argument against the handout's representation and raises (a crash, so a
/// lost game) at the first difference; otherwise it plays the first legal cell.
const PROBE: &str = r#"
CORNERS = {(0, 0): (0, 1, 3), (0, 2): (1, 2, 5), (2, 0): (3, 6, 7), (2, 2): (5, 7, 8)}


class Probe:
    def __init__(self):
        self.calls = 0
        self.seen = []

    def move(self, current_board_game, board_stat, move_by_opponent, flag):
        board, stat, last = current_board_game, board_stat, move_by_opponent
        assert type(board) is list and len(board) == 9, board
        assert all(type(r) is list and len(r) == 9 for r in board), board
        assert all(type(c) is str and c in "-xo" for r in board for c in r), board
        assert type(stat) is list and len(stat) == 9 and all(s in "-xo" for s in stat), stat
        assert type(last) is tuple and len(last) == 2 and all(type(v) is int for v in last), last
        assert flag in ("x", "o"), flag
        marks = sum(c != "-" for r in board for c in r)
        # State kept in self: one call per own move, x first; (-1, -1) only on the empty board.
        assert marks == 2 * self.calls + (flag == "o"), (marks, self.calls, flag)
        assert (last == (-1, -1)) == (marks == 0), last
        assert last == (-1, -1) or board[last[0]][last[1]] not in ("-", flag), last
        # Fresh copies every call.
        assert all(board is not b and stat is not s for b, s in self.seen)
        self.seen.append((board, stat))
        self.calls += 1
        if last == (-1, -1):
            blocks = range(9)
        else:
            pos = (last[0] % 3, last[1] % 3)
            blocks = CORNERS.get(pos, (3 * pos[0] + pos[1],))
        for allowed in (blocks, range(9)):
            for b in allowed:
                if stat[b] != "-":
                    continue
                for r in range(3 * (b // 3), 3 * (b // 3) + 3):
                    for c in range(3 * (b % 3), 3 * (b % 3) + 3):
                        if board[r][c] == "-":
                            return (r, c)
"#;

#[test]
fn the_class_gets_the_handouts_arguments_fresh_each_turn_and_keeps_its_state() {
    let dir = scratch();
    let lines = play_random(&python_folder(dir.path(), "probe", PROBE), &[]);
    assert!(
        lines[..2].iter().all(|l| l.contains("by the rules")),
        "{lines:?}"
    );
}

#[test]
fn the_suite_tournament_ranks_marks_and_repeats_for_any_jobs() {
    let dir = scratch();
    // A C submission that does not compile: an entrant that loses every game by fault.
    let broken = dir.path().join("no-compile");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(
        broken.join("Makefile"),
        "player: player.c\n\tcc -o player player.c\n",
    )
    .unwrap();
    std::fs::write(
        broken.join("player.c"),
        "int main(void) { return missing; }\n",
    )
    .unwrap();
    let mut csvs = Vec::new();
    for jobs in ["1", "3"] {
        let out = dir.path().join(format!("out-{jobs}"));
        let assert = grader()
            .arg("tournament")
            .arg(suite())
            .args([
                example("decent"),
                example("random-handout"),
                example("malformed"),
            ])
            .arg(&broken)
            .arg(example("EXPECTED.md"))
            .args(["--seed", "7", "--jobs", jobs, "--out"])
            .arg(&out)
            .assert()
            .success();
        let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(
            stderr.contains("note: `no-compile` cannot play: its c build failed"),
            "{stderr}"
        );
        assert!(stdout.contains("overall ranking"), "{stdout}");
        assert!(
            stderr.contains("note: skipping `") && stderr.contains("EXPECTED.md`: a file"),
            "{stderr}"
        );
        csvs.push(read(&out.join("iiit-2015-ut3/tournament.csv")));
    }
    assert_eq!(csvs[0], csvs[1], "results differ between 1 and 3 jobs");
    // Four teams: both of the handout's stages are skipped (they could eliminate no one) and the final
    // is one round robin, each pairing twice. UT3 scoring: a win is 4 points. `malformed` wins only its
    // two games against `no-compile`, which fails to start every game and gets the suite's 0 marks.
    assert_eq!(
        csvs[0],
        "rank,student,stage,points,games,won,drawn,lost,faults,marks\n\
         1,decent,final,24,6,6,0,0,0,40\n\
         2,random-handout,final,16,6,4,0,2,0,38\n\
         3,malformed,final,8,6,2,0,4,4,36\n\
         4,no-compile,final,0,6,0,0,6,6,0\n"
    );
}

#[test]
fn two_entrants_that_cannot_import_both_lose_every_game_and_get_no_marks() {
    // Issue 17: when both sides fault before the first move nobody wins. Before, the second side was
    // credited, so each broken team "won" once and escaped the zero-marks rule.
    let dir = scratch();
    let syntax = "class A:\n    def move(self, b, s, m, f)\n        return (0, 0)\n";
    let raises = "raise RuntimeError('no network here')\nclass A:\n    def move(self, b, s, m, f):\n        return (0, 0)\n";
    let a = python_folder(dir.path(), "syntax-error", syntax);
    let b = python_folder(dir.path(), "raises-on-import", raises);
    let out = dir.path().join("out");
    let assert = grader()
        .arg("tournament")
        .arg(suite())
        .args([&a, &b])
        .args(["--seed", "7", "--out"])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains(
            "fault: x (raises-on-import) and o (syntax-error) both lose: x failed to start: "
        ),
        "{stdout}"
    );
    assert_eq!(
        read(&out.join("iiit-2015-ut3/tournament.csv")),
        "rank,student,stage,points,games,won,drawn,lost,faults,marks\n\
         1,raises-on-import,final,0,2,0,0,2,2,0\n\
         2,syntax-error,final,0,2,0,0,2,2,0\n"
    );
}

#[test]
fn a_machine_without_python2_refuses_the_tournament_and_never_zeroes_a_python2_team() {
    // Issue 17: `play` and `tournament` check toolchains as `run` does. Refused by default (exit 3,
    // nothing played); with --allow-missing the Python 2 team takes no part, is `not-graded` in
    // tournament.csv with a blank mark (never 0), and the exit code is still 3.
    let dir = scratch();
    let config = dir.path().join("grader.toml");
    std::fs::write(&config, "[toolchains]\npython2 = \"no/such/python2.7\"\n").unwrap();
    let out = dir.path().join("out");
    let players = [
        example("python2-greedy"),
        example("decent"),
        example("random-handout"),
    ];
    let refused = grader()
        .arg("tournament")
        .arg(suite())
        .args(&players)
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("`python2`") && stderr.contains("--allow-missing"),
        "{stderr}"
    );
    assert!(!out.exists(), "a refused tournament wrote results");

    let allowed = grader()
        .arg("tournament")
        .arg(suite())
        .args(&players)
        .arg("--config")
        .arg(&config)
        .args(["--seed", "7", "--allow-missing", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&allowed.stderr);
    assert_eq!(allowed.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("note: `python2-greedy` is not graded and plays no game"),
        "{stderr}"
    );
    let csv = read(&out.join("iiit-2015-ut3/tournament.csv"));
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 4, "{csv}");
    assert!(rows[1].starts_with("1,decent,final,"), "{csv}");
    assert!(
        rows[3].starts_with(",python2-greedy,\"not-graded: ") && rows[3].ends_with(",,,,,,,"),
        "{csv}"
    );

    // `play` with one side the machine cannot run has no game to play: the machine's fault.
    let play = grader()
        .arg("play")
        .arg(suite())
        .arg(example("python2-greedy"))
        .arg("random")
        .arg("--config")
        .arg(&config)
        .arg("--allow-missing")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&play.stderr);
    assert_eq!(play.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("fewer than two players can play"),
        "{stderr}"
    );
}

/// A class folder of links to the named examples.
fn class_of(dir: &Path, names: &[&str]) -> PathBuf {
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    for name in names {
        std::os::unix::fs::symlink(example(name), class.join(name)).unwrap();
    }
    class
}

/// Issue 17: one `grader run` grades the cases, plays the suite's tournament among the class (seed =
/// the suite's 2015) and writes its marks into grades.csv, result.json and tournament.csv, byte for
/// byte the same for 1 and 3 jobs. `malformed` fails the `plays-legally` gate: it plays no game and
/// gets the all-faults 0. No `/0` anywhere in the table.
#[test]
fn a_class_run_plays_the_tournament_and_writes_its_marks_for_any_jobs() {
    let dir = scratch();
    let class = class_of(
        dir.path(),
        &["c-greedy", "decent", "malformed", "random-handout"],
    );
    let mut files = Vec::new();
    for jobs in ["1", "3"] {
        let out = dir.path().join(format!("out-{jobs}"));
        let run = grader()
            .arg("run")
            .arg(suite())
            .arg(&class)
            .args(["--jobs", jobs, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        assert_eq!(run.status.code(), Some(0), "{stdout}\n{stderr}");
        assert!(
            !stdout.contains("/0 ") && !stdout.contains("/0\n"),
            "{stdout}"
        );
        assert!(
            stdout.contains(
                "plays-legally  benchmarks  tournament /40  manual /60 (manual)  total /100"
            ),
            "{stdout}"
        );
        assert!(
            stderr.contains(
                "note: `malformed` is left out of the tournament: it failed `plays-legally`"
            ),
            "{stderr}"
        );
        let root = out.join("iiit-2015-ut3");
        files.push((
            read(&root.join("grades.csv")),
            read(&root.join("tournament.csv")),
        ));
        let result = |s: &str| -> serde_json::Value {
            serde_json::from_str(&read(&root.join(s).join("result.json"))).unwrap()
        };
        let decent = result("decent");
        assert_eq!(decent["score"], 40.0, "{decent}");
        assert_eq!(decent["max"], 40.0, "{decent}");
        let t = &decent["tournament"];
        assert_eq!(
            (&t["marks"], &t["rank"], &t["entrants"]),
            (&40.0.into(), &1.into(), &3.into()),
            "{t}"
        );
        assert_eq!(t["standing"]["stage"], "final", "{t}");
        assert!(
            t["reason"]
                .as_str()
                .unwrap()
                .starts_with("ranked 1 of 3 (furthest stage: final"),
            "{t}"
        );
        // The CPU its program used over its four games: the class's cost, for the floor benchmark.
        assert!(t["cpu-ms"].as_u64().is_some_and(|ms| ms > 0), "{t}");
        let malformed = result("malformed");
        let t = &malformed["tournament"];
        assert!(t.get("cpu-ms").is_none(), "played no game: {t}");
        assert_eq!(
            (&t["marks"], &t["rank"]),
            (&0.0.into(), &serde_json::Value::Null),
            "{t}"
        );
        assert!(
            t["reason"]
                .as_str()
                .unwrap()
                .starts_with("left out of the tournament: it did not pass `plays-legally` in full"),
            "{t}"
        );
    }
    assert_eq!(files[0], files[1], "results differ between 1 and 3 jobs");
    // The games are kept for `grader play --replay`: three entrants, each pairing twice.
    let games = dir.path().join("out-1/iiit-2015-ut3/tournament");
    assert!(games.join("standings.json").is_file());
    assert!(games.join("final-0006.json").is_file());
    assert!(!games.join("final-0007.json").exists());
    let (grades, tournament) = &files[0];
    assert_eq!(
        grades,
        "student,plays-legally,benchmarks,tournament,manual,max,late-hours,late-deduction,total,total-note\n\
         c-greedy,pass,50%,38,,100,,,,incomplete: 60 manual marks not given\n\
         decent,pass,100%,40,,100,,,,incomplete: 60 manual marks not given\n\
         malformed,fail,0%,0,,100,,,,incomplete: 60 manual marks not given\n\
         random-handout,pass,50%,36,,100,,,,incomplete: 60 manual marks not given\n"
    );
    // Exactly what `grader tournament SUITE c-greedy decent random-handout --seed 2015` writes, then the
    // team the gate left out.
    assert_eq!(
        tournament,
        "rank,student,stage,points,games,won,drawn,lost,faults,marks\n\
         1,decent,final,16,4,4,0,0,0,40\n\
         2,c-greedy,final,8,4,2,0,2,0,38\n\
         3,random-handout,final,0,4,0,0,4,0,36\n\
         ,malformed,left out: failed `plays-legally`,,,,,,,0\n"
    );
    let direct = dir.path().join("direct");
    grader()
        .arg("tournament")
        .arg(suite())
        .args([
            example("c-greedy"),
            example("decent"),
            example("random-handout"),
        ])
        .args(["--seed", "2015", "--out"])
        .arg(&direct)
        .assert()
        .success();
    let alone = read(&direct.join("iiit-2015-ut3/tournament.csv"));
    assert!(tournament.starts_with(&alone), "{alone}");

    // `--no-tournament` grades the cases only: no column, no tournament.csv.
    let out = dir.path().join("out-none");
    grader()
        .arg("run")
        .arg(suite())
        .arg(&class)
        .arg("--no-tournament")
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let grades = read(&out.join("iiit-2015-ut3/grades.csv"));
    assert!(
        grades.starts_with(
            "student,plays-legally,benchmarks,manual,max,late-hours,late-deduction,total,total-note\n"
        ),
        "{grades}"
    );
    assert!(!out.join("iiit-2015-ut3/tournament.csv").exists());
}

/// Issue 17: the machine's fault never costs a mark, and a tournament that cannot be played loses no
/// case result. Without Python 2 (`--allow-missing`), `python2-greedy` is not graded and `decent` is
/// left with no opponent: the run keeps every case result and row, leaves the tournament cells
/// blank with the reason in `tournament-note`, and exits 3.
#[test]
fn a_tournament_that_cannot_be_played_keeps_every_result_and_says_why() {
    let dir = scratch();
    let class = class_of(dir.path(), &["decent", "python2-greedy"]);
    let config = dir.path().join("grader.toml");
    std::fs::write(&config, "[toolchains]\npython2 = \"no/such/python2.7\"\n").unwrap();
    let out = dir.path().join("out");
    let run = grader()
        .arg("run")
        .arg(suite())
        .arg(&class)
        .arg("--config")
        .arg(&config)
        .arg("--allow-missing")
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("the class tournament failed"), "{stderr}");
    let grades = read(&out.join("iiit-2015-ut3/grades.csv"));
    let lines: Vec<&str> = grades.lines().collect();
    assert_eq!(
        lines[0],
        "student,plays-legally,benchmarks,tournament,manual,max,late-hours,late-deduction,total,not-graded,tournament-note,total-note"
    );
    assert!(
        lines[1].starts_with(
            // A counted tournament not held: the total is left blank, as a TA would.
            "decent,pass,100%,,,100,,,,,tournament failed: fewer than two players can play"
        ),
        "{grades}"
    );
    assert!(
        lines[2].starts_with("python2-greedy,,,,,100,,,,"),
        "{grades}"
    );
    let decent: serde_json::Value =
        serde_json::from_str(&read(&out.join("iiit-2015-ut3/decent/result.json"))).unwrap();
    assert_eq!(decent["cases"].as_array().unwrap().len(), 4, "{decent}");
    assert_eq!(
        decent["tournament"]["marks"],
        serde_json::Value::Null,
        "{decent}"
    );
}

/// Issue 17: a `tournament.csv` that cannot be written loses no mark: grades.csv and result.json keep
/// them, the file is named, and the run exits 3.
#[test]
fn an_unwritable_tournament_csv_keeps_the_marks() {
    let dir = scratch();
    let class = class_of(dir.path(), &["decent", "random-handout"]);
    let out = dir.path().join("out");
    // A folder where the file goes: the rename over it fails.
    std::fs::create_dir_all(out.join("iiit-2015-ut3/tournament.csv/taken")).unwrap();
    let run = grader()
        .arg("run")
        .arg(suite())
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert_eq!(run.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("tournament.csv`"), "{stderr}");
    assert_eq!(
        read(&out.join("iiit-2015-ut3/grades.csv")),
        "student,plays-legally,benchmarks,tournament,manual,max,late-hours,late-deduction,total,total-note\n\
         decent,pass,100%,40,,100,,,,incomplete: 60 manual marks not given\n\
         random-handout,pass,50%,38,,100,,,,incomplete: 60 manual marks not given\n"
    );
}
