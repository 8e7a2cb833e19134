//! Three Men's Morris in the Adelaide suite (postgraduates), from the same grading run as
//! tests/examples.rs (which checks the example hand-ins' verdicts and points on the Morris groups
//! against their `.expected.toml` files): what undergraduates (no `tmmorris`) get, the groups reported
//! as not attempted and left out of their total.

use crate::examples::result;
use crate::util::{read, repo, scratch};

#[test]
fn undergraduates_have_not_attempted_morris_and_keep_their_total() {
    let r = result("c-correct");
    assert_eq!(
        (r["score"].as_f64(), r["max"].as_f64()),
        (Some(15.0), Some(15.0))
    );
    let not: Vec<(&str, &str)> = r["not-attempted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["group"].as_str().unwrap(), n["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        not,
        [
            ("morris-moves", "no `tmmorris.c`"),
            ("morris-no-move", "no `tmmorris.c`"),
            ("morris-tactics", "no `tmmorris.c`"),
            ("morris-play", "no `tmmorris.c`"),
        ]
    );
    assert!(r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| !c["group"].as_str().unwrap().starts_with("morris-")));
    // A hand-in that does not compile has not attempted Morris either: every recipe's file is named.
    let r = result("no-compile");
    assert_eq!(
        r["not-attempted"][0]["reason"],
        "no `tmmorris.cpp`, no `tmmorris.cc`, no `tmmorris.c`, no `tmmorris.java`, no `tmmorris.py`, no `src/bin/tmmorris.rs`"
    );
    assert_eq!(r["max"].as_f64(), Some(15.0));
    // A postgraduate's raw score is out of 18; the course (no roster: the default undergraduate
    // track) grades it out of 15, Morris not counted, and says so.
    let pg = result("morris-c");
    assert_eq!(pg["max"].as_f64(), Some(18.0));
    assert_eq!(pg["course"]["max"].as_f64(), Some(15.0));
    assert!(
        pg["course"]["notes"][0]
            .as_str()
            .unwrap()
            .ends_with("not part of the undergraduate track, not counted"),
        "{pg}"
    );
}

#[test]
fn morris_flaws_are_explained_in_the_games_words() {
    let summary = |student: &str, case: &str| -> (String, Vec<String>) {
        let r = result(student);
        let c = r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["group"].as_str().unwrap().starts_with("morris-") && c["name"] == case)
            .unwrap()
            .clone();
        let details = c["details"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap().to_string())
            .collect();
        (c["summary"].as_str().unwrap().to_string(), details)
    };
    let (s, d) = summary("morris-diagonal", "step-x");
    assert_eq!(
        s,
        "you printed `xxxo-o-o-`, which is not a legal move for x from `xx-oxo-o-`"
    );
    assert_eq!(
        d[0],
        "x stepped diagonally from cell 4 to cell 2: steps go up, down, left or right"
    );
    let (_, d) = summary("morris-no-movement", "step-o");
    assert_eq!(
        d[0],
        "o placed a fourth piece: with 3 on the board, o must step one of them to an adjacent empty cell"
    );
    let (s, _) = summary("morris-moves-when-none", "x-won");
    assert_eq!(
        s,
        "you printed `xxxo-oo--`, but o has no legal move here: print nothing"
    );
    let (s, _) = summary("morris-misses-win", "win-placing-ply-1");
    assert_eq!(
        s,
        "you played `xx-oox---`, which does not win; `xxxoo----` wins at once"
    );
    let (s, _) = summary("morris-misses-win", "block-step-ply-3");
    assert_eq!(
        s,
        "you played `oxox---xo`, after which x wins at once with `oxo-x--xo`; `ox-xo--xo` blocks it"
    );
    let (s, _) = summary("morris-no-steps", "step-x");
    assert_eq!(
        s,
        "you printed nothing, but x has 1 legal move here, e.g. `x-xoxo-o-`"
    );
    // In a game too it printed nothing (not "`` is not a board"), and it is told what was asked.
    let (_, d) = summary("morris-no-steps", "never-loses-to-perfect");
    assert_eq!(
        d[1],
        "game 2, you played o: lost — o printed nothing on move 8 (asked for the board after its move)"
    );
    let (s, d) = summary("morris-bad-visited", "win-placing-ply-1");
    assert_eq!(
        s,
        "line 1 of `visited.txt` lists `xo-xo-x--`, which cannot arise from `xx-oo----` with x to move"
    );
    assert_eq!(d[0], "you played `xxxoo----`, which wins at once");
}

/// Position and play cases record what the program used (issue 14: they showed 0 ms and no memory).
#[test]
fn position_and_play_cases_record_cpu_and_peak_memory() {
    let dir = scratch();
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::os::unix::fs::symlink(
        repo().join("examples/submissions/adelaide-2021-a1/morris-python"),
        class.join("morris-python"),
    )
    .unwrap();
    let results =
        crate::util::grade_class(dir.path(), &repo().join("suites/adelaide-2021-a1"), &class);
    let r: serde_json::Value =
        serde_json::from_str(&read(&results.join("morris-python/result.json"))).unwrap();
    let cases = r["cases"].as_array().unwrap();
    for group in ["morris-moves", "morris-play"] {
        let of_group: Vec<&serde_json::Value> =
            cases.iter().filter(|c| c["group"] == group).collect();
        assert!(!of_group.is_empty(), "{group}");
        for c in of_group {
            assert!(c["cpu-ms"].as_u64().unwrap() > 0, "{group}: {c}");
            assert!(c["peak-memory"].as_u64().unwrap() > 0, "{group}: {c}");
        }
    }
}
