//! Games without Rust: the Connect-Four suite, whose rules are a Python program (suites/connect4,
//! docs/rules-programs.md), graded on its sample class; its games replayed and drawn; and a rules
//! program that fails is the suite's fault, never a submission's zero.

use std::path::Path;

use crate::util::{grade_class, grader, output_ok, read, repo, scratch};

fn suite() -> std::path::PathBuf {
    repo().join("suites/connect4")
}

fn samples() -> std::path::PathBuf {
    repo().join("examples/submissions/connect4")
}

#[test]
fn the_suite_grades_its_samples_as_pinned() {
    let (stdout, _) = output_ok(grader().arg("verify").arg(suite()).arg(samples()));
    assert_eq!(stdout.matches("ok  ").count(), 3, "{stdout}");
    let total = |who: &str| -> f64 {
        let text = read(&samples().join(format!("{who}.expected.toml")));
        let line = text.lines().find(|l| l.starts_with("total = ")).unwrap();
        line["total = ".len()..].parse().unwrap()
    };
    // The tactical player beats the aimless one and the one that counts columns from 0.
    assert!(total("tactical") > total("random-legal") + 5.0);
    assert!(total("tactical") > total("zero-based") + 5.0);
}

#[test]
fn a_class_is_graded_and_its_games_replay_and_draw() {
    let dir = scratch();
    let out = grade_class(dir.path(), &suite(), &samples());
    let result: serde_json::Value =
        serde_json::from_str(&read(&out.join("zero-based/result.json"))).unwrap();
    let legal = crate::util::case(&result, "vs-random-legal");
    assert_eq!(legal["verdict"], "wrong-answer", "{legal}");
    let said = legal.to_string();
    assert!(
        said.contains("sent `0`: not a legal move here (legal: 1, "),
        "{said}"
    );

    // Records name the game by its rules program's file and hash, never by the folder it lies in.
    let games = out.join("tactical/games");
    let record = games.join("vs-minimax-1.json");
    let text = read(&record);
    assert!(text.contains("\"game\": \"rules:connect4.py@"), "{text}");
    assert!(!text.contains(&*repo().to_string_lossy()), "{text}");

    // The report draws the rendered 7×6 grid (the generic renderer: 40-pixel cells plus margins).
    let page = read(&out.join("tactical/report.html"));
    assert!(
        page.contains("viewBox=\"0 0 288 248\""),
        "no 7×6 board drawn"
    );
    assert!(
        page.contains("connect4.py board after move 1, x plays 4: "),
        "no board text"
    );

    // A record replays under its suite, which names the program; alone it names nothing to run.
    let html = dir.path().join("game.html");
    output_ok(
        grader()
            .arg("play")
            .arg(suite())
            .arg("--replay")
            .arg(&record)
            .arg("--html")
            .arg(&html),
    );
    assert!(read(&html).contains("<h1>connect4.py "));
    let alone = grader()
        .arg("play")
        .arg("--replay")
        .arg(&record)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&alone.stderr);
    assert_ne!(alone.status.code(), Some(0));
    assert!(
        stderr.contains("was not named by a suite in this run"),
        "{stderr}"
    );
}

#[test]
fn bots_search_over_the_rules_program_and_the_same_seed_plays_the_same_games() {
    let play = |seed: &str| {
        output_ok(grader().arg("play").arg(suite()).args([
            "minimax:2",
            "random",
            "--games",
            "2",
            "--seed",
            seed,
            "--show",
        ]))
        .0
    };
    let first = play("7");
    assert!(first.contains("minimax:2: 2 won"), "{first}");
    let strip = |s: &str| -> String {
        s.lines()
            .map(|l| l.split(" in ").next().unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&first), strip(&play("7")));
    // Bots that need an evaluation are refused with the ones that exist.
    let refused = grader()
        .arg("play")
        .arg(suite())
        .args(["offensive", "random"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("`random`, `minimax:D`"), "{stderr}");
}

/// A small suite whose rules (a race to 5, taking 1 or 2) are `rules.py`, with `body` as its request
/// handling after the handshake.
fn race_suite(dir: &Path, broken: &str) -> std::path::PathBuf {
    let suite = dir.join("race");
    std::fs::create_dir_all(suite.join("samples/player")).unwrap();
    std::fs::write(
        suite.join("rules.py"),
        format!(
            r#"import sys
def pos(n):
    if n >= 5:
        return "%d\t%s-won" % (n, "o" if n % 2 else "x")
    return "%d\t%s\t1\t2" % (n, "x" if n % 2 == 0 else "o")
for line in sys.stdin:
    f = line.rstrip("\n").split("\t")
    {broken}
    if f[0] == "rules": out = "rules\t1\trace"
    elif f[0] == "start": out = pos(0)
    elif f[0] == "apply": out = pos(int(f[1]) + int(f[2]))
    else: out = "|".join(f[1])
    print(out, flush=True)
"#
        ),
    )
    .unwrap();
    std::fs::write(
        suite.join("suite.toml"),
        "title = \"race\"\nseed = 1\n[arena]\ngame = { rules = \"rules.py\" }\n\
         [[languages]]\nname = \"python\"\ndetect = [\"player.py\"]\nrun = [\"python3\", \"{dir}/player.py\"]\n\
         [[groups]]\nname = \"g\"\npoints = 1\n[[groups.cases]]\nname = \"c\"\n\
         play = { opponent = \"random\", games = 2, measure = \"not-lost\" }\n",
    )
    .unwrap();
    std::fs::write(
        suite.join("samples/player/player.py"),
        "import sys\nfor line in sys.stdin:\n    k = line.split('\\t')[0]\n    if k == 'game': print('ready', flush=True)\n    elif k == 'turn': print('1', flush=True)\n    else: break\n",
    )
    .unwrap();
    suite
}

/// A suite's load asks a rules game its name, sides and bots: of one program, started once.
#[test]
fn a_suite_load_starts_its_rules_program_once() {
    let dir = scratch();
    let log = dir.path().join("starts.log");
    let suite = race_suite(
        dir.path(),
        &format!(
            "if f[0] == \"rules\": open({:?}, \"a\").write(\"started\\n\")",
            log.display().to_string()
        ),
    );
    let empty = dir.path().join("class");
    std::fs::create_dir_all(&empty).unwrap();
    grade_class(dir.path(), &suite, &empty);
    let starts = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(starts.lines().count(), 1, "started {starts:?}");
}

#[test]
fn a_rules_program_that_fails_is_the_suites_fault() {
    let dir = scratch();
    // Dies when asked to move past 2: mid-game, after the handshake.
    let suite = race_suite(
        dir.path(),
        "if f[0] == \"apply\" and int(f[1]) >= 2: sys.exit(3)",
    );
    let out = dir.path().join("out");
    let run = grader()
        .arg("run")
        .arg(&suite)
        .arg(suite.join("samples"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    // Exit 3: graded, with cases for a person to look at.
    assert_eq!(run.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("a suite's rules program failed"),
        "{stderr}"
    );
    assert!(!stderr.contains("not a valid game record"), "{stderr}");
    let result: serde_json::Value =
        serde_json::from_str(&read(&out.join("race/player/result.json"))).unwrap();
    let case = crate::util::case(&result, "c");
    let said = case["summary"].as_str().unwrap_or_default();
    assert!(
        said.contains("needs review: the suite's rules program failed in games 1 and 2 of 2, not the submission: asked `apply\\t2\\t1`, the rules program ended (exit status 3)"),
        "{said}"
    );
    assert_eq!(case["verdict"], "review", "{case}");

    // One that never shakes hands is caught when the suite is checked, naming the program.
    let suite = race_suite(
        dir.path(),
        "if f[0] == \"rules\": print(\"hello\", flush=True); continue",
    );
    let bad = grader().arg("validate").arg(&suite).output().unwrap();
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_ne!(bad.status.code(), Some(0));
    assert!(
        stderr.contains("the rules program answered `hello` to `rules<TAB>1`"),
        "{stderr}"
    );
}
