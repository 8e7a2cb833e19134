//! Three Men's Morris solver properties over every legal position: printed boards are legal
//! successors, a win in one is always taken, pruning keeps the move, and the search always ends.

// The solvers tested here are not in the student build.
#![cfg(not(feature = "student"))]

use reference::adelaide::{tmmorris_answer, Variant};
use reference::games::tmmorris::Morris;
use reference::{Game, Notation, Outcome};

#[test]
fn printed_boards_are_legal_successors_and_wins_in_one_are_taken() {
    let all = Morris::all_positions();
    assert!(all.len() > 5_000, "{}", all.len());
    for m in &all {
        let state = m.encode();
        let successors: Vec<Morris> = m.moves().iter().map(|&mv| m.after(mv)).collect();
        let wins_now = successors
            .iter()
            .any(|s| s.outcome() == Some(Outcome::Win(m.to_move())));
        for ply in 1..=3 {
            let a = tmmorris_answer(&state, ply, m.to_move(), Variant::Golden).unwrap();
            let Some(board) = a.board else {
                assert!(m.outcome().is_some(), "{state}: no move printed");
                assert!(a.is_empty());
                continue;
            };
            let next = successors
                .iter()
                .find(|s| *s.cells() == board)
                .unwrap_or_else(|| panic!("{state} ply {ply}: not a legal successor"));
            if wins_now {
                assert_eq!(next.outcome(), Some(Outcome::Win(m.to_move())), "{state}");
            }
            let plain =
                tmmorris_answer(&state, ply, m.to_move(), Variant::PlyWithoutPruning).unwrap();
            assert_eq!(plain.board, a.board, "{state} ply {ply}");
        }
    }
}

#[test]
fn a_deep_search_ends_thanks_to_the_repetition_rule() {
    let m = Morris::from_raster("xo-ox-o-x", reference::Player::Second).unwrap();
    let a = tmmorris_answer(&m.encode(), 13, m.to_move(), Variant::Golden).unwrap();
    assert!(a.board.is_some());
    assert!(!a.is_empty());
}

#[test]
fn a_search_too_large_is_refused() {
    let err = tmmorris_answer("xo-ox-o-x", 60, reference::Player::Second, Variant::Golden)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "the search from `xo-ox-o-x` with ply 60 visits more than 5000000 nodes; use a smaller ply"
    );
}

#[test]
fn the_game_is_a_draw_and_perfect_play_never_loses_a_won_position() {
    use reference::search::{Solved, Table};
    let reachable = Table::solve(&[Morris::new()]);
    assert_eq!(reachable.get(&Morris::new()), Some(Solved::Draw));
    // Rooted at every legal position, so that positions no game reaches are solved too.
    let all = Morris::all_positions();
    let table = Table::solve(&all);
    assert_eq!(table.len(), all.len());
    assert_eq!(table.get(&Morris::new()), Some(Solved::Draw));
    for m in &all {
        let Some(Solved::Win { winner, plies }) = table.get(m) else {
            continue;
        };
        if winner == m.to_move() && plies > 0 {
            let next = m.after(table.best_move(m).unwrap());
            assert_eq!(
                table.get(&next),
                Some(Solved::Win {
                    winner,
                    plies: plies - 1
                }),
                "{}",
                m.encode()
            );
        }
    }
}
