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
    // The referee quotes what was sent; the reason says only what was expected.
    assert_eq!(g.parse_move("hello").unwrap_err(), "expected `(row, col)`");
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

#[test]
fn ut3_draw_tiebreak_counts_match_the_encoding() {
    let mut draws = 0;
    for seed in 0..400 {
        let g = random_line(Ut3::new(), seed, 81).pop().unwrap();
        if g.outcome() != Some(reference::Outcome::Draw) {
            continue;
        }
        draws += 1;
        let line = g.encode();
        let (cells, stat) = line.split_once(' ').unwrap();
        let stat = &stat[..9];
        let cells: Vec<char> = cells.chars().collect();
        for (side, ch) in [(Player::First, 'x'), (Player::Second, 'o')] {
            let blocks = stat.chars().filter(|&c| c == ch).count() as u32;
            let corners = (0..81)
                .filter(|&i| (i / 9) % 3 != 1 && (i % 9) % 3 != 1 && cells[i] == ch)
                .count() as u32;
            assert_eq!(g.blocks_won(side), blocks, "{line}");
            assert_eq!(g.corner_cells(side), corners, "{line}");
        }
        let key = |p| (g.blocks_won(p), g.corner_cells(p));
        let expect = match key(Player::First).cmp(&key(Player::Second)) {
            std::cmp::Ordering::Greater => Some(Player::First),
            std::cmp::Ordering::Less => Some(Player::Second),
            std::cmp::Ordering::Equal => None,
        };
        assert_eq!(g.draw_tiebreak(), expect);
    }
    assert!(draws >= 5, "only {draws} drawn games in 400");
}

/// A board with one open square (board 9, square 7), no big line, `x` to move.
fn one_open_square() -> Sttt {
    let winners = ["x", "x", "o", "o", "o", "x", "x", "o"];
    let mut littles: Vec<String> = winners
        .iter()
        .map(|w| {
            let mut sq = vec![w.to_string(); 3];
            sq.extend(std::iter::repeat_n("()".to_string(), 6));
            format!("(little {})", sq.join(" "))
        })
        .collect();
    littles.push("(little x o x x o o () x o)".into());
    Sttt::decode(&format!("(big {})", littles.join(" ")), Player::First).unwrap()
}

#[test]
fn sttt_single_placement_turns() {
    let g = one_open_square();
    assert_eq!(g.outcome(), None);
    assert_eq!(g.open_count(), 1);
    let only = Turn {
        first: Some(Placement { big: 8, little: 6 }),
        second: None,
    };
    assert_eq!(g.moves(), vec![only]);
    assert_eq!(g.format_move(only), "((9 . 7) ())");
    for text in ["((9 . 7) ())", "(() (9 . 7))"] {
        let mut h = g.clone();
        let report = h.apply_lenient(&Sttt::parse_lenient(text));
        assert!(report.forfeits().is_empty(), "{text}: {report:?}");
        assert_eq!(h.outcome(), Some(reference::Outcome::Draw), "{text}");
        assert_eq!(g.parse_move(text), Ok(only));
    }
    // A placement in a won board is forfeited; the `()` beside it costs nothing more.
    let mut h = g.clone();
    let report = h.apply_lenient(&Sttt::parse_lenient("((1 . 5) ())"));
    assert_eq!(report.placements[0], Err(Forfeit::BoardWon(1)));
    assert_eq!(report.placements[1], Ok(None));
    assert_eq!(h.to_move(), Player::Second);
    assert_eq!(h.outcome(), None);
}

#[test]
fn sttt_first_placement_can_end_the_game() {
    // x holds big squares 1 and 2 and two in a row on board 3: (3 . 3) wins the game at once.
    let mut littles = vec![
        "(little x x x () () () () () ())".to_string(),
        "(little x x x () () () () () ())".to_string(),
        "(little x x () () () () () () ())".to_string(),
    ];
    littles.extend(std::iter::repeat_n(
        format!("(little{})", " ()".repeat(9)),
        6,
    ));
    let g = Sttt::decode(&format!("(big {})", littles.join(" ")), Player::First).unwrap();
    let mut h = g.clone();
    let report = h.apply_lenient(&Sttt::parse_lenient("((3 . 3) (5 . 5))"));
    assert_eq!(
        report.placements[1],
        Ok(None),
        "the second placement is moot"
    );
    assert_eq!(h.outcome(), Some(reference::Outcome::Win(Player::First)));
    assert_eq!(h.line_winner(), Some(Player::First));
    assert!(g.moves().contains(&Turn {
        first: Some(Placement { big: 2, little: 2 }),
        second: None
    }));
}

#[test]
fn oska_sizes_outside_the_range_are_errors() {
    assert!(Oska::try_new(4).is_ok() && Oska::try_new(11).is_ok());
    let err = Oska::try_new(12).unwrap_err().to_string();
    assert!(err.contains("`12`") && err.contains("hint:"), "{err}");
    assert!(Oska::try_new(3).is_err());
    assert_eq!(Oska::new(11).squares(), 128);
}
