//! `grader solve`: golden outputs as snapshots (library and CLI), bad input, and the write guarantees.
//!
//! Large traces are not stored whole: a snapshot keeps their line count, an FNV-1a hash, and the first
//! and last lines, so any change still fails while the files stay readable.

use std::fmt::Write as _;

use reference::adelaide::{self, Mode, Solution, Variant};
use reference::Player;

use crate::util::{grader, read, scratch};

/// Traces longer than this are summarised in snapshots.
const WHOLE: usize = 40;

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({
            snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/solve"),
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// Tic-tac-toe states with golden outputs: the handout's examples (the "interesting test cases" read
/// from the extracted figures as `xo-ox----` and `xo--x----`), the blank board, wins for either side,
/// full boards, one-blank boards, and mid-game states.
const TICTACTOE_STATES: &[&str] = &[
    "---------",
    "oxxxo-ox-",
    "xo-ox----",
    "xo--x----",
    "oo--xx---",
    "x--------",
    "----x----",
    "xo-------",
    "-o--x----",
    "xxxoo----",
    "xoxoxo--x",
    "ooox-x-x-",
    "xoxxoooxx",
    "xoxoxoxox",
    "xoxxoo-xo",
    "oxoxxo-ox",
    "-xoxooxox",
    "xox-ooxxo",
    "------o-x",
    "-o------x",
    "o-----x--",
    "------xox",
    "--o-x--x-",
    "--o-xx---",
    "-oxx-----",
    "x--ox----",
    "x--xo----",
    "---o-oxx-",
    "--x--o-ox",
    "o---ox-x-",
    "o-x---xo-",
    "oox--x---",
    "xxo-o----",
    "-ox-o-x-x",
    "-x-o-xo-x",
    "oox---x-x",
    "x-o---oxx",
    "x-ox---xo",
    "oo--x-oxx",
    "ox-o--xxo",
    "o-xooxxx-",
    "xoxoxxo-o",
];

/// Three Men's Morris states and the side to move: the handout's example board, placement and
/// movement phases, a blocked side.
const TMMORRIS_STATES: &[(&str, Player)] = &[
    ("xxo-ox--o", Player::First),
    ("xxo-ox--o", Player::Second),
    ("---------", Player::First),
    ("----x----", Player::Second),
    ("xo-------", Player::First),
    ("xxo-o----", Player::First),
    ("xo-ox-o-x", Player::First),
    ("xo-ox-o-x", Player::Second),
    ("xxoxo-o--", Player::Second),
    ("xxoxo-o--", Player::First),
    ("xx-oo-xo-", Player::First),
    ("xx-oo-xo-", Player::Second),
    ("xxxoo-o--", Player::Second),
];

/// 64-bit FNV-1a: tiny, stable across platforms and Rust versions.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The trace whole when short; otherwise its size, hash, and first and last lines.
fn summarise(trace: &str) -> String {
    let lines: Vec<&str> = trace.lines().collect();
    if lines.len() <= WHOLE {
        return trace.to_owned();
    }
    let mut out = format!(
        "{} lines, fnv1a {:016x}\n",
        lines.len(),
        fnv1a(trace.as_bytes())
    );
    for l in &lines[..5] {
        writeln!(out, "{l}").unwrap();
    }
    out.push_str("...\n");
    for l in &lines[lines.len() - 5..] {
        writeln!(out, "{l}").unwrap();
    }
    out
}

fn section(out: &mut String, title: &str, s: &Solution) {
    writeln!(out, "== {title} ==").unwrap();
    writeln!(out, "stdout: {:?}", s.stdout()).unwrap();
    out.push_str(&summarise(&s.trace_text()));
}

#[test]
fn tictactoe_golden_outputs() {
    assert!(TICTACTOE_STATES.len() >= 40);
    for state in TICTACTOE_STATES {
        let modes = [
            ("plain", Mode::Plain),
            ("prune", Mode::Prune),
            ("prune 1", Mode::Ply(1)),
            ("prune 2", Mode::Ply(2)),
            ("prune 3", Mode::Ply(3)),
            ("prune 4", Mode::Ply(4)),
        ];
        let mut out = String::new();
        for (title, mode) in modes {
            let s = adelaide::tictactoe(state, mode, Variant::Golden)
                .unwrap_or_else(|e| panic!("{state}: {e}"));
            section(&mut out, title, &s);
        }
        snapshot!(format!("tictactoe_{state}"), out);
    }
}

#[test]
fn tmmorris_golden_outputs() {
    for &(state, turn) in TMMORRIS_STATES {
        let side = adelaide::side_char(turn);
        let mut out = String::new();
        for ply in [1, 2, 3, 4, 9] {
            let s = adelaide::tmmorris(state, ply, turn, Variant::Golden)
                .unwrap_or_else(|e| panic!("{state} {side}: {e}"));
            section(&mut out, &format!("ply {ply}"), &s);
        }
        snapshot!(format!("tmmorris_{state}_{side}"), out);
    }
}

#[test]
fn variants_on_a_midgame_state() {
    let mut out = String::new();
    for &v in Variant::ALL {
        for (title, mode) in [("plain", Mode::Plain), ("prune 2", Mode::Ply(2))] {
            let s = adelaide::tictactoe("x--ox----", mode, v).unwrap();
            section(&mut out, &format!("{} / {title}", v.name()), &s);
        }
    }
    snapshot!("variants_x--ox----", out);
}

/// Runs `grader solve ARGS` in a scratch folder (PATH arguments are relative to it) and returns the
/// transcript: exit code, stdout, stderr, and the visited file (or that none was written).
fn transcript(args: &[&str]) -> String {
    let dir = scratch();
    let out = grader()
        .current_dir(dir.path())
        .arg("solve")
        .args(args)
        .output()
        .expect("grader runs");
    let visited = dir.path().join("visited.txt");
    let written = if visited.exists() {
        summarise(&read(&visited))
    } else {
        "(not written)\n".to_owned()
    };
    let leftovers: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "visited.txt")
        .collect();
    assert!(leftovers.is_empty(), "stray files: {leftovers:?}");
    format!(
        "exit: {}\n--- stdout ---\n{}--- stderr ---\n{}--- visited.txt ---\n{written}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn cli_transcripts() {
    let cases: &[(&str, &[&str])] = &[
        ("handout", &["tictactoe", "oxxxo-ox-", "visited.txt"]),
        (
            "blank_prune",
            &["tictactoe", "---------", "visited.txt", "prune"],
        ),
        (
            "blank_ply_3",
            &["tictactoe", "---------", "visited.txt", "prune", "3"],
        ),
        ("finished", &["tictactoe", "xxxoo----", "visited.txt"]),
        ("full", &["tictactoe", "xoxxoooxx", "visited.txt", "prune"]),
        (
            "post_order",
            &[
                "--variant",
                "post-order",
                "tictactoe",
                "oxxxo-ox-",
                "visited.txt",
            ],
        ),
        (
            "tmmorris",
            &["tmmorris", "xo-ox-o-x", "visited.txt", "3", "o"],
        ),
        (
            "tmmorris_won",
            &["tmmorris", "xxxoo-o--", "visited.txt", "3", "o"],
        ),
    ];
    for (name, args) in cases {
        snapshot!(format!("cli_{name}"), transcript(args));
    }
}

#[test]
fn bad_input_exits_2_with_one_line_and_writes_nothing() {
    let cases: &[(&str, &[&str])] = &[
        ("length", &["tictactoe", "oxx", "visited.txt"]),
        ("character", &["tictactoe", "oxxxo-oX-", "visited.txt"]),
        ("counts", &["tictactoe", "xxx------", "visited.txt"]),
        ("both_lines", &["tictactoe", "xxxooo---", "visited.txt"]),
        (
            "moved_after_win",
            &["tictactoe", "xxxoo-o--", "visited.txt"],
        ),
        ("missing_state", &["tictactoe"]),
        ("missing_path", &["tictactoe", "---------"]),
        (
            "not_prune",
            &["tictactoe", "---------", "visited.txt", "prnue"],
        ),
        (
            "ply_text",
            &["tictactoe", "---------", "visited.txt", "prune", "two"],
        ),
        (
            "ply_zero",
            &["tictactoe", "---------", "visited.txt", "prune", "0"],
        ),
        (
            "extra",
            &["tictactoe", "---------", "visited.txt", "prune", "2", "x"],
        ),
        (
            "unwritable",
            &["tictactoe", "---------", "missing/visited.txt"],
        ),
        ("path_is_folder", &["tictactoe", "---------", "."]),
        ("unknown_game", &["chess", "---------", "visited.txt"]),
        (
            "unknown_variant",
            &[
                "--variant",
                "sloppy",
                "tictactoe",
                "---------",
                "visited.txt",
            ],
        ),
        (
            "tmmorris_missing_ply",
            &["tmmorris", "---------", "visited.txt"],
        ),
        (
            "tmmorris_missing_turn",
            &["tmmorris", "---------", "visited.txt", "3"],
        ),
        (
            "tmmorris_ply_text",
            &["tmmorris", "---------", "visited.txt", "deep", "x"],
        ),
        (
            "tmmorris_turn",
            &["tmmorris", "---------", "visited.txt", "3", "X"],
        ),
        (
            "tmmorris_wrong_turn",
            &["tmmorris", "x--------", "visited.txt", "3", "x"],
        ),
        (
            "tmmorris_pieces",
            &["tmmorris", "xxxxoooo-", "visited.txt", "3", "x"],
        ),
    ];
    for (name, args) in cases {
        let t = transcript(args);
        assert!(
            t.starts_with("exit: 2\n--- stdout ---\n--- stderr ---\nerror: "),
            "{t}"
        );
        assert!(t.ends_with("(not written)\n"), "{t}");
        let stderr = t.split("--- stderr ---\n").nth(1).unwrap();
        let stderr = stderr.split("--- visited.txt ---").next().unwrap();
        assert_eq!(stderr.lines().count(), 1, "one line on stderr: {t}");
        snapshot!(format!("error_{name}"), t);
    }
}

#[test]
fn a_failed_run_keeps_an_existing_file() {
    let dir = scratch();
    let path = dir.path().join("visited.txt");
    std::fs::write(&path, "earlier\n").unwrap();
    grader()
        .current_dir(dir.path())
        .args(["solve", "tictactoe", "xx-------", "visited.txt"])
        .assert()
        .code(2);
    assert_eq!(read(&path), "earlier\n");
}
