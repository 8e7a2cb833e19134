//! The referee with the real seed games: each game's policy outcomes (forfeit vs lose, move cap with the
//! tie-break) through scripted seats.

use reference::games::tictactoe::TicTacToe;
use reference::games::tmmorris::Morris;
use reference::games::{Oska, Sttt, Ut3};
use reference::{Game, Notation};

use crate::arena::game::record::{Ending, GameRecord, GameResult};
use crate::arena::game::ArenaGame;
use crate::arena::referee::{play, IllegalPolicy, Match, Policy};
use crate::arena::seat::ReplyForm;
use crate::arena::seat::{FnSeat, Reply, ScriptSeat, Seat};

fn first_legal<G: ArenaGame>() -> FnSeat<G> {
    FnSeat::new(|s: &G| s.moves()[0])
}

fn game<G: ArenaGame>(
    initial: G,
    a: &mut dyn Seat<G>,
    b: &mut dyn Seat<G>,
    p: &Policy,
) -> GameRecord {
    let who = Match {
        players: ["a".into(), "b".into()],
        seed: 1,
    };
    play(initial, [a, b], &who, p, &mut |_, _| {})
}

fn line(s: &str) -> Reply {
    Reply::Line(s.into())
}

#[test]
fn tictactoe_an_occupied_cell_loses() {
    let mut a = ScriptSeat::new(vec![line("4")]);
    let mut b = first_legal::<TicTacToe>();
    let r = game(TicTacToe::new(), &mut a, &mut b, &Policy::default());
    assert_eq!(r.result, GameResult::Win(1));
    assert_eq!(r.reason, "x sent `4`: cell 4 is taken on move 3");
}

#[test]
fn morris_cycles_end_at_the_move_cap_as_a_draw() {
    // Seven moves: placement is over and nobody has a line yet.
    let policy = Policy {
        move_cap: Some(7),
        ..Policy::default()
    };
    let mut a = first_legal::<Morris>();
    let mut b = first_legal::<Morris>();
    let r = game(Morris::new(), &mut a, &mut b, &policy);
    assert_eq!(r.ending, Ending::MoveCap, "{}", r.reason);
    assert_eq!(r.result, GameResult::Draw { edge: None });
    assert_eq!(r.moves.len(), 7);
}

#[test]
fn sttt_forfeits_only_the_illegal_placement() {
    let policy = Policy {
        illegal: IllegalPolicy::Forfeit,
        ..Policy::default()
    };
    // x plays (1 . 1) twice: the second placement is on an occupied square and is forfeited.
    let mut a = ScriptSeat::new(vec![line("((1 . 1) (1 . 1))"), line("((2 . 2) (3 . 3))")]);
    let mut b = ScriptSeat::new(vec![line("((9 . 9) (8 . 8))"), line("garbage")]);
    let capped = Policy {
        move_cap: Some(4),
        ..policy.clone()
    };
    let r = game(Sttt::new(), &mut a, &mut b, &capped);
    assert_eq!(r.ending, Ending::MoveCap, "{}", r.reason);
    assert_eq!(r.moves[0].applied, "((1 . 1) ())");
    assert!(
        r.moves[0]
            .forfeited
            .as_deref()
            .unwrap()
            .contains("occupied"),
        "{:?}",
        r.moves[0]
    );
    assert_eq!(r.moves[3].sent, "garbage");
    assert_eq!(r.moves[3].applied, "(() ())");
    // Under the lose policy the same reply loses.
    let mut a = ScriptSeat::new(vec![line("((1 . 1) (1 . 1))")]);
    let mut b = first_legal::<Sttt>();
    let r = game(Sttt::new(), &mut a, &mut b, &Policy::default());
    assert_eq!(r.result, GameResult::Win(1));
    assert!(r.reason.contains("occupied"), "{}", r.reason);
}

#[test]
fn ut3_draws_at_the_cap_go_to_the_tie_break() {
    let policy = Policy {
        // No side can hold three blocks in under 17 moves: 10 always reaches the cap.
        move_cap: Some(10),
        ..Policy::default()
    };
    let mut a = first_legal::<Ut3>();
    let mut b = first_legal::<Ut3>();
    let r = game(Ut3::new(), &mut a, &mut b, &policy);
    assert_eq!(r.ending, Ending::MoveCap, "{}", r.reason);
    let mut s = Ut3::new();
    for m in &r.moves {
        let mv = s.parse_move(&m.applied).unwrap();
        s.apply(mv);
    }
    let edge = s.draw_tiebreak().map(reference::Player::index);
    assert_eq!(r.result, GameResult::Draw { edge });
    // No blocks won; x holds more corner cells, so the draw leans to x (002's scoring).
    assert_eq!(edge, Some(0), "{}", s.encode());
    assert!(r.moves[0].sent.starts_with('('), "{:?}", r.moves[0]);
    // (3, 3) is a corner cell: x may play only in blocks 0, 1 and 3. Block 8 loses under UT3's rule.
    let mut a = ScriptSeat::new(vec![line("(4, 4)"), line("(8, 8)")]);
    let mut b = ScriptSeat::new(vec![line("(3, 3)")]);
    let r = game(Ut3::new(), &mut a, &mut b, &Policy::default());
    assert_eq!(r.result, GameResult::Win(1), "{}", r.reason);
    assert!(
        r.reason.contains("x sent `(8, 8)`: block 8 is not allowed"),
        "{}",
        r.reason
    );
}

#[test]
fn oska_replies_are_next_boards_and_a_wrong_board_loses() {
    let mut a = first_legal::<Oska>();
    let mut b = ScriptSeat::new(vec![line("[[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]")]);
    let r = game(Oska::new(4), &mut a, &mut b, &Policy::default());
    assert_eq!(r.colours, ["white".to_string(), "black".to_string()]);
    assert_eq!(r.result, GameResult::Win(0));
    assert!(
        r.reason.starts_with("black sent `[[w,w,w,w]"),
        "{}",
        r.reason
    );
    assert!(r.moves[0].sent.starts_with("[["), "{:?}", r.moves[0]);
}

#[test]
fn oska_an_unchanged_board_with_moves_to_make_is_explained() {
    let start = "[[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]";
    let mut a = ScriptSeat::new(vec![line(start)]);
    let mut b = first_legal::<Oska>();
    let p = Policy {
        reply: ReplyForm::State,
        ..Policy::default()
    };
    let r = game(Oska::new(4), &mut a, &mut b, &p);
    assert_eq!(r.result, GameResult::Win(1));
    assert!(
        r.reason
            .contains("the board is unchanged, but `w` has 6 legal moves"),
        "{}",
        r.reason
    );
}

#[test]
fn oska_a_blocked_side_passes_by_printing_nothing_or_the_same_board() {
    // White's one piece is boxed in by black's back row; black can still move.
    let board = "[[e,e,e,e],[e,e,e],[e,e],[b,w,e],[b,b,b,e]]";
    for pass in ["", board] {
        let initial = Oska::decode(board, reference::Player::First).unwrap();
        let mut a = ScriptSeat::new(vec![line(pass)]);
        let mut b = first_legal::<Oska>();
        let p = Policy {
            reply: ReplyForm::State,
            move_cap: Some(2),
            ..Policy::default()
        };
        let r = game(initial, &mut a, &mut b, &p);
        assert_eq!(r.moves.len(), 2, "{pass:?}: {}", r.reason);
        assert_eq!(
            r.moves[0].applied, board,
            "the pass leaves the board as it was"
        );
    }
}
