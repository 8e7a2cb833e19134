//! The persistent protocol against real processes: a good player finishes; players that hang, flood,
//! crash, speak garbage, close stdout, fork a pipe-holder or ignore SIGTERM lose cleanly and promptly.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::sandbox::Stdin;

use super::{basic, sh_program};
use crate::arena::game::record::{Ending, GameRecord, GameResult};
use crate::arena::referee::{play, Match, Policy};
use crate::arena::seat::persistent::PersistentSeat;
use crate::arena::seat::{Reply, ScriptSeat, Seat};
use crate::arena::tests::testgame::Race;

/// A `/bin/sh` player: answers `ready` to `game`, runs `on_turn` for each `turn`, exits on `end`.
fn player(dir: &Path, name: &str, on_turn: &str) -> PersistentSeat {
    let script = format!(
        "while IFS= read -r line; do\n  case \"$line\" in\n    game*) echo ready ;;\n    turn*) {on_turn} ;;\n    end*) exit 0 ;;\n  esac\ndone\n"
    );
    let spec = sh_program(dir, name, &script, &[], Stdin::Piped);
    PersistentSeat::new(basic(), spec, Duration::from_secs(5))
}

/// Plays `seat` as o against a script. Faulty players get a short clock so the test is quick; the good
/// one a long clock, so a loaded machine cannot make it time out.
pub(super) fn against_script(seat: &mut PersistentSeat, limit: Duration) -> (GameRecord, Duration) {
    let policy = Policy {
        limit: Some(limit),
        ..Policy::default()
    };
    let mut other = ScriptSeat::new(vec![Reply::Line("1".into())]);
    let who = Match {
        players: ["script".into(), "process".into()],
        seed: 3,
    };
    let t = Instant::now();
    let seats: [&mut dyn Seat<Race>; 2] = [&mut other, seat];
    let r = play(Race::new(), seats, &who, &policy, &mut |_, _| {});
    (r, t.elapsed())
}

fn assert_loses(r: &GameRecord, took: Duration, reason: &str) {
    assert_eq!(r.result, GameResult::Win(0), "{}", r.reason);
    assert_eq!(r.ending, Ending::Fault);
    assert!(r.reason.contains(reason), "`{}` lacks `{reason}`", r.reason);
    assert!(took < Duration::from_secs(4), "took {took:?}");
}

#[test]
fn a_well_behaved_player_finishes_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut seat = player(dir.path(), "good.sh", "echo 2");
    let (r, _) = against_script(&mut seat, Duration::from_secs(5));
    // 1,2,1,2,1,2,1 = 10 → x wins on turn 7, by the rules.
    assert_eq!(r.ending, Ending::Rules, "{}", r.reason);
    assert_eq!(r.moves.len(), 7);
    assert!(r
        .moves
        .iter()
        .filter(|m| m.side == 1)
        .all(|m| m.sent == "2"));
}

#[test]
fn process_faults_lose_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("hang.sh", "sleep 100", "timed out"),
        (
            "flood.sh",
            "head -c 100000000 /dev/zero | tr '\\0' a",
            "flooded its output",
        ),
        ("crash.sh", "exit 3", "crashed (exit status 3)"),
        ("garbage.sh", "printf '\\377\\376\\n'", "not UTF-8"),
        ("close.sh", "exec 1>&-; sleep 100", "closed its pipe"),
        (
            "fork.sh",
            "sh -c 'trap \"\" TERM; echo $$ > holder.pid; exec sleep 100' & exit 0",
            "timed out",
        ),
        ("stubborn.sh", "trap '' TERM; sleep 100", "timed out"),
        ("illegal.sh", "echo 9", "sent `9`"),
    ];
    for (name, on_turn, reason) in cases {
        let mut seat = player(dir.path(), name, on_turn);
        let (r, took) = against_script(&mut seat, Duration::from_secs(1));
        assert_loses(&r, took, reason);
    }
    // The forked pipe-holder went with its parent's group: dead (gone or a zombie awaiting init).
    let pid = std::fs::read_to_string(dir.path().join("holder.pid")).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).unwrap_or_default();
    let state = stat.rsplit(')').next().unwrap_or("").trim().chars().next();
    assert!(
        matches!(state, None | Some('Z' | 'X')),
        "holder still alive: {stat}"
    );
}

#[test]
fn a_player_that_never_says_ready_loses_at_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let spec = sh_program(
        dir.path(),
        "mute.sh",
        "echo hello\nsleep 100\n",
        &[],
        Stdin::Piped,
    );
    let mut seat = PersistentSeat::new(basic(), spec, Duration::from_millis(500));
    let (r, took) = against_script(&mut seat, Duration::from_millis(300));
    assert_loses(
        &r,
        took,
        "failed to start: could not be asked for a move: it answered `hello`",
    );
    assert!(r.moves.is_empty());
}

#[test]
fn a_player_that_says_why_it_cannot_play_loses_with_its_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let spec = sh_program(
        dir.path(),
        "unloadable.sh",
        "read line\necho 'error: your file `team.py` could not be loaded: SyntaxError at line 3: invalid syntax'\n",
        &[],
        Stdin::Piped,
    );
    let mut seat = PersistentSeat::new(basic(), spec, Duration::from_secs(5));
    let (r, took) = against_script(&mut seat, Duration::from_millis(300));
    // Not "could not be asked for a move: it answered `error: ...` to `game`, not `ready`".
    assert_loses(
        &r,
        took,
        "failed to start: your file `team.py` could not be loaded: SyntaxError at line 3: invalid syntax",
    );
    assert!(!r.reason.contains("`game`"), "{}", r.reason);
}

fn per_move(dir: &Path, name: &str, body: &str) -> crate::arena::seat::permove::PerMoveSeat {
    let spec = sh_program(dir, name, body, &["{state}", "{side}"], Stdin::Null);
    crate::arena::seat::permove::PerMoveSeat::new(basic(), spec)
}

#[test]
fn per_move_players_answer_with_the_next_state() {
    let dir = tempfile::tempdir().unwrap();
    let policy = Policy {
        limit: Some(Duration::from_secs(2)),
        reply: crate::arena::seat::ReplyForm::State,
        ..Policy::default()
    };
    // Adds one, and says which side it thinks it is on stderr first (ignored).
    let mut good = per_move(
        dir.path(),
        "good.sh",
        "echo \"I am $2\" >&2\necho thinking\necho $(( $1 + 1 ))\n",
    );
    let mut liar = per_move(dir.path(), "liar.sh", "echo $(( $1 + 5 ))\n");
    let who = Match {
        players: ["good".into(), "liar".into()],
        seed: 1,
    };
    let r = play(
        Race::new(),
        [&mut good as &mut dyn Seat<Race>, &mut liar],
        &who,
        &policy,
        &mut |_, _| {},
    );
    assert_eq!(r.result, GameResult::Win(0));
    assert_eq!(r.moves.len(), 1);
    assert_eq!(r.moves[0].sent, "1");
    assert!(
        r.reason
            .contains("o sent `6`: not a position one legal move away"),
        "{}",
        r.reason
    );
    assert_eq!(r.stderr[0].as_deref(), Some("I am x\n"));

    for (name, body, reason) in [
        ("slow.sh", "sleep 100\n", "timed out"),
        ("crash.sh", "exit 4\n", "crashed (exit status 4)"),
    ] {
        let mut bad = per_move(dir.path(), name, body);
        let mut good = per_move(dir.path(), "good.sh", "");
        let t = Instant::now();
        let r = play(
            Race::new(),
            [&mut bad as &mut dyn Seat<Race>, &mut good],
            &who,
            &policy,
            &mut |_, _| {},
        );
        assert_eq!(r.result, GameResult::Win(1), "{}", r.reason);
        assert!(r.reason.contains(reason), "{}", r.reason);
        assert!(t.elapsed() < Duration::from_secs(5));
    }
}

fn dialogue_script() -> crate::arena::seat::dialogue::Script {
    use regex::Regex;
    crate::arena::seat::dialogue::Script {
        opening: vec![crate::arena::seat::dialogue::Step {
            expect: Regex::new(r"Shall I go first\?").unwrap(),
            send: "{first}".into(),
        }],
        prompt: Regex::new(r"Your move: ").unwrap(),
        send: "{move}".into(),
        reply: Regex::new(r"I add (?P<move>\d+)").unwrap(),
        end: Some(Regex::new(r"Game over: (?P<move>.*)").unwrap()),
        expect_timeout: Duration::from_secs(2),
        probes: Vec::new(),
    }
}

#[test]
fn a_dialogue_seat_plays_only_a_3x3_board_and_a_mute_program_fails_to_start() {
    let dir = tempfile::tempdir().unwrap();
    let policy = Policy {
        limit: Some(Duration::from_secs(5)),
        ..Policy::default()
    };
    let who = Match {
        players: ["human".into(), "script".into()],
        seed: 1,
    };
    // The seat reads a 3×3 board: a game on anything else is the grader's, never the program's, fault.
    let human = "printf 'Welcome! Your move: '; read m; echo 'I add 1'\n";
    let spec = sh_program(dir.path(), "human.sh", human, &[], Stdin::Piped);
    let mut prog =
        crate::arena::seat::dialogue::DialogueSeat::new(basic(), spec.clone(), dialogue_script());
    let mut other = ScriptSeat::new(vec![Reply::Line("2".into())]);
    let r = play(
        Race::new(),
        [&mut other as &mut dyn Seat<Race>, &mut prog],
        &who,
        &policy,
        &mut |_, _| {},
    );
    assert!(r.reason.contains("3×3 grid only"), "{}", r.reason);

    // A program that never prompts times out at the opening (its question's time and, since it may
    // be making its first move, a move's): its fault.
    std::fs::write(dir.path().join("mute.sh"), "sleep 100\n").unwrap();
    let mut mute_spec = spec.clone();
    mute_spec.args = vec![dir.path().join("mute.sh").into()];
    let mut script = dialogue_script();
    script.expect_timeout = Duration::from_millis(200);
    let mut prog = crate::arena::seat::dialogue::DialogueSeat::new(basic(), mute_spec, script);
    let mut other = ScriptSeat::new(vec![Reply::Line("2".into())]);
    let quick = Policy {
        limit: Some(Duration::from_millis(300)),
        ..Policy::default()
    };
    let t = Instant::now();
    let r = play(
        Race::new(),
        [&mut prog as &mut dyn Seat<Race>, &mut other],
        &who,
        &quick,
        &mut |_, _| {},
    );
    assert_eq!(r.result, GameResult::Win(1));
    assert!(r.reason.contains("failed to start"), "{}", r.reason);
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn a_built_submission_runs_from_its_scratch_copy() {
    use crate::arena::event::schedule::SeatMaker;
    use crate::arena::seat::players::{Entrant, Kind, Maker};

    fn no_bots(spec: &str, _: u64) -> Result<crate::arena::seat::Pick<Race>, String> {
        Err(format!("no bot `{spec}`"))
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("player.sh"),
        "echo \"args: $*\" >&2\nwhile IFS= read -r line; do\n  case \"$line\" in\n    game*) echo ready ;;\n    turn*) echo 2 ;;\n    end*) exit 0 ;;\n  esac\ndone\n",
    )
    .unwrap();
    let built = crate::build::Built {
        language: "sh".into(),
        dir: dir.path().to_path_buf(),
        command: vec![
            "/bin/sh".into(),
            dir.path().join("player.sh").to_string_lossy().into(),
        ],
        log: String::new(),
        outcome: None,
        address_space: false,
        interpreter: None,
    };
    let mut config = crate::arena::setup::defaults("race");
    config.args = Some(vec!["--fast".into()]);
    let maker = Maker {
        entrants: vec![Entrant {
            name: "built".into(),
            kind: Kind::Built(built),
        }],
        bots: no_bots,
        config: config.clone(),
        sandbox: Some(basic()),
    };
    let mut seat = maker.seat(0, 1);
    let mut other = ScriptSeat::new(vec![Reply::Line("1".into())]);
    let who = Match {
        players: ["script".into(), "built".into()],
        seed: 1,
    };
    let r = play(
        Race::new(),
        [&mut other as &mut dyn Seat<Race>, seat.as_mut()],
        &who,
        &config.policy,
        &mut |_, _| {},
    );
    assert_eq!(r.ending, Ending::Rules, "{}", r.reason);
    assert!(r
        .moves
        .iter()
        .filter(|m| m.side == 1)
        .all(|m| m.sent == "2"));
    assert_eq!(
        r.stderr.get(1).cloned().flatten().as_deref(),
        Some("args: --fast\n"),
        "{r:?}"
    );
}
