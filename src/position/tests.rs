use reference::games::tictactoe::TicTacToe;
use reference::games::tmmorris::Morris;
use reference::games::Oska;

use super::ask::{ask, FileCheck};
use super::visited::{self, VisitedError};
use super::*;
use crate::arena::referee::Policy;
use crate::arena::seat::ReplyForm;
use crate::arena::seat::{Reply, ScriptSeat};
use crate::judge::Verdict;

fn morris(state: &str, side: &str) -> Morris {
    read(&Morris::new(), state, side).unwrap()
}

#[test]
fn reading_names_the_side_and_the_state() {
    let e = read(&Morris::new(), "---------", "white").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown side `white` for `tmmorris`\nhint: the sides are `x` and `o`"
    );
    let e = read(&Morris::new(), "xx-------", "x").unwrap_err();
    assert!(e
        .to_string()
        .starts_with("state `xx-------` is not a `tmmorris` position: "));
    let e = read(&TicTacToe::new(), "x--------", "x").unwrap_err();
    assert!(
        e.to_string()
            .ends_with("the piece counts put o to move, not x"),
        "{e}"
    );
    let e = read(
        &Oska::new(5),
        "[[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]",
        "white",
    )
    .unwrap_err();
    assert!(e.to_string().contains("it is a `oska` position"), "{e}");
}

#[test]
fn validation_checks_each_expectation() {
    // x to place its third piece with 0 and 1 taken: cell 2 wins.
    let win = morris("xx-oo----", "x");
    assert_eq!(validate(&win, Want::Win), Ok(()));
    assert_eq!(validate(&win, Want::Legal), Ok(()));
    let e = validate(&win, Want::Block).unwrap_err();
    assert!(
        e.to_string().contains("a move wins at once (use `win`)"),
        "{e}"
    );
    let e = validate(&win, Want::Pass).unwrap_err();
    assert!(
        e.to_string().ends_with("it has 5 legal moves, e.g. `2`"),
        "{e}"
    );
    // o must block cell 2 (x threatens the top row); o has no win of its own.
    let block = morris("xx--o----", "o");
    assert_eq!(validate(&block, Want::Block), Ok(()));
    assert!(validate(&block, Want::Win).is_err());
    // The blank board threatens nothing.
    let e = validate(&Morris::new(), Want::Block).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("the opponent threatens no win in one"),
        "{e}"
    );
    // A finished game, and a blocked side, have no move.
    assert_eq!(validate(&morris("xxxoo-o--", "o"), Want::Pass), Ok(()));
    assert_eq!(validate(&morris("xxoxo-o--", "x"), Want::Pass), Ok(()));
    assert!(validate(&morris("xxoxo-o--", "x"), Want::Legal).is_err());
}

#[test]
fn judging_states_speaks_the_games_words() {
    let win = morris("xx-oo----", "x");
    let j = judge(&win, Want::Win, ReplyForm::State, "xxxoo----\n");
    assert_eq!(
        j,
        Judged::ok("you played `xxxoo----`, which wins at once".into())
    );
    let j = judge(&win, Want::Win, ReplyForm::State, "xx-oox---");
    assert!(!j.accepted());
    assert_eq!(
        j.summary,
        "you played `xx-oox---`, which does not win; `xxxoo----` wins at once"
    );

    let block = morris("xx--o----", "o");
    let j = judge(&block, Want::Block, ReplyForm::State, "xxo-o----");
    assert!(j.accepted(), "{j:?}");
    let j = judge(&block, Want::Block, ReplyForm::State, "xx-oo----");
    assert_eq!(
        j.summary,
        "you played `xx-oo----`, after which x wins at once with `xxxoo----`; `xxo-o----` blocks it"
    );

    let moving = morris("xo-ox-o-x", "x");
    let j = judge(&moving, Want::Legal, ReplyForm::State, "xoxo--o-x");
    assert!(!j.accepted());
    assert_eq!(
        j.summary,
        "you printed `xoxo--o-x`, which is not a legal move for x from `xo-ox-o-x`"
    );
    assert_eq!(
        j.details,
        ["x stepped diagonally from cell 4 to cell 2: steps go up, down, left or right"]
    );
    let j = judge(&moving, Want::Legal, ReplyForm::State, "");
    assert_eq!(
        j.summary,
        "you printed nothing, but x has 4 legal moves here, e.g. `xo-o-xo-x`"
    );
    assert!(judge(&moving, Want::Legal, ReplyForm::State, "xo-o-xo-x").accepted());
}

#[test]
fn judging_a_position_with_no_move() {
    let over = morris("xxxoo-o--", "o");
    assert!(judge(&over, Want::Pass, ReplyForm::State, "").accepted());
    let j = judge(&over, Want::Pass, ReplyForm::State, "xxxoo--o-");
    assert!(!j.accepted());
    assert_eq!(
        j.summary,
        "you printed `xxxoo--o-`, but o has no legal move here: print nothing"
    );
    assert_eq!(
        j.details,
        ["the game is already over: x has three in a row"]
    );
}

#[test]
fn judging_moves_in_move_notation() {
    let t = read(&TicTacToe::new(), "xx-oo----", "x").unwrap();
    assert!(judge(&t, Want::Win, ReplyForm::Move, "2").accepted());
    let j = judge(&t, Want::Win, ReplyForm::Move, "5");
    assert_eq!(
        j.summary,
        "you played `5`, which does not win; `2` wins at once"
    );
    let j = judge(&t, Want::Legal, ReplyForm::Move, "0");
    assert!(!j.accepted());
    assert_eq!(
        j.summary,
        "you printed `0`, which is not a legal move for x from `xx-oo----`"
    );
}

#[test]
fn visited_files_must_hold_reachable_states() {
    let root = morris("xx--o----", "o");
    assert_eq!(
        visited::check(&root, "v.txt", "xxo-o---- 3\nxxo-o-x-- -2.5\n\n"),
        Ok(visited::Visited { lines: 2 })
    );
    // x cannot gain a piece on o's turn, and no piece ever leaves the board.
    let e = visited::check(&root, "v.txt", "xxo-o---- 3\nxx--o---x 1\n").unwrap_err();
    assert_eq!(
        e,
        VisitedError::Unreachable {
            file: "v.txt".into(),
            line: 2,
            state: "xx--o---x".into(),
            root: "xx--o----".into(),
            side: "o",
        }
    );
    assert!(matches!(
        visited::check(&root, "v.txt", "xxo-o----\n"),
        Err(VisitedError::Malformed { line: 1, .. })
    ));
    assert!(matches!(
        visited::check(&root, "v.txt", "xxo-o---- big\n"),
        Err(VisitedError::Value { line: 1, .. })
    ));
    assert_eq!(
        visited::check(&root, "v.txt", "\n"),
        Err(VisitedError::Empty {
            file: "v.txt".into()
        })
    );
}

fn policy() -> Policy {
    Policy {
        reply: ReplyForm::State,
        ..Policy::default()
    }
}

#[test]
fn asking_judges_the_reply_and_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = morris("xx--o----", "o");
    let files = [("visited.txt".to_string(), FileCheck::Reachable)];
    // One question, answered `reply`.
    let answer = |state: &Morris, want: Want, reply: &str| {
        let mut seat = ScriptSeat::new(vec![Reply::Line(reply.into())]);
        ask::<Morris>(&mut seat, state, want, &policy(), 1, dir.path(), &files)
    };
    // The reply is right, but no file was written.
    let a = answer(&root, Want::Block, "xxo-o----");
    assert_eq!(a.verdict, Verdict::WrongAnswer);
    assert_eq!(
        a.summary,
        "you wrote no `visited.txt`: write every position your search visits to it"
    );
    std::fs::write(dir.path().join("visited.txt"), "xxo-o---- 0\n").unwrap();
    let a = answer(&root, Want::Block, "xxo-o----");
    assert_eq!((a.verdict, a.credit), (Verdict::Accepted, 1.0), "{a:?}");

    // No move possible: nothing printed, but a file written.
    let over = morris("xxxoo-o--", "o");
    let a = answer(&over, Want::Pass, "");
    assert_eq!(a.verdict, Verdict::WrongAnswer);
    assert!(
        a.summary
            .contains("but wrote `visited.txt`: write nothing either"),
        "{}",
        a.summary
    );
    std::fs::remove_file(dir.path().join("visited.txt")).unwrap();
    let a = answer(&over, Want::Pass, "");
    assert_eq!(a.verdict, Verdict::Accepted);
}

#[test]
fn faults_become_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let root = Morris::new();
    for (reply, verdict) in [
        (Reply::Timeout, Verdict::WallTimeLimit),
        (Reply::Crashed("signal 11".into()), Verdict::RuntimeError),
        (Reply::Flood(70_000), Verdict::OutputLimit),
        (Reply::Broken("no sandbox".into()), Verdict::InternalError),
        (Reply::Waiting("turn\tx\t\x1b[2J".into()), Verdict::Idle),
    ] {
        let mut seat = ScriptSeat::new(vec![reply]);
        let a = ask::<Morris>(&mut seat, &root, Want::Legal, &policy(), 1, dir.path(), &[]);
        assert_eq!((a.verdict, a.credit), (verdict, 0.0));
        if verdict == Verdict::Idle {
            // What the grader sent is quoted escaped: no raw ESC reaches a terminal through feedback.
            assert!(
                a.summary.starts_with(
                    "your program is waiting for input, but the grader is waiting for your answer to: `turn"
                ),
                "{}",
                a.summary
            );
            assert!(!a.summary.contains('\x1b'), "{}", a.summary);
        }
    }
}
