//! Encodings round-trip, moves print and parse in the seeds' terms, and bad input gets a clear error.

use reference::games::sttt::{Forfeit, Placement, RawPlacement};
use reference::games::{Oska, OskaMove, Sttt, Turn, Ut3, Ut3Move};
use reference::rng::Rng;
use reference::{Game, Notation, Player};

fn random_line<G: Game>(mut g: G, seed: u64, plies: usize) -> Vec<G> {
    let mut rng = Rng::new(seed);
    let mut seen = vec![g.clone()];
    for _ in 0..plies {
        let moves = g.moves();
        let Some(&m) = rng.choose(&moves) else { break };
        g.apply(m);
        seen.push(g.clone());
    }
    seen
}

#[test]
fn ut3_start_and_round_trip() {
    let g = Ut3::new();
    assert_eq!(g.encode(), format!("{} --------- -1,-1 x", "-".repeat(81)));
    assert_eq!(g.moves().len(), 81);
    for seed in 0..20 {
        for s in random_line(Ut3::new(), seed, 81) {
            assert_eq!(Ut3::decode(&s.encode()).unwrap(), s, "{}", s.encode());
        }
    }
}

#[test]
fn ut3_moves_print_and_parse() {
    let g = Ut3::new();
    let m = Ut3Move { row: 4, col: 7 };
    assert_eq!(g.format_move(m), "(4, 7)");
    assert_eq!(g.parse_move("(4, 7)"), Ok(m));
    assert_eq!(g.parse_move(" 4,7 "), Ok(m));
    assert!(g
        .parse_move("(9, 0)")
        .unwrap_err()
        .contains("off the board"));
    assert!(g.parse_move("hello").unwrap_err().contains("`hello`"));
    let g = g.after(m); // block 5, position 4 (centre): sends o to block 4
    assert_eq!(g.allowed_blocks(), 1 << 4);
    assert!(g.parse_move("(0, 0)").unwrap_err().contains("not allowed"));
    assert!(g.parse_move("(4, 7)").unwrap_err().contains("taken"));
    // A corner cell: top-left of block 4 lets the reply go to blocks 0, 1, 3.
    let g = g.after(Ut3Move { row: 3, col: 3 });
    assert_eq!(g.allowed_blocks(), 1 << 0 | 1 << 1 | 1 << 3);
    assert!(Ut3::decode("xx")
        .unwrap_err()
        .to_string()
        .contains("4 fields"));
}

#[test]
fn sttt_start_and_round_trip() {
    let g = Sttt::new();
    let empty_little = format!("(little{})", " ()".repeat(9));
    assert_eq!(
        g.encode(),
        format!("(big{})", format!(" {empty_little}").repeat(9))
    );
    assert_eq!(g.moves().len(), 81 * 80 / 2);
    for seed in 0..10 {
        for s in random_line(Sttt::new(), seed, 41) {
            assert_eq!(Sttt::decode(&s.encode(), s.to_move()).unwrap(), s);
        }
    }
    // The handout's own example, quotes and all.
    let text = "('big ('little 'x () () () () () () () ()) ('little () () () () () () () () ()) \
        ('little () () () () () () () () ()) ('little () () () () () () () () ()) \
        ('little () () () () 'x () () () ()) ('little () () () () () () () () ()) \
        ('little () () () () () () () () ()) ('little () () () () () () () () ()) \
        ('little () () () () () () () () ()))";
    let after = Sttt::decode(text, Player::Second).unwrap();
    let turn = g.parse_move("((1 . 1) (5 . 5))").unwrap();
    assert_eq!(g.after(turn), after);
    assert_eq!(g.format_move(turn), "((1 . 1) (5 . 5))");
}

#[test]
fn sttt_lenient_forfeits_bad_placements() {
    let mut g = Sttt::new();
    let report = g.apply_lenient(&Sttt::parse_lenient("((1 . 1) (1 . 1))"));
    assert_eq!(
        report.placements[0],
        Ok(Some(Placement { big: 0, little: 0 }))
    );
    assert_eq!(report.placements[1], Err(Forfeit::Occupied(1, 1)));
    assert_eq!(g.to_move(), Player::Second);
    let report = g.apply_lenient(&Sttt::parse_lenient("((0 . 3) garbage)"));
    assert_eq!(report.placements[0], Err(Forfeit::Outside(0, 3)));
    assert!(matches!(report.placements[1], Err(Forfeit::Malformed(_))));
    assert_eq!(g.to_move(), Player::First);
    assert_eq!(
        Sttt::parse_lenient("(1 2 3"),
        [
            RawPlacement::Malformed("(1 2 3".into()),
            RawPlacement::Malformed("(1 2 3".into())
        ]
    );
    let report = g.apply_lenient(&Sttt::parse_lenient("((2 . 2) ())"));
    assert_eq!(report.placements[1], Err(Forfeit::Empty));
    // Reversed order parses to the canonical turn.
    let g = Sttt::new();
    let t = g.parse_move("((5 . 5) (1 . 1))").unwrap();
    assert_eq!(
        t,
        Turn {
            first: Some(Placement { big: 0, little: 0 }),
            second: Some(Placement { big: 4, little: 4 })
        }
    );
}

#[test]
fn oska_start_and_moves() {
    let g = Oska::new(4);
    assert_eq!(g.encode(), "[[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]");
    assert_eq!(g.moves().len(), 6);
    // The handout's sample reply.
    let m = g
        .parse_move("[[w,w,w,e],[e,e,w],[e,e],[e,e,e],[b,b,b,b]]")
        .unwrap();
    assert_eq!(m, OskaMove::Move { from: 3, to: 6 });
    assert!(g
        .parse_move("[[w,w,e,e],[e,e,w],[e,e],[e,e,e],[b,b,b,b]]")
        .unwrap_err()
        .contains("not one legal move"));
    assert_eq!(Oska::new(5).row_lengths(), vec![5, 4, 3, 2, 3, 4, 5]);
    for n in 4..=7 {
        for seed in 0..10 {
            for s in random_line(Oska::new(n), seed, 400) {
                assert_eq!(Oska::decode(&s.encode(), s.to_move()).unwrap(), s);
            }
        }
    }
    let err = Oska::decode("[[w,w,w,w],[e,e],[e,e],[e,e,e],[b,b,b,b]]", Player::First).unwrap_err();
    assert!(err.to_string().contains("row lengths"), "{err}");
    let err =
        Oska::decode("[[w,w,w,q],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]", Player::First).unwrap_err();
    assert!(err.to_string().contains("`q`"), "{err}");
}
