//! The dialogue seat's checks against real `/bin/sh` programs playing tic-tac-toe in rows and columns:
//! the move order after the opening, invalid inputs typed at prompts (asked again, accepted, crashed),
//! and the end-of-game message checked against the real result.

use std::time::Duration;

use reference::games::tictactoe::TicTacToe;
use regex::Regex;

use crate::sandbox::{Spec, Stdin};

use crate::arena::game::record::{Ending, Fact, GameRecord, GameResult, ProbeOutcome};
use crate::arena::referee::{play, Clock, Match, Policy};
use crate::arena::seat::dialogue::{DialogueSeat, Probe, Script, Step};
use crate::arena::seat::{Reply, ScriptSeat, Seat};

use super::{basic, sh_program};

fn script(probes: Vec<Probe>) -> Script {
    Script {
        opening: vec![Step {
            expect: Regex::new(r"(?i)X or O\?").unwrap(),
            send: "{OPPONENT-SIDE}".into(),
        }],
        prompt: Regex::new(r"(?i)your move: \z").unwrap(),
        send: "{row} {col}".into(),
        reply: Regex::new(r"(?i)\bI play (?P<row>[1-3]) (?P<col>[1-3])").unwrap(),
        end: Some(
            Regex::new(r"(?i)\b(?P<x>x) wins|\b(?P<o>o) wins|(?P<me>I) win|(?P<draw>draw)")
                .unwrap(),
        ),
        expect_timeout: Duration::from_millis(800),
        probes,
    }
}

fn probe(at: u32, send: &str, about: &str) -> Probe {
    Probe {
        at,
        send: send.into(),
        about: about.into(),
    }
}

/// A program that takes the top row (`1 1`, `1 2`, `1 3`) whatever its opponent does, as x, and shows
/// the board after each of its moves. `on_bad` runs for an input that is not `2 1`, `2 2` or `3 3`
/// (the moves the opponent script makes); `announce` is its last line.
fn program(dir: &std::path::Path, on_bad: &str, announce: &str, order_wrong: bool) -> Spec {
    thinking(dir, on_bad, announce, order_wrong, "")
}

/// [`program`], running `think` before each of its moves after the first (those the referee clocks).
fn thinking(
    dir: &std::path::Path,
    on_bad: &str,
    announce: &str,
    order_wrong: bool,
    think: &str,
) -> Spec {
    let first = if order_wrong {
        "printf 'Your move: '; read m || exit 0\n"
    } else {
        ""
    };
    let text = format!(
        "b0=.; b1=.; b2=.; b3=.; b4=.; b5=.; b6=.; b7=.; b8=.\n\
         show() {{ printf ' %s | %s | %s\\n %s | %s | %s\\n %s | %s | %s\\n' \"$b0\" \"$b1\" \"$b2\" \"$b3\" \"$b4\" \"$b5\" \"$b6\" \"$b7\" \"$b8\"; }}\n\
         printf 'Welcome. X or O? '\nread mark || exit 0\n{first}\
         for cell in 0 1 2; do\n\
           if [ \"$cell\" != 0 ]; then :; {think}\n fi\n\
           eval \"b$cell=X\"\n\
           echo \"I play 1 $((cell + 1))\"\n\
           show\n\
           if [ \"$cell\" = 2 ]; then echo '{announce}'; exit 0; fi\n\
           while true; do\n\
             printf 'Your move: '; read m || exit 0\n\
             case \"$m\" in\n\
               '2 1') b3=O; break ;;\n\
               '2 2') b4=O; break ;;\n\
               '3 3') b8=O; break ;;\n\
               *) {on_bad} ;;\n\
             esac\n\
           done\n\
         done\n"
    );
    sh(dir, &text)
}

/// A `/bin/sh` program with the text `text`.
fn sh(dir: &std::path::Path, text: &str) -> Spec {
    sh_program(dir, &format!("p{}.sh", text.len()), text, &[], Stdin::Piped)
}

/// Plays the program as x against a script that answers cells 3 and 4 (`2 1`, `2 2`).
fn game(spec: Spec, probes: Vec<Probe>) -> GameRecord {
    let policy = Policy {
        limit: Some(Duration::from_secs(5)),
        ..Policy::default()
    };
    game_under(spec, probes, &policy)
}

/// [`game`] under `policy`.
fn game_under(spec: Spec, probes: Vec<Probe>, policy: &Policy) -> GameRecord {
    let mut prog = DialogueSeat::new(basic(), spec, script(probes));
    let mut other = ScriptSeat::new(vec![Reply::Line("3".into()), Reply::Line("4".into())]);
    let who = Match {
        players: ["program".into(), "script".into()],
        seed: 1,
    };
    play(
        TicTacToe::new(),
        [&mut prog as &mut dyn Seat<TicTacToe>, &mut other],
        &who,
        policy,
        &mut |_, _| {},
    )
}

fn probes_of(r: &GameRecord) -> Vec<(String, ProbeOutcome)> {
    r.facts
        .iter()
        .filter_map(|f| match f {
            Fact::Probe { sent, outcome, .. } => Some((sent.clone(), *outcome)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_careful_program_asks_again_and_names_the_winner() {
    let dir = tempfile::tempdir().unwrap();
    let spec = program(dir.path(), "echo 'Invalid.'", "X wins!", false);
    let r = game(
        spec,
        vec![
            probe(1, "{taken}", "an occupied cell"),
            probe(1, "hello", "not a move"),
            probe(1, "4 1", "off the board"),
        ],
    );
    // Probes wait for the first prompt at which the grader knows how the program takes moves (its
    // board showed `2 1` on row 2, column 1), and an input off the board is typed in that form.
    assert_eq!(r.result, GameResult::Win(0), "{}", r.reason);
    assert_eq!(r.moves[0].sent, "0");
    assert_eq!(
        probes_of(&r),
        vec![
            ("1 1".to_string(), ProbeOutcome::Rejected),
            ("hello".to_string(), ProbeOutcome::Rejected),
            ("0 2".to_string(), ProbeOutcome::Rejected),
        ]
    );
    assert!(r.facts.iter().any(|f| matches!(
        f,
        Fact::Opening {
            ok: true,
            side: 0,
            ..
        }
    )));
    assert!(
        r.facts.iter().any(|f| matches!(
            f,
            Fact::End {
                right: true,
                claim: Some(GameResult::Win(0)),
                ..
            }
        )),
        "{:?}",
        r.facts
    );
}

#[test]
fn accepting_or_crashing_on_an_invalid_input_loses_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    // Takes anything as a move: the probe sees its next move instead of the prompt.
    let spec = program(dir.path(), "break", "X wins!", false);
    let r = game(spec, vec![probe(1, "hello", "not a move")]);
    assert_eq!(r.result, GameResult::Win(1));
    assert_eq!(
        probes_of(&r),
        vec![("hello".to_string(), ProbeOutcome::Accepted)]
    );
    assert!(
        r.reason.contains("accepted `hello` (not a move)"),
        "{}",
        r.reason
    );

    let spec = program(dir.path(), "exit 3", "X wins!", false);
    let r = game(spec, vec![probe(1, "{taken}", "an occupied cell")]);
    assert_eq!(r.result, GameResult::Win(1));
    assert_eq!(
        probes_of(&r),
        vec![("1 1".to_string(), ProbeOutcome::Fault)]
    );
    assert!(r.reason.contains("crashed (exit status 3)"), "{}", r.reason);
    assert!(r.reason.contains("after `1 1`"), "{}", r.reason);
}

#[test]
fn a_wrong_winner_and_a_wrong_move_order_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let spec = program(dir.path(), "echo 'Invalid.'", "O wins!", false);
    let r = game(spec, Vec::new());
    assert_eq!(r.result, GameResult::Win(0));
    let end = r.facts.iter().find_map(|f| match f {
        Fact::End { right, detail, .. } => Some((*right, detail.clone())),
        _ => None,
    });
    let (right, detail) = end.expect("an end fact");
    assert!(!right);
    assert!(
        detail.contains("says o wins but the game ended in x wins"),
        "{detail}"
    );

    // The user chose O, but it asks for the user's move first (the opening is not as rule 1 says),
    // then drops that move and plays an X: its fault.
    let spec = program(dir.path(), "echo 'Invalid.'", "X wins!", true);
    let r = game(spec, Vec::new());
    assert_eq!(r.ending, Ending::Fault, "{}", r.reason);
    assert!(
        r.reason.contains(
            "made its move on row 1, column 1 but its board does not show the move `2 1`"
        ),
        "{}",
        r.reason
    );
    assert!(r.facts.iter().any(|f| matches!(
        f,
        Fact::Opening { ok: false, detail, .. } if detail.contains("the user chose O and the user moved first")
    )));
}

#[test]
fn a_program_that_reads_a_line_and_quits_without_a_word_is_at_fault() {
    // It reads before it prints anything (the grader presses Enter), then ends: on a terminal nothing
    // waits unflushed, so it simply printed nothing. (A program that never prints is in `proc.rs`.)
    let dir = tempfile::tempdir().unwrap();
    let mut spec = program(dir.path(), "echo 'Invalid.'", "X wins!", false);
    let path = dir.path().join("silent.sh");
    std::fs::write(&path, "read mark\n").unwrap();
    spec.args = vec![path.into()];
    let r = game(spec, Vec::new());
    assert_eq!((r.result, r.ending), (GameResult::Win(1), Ending::Fault));
    assert!(
        r.reason.contains(
            "x failed to start: ended (exit status 0) before the game began; it printed nothing"
        ),
        "{}",
        r.reason
    );
}

/// Plays the program as o against a script that opens in the centre (cell 4), then takes cell 8.
fn game_as_o(spec: Spec) -> GameRecord {
    let mut prog = DialogueSeat::new(basic(), spec, script(Vec::new()));
    let mut other = ScriptSeat::new(vec![Reply::Line("4".into()), Reply::Line("8".into())]);
    let who = Match {
        players: ["script".into(), "program".into()],
        seed: 1,
    };
    play(
        TicTacToe::new(),
        [&mut other as &mut dyn Seat<TicTacToe>, &mut prog],
        &who,
        &Policy::default(),
        &mut |_, _| {},
    )
}

fn understood(r: &GameRecord) -> Option<&str> {
    r.facts.iter().find_map(|f| match f {
        Fact::Understood { detail, .. } => Some(detail.as_str()),
        _ => None,
    })
}

#[test]
fn a_move_the_program_asks_again_after_is_typed_in_the_next_format() {
    // Its prompt says nothing of the format: the handout's `2 2` is typed first, refused, then the
    // next likely form, the cell `5`, which it takes; its move is read from its board.
    let dir = tempfile::tempdir().unwrap();
    let spec = sh(
        dir.path(),
        "printf 'X or O? '\nread mark || exit 0\n\
         while true; do\n\
           printf 'Your move: '; read m || exit 0\n\
           [ \"$m\" = 5 ] && break\n\
           echo 'Invalid square.'\n\
         done\n\
         printf ' O | . | .\\n . | X | .\\n . | . | .\\n'\n\
         printf 'Your move: '; read m; exit 0\n",
    );
    let r = game_as_o(spec);
    assert_eq!(r.moves.len(), 3, "{}", r.reason);
    assert_eq!(r.moves[1].applied, "0", "its move, from its board");
    let said = r.transcripts[1].clone().unwrap_or_default();
    let typed: Vec<&str> = said.lines().filter_map(|l| l.strip_prefix("→ ")).collect();
    assert_eq!(typed, ["X", "2 2", "2,2", "5", "9"], "{said}");
    // `5` is the centre on a phone's keys and on a keypad alike: nothing settled, nothing claimed.
    assert_eq!(understood(&r), None);
    // The program closed after the third move was typed: its fault, not the grader's.
    assert_eq!(r.result, GameResult::Win(0), "{}", r.reason);
}

#[test]
fn a_program_that_asks_who_starts_is_answered_for_its_side() {
    // "Would you like to play first?": the user (the script, x) does, so the answer is `yes`; an
    // answer it refuses (`yes` to a y/n program) is followed by the next spelling.
    let dir = tempfile::tempdir().unwrap();
    let spec = sh(
        dir.path(),
        "while true; do\n\
           printf 'Would you like to play first? (yes/no) '; read a || exit 0\n\
           [ \"$a\" = y ] && break\n\
           echo 'Answer y or n.'\n\
         done\n\
         printf 'Cells 1-9. Your move: '; read m || exit 0\n\
         [ \"$m\" = 5 ] || exit 4\n\
         printf ' O | 2 | 3\\n 4 | X | 6\\n 7 | 8 | 9\\n'\n\
         printf 'Cells 1-9. Your move: '; read m; exit 0\n",
    );
    let r = game_as_o(spec);
    assert_eq!(r.moves.len(), 3, "{}", r.reason);
    assert_eq!(r.moves[1].applied, "0");
    // Its board numbers the empty cells row by row: `5` is settled as a phone's keys.
    assert_eq!(
        understood(&r),
        Some("moves typed as one cell number 1-9 row by row: `6` is row 2, column 3")
    );
    let opening = r.facts.iter().find_map(|f| match f {
        Fact::Opening { ok, detail, .. } => Some((*ok, detail.as_str())),
        _ => None,
    });
    assert_eq!(
        opening,
        Some((
            false,
            "did not ask whether the user wants X or O, which the handout asks for first (rule 1: \
             \"Initially, your program should ask the user which marks the user prefers\"); it \
             asked who moves first (`Would you like to play first? (yes/no)`)"
        ))
    );
}

#[test]
fn a_program_that_only_shows_its_move_on_the_board_is_read_from_it() {
    // The handout's question and move format, but no `I play` line: "Computer's turn." and a board.
    // The move it took is not typed again in another form.
    let dir = tempfile::tempdir().unwrap();
    let spec = sh(
        dir.path(),
        "printf 'X or O? '\nread mark || exit 0\n\
         printf 'Your move: '; read m || exit 0\n\
         [ \"$m\" = '2 2' ] || exit 4\n\
         printf \"Computer's turn.\\n O | . | .\\n . | X | .\\n . | . | .\\n\"\n\
         printf 'Your move: '; read m || exit 0\n\
         [ \"$m\" = '3 3' ] || exit 5\n\
         printf \"Computer's turn.\\n O | . | O\\n . | X | .\\n . | . | X\\n\"\n\
         printf 'Your move: '; read m; exit 0\n",
    );
    let r = game_as_o(spec);
    let applied: Vec<&str> = r.moves.iter().map(|m| m.applied.as_str()).collect();
    assert_eq!(applied, ["4", "0", "8", "2"], "{}", r.reason);
    // `2 2` and `3 3` read alike row first or column first: the grader does not claim to know which.
    assert_eq!(understood(&r), None);
}

/// A limit of `limit` counted in CPU time, with a wall cap of `cap`.
fn cpu_clock(limit: Duration, cap: Duration) -> Policy {
    Policy {
        limit: Some(limit),
        clock: Clock::Cpu { cap: Some(cap) },
        ..Policy::default()
    }
}

#[test]
fn a_move_clocked_in_cpu_time_may_take_longer_on_the_clock() {
    // It sleeps 1 s before each of its later moves, using almost no CPU: as a program the machine's
    // load keeps waiting for a core. Over a 300 ms limit on the clock, far under it in CPU time.
    let dir = tempfile::tempdir().unwrap();
    let slow = || thinking(dir.path(), "exit 3", "X wins", false, "sleep 1");
    let limit = Duration::from_millis(300);
    let cpu = game_under(slow(), vec![], &cpu_clock(limit, Duration::from_secs(20)));
    assert_eq!(cpu.result, GameResult::Win(0), "{}", cpu.reason);
    assert_eq!(cpu.ending, Ending::Rules, "{}", cpu.reason);
    // Each move's time in the record is the CPU time it used.
    assert!(
        cpu.moves.iter().all(|m| m.micros < 300_000),
        "{:?}",
        cpu.moves
    );
    // The same program on the wall clock is late.
    let wall = Policy {
        limit: Some(limit),
        ..Policy::default()
    };
    let late = game_under(slow(), vec![], &wall);
    assert_eq!(late.result, GameResult::Win(1), "{}", late.reason);
    assert!(late.reason.contains("x timed out after"), "{}", late.reason);
}

#[test]
fn a_move_over_its_cpu_time_times_out_the_whole_tree_counted() {
    // The search runs in a child process (a subshell) that never ends: the tree's CPU time counts.
    let dir = tempfile::tempdir().unwrap();
    let spec = thinking(
        dir.path(),
        "exit 3",
        "X wins",
        false,
        "( while :; do :; done )",
    );
    let r = game_under(
        spec,
        vec![],
        &cpu_clock(Duration::from_millis(200), Duration::from_secs(60)),
    );
    assert_eq!(r.result, GameResult::Win(1), "{}", r.reason);
    assert!(
        r.reason.starts_with("x timed out after ")
            && r.reason.ends_with(
                " of CPU time (limit 200 ms + 50 ms margin, counted in CPU time) on move 3"
            ),
        "{}",
        r.reason
    );
}

#[test]
fn a_program_asleep_on_its_move_ends_at_the_wall_cap() {
    let dir = tempfile::tempdir().unwrap();
    let spec = thinking(dir.path(), "exit 3", "X wins", false, "sleep 30");
    let started = std::time::Instant::now();
    let r = game_under(
        spec,
        vec![],
        &cpu_clock(Duration::from_millis(200), Duration::from_secs(1)),
    );
    assert_eq!(r.result, GameResult::Win(1), "{}", r.reason);
    assert!(
        r.reason.starts_with("x was still on its move after ")
            && r.reason
                .contains(" of wall time, the most a move may take, having used ")
            && r.reason
                .ends_with(" of CPU time (the limit, 200 ms, counts CPU time) on move 3"),
        "{}",
        r.reason
    );
    // Ended at the cap, not when its sleep was over.
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "{:?}",
        started.elapsed()
    );
}
