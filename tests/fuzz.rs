//! Property-based fuzzing (proptest, stable Rust) of every reader of untrusted input: `result.json`,
//! game records, shard and tournament manifests, `similarity.csv`, `suite.toml`, `grader.toml`, and
//! each protocol seat's line parsing (the referee taking any line a player prints; the dialogue
//! seat's board, prompt and question readers). Inputs are raw bytes and valid documents mutated at a
//! random place. The properties: a reader never panics whatever it is given; what it accepts, the
//! reports built from it accept too (a page, a gradebook, every export, a replay); every record the
//! referee writes, whatever the players said, passes the checks records read back must pass; a merge
//! never writes outside its `--out`.
//!
//! `cargo test` runs each reader on a fixed seed for a bounded number of cases (about a minute in
//! all). The long run, a fresh random seed per round for `GRADER_FUZZ_SECS` seconds per reader (600
//! unless set): `cargo test --test tests -- --ignored --test-threads 1 fuzz::long`. A panic is
//! shrunk to its smallest input and fails the test, which prints it; each becomes a regression test.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use serde_json::Value;

use grader::arena::game::record::GameRecord;
use grader::arena::referee::{play, Match, Policy};
use grader::arena::seat::{Reply, ScriptSeat};
use grader::report::result::SubmissionResult;

// ---------------------------------------------------------------------------------------------------
// The runner: bounded (CI) or timed (the long run).

/// How one reader is fuzzed: `cases` on a fixed seed, or rounds of fresh seeds for `secs`.
fn fuzz<S: Strategy>(
    name: &str,
    strategy: S,
    cases: u32,
    secs: Option<u64>,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_time: 60_000,
        ..Config::default()
    };
    let Some(secs) = secs else {
        let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
        let mut runner = TestRunner::new_with_rng(config, rng);
        if let Err(e) = runner.run(&strategy, &test) {
            panic!("fuzz {name}: {e}");
        }
        return;
    };
    let started = Instant::now();
    let (mut rounds, mut seed) = (0u64, [0u8; 32]);
    while started.elapsed() < Duration::from_secs(secs) {
        seed[..8].copy_from_slice(&rounds.to_le_bytes());
        seed[8..16].copy_from_slice(&u64::from(std::process::id()).to_le_bytes());
        seed[16..24].copy_from_slice(&(started.elapsed().as_nanos() as u64).to_le_bytes());
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut runner = TestRunner::new_with_rng(config.clone(), rng);
        if let Err(e) = runner.run(&strategy, &test) {
            panic!("fuzz {name} (round {rounds}): {e}");
        }
        rounds += 1;
    }
    println!(
        "fuzz {name}: {} cases in {} s, no panic",
        u64::from(cases) * rounds,
        started.elapsed().as_secs()
    );
}

// ---------------------------------------------------------------------------------------------------
// Inputs: any JSON value, and a valid document with one value replaced somewhere.

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..12).prop_map(Value::from),
        Just(Value::from(u64::MAX)),
        any::<f64>().prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
        prop::sample::select(vec![
            "x",
            "o",
            "win",
            "draw",
            "rules",
            "fault",
            "move-cap",
            "..",
            ".",
            "/",
            "../../x",
            "",
            "tictactoe",
            "oska",
            "ut3",
            "sttt",
            "tmmorris",
            "a/b",
            "\u{200f}",
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z-]{1,10}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Where in a document to change it: the choices walk down (an object's key, an array's index, by
/// the choice modulo its size), and the last says what to do there.
#[derive(Clone, Debug)]
struct Mutation {
    path: Vec<usize>,
    with: Value,
    how: u8,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (
        prop::collection::vec(any::<usize>(), 0..6),
        any_json(),
        0u8..4,
    )
        .prop_map(|(path, with, how)| Mutation { path, with, how })
}

fn mutate(doc: &Value, m: &Mutation) -> Value {
    let mut doc = doc.clone();
    mutate_at(&mut doc, &m.path, m);
    doc
}

fn mutate_at(at: &mut Value, path: &[usize], m: &Mutation) {
    let Some((&choice, rest)) = path.split_first() else {
        *at = m.with.clone();
        return;
    };
    let last = rest.is_empty();
    match at {
        Value::Object(map) if !map.is_empty() => {
            let key = map
                .keys()
                .nth(choice % map.len())
                .cloned()
                .unwrap_or_default();
            if last && m.how == 1 {
                map.remove(&key);
            } else if let Some(next) = map.get_mut(&key) {
                mutate_at(next, rest, m);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = choice % items.len();
            if last && m.how == 1 {
                items.remove(i);
            } else if last && m.how == 2 {
                let copy = items[i].clone();
                items.insert(i, copy);
            } else {
                mutate_at(&mut items[i], rest, m);
            }
        }
        _ => *at = m.with.clone(),
    }
}

/// Raw bytes, or a valid document mutated, as the bytes of a file.
fn file_from(doc: Value) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..512),
        6 => mutation().prop_map(move |m| {
            serde_json::to_vec_pretty(&mutate(&doc, &m)).unwrap_or_default()
        }),
    ]
}

// ---------------------------------------------------------------------------------------------------
// Valid documents to start from.

fn first_legal(state: &reference::games::tictactoe::TicTacToe) -> u8 {
    use reference::Game as _;
    state.moves()[0]
}

/// A real record: two scripted players, one playing the first legal move, the other a fixed line.
fn a_record() -> GameRecord {
    let mut a = grader::arena::seat::FnSeat::new(first_legal);
    let mut b = grader::arena::seat::FnSeat::new(first_legal);
    play(
        reference::games::tictactoe::TicTacToe::new(),
        [&mut a, &mut b],
        &Match {
            players: ["amy".into(), "bob".into()],
            seed: 1,
        },
        &Policy::default(),
        &mut |_, _| {},
    )
}

fn a_result(student: &str) -> Value {
    serde_json::json!({
        "suite": "s", "student": student, "sandbox": "full",
        "build": { "status": "built", "language": "python", "log": "ok", "wall-ms": 3 },
        "cases": [{
            "group": "g", "name": "c", "visibility": "public", "verdict": "wrong-answer",
            "credit": 0.5, "summary": "half", "details": ["a", "b"], "variant": null,
            "cpu-ms": 1, "wall-ms": 1, "peak-memory": 10,
            "games": [{ "game": 1, "side": "x", "missed-wins": [2], "missed-blocks": [] }]
        }],
        "groups": [{ "name": "g", "credit-rule": "proportional", "points": 1.0, "max": 2.0, "passed": 0,
                     "cases": 1 }],
        "score": 1.0, "max": 2.0,
        "integrity": [{ "case": "g/c", "what": "changed" }],
        "tournament": { "marks": 1.0, "max": 2.0, "bonus": false, "rank": 1, "entrants": 2,
                        "reason": "first" }
    })
}

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

// ---------------------------------------------------------------------------------------------------
// The readers.

fn result_json(cases: u32, secs: Option<u64>) {
    let doc = a_result("amy");
    // The document mutated is one the reader accepts.
    let dir = scratch();
    std::fs::create_dir_all(dir.path().join("amy")).unwrap();
    std::fs::write(dir.path().join("amy/result.json"), doc.to_string()).unwrap();
    grader::report::result::read_result(dir.path(), "amy").unwrap();
    fuzz("result.json", file_from(doc), cases, secs, |bytes| {
        let dir = scratch();
        std::fs::create_dir_all(dir.path().join("amy")).unwrap();
        std::fs::write(dir.path().join("amy/result.json"), &bytes).unwrap();
        let Ok(r) = grader::report::result::read_result(dir.path(), "amy") else {
            return Ok(());
        };
        // What the reader accepts, every report accepts.
        let page = grader::report::html::class::class_page(std::slice::from_ref(&r), &[], "");
        prop_assert!(page.contains("</html>") || page.contains("</body>") || !page.is_empty());
        let _ = grader::report::html::student::page_for(&r, &[], &[], true);
        grader::report::html::class::write_suite(dir.path()).unwrap();
        exports(r);
        Ok(())
    });
}

fn exports(r: SubmissionResult) {
    use grader::report::export::{self, Class};
    let class = Class {
        suite: r.suite.clone(),
        results: vec![r],
        roster: None,
        // An incomplete row's partial total goes out too, so that path is fuzzed as well.
        allow_incomplete: true,
    };
    let _ = export::gradescope::export(&class, export::gradescope::Shown::Visible);
    let _ = export::prairielearn::export(&class, true);
    let _ = export::autolab::export(&class);
    let _ = export::canvas::export(&class, "a1");
    let _ = export::moodle::export(&class, export::moodle::Identity::Username, "a1");
    let _ = export::junit::export(&class);
}

fn game_record(cases: u32, secs: Option<u64>) {
    let record = a_record();
    grader::arena::game::replay::check(&record).unwrap();
    let doc = serde_json::to_value(record).unwrap();
    fuzz("game record", file_from(doc), cases, secs, |bytes| {
        let dir = scratch();
        std::fs::write(dir.path().join("g.json"), &bytes).unwrap();
        let Ok(record) = grader::arena::game::replay::read(dir.path(), Path::new("g.json")) else {
            return Ok(());
        };
        // A record that passes the checks replays, summarises and draws.
        let _ = record.summary();
        let shown = grader::arena::game::registry::dispatch(
            &record.game.clone(),
            grader::arena::game::replay::Replay {
                record: record.clone(),
            },
        );
        prop_assert!(matches!(shown, Ok(Ok(_))), "{shown:?}");
        let r: SubmissionResult = serde_json::from_value(a_result("amy")).unwrap();
        let _ = grader::report::html::student::page_for(&r, &[("c-1".into(), record)], &[], true);
        Ok(())
    });
}

/// A shard's folder `dir/shard/s/` holding `manifest` and amy's and bob's results.
fn shard_folder(dir: &Path, manifest: &[u8]) -> PathBuf {
    let shard = dir.join("shard");
    for s in ["amy", "bob"] {
        std::fs::create_dir_all(shard.join("s").join(s)).unwrap();
        std::fs::write(
            shard.join("s").join(s).join("result.json"),
            a_result(s).to_string(),
        )
        .unwrap();
    }
    std::fs::write(shard.join("s/shard.json"), manifest).unwrap();
    shard
}

fn shard_manifest(cases: u32, secs: Option<u64>) {
    let manifest = grader::report::shard::Manifest {
        suite: "s".into(),
        shard: 1,
        shards: 1,
        grader: "0".into(),
        suite_dir: "/nowhere/s".into(),
        students_dir: "/nowhere/subs".into(),
        class: 2,
        students: vec!["amy".into(), "bob".into()],
        columns: grader::report::Columns::default(),
        tournament: false,
    };
    let doc = serde_json::to_value(&manifest).unwrap();
    fuzz("shard manifest", file_from(doc), cases, secs, |bytes| {
        let dir = scratch();
        let shard = shard_folder(dir.path(), &bytes);
        let out = dir.path().join("out");
        let _ = grader::report::shard::merge(&[shard], &out);
        // Nothing written beside the shard and `--out`.
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        prop_assert!(names == ["out", "shard"] || names == ["shard"], "{names:?}");
        Ok(())
    });
}

fn tournament_manifest(cases: u32, secs: Option<u64>) {
    let record = a_record();
    let manifest = grader::report::shard::TournamentManifest {
        game: "tictactoe".into(),
        game_name: "tictactoe".into(),
        seed: 1,
        games_per_pairing: Some(1),
        players: vec!["amy".into(), "bob".into()],
        suite: Some("s".into()),
        not_graded: Vec::new(),
        scheduled: 1,
        shard: 1,
        shards: 1,
        grader: "0".into(),
    };
    let doc = serde_json::to_value(&manifest).unwrap();
    fuzz(
        "tournament manifest",
        file_from(doc),
        cases,
        secs,
        |bytes| {
            let dir = scratch();
            std::fs::write(dir.path().join("tournament-shard.json"), &bytes).unwrap();
            let game = serde_json::to_vec(&record).unwrap();
            std::fs::write(dir.path().join("round-robin-0001.json"), game).unwrap();
            let _ = grader::report::shard::read_round_robin(&[dir.path().to_path_buf()]);
            Ok(())
        },
    );
}

fn csv_cell() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,16}",
        prop::sample::select(vec![
            "pair",
            "not-compared",
            "path-dependent",
            "",
            "\"",
            ",",
            "\n"
        ])
        .prop_map(str::to_string),
    ]
}

fn similarity_csv(cases: u32, secs: Option<u64>) {
    let rows = prop::collection::vec(prop::collection::vec(csv_cell(), 0..8), 0..6);
    let text = prop_oneof![
        rows.prop_map(|rows| {
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record([
                "kind",
                "student",
                "other",
                "similarity",
                "longest-fragment",
                "detail",
            ])
            .unwrap();
            for r in rows {
                let _ = w.write_record(&r);
            }
            w.into_inner().unwrap_or_default()
        }),
        prop::collection::vec(any::<u8>(), 0..512),
    ];
    fuzz("similarity.csv", text, cases, secs, |bytes| {
        let dir = scratch();
        std::fs::write(dir.path().join("similarity.csv"), &bytes).unwrap();
        let html = grader::report::html::similarity::section(dir.path());
        prop_assert!(!html.contains("<script"), "{html}");
        Ok(())
    });
}

/// A TOML file with one line replaced, inserted or cut, or a byte changed.
fn toml_from(text: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let line = prop_oneof![
        "\\PC{0,24}",
        "[a-z-]{1,12} = (\"[^\"]{0,8}\"|[0-9]{1,4}|true|\\[\\])",
        prop::sample::select(vec![
            "[limits]",
            "[[groups]]",
            "[[groups.cases]]",
            "[arena]",
            "[run]",
            "[scratch]",
            "cpu = \"0s\"",
            "memory = \"0\"",
            "points = -1",
            "jobs = 0",
            "name = \"..\"",
        ])
        .prop_map(str::to_string),
    ];
    (any::<usize>(), line, 0u8..4, any::<u8>()).prop_map(move |(at, line, how, byte)| {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let i = at % lines.len().max(1);
        match how {
            0 => lines[i] = line,
            1 => lines.insert(i, line),
            2 => {
                lines.remove(i);
            }
            _ => {}
        }
        let mut bytes = lines.join("\n").into_bytes();
        if how == 3 && !bytes.is_empty() {
            let k = at % bytes.len();
            bytes[k] = byte;
        }
        bytes
    })
}

fn suite_toml(cases: u32, secs: Option<u64>) {
    let config = grader::config::Config::load(None).unwrap();
    fuzz(
        "suite.toml",
        toml_from(crate::suite::GOOD),
        cases,
        secs,
        move |bytes| {
            let dir = scratch();
            let suite = dir.path().join("echo");
            std::fs::create_dir_all(suite.join("golden")).unwrap();
            std::fs::write(suite.join("golden/hello.stdout"), "hello\n").unwrap();
            std::fs::write(suite.join("suite.toml"), &bytes).unwrap();
            let _ = grader::suite::Suite::load(&suite, &config, grader::suite::oracle::builtin());
            Ok(())
        },
    );
}

fn grader_toml(cases: u32, secs: Option<u64>) {
    static SHIPPED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let text = SHIPPED
        .get_or_init(|| std::fs::read_to_string(crate::util::repo().join("grader.toml")).unwrap());
    fuzz("grader.toml", toml_from(text), cases, secs, |bytes| {
        let dir = scratch();
        let path = dir.path().join("grader.toml");
        std::fs::write(&path, &bytes).unwrap();
        let _ = grader::config::Config::load(Some(&path));
        Ok(())
    });
}

// ---------------------------------------------------------------------------------------------------
// The seats' line parsing: the referee takes whatever a player printed.

/// A line a player might print: anything, or a move-shaped one (numbers, cells, coordinates).
fn reply_line() -> impl Strategy<Value = Reply> {
    let text = prop_oneof![
        "\\PC{0,20}",
        "[0-9]{1,2}",
        "[0-9]{1,2} [0-9]{1,2}",
        "[0-9]{1,2},[0-9]{1,2}",
        "\\(?[0-9] [0-9]\\)? ?(->)? ?\\(?[0-9] [0-9]\\)?",
        "[a-e][1-5]( [a-e][1-5])?",
        "[wbxo\\-.]{4,16}",
        "\\[\\[?[wb\\-, \"]{0,30}\\]?\\]",
    ];
    prop_oneof![
        8 => text.prop_map(Reply::Line),
        1 => Just(Reply::Timeout),
        1 => Just(Reply::Garbage),
        1 => (0usize..100_000).prop_map(Reply::Flood),
        1 => "\\PC{0,10}".prop_map(Reply::Crashed),
    ]
}

struct Played<'a>(&'a [Reply], &'a [Reply], u8);

impl grader::arena::game::registry::Visitor for Played<'_> {
    type Out = GameRecord;

    fn visit<G: grader::arena::game::ArenaGame>(
        self,
        initial: G,
        _bots: grader::arena::game::registry::MakeBot<G>,
    ) -> GameRecord {
        let mut a = ScriptSeat::new(self.0.to_vec());
        let mut b = ScriptSeat::new(self.1.to_vec());
        let policy = Policy {
            limit: None,
            move_cap: Some(60),
            illegal: if self.2 % 2 == 0 {
                grader::arena::referee::IllegalPolicy::Lose
            } else {
                grader::arena::referee::IllegalPolicy::Forfeit
            },
            ..Policy::default()
        };
        let who = Match {
            players: ["amy".into(), "bob".into()],
            seed: u64::from(self.2),
        };
        play(initial, [&mut a, &mut b], &who, &policy, &mut |_, _| {})
    }
}

fn seat_lines(cases: u32, secs: Option<u64>) {
    let games = prop::sample::select(vec![
        "tictactoe",
        "tmmorris",
        "sttt",
        "ut3",
        "oska",
        "oska:5",
    ]);
    let script = || prop::collection::vec(reply_line(), 1..40);
    let input = (games, script(), script(), any::<u8>());
    fuzz("seat lines", input, cases, secs, |(game, a, b, knob)| {
        let record = grader::arena::game::registry::dispatch(game, Played(&a, &b, knob)).unwrap();
        // Whatever the players said, the record passes the checks every record read back passes.
        let checked = grader::arena::game::replay::check(&record);
        prop_assert!(checked.is_ok(), "{checked:?}\n{record:?}");
        Ok(())
    });
}

fn dialogue_lines(cases: u32, secs: Option<u64>) {
    use grader::arena::seat::dialogue::{board, end, question, screen};
    let text = prop_oneof![
        "\\PC{0,60}",
        "([ XO.\\-1-9|+]{3,7}\n){0,5}",
        "(Do you|Would you like to|Who) (go|play|move)? ?(first|second)?\\?? ?(\\(y/n\\)|\\[X/O\\])?",
        "(Enter|Your) (move|row and column|cell)( \\(1-9\\)| \\(row col\\)| \\[0-8\\])?: ?",
    ];
    fuzz("dialogue lines", text, cases, secs, |text| {
        let shown = screen::render(text.as_bytes());
        for grid in board::grids(&shown) {
            let _ = board::Empties::default().marks(&grid);
            let _ = board::numbering_of(&grid);
        }
        let _ = question::read(&shown, false);
        let _ = question::read(&shown, true);
        let _ = end::claim(&shown, Some("grader"));
        Ok(())
    });
}

// ---------------------------------------------------------------------------------------------------
// The bounded run (part of `cargo test`) and the long one.

/// One reader's fuzzing: given cases on a fixed seed, or seconds of fresh seeds.
type Reader = fn(u32, Option<u64>);

/// Cases per reader in `cargo test`: about a minute for all of them on the development machine.
const BOUNDED: [(&str, Reader, u32); 9] = [
    ("result.json", result_json, 300),
    ("game record", game_record, 400),
    ("shard manifest", shard_manifest, 150),
    ("tournament manifest", tournament_manifest, 300),
    ("similarity.csv", similarity_csv, 400),
    ("suite.toml", suite_toml, 300),
    ("grader.toml", grader_toml, 300),
    ("seat lines", seat_lines, 300),
    ("dialogue lines", dialogue_lines, 1500),
];

#[test]
fn every_reader_of_untrusted_input_survives_a_bounded_fuzz() {
    for (_, reader, cases) in BOUNDED {
        reader(cases, None);
    }
}

/// `GRADER_FUZZ_SECS` (600) seconds of fresh seeds per reader; `GRADER_FUZZ_ONLY` names one reader.
#[test]
#[ignore = "the long fuzz run: minutes per reader"]
fn long() {
    let secs = std::env::var("GRADER_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let only = std::env::var("GRADER_FUZZ_ONLY").ok();
    for (name, reader, _) in BOUNDED {
        if only.as_deref().is_none_or(|o| o == name) {
            reader(64, Some(secs));
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// What the fuzzing found, each kept as a regression test.

/// Found by `seat lines`: a Super-TTT game in which a placement was forfeited (the reply spoiled, the
/// game's stand-in of no placement played instead) could not be replayed, by `play --replay`, the
/// HTML report, or the checks every record read back passes: the stand-in is not a legal move of its
/// own. It is now replayed as the game's stand-in for the reply, and must write as the record does.
#[test]
fn a_forfeited_super_ttt_placement_replays() {
    let blank = [Reply::Line(String::new())];
    let record =
        grader::arena::game::registry::dispatch("sttt", Played(&blank, &blank, 1)).unwrap();
    assert!(record.moves[0].forfeited.is_some(), "{record:?}");
    grader::arena::game::replay::check(&record).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sttt.json");
    std::fs::write(&file, serde_json::to_string(&record).unwrap()).unwrap();
    let (stdout, _) =
        crate::util::output_ok(crate::util::grader().args(["play", "--replay"]).arg(&file));
    assert!(stdout.contains("forfeited"), "{stdout}");
}

/// Found by `result.json` (the long run): a result whose build or case took `u64::MAX` ms overflowed
/// the sum of times the Gradescope and JUnit exports make, and the export panicked. A time past a
/// hundred days is now a tampered result, refused by name before any report reads it.
#[test]
fn a_result_with_an_impossible_time_is_refused_not_summed() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("s");
    std::fs::create_dir_all(results.join("amy")).unwrap();
    let mut r = a_result("amy");
    r["build"]["wall-ms"] = Value::from(u64::MAX);
    std::fs::write(results.join("amy/result.json"), r.to_string()).unwrap();
    let why = grader::report::result::read_result(&results, "amy").unwrap_err();
    assert!(
        why.contains("the build took 18446744073709551615 ms"),
        "{why}"
    );
    for to in ["gradescope", "junit"] {
        let out = crate::util::grader()
            .arg("export")
            .arg(&results)
            .args(["--to", to, "-o"])
            .arg(dir.path().join(to))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{to}: {stderr}");
        assert!(
            stderr.contains("amy/result.json`: not a valid result"),
            "{stderr}"
        );
    }
}
