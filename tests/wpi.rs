//! The WPI interactive tic-tac-toe suite (seed 001) on its shipped examples: each one's verdicts and
//! points as its `.expected.toml` pins them, and the words that explain its flaw
//! (examples/submissions/wpi-2000-ttt/EXPECTED.md).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::util::{grader, read, repo, scratch};

const SUITE: &str = "suites/wpi-2000-ttt";
const EXAMPLES: &str = "examples/submissions/wpi-2000-ttt";
const GROUPS: [&str; 5] = [
    "interface",
    "valid-moves",
    "validates-input",
    "detects-end",
    "strategy",
];

/// Grades every example once per test process, with two jobs, and keeps the results folder. The
/// run exits 3: `waits-for-a-command` is left for a person (`review`), and nothing else may be.
pub(crate) fn graded() -> &'static Path {
    static RESULTS: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, results) = RESULTS.get_or_init(|| {
        let dir = scratch();
        let out = dir.path().join("results");
        let run = grader()
            .arg("run")
            .arg(repo().join(SUITE))
            .arg(repo().join(EXAMPLES))
            .arg("--out")
            .arg(&out)
            .args(["--jobs", "2"])
            .output()
            .expect("the grader runs");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(3), "{stderr}");
        // The games left for a person read back as the grader wrote them (the page replays them).
        assert!(!stderr.contains("not a valid game record"), "{stderr}");
        let results = out.join("wpi-2000-ttt");
        // grades.csv's last column is `review`: blank for everyone the grader could follow.
        let csv = read(&results.join("grades.csv"));
        let flagged: Vec<&str> = csv
            .lines()
            .skip(1)
            .filter(|l| !l.ends_with(','))
            .filter_map(|l| l.split(',').next())
            .collect();
        assert_eq!(flagged, ["waits-for-a-command"], "{csv}");
        (dir, results)
    });
    results
}

fn result(student: &str) -> serde_json::Value {
    let text = read(&graded().join(student).join("result.json"));
    serde_json::from_str(&text).unwrap()
}

/// The points of each group, in `GROUPS` order, then the total.
fn points(student: &str) -> (Vec<f64>, f64) {
    let r = result(student);
    let groups = GROUPS
        .iter()
        .map(|g| {
            r["groups"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["name"] == *g)
                .unwrap_or_else(|| panic!("{student}: no group `{g}`"))["points"]
                .as_f64()
                .unwrap()
        })
        .collect();
    (groups, r["score"].as_f64().unwrap())
}

fn case(student: &str, name: &str) -> serde_json::Value {
    result(student)["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("{student}: no case `{name}`"))
        .clone()
}

/// All of a case's words: its summary and every detail line.
fn words(student: &str, name: &str) -> String {
    let c = case(student, name);
    let mut text = c["summary"].as_str().unwrap().to_string();
    for d in c["details"].as_array().unwrap() {
        text.push('\n');
        text.push_str(d.as_str().unwrap());
    }
    text
}

/// Every case's verdict, every group's points and each score, as the `<example>.expected.toml` files
/// pin them (EXPECTED.md explains each flaw's cost), compared through the code `grader verify` uses.
#[test]
fn wpi_examples_get_their_pinned_points() {
    crate::util::assert_as_expected(graded(), &repo().join(EXAMPLES), &[]);
    let csv = read(&graded().join("grades.csv"));
    assert!(
        csv.starts_with(
            "student,interface,valid-moves,validates-input,detects-end,strategy,total,review\n"
        ),
        "{csv}"
    );
}

#[test]
fn a_program_the_grader_cannot_start_waits_for_a_person() {
    // `waits-for-a-command` prints nothing until it is told `play`: never a zero, never a score.
    let r = result("waits-for-a-command");
    for c in r["cases"].as_array().unwrap() {
        assert_eq!(c["verdict"], "review", "{c}");
    }
    let opening = case("waits-for-a-command", "opening");
    assert!(
        opening["summary"].as_str().unwrap().starts_with(
            "needs review: the grader could not follow the program before the first move in games 1–10 of 10: it waited for input before printing anything"
        ),
        "{opening}"
    );
    // The dialogue a person reads: the grader's Enter, and nothing from the program.
    assert_eq!(opening["transcript"], "→ \n", "{opening}");
    let csv = read(&graded().join("grades.csv"));
    let row = csv
        .lines()
        .find(|l| l.starts_with("waits-for-a-command,"))
        .unwrap();
    assert!(
        row.starts_with(
            "waits-for-a-command,,,,,,,\"interface/opening: the grader could not follow"
        ),
        "{row}"
    );
}

#[test]
fn a_c_program_that_never_flushes_is_graded_on_its_play() {
    // Its prompts end with no newline and no `fflush`: on the grader's terminal they show at once.
    let c = case("c-no-fflush", "legal-vs-random");
    assert_eq!(c["verdict"], "accepted", "{c}");
    let record: serde_json::Value = serde_json::from_str(&read(
        &graded().join("c-no-fflush/games/legal-vs-random-1.json"),
    ))
    .unwrap();
    let said = record["transcripts"][0].as_str().unwrap();
    assert!(
        said.contains("Which mark do you want, X or O? \n→ O\n"),
        "{said}"
    );
}

#[test]
fn wpi_flaws_are_explained_in_the_students_terms() {
    let accepts = words("accepts-occupied", "rejects-invalid");
    assert!(
        accepts.contains("asked again after every invalid input in 0 of 4 games"),
        "{accepts}"
    );
    assert!(
        accepts.contains("accepted `1 1` (an occupied cell) and went on: `You played 1 1."),
        "{accepts}"
    );

    let crashes = words("crashes-on-garbage", "rejects-invalid");
    assert!(
        crashes
            .contains("games 1–4: after `hello` (not a row and a column), crashed (exit status 1)"),
        "{crashes}"
    );
    // The traceback's last lines, whole: the student's file by its own name, and the line number.
    assert!(
        crashes.contains("\n    ValueError: invalid literal for int()"),
        "{crashes}"
    );
    assert!(
        crashes.contains("\n      File \"tictactoe.py\", line "),
        "{crashes}"
    );
    assert!(!crashes.contains("/tmp/"), "{crashes}");

    let diagonal = words("misses-diagonal", "announces-vs-random");
    assert!(
        diagonal.contains("did not announce the end of the game; it went on with `Enter your move"),
        "{diagonal}"
    );

    let loses = words("loses-to-perfect", "never-loses-to-perfect");
    assert!(
        loses.contains("won or drew 4 of 6 games against `perfect`; 6 needed"),
        "{loses}"
    );
    assert!(
        loses.contains("games 4 and 6: x wins by the rules"),
        "{loses}"
    );

    // The good programs are credited with the facts behind each rubric line.
    for student in ["c-correct", "java-correct", "python-correct"] {
        for name in ["opening", "rejects-invalid", "announces-vs-perfect"] {
            assert_eq!(
                case(student, name)["verdict"],
                "accepted",
                "{student} {name}"
            );
        }
    }
}

#[test]
fn wpi_games_keep_the_dialogue_facts() {
    let games = graded().join("python-correct/games");
    let record: serde_json::Value =
        serde_json::from_str(&read(&games.join("rejects-invalid-1.json"))).unwrap();
    let facts = record["facts"].as_array().unwrap();
    let kinds: Vec<&str> = facts.iter().map(|f| f["fact"].as_str().unwrap()).collect();
    assert_eq!(kinds[0], "opening", "{facts:?}");
    assert_eq!(
        kinds.iter().filter(|k| **k == "probe").count(),
        4,
        "{facts:?}"
    );
    assert!(facts
        .iter()
        .filter(|f| f["fact"] == "probe")
        .all(|f| f["outcome"] == "rejected"));
    assert_eq!(kinds.last(), Some(&"end"), "{facts:?}");
}

#[test]
fn wpi_dialogue_measures_need_their_dialogue() {
    let source = read(&repo().join(SUITE).join("suite.toml"));
    let dir = scratch();
    let check = |name: &str, text: String| {
        let suite = dir.path().join(name);
        std::fs::create_dir_all(&suite).unwrap();
        std::fs::write(suite.join("suite.toml"), text).unwrap();
        let out = grader().arg("validate").arg(&suite).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let start = source.find("probe = [").unwrap();
    let end = start + source[start..].find("\n]\n").unwrap() + 3;
    let unprobed = format!("{}{}", &source[..start], &source[end..]);
    let e = check("unprobed", unprobed);
    assert!(
        e.contains(
            "case `rejects-invalid` measures `rejects`, but the dialogue types no invalid input"
        ),
        "{e}"
    );
    assert!(e.contains("hint: add `[[arena.dialogue.probe]]`"), "{e}");

    let persistent = source.replace("protocol = \"dialogue\"", "protocol = \"persistent\"");
    let e = check("persistent", persistent);
    assert!(
        e.contains("case `opening` measures `opening`, which reads what a dialogue program does"),
        "{e}"
    );
    assert!(e.contains("suite.toml:"), "{e}");
}

#[test]
fn wpi_programs_on_their_own_conventions_are_understood_and_told_so() {
    for (student, understood) in [
        (
            "asks-play-first",
            "moves typed as one cell number 1-9 row by row: `6` is row 2, column 3",
        ),
        (
            "row-comma-from-zero",
            "moves typed as `row,column`, each 0-2: `1,2` is row 2, column 3",
        ),
        (
            "letter-digit",
            "moves typed as a row letter and a column digit: `B3` is row 2, column 3",
        ),
        (
            "column-first",
            "moves typed as `column row`, each 1-3: `3 2` is row 2, column 3",
        ),
        (
            "numpad",
            "moves typed as one cell number 1-9 laid out as a numeric keypad (7 top left): `6` is row 2, column 3",
        ),

    ] {
        for name in [
            "legal-vs-perfect",
            "rejects-invalid",
            "never-loses-to-perfect",
        ] {
            let c = case(student, name);
            assert_eq!(c["verdict"], "accepted", "{student} {name}: {c}");
            let summary = c["summary"].as_str().unwrap();
            assert!(summary.contains(understood), "{student} {name}: {summary}");
        }
        let record: serde_json::Value = serde_json::from_str(&read(
            &graded().join(student).join("games/rejects-invalid-1.json"),
        ))
        .unwrap();
        let facts = record["facts"].as_array().unwrap();
        assert!(
            facts
                .iter()
                .any(|f| f["fact"] == "understood" && f["detail"] == understood),
            "{student}: {facts:?}"
        );
        // The probes were typed in the program's own format, and each was refused.
        let sent: Vec<&str> = facts
            .iter()
            .filter(|f| f["fact"] == "probe")
            .map(|f| {
                assert_eq!(f["outcome"], "rejected", "{student}: {f}");
                f["sent"].as_str().unwrap()
            })
            .collect();
        assert_eq!(sent.len(), 4, "{student}: {sent:?}");
        assert_eq!(sent[1], "hello");
    }
    // An input off the board is said to be so in the program's own terms.
    for (student, bounds) in [
        ("numpad", "off the board: cells are 1 to 9"),
        (
            "row-comma-from-zero",
            "off the board: rows and columns are 0 to 2",
        ),
        (
            "letter-digit",
            "off the board: rows are A to C and columns 1 to 3",
        ),
        (
            "python-correct",
            "off the board: rows and columns are 1 to 3",
        ),
    ] {
        let record: serde_json::Value = serde_json::from_str(&read(
            &graded().join(student).join("games/rejects-invalid-1.json"),
        ))
        .unwrap();
        let abouts: Vec<&str> = record["facts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["fact"] == "probe")
            .filter_map(|f| f["about"].as_str())
            .filter(|a| a.starts_with("off the board"))
            .collect();
        assert_eq!(abouts, [bounds, bounds], "{student}");
    }
    // A program on the handout's own form is not told how it was understood.
    assert!(!case("python-correct", "rejects-invalid")["summary"]
        .as_str()
        .unwrap()
        .contains("moves typed as"),);
    // Only the opening explains itself as the handout's question not asked.
    // In the handout's words, once for all ten games.
    let opening = words("asks-play-first", "opening");
    assert!(
        opening.contains(
            "\ngames 1–10: did not ask whether the user wants X or O, which the handout asks for first (rule 1: \"Initially, your program should ask the user which marks the user prefers\"); it asked who moves first (`Would you like to play first? (yes/no)`)"
        ),
        "{opening}"
    );
    assert_eq!(case("letter-digit", "opening")["verdict"], "accepted");
}

#[test]
fn a_program_that_says_who_starts_is_not_asked_who_starts() {
    // `You will go first.` is a statement: the grader types no yes or no at it (which the program
    // would read as its first move), and plays the side the program gave it.
    let opening = words("says-who-starts", "opening");
    assert!(
        opening.contains("did not ask whether the user wants X or O, which the handout asks for first (rule 1: \"Initially, your program should ask the user which marks the user prefers\"); it asked nothing before the game"),
        "{opening}"
    );
    let record: serde_json::Value = serde_json::from_str(&read(
        &graded().join("says-who-starts/games/legal-vs-random-2.json"),
    ))
    .unwrap();
    let said = record["transcripts"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|t| t.as_str())
        .unwrap();
    // Its board, then the first thing typed: a square, not an answer to a question.
    let typed = said.lines().find(|l| l.starts_with('→')).unwrap();
    assert!(
        typed.trim_start_matches("→ ").parse::<u32>().is_ok(),
        "{said}"
    );
}

#[test]
fn a_python_2_program_that_python_3_compiles_runs_with_python_2() {
    // `python2-package` compiles under Python 3 (every `print` has one argument in parentheses), but
    // calls `raw_input` and `xrange` and imports its package's modules by their bare names: a TA
    // runs it with `python2`, and so does the grader, saying why.
    let r = result("python2-package");
    let python2 = grader::toolchain::Toolchain::global()
        .tool("python2")
        .is_some();
    if !python2 {
        // The machine's fault, never the student's: not graded, and said so.
        return eprintln!("skipped: no Python 2 on this machine ({})", r["build"]);
    }
    assert_eq!(
        r["build"]["interpreter"]["version"]
            .as_str()
            .map(|v| v.starts_with("2.")),
        Some(true),
        "{}",
        r["build"]
    );
    let log = r["build"]["log"].as_str().unwrap();
    assert!(
        log.contains("python: Python 2 code: `ttt/board.py` line ")
            && log.contains("`xrange`, a name Python 2 has and Python 3 does not")
            && log.contains("every file compiles under Python 2, so it runs with Python 2, as a TA would run it"),
        "{log}"
    );
    assert_eq!(
        points("python2-package"),
        (vec![10.0, 15.0, 20.0, 15.0, 40.0], 100.0)
    );
    // The student is told, in `grader check`'s report and on the page. (`check` keeps the games in a
    // temporary folder: this test's, removed with it.)
    let tmp = scratch();
    let out = grader()
        .env("TMPDIR", tmp.path())
        .arg("check")
        .arg(repo().join(SUITE))
        .arg(repo().join(EXAMPLES).join("python2-package"))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("built as python\n    run with Python 2."),
        "{report}"
    );
    let page = read(&graded().join("python2-package/report.html"));
    assert!(page.contains("<p>run with Python 2."), "{page}");
}

#[test]
fn the_move_limit_counts_cpu_time_so_a_slow_machine_is_not_the_students_fault() {
    // `python-correct` made to sleep 0.8 s before each of its moves: on the clock as late as a program
    // a loaded machine keeps waiting, yet using almost no CPU. A limit of 300 ms, counted in CPU time
    // (the suite's setting), then in wall time, over two games.
    let dir = scratch();
    let class = dir.path().join("class/sleeper");
    std::fs::create_dir_all(&class).unwrap();
    let source = read(&repo().join(EXAMPLES).join("python-correct/tictactoe.py"));
    let search = "            _, cell = alphabeta(board, me, me, 0, -100, 100)\n";
    assert!(source.contains(search));
    let slow = source
        .replacen("import sys\n", "import sys\nimport time\n", 1)
        .replacen(search, &format!("            time.sleep(0.8)\n{search}"), 1);
    std::fs::write(class.join("tictactoe.py"), slow).unwrap();
    let toml = read(&repo().join(SUITE).join("suite.toml"));
    let groups = toml.find("\n[[groups]]").unwrap();
    let one_case = format!(
        "{}\n[[groups]]\nname = \"valid-moves\"\npoints = 10\ncredit = \"proportional\"\n\n[[groups.cases]]\nname = \"legal\"\nvisibility = \"public\"\nplay = {{ opponent = \"random\", games = 2, measure = \"legal\" }}\n",
        &toml[..groups]
    );
    assert!(one_case.contains("move-limit = \"5s\"\nmove-clock = \"cpu\"\nmove-wall = \"60s\"\n"));
    let grade = |name: &str, arena: &str| {
        let suite = dir.path().join(name);
        std::fs::create_dir_all(&suite).unwrap();
        let text = one_case.replacen(
            "move-limit = \"5s\"\nmove-clock = \"cpu\"\nmove-wall = \"60s\"\n",
            arena,
            1,
        );
        std::fs::write(suite.join("suite.toml"), text).unwrap();
        let out = dir.path().join(format!("results-{name}"));
        grader()
            .arg("run")
            .arg(&suite)
            .arg(dir.path().join("class"))
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let result: serde_json::Value =
            serde_json::from_str(&read(&out.join(name).join("sleeper/result.json"))).unwrap();
        result
    };
    let cpu = grade(
        "cpu",
        "move-limit = \"300ms\"\nmove-clock = \"cpu\"\nmove-wall = \"20s\"\n",
    );
    assert_eq!(cpu["score"].as_f64(), Some(10.0), "{cpu}");
    let wall = grade("wall", "move-limit = \"300ms\"\n");
    assert_eq!(wall["score"].as_f64(), Some(0.0), "{wall}");
    let details = wall["cases"][0]["details"].to_string();
    assert!(
        details.contains("timed out after") && details.contains("(limit 300 ms + 50 ms margin)"),
        "{details}"
    );
}

/// Plain minimax over a tic-tac-toe board (`b'x'`, `b'o'`, `b'-'`) for the side `me` to move: 1 win,
/// 0 draw, -1 loss. No table, no pruning: the brute force the analysis is checked against.
fn minimax(cells: &mut [u8; 9], me: u8) -> i32 {
    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    let other = if me == b'x' { b'o' } else { b'x' };
    if LINES.iter().any(|l| l.iter().all(|&i| cells[i] == other)) {
        return -1;
    }
    let mut best: Option<i32> = None;
    for i in 0..9 {
        if cells[i] == b'-' {
            cells[i] = me;
            let v = -minimax(cells, other);
            cells[i] = b'-';
            best = Some(best.map_or(v, |b| b.max(v)));
        }
    }
    best.unwrap_or(0)
}

#[test]
fn a_weak_players_lost_games_name_the_move_that_lost_them() {
    let r = result("loses-to-perfect");
    let case = r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "never-loses-to-perfect")
        .unwrap();
    let words = ["lost", "drawn", "won"];
    let mut turned = 0;
    for g in case["games"].as_array().unwrap() {
        let k = g["game"].as_u64().unwrap();
        let record: serde_json::Value = serde_json::from_str(&read(
            &graded()
                .join("loses-to-perfect/games")
                .join(format!("never-loses-to-perfect-{k}.json")),
        ))
        .unwrap();
        let me = if g["side"] == "x" { b'x' } else { b'o' };
        // Walk the game: at each of the student's moves, what the move kept against the best.
        let mut cells = [b'-'; 9];
        let mut expected = None;
        for (ply, m) in record["moves"].as_array().unwrap().iter().enumerate() {
            let cell: usize = m["applied"].as_str().unwrap().parse().unwrap();
            let mover = if ply % 2 == 0 { b'x' } else { b'o' };
            if mover == me && expected.is_none() {
                let other = if me == b'x' { b'o' } else { b'x' };
                let open: Vec<usize> = (0..9).filter(|&c| cells[c] == b'-').collect();
                let mut value = |c: usize| {
                    cells[c] = me;
                    let v = -minimax(&mut cells, other);
                    cells[c] = b'-';
                    v
                };
                let values: Vec<i32> = open.iter().map(|&c| value(c)).collect();
                let best = *values.iter().max().unwrap();
                let played = values[open.iter().position(|&c| c == cell).unwrap()];
                if played < best {
                    let better: Vec<String> = open
                        .iter()
                        .zip(&values)
                        .filter(|(_, &v)| v == best)
                        .map(|(c, _)| c.to_string())
                        .collect();
                    expected = Some(serde_json::json!({
                        "ply": ply + 1,
                        "played": cell.to_string(),
                        "before": words[(best + 1) as usize],
                        "after": words[(played + 1) as usize],
                        "better": better,
                        "basis": "exact",
                    }));
                }
            }
            cells[cell] = mover;
        }
        let lost = record["result"]["win"].as_u64().is_some_and(|w| {
            let my_side = if me == b'x' { 0 } else { 1 };
            w != my_side
        });
        // A game against `perfect` is lost exactly when the student threw the draw away.
        assert_eq!(expected.is_some(), lost, "game {k}: {record}");
        let got = g.get("turning-point").cloned();
        assert_eq!(got, expected, "game {k}");
        if let Some(t) = &expected {
            turned += 1;
            let line = format!(
                "game {k}, move {}: `{}` lost a drawn position; ",
                t["ply"],
                t["played"].as_str().unwrap()
            );
            let details = case["details"].to_string();
            assert!(details.contains(&line), "{line} in {details}");
        }
    }
    // EXPECTED.md: `perfect` wins 2 of the 6 games.
    assert_eq!(turned, 2, "{case}");
}

/// A case whose games an earlier case played ran nothing of its own: no time of its own, so the CPU a
/// class used is the sum over its cases (the floor benchmark's reading), not the games counted once a
/// case that reads them.
#[test]
fn a_case_on_an_earlier_cases_games_costs_no_cpu_of_its_own() {
    let played = case("python-correct", "opening");
    let recalled = case("python-correct", "legal-vs-random");
    assert!(played["cpu-ms"].as_u64().unwrap() > 0, "{played}");
    assert!(played["wall-ms"].as_u64().unwrap() > 0, "{played}");
    assert_eq!(recalled["cpu-ms"], 0, "{recalled}");
    assert_eq!(recalled["wall-ms"], 0, "{recalled}");
    // Its peak memory is still the games' it reads.
    assert_eq!(recalled["peak-memory"], played["peak-memory"], "{recalled}");
}
