//! The dialogue seat's checks against real `/bin/sh` programs playing tic-tac-toe in rows and columns:
//! the move order after the opening, invalid inputs typed at prompts (asked again, accepted, crashed),
//! and the end-of-game message checked against the real result.

use std::time::Duration;

use reference::games::tictactoe::TicTacToe;
use regex::Regex;

use crate::sandbox::{Spec, Stdin};

use crate::arena::game::record::{Fact, GameRecord, GameResult, ProbeOutcome};
use crate::arena::referee::{play, Match, Policy};
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

/// A program that takes the top row (`1 1`, `1 2`, `1 3`) whatever its opponent does, as x. `on_bad`
/// runs for an input that is not `2 1`, `2 2` or `3 3` (the moves the opponent script makes);
/// `announce` is its last line.
fn program(dir: &std::path::Path, on_bad: &str, announce: &str, order_wrong: bool) -> Spec {
    let first = if order_wrong {
        "printf 'Your move: '; read m || exit 0\n"
    } else {
        ""
    };
    let text = format!(
        "printf 'Welcome. X or O? '\nread mark || exit 0\n{first}\
         for cell in '1 1' '1 2' '1 3'; do\n\
           echo \"I play $cell\"\n\
           if [ \"$cell\" = '1 3' ]; then echo '{announce}'; exit 0; fi\n\
           while true; do\n\
             printf 'Your move: '; read m || exit 0\n\
             case \"$m\" in\n\
               '2 1'|'2 2'|'3 3') break ;;\n\
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
    let mut prog = DialogueSeat::new(basic(), spec, script(probes));
    let mut other = ScriptSeat::new(vec![Reply::Line("3".into()), Reply::Line("4".into())]);
    let policy = Policy {
        limit: Some(Duration::from_secs(5)),
        ..Policy::default()
    };
    let who = Match {
        players: ["program".into(), "script".into()],
        seed: 1,
    };
    play(
        TicTacToe::new(),
        [&mut prog as &mut dyn Seat<TicTacToe>, &mut other],
        &who,
        &policy,
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
            probe(2, "4 1", "off the board"),
        ],
    );
    assert_eq!(r.result, GameResult::Win(0), "{}", r.reason);
    assert_eq!(r.moves[0].sent, "0");
    assert_eq!(
        probes_of(&r),
        vec![
            ("1 1".to_string(), ProbeOutcome::Rejected),
            ("hello".to_string(), ProbeOutcome::Rejected),
            ("4 1".to_string(), ProbeOutcome::Rejected),
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

    // Asks for a move although it has x: the first turn is a fault and the opening is not ok.
    let spec = program(dir.path(), "echo 'Invalid.'", "X wins!", true);
    let r = game(spec, Vec::new());
    assert_eq!(r.result, GameResult::Win(1));
    assert!(r.reason.contains("moves first"), "{}", r.reason);
    assert!(r
        .facts
        .iter()
        .any(|f| matches!(f, Fact::Opening { ok: false, .. })));
}

#[test]
fn a_silent_program_is_told_to_flush() {
    let dir = tempfile::tempdir().unwrap();
    // Reading before it asks: found waiting for input at once. Asleep: the timeout, as before.
    for (name, text, how) in [
        (
            "silent.sh",
            "read mark\n",
            "x failed to start: waited for input instead of going on to print what opening step 1 expects, before the grader had typed anything",
        ),
        (
            "asleep.sh",
            "sleep 5\n",
            "x failed to start: did not print what opening step 1 expects within",
        ),
    ] {
        let mut spec = program(dir.path(), "echo 'Invalid.'", "X wins!", false);
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        spec.args = vec![path.into()];
        let r = game(spec, Vec::new());
        assert_eq!(r.result, GameResult::Win(1));
        assert!(r.reason.contains(how), "{}", r.reason);
        assert!(
            r.reason
                .contains("flush standard output before reading input"),
            "{}",
            r.reason
        );
    }
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
    // fixed order's next form, the cell `5`, which it takes; its move is read from its board.
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
    assert_eq!(
        understood(&r),
        Some("understood: X or O asked as the handout says; moves as 1-9 row-major")
    );
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
    assert_eq!(
        understood(&r),
        Some("understood: first/second asked as yes/no; moves as 1-9 row-major")
    );
    let opening = r.facts.iter().find_map(|f| match f {
        Fact::Opening { ok, detail, .. } => Some((*ok, detail.as_str())),
        _ => None,
    });
    assert_eq!(
        opening,
        Some((
            false,
            "asked `Would you like to play first? (yes/no)` instead of which mark the user \
             prefers, X or O (rule 1); understood: first/second asked as yes/no"
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
    assert_eq!(
        understood(&r),
        Some("understood: X or O asked as the handout says; moves as `row col` from 1")
    );
}
