//! Programs that wait for input the grader does not send, against real processes: ended at once with
//! what the grader last sent, in the persistent and dialogue protocols; programs that think, sleep or
//! wait on a child that works are never cut.

use std::time::{Duration, Instant};

use reference::games::tictactoe::TicTacToe;
use regex::Regex;

use crate::sandbox::Stdin;

use super::{basic, sh_program};
use crate::arena::game::record::{Ending, GameRecord, GameResult};
use crate::arena::referee::{play, Match, Policy};
use crate::arena::seat::dialogue::{DialogueSeat, Script, Step};
use crate::arena::seat::persistent::PersistentSeat;
use crate::arena::seat::{Reply, ScriptSeat, Seat};
use crate::arena::tests::testgame::Race;

/// A clock so long that only the deadlock check can end a waiting program before the test's bound.
const LONG: Duration = Duration::from_secs(30);
/// What "at once" means on a loaded two-core machine (the benchmark measures the real figure).
const PROMPT: Duration = Duration::from_secs(10);

/// Plays a `/bin/sh` persistent player (`on_turn` run for each `turn`) as o against a script.
fn persistent(on_turn: &str) -> (GameRecord, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        "while IFS= read -r line; do\n  case \"$line\" in\n    game*) echo ready ;;\n    turn*) {on_turn} ;;\n    end*) exit 0 ;;\n  esac\ndone\n"
    );
    let spec = sh_program(dir.path(), "p.sh", &script, &[], Stdin::Piped);
    let mut seat = PersistentSeat::new(basic(), spec, LONG);
    super::proc::against_script(&mut seat, LONG)
}

#[test]
fn a_player_reading_a_second_line_is_ended_at_once_with_what_was_sent() {
    // It wants two lines per turn; the grader sends one and waits.
    let (r, took) = persistent("read -r more; echo 2");
    assert_eq!(r.result, GameResult::Win(0), "{}", r.reason);
    assert_eq!(r.ending, Ending::Fault);
    assert!(
        r.reason.contains(
            "was waiting for input, but the grader was waiting for its answer to: `turn\\to\\t1\\t"
        ),
        "{}",
        r.reason
    );
    assert!(r.reason.ends_with("on move 2"), "{}", r.reason);
    assert!(took < PROMPT, "took {took:?}");
}

#[test]
fn a_child_reading_the_players_stdin_is_seen_too() {
    // The shell waits for `head` (wait4), which waits for a line that never comes.
    let (r, took) = persistent("head -n 1 >/dev/null; echo 2");
    assert!(r.reason.contains("was waiting for input"), "{}", r.reason);
    assert!(took < PROMPT, "took {took:?}");
}

#[test]
fn a_player_that_never_says_ready_because_it_waits_is_told_so() {
    let dir = tempfile::tempdir().unwrap();
    let spec = sh_program(
        dir.path(),
        "two.sh",
        "read a; read b; echo ready\n",
        &[],
        Stdin::Piped,
    );
    let mut seat = PersistentSeat::new(basic(), spec, LONG);
    let policy = Policy::default();
    let mut other = ScriptSeat::new(vec![Reply::Line("1".into())]);
    let who = Match {
        players: ["process".into(), "script".into()],
        seed: 3,
    };
    let t = Instant::now();
    let seats: [&mut dyn Seat<Race>; 2] = [&mut seat, &mut other];
    let r = play(Race::new(), seats, &who, &policy, &mut |_, _| {});
    assert!(
        r.reason.contains("failed to start: was waiting for input, but the grader was waiting for its answer to: `game\\t"),
        "{}",
        r.reason
    );
    assert!(t.elapsed() < PROMPT, "took {:?}", t.elapsed());
}

#[test]
fn players_that_think_sleep_or_wait_on_a_working_child_are_never_cut() {
    for on_turn in [
        // Thinking: the shell itself runs.
        "i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; echo 2",
        // A timed sleep could end by itself.
        "sleep 0.3; echo 2",
        // The shell waits for a child that computes.
        "sh -c 'i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done'; echo 2",
    ] {
        let (r, _) = persistent(on_turn);
        assert_eq!(r.ending, Ending::Rules, "{on_turn}: {}", r.reason);
        assert_eq!(r.moves.len(), 7, "{on_turn}");
    }
}

fn dialogue_script() -> Script {
    Script {
        opening: vec![Step {
            expect: Regex::new(r"(?i)X or O\?").unwrap(),
            send: "{OPPONENT-SIDE}".into(),
        }],
        prompt: Regex::new(r"(?i)your move: \z").unwrap(),
        send: "{row} {col}".into(),
        reply: Regex::new(r"(?i)\bI play (?P<row>[1-3]) (?P<col>[1-3])").unwrap(),
        end: None,
        expect_timeout: LONG,
        probes: Vec::new(),
    }
}

/// Plays a dialogue program as x against a script that answers cell 3.
fn dialogue(text: &str) -> (GameRecord, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let spec = sh_program(dir.path(), "d.sh", text, &[], Stdin::Piped);
    let mut prog = DialogueSeat::new(basic(), spec, dialogue_script());
    let mut other = ScriptSeat::new(vec![Reply::Line("3".into())]);
    let policy = Policy {
        limit: Some(LONG),
        ..Policy::default()
    };
    let who = Match {
        players: ["program".into(), "script".into()],
        seed: 1,
    };
    let t = Instant::now();
    let r = play(
        TicTacToe::new(),
        [&mut prog as &mut dyn Seat<TicTacToe>, &mut other],
        &who,
        &policy,
        &mut |_, _| {},
    );
    (r, t.elapsed())
}

#[test]
fn a_dialogue_program_waiting_for_more_than_the_move_is_ended_at_once() {
    // It moves, asks for a move, then reads a second line as well before answering.
    let (r, took) = dialogue(
        "printf 'X or O? '; read mark\n\
         printf ' X | . | .\\n . | . | .\\n . | . | .\\n'\n\
         printf 'Your move: '; read m; read again\n\
         printf ' X | X | .\\n O | . | .\\n . | . | .\\n'\n",
    );
    assert_eq!(r.result, GameResult::Win(1), "{}", r.reason);
    assert!(
        r.reason
            .contains("printed nothing after the move `2 1` and waited for more input"),
        "{}",
        r.reason
    );
    assert!(took < PROMPT, "took {took:?}");
}

#[test]
fn a_dialogue_program_that_waits_before_printing_anything_is_left_for_a_person() {
    // It reads before it prints a thing, and again after the grader pressed Enter: a command it
    // documents elsewhere, perhaps. Not the program's fault, nor something to score: a person looks.
    let (r, took) = dialogue("read first\nread second\nprintf 'X or O? '\n");
    assert_eq!(r.ending, Ending::Review, "{}", r.reason);
    assert!(
        r.reason
            .contains("waited for input before printing anything"),
        "{}",
        r.reason
    );
    assert!(took < PROMPT, "took {took:?}");
}

/// Answers `Reply::Waiting` after the clock has run out, as a loaded machine may see a deadlock.
struct LateDeadlock;

impl Seat<Race> for LateDeadlock {
    fn start(&mut self, _: &crate::arena::seat::Start) -> Result<(), Reply> {
        Ok(())
    }
    fn request(&mut self, _: &Race, _: Option<&str>, deadline: Option<Duration>) -> Reply {
        std::thread::sleep(deadline.unwrap_or_default() + Duration::from_millis(50));
        Reply::Waiting("turn".into())
    }
}

#[test]
fn a_deadlock_seen_after_the_clock_ran_out_is_still_a_deadlock() {
    let mut late = LateDeadlock;
    let mut other = ScriptSeat::new(vec![Reply::Line("1".into())]);
    let policy = Policy {
        limit: Some(Duration::from_millis(10)),
        margin: Duration::from_millis(10),
        ..Policy::default()
    };
    let who = Match {
        players: ["late".into(), "script".into()],
        seed: 3,
    };
    let seats: [&mut dyn Seat<Race>; 2] = [&mut late, &mut other];
    let r = play(Race::new(), seats, &who, &policy, &mut |_, _| {});
    assert!(
        r.reason.contains("was waiting for input") && !r.reason.contains("timed out"),
        "{}",
        r.reason
    );
}
