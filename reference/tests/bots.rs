//! The bots: spec parsing, determinism given a seed, legality, and the cheap ladder properties
//! (perfect never loses, minimax beats random); the full ladder is `examples/ladder.rs`.

use reference::bots::{bot, bot_for, duel, BotSpecError, EndReason, Playable};
use reference::games::tictactoe::TicTacToe;
use reference::games::tmmorris::Morris;
use reference::games::{Oska, Sttt, Ut3};
use reference::rng::Rng;
use reference::{Game, Outcome, Player};

mod common;
use common::{negamax, random_move, random_walk};

/// Plays `games` games of `a` against `b`, colours alternating; `a`'s wins, losses and draws.
fn score<G: Playable>(start: &G, a: &str, b: &str, games: u64, seed: u64) -> (u32, u32, u32) {
    let (mut w, mut l, mut d) = (0, 0, 0);
    for i in 0..games {
        let mut r = Rng::new(seed).fork(i);
        let mut ba = bot::<G>(a, r.next_u64()).unwrap();
        let mut bb = bot::<G>(b, r.next_u64()).unwrap();
        let a_side = if i % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let g = if a_side == Player::First {
            duel(start.clone(), ba.as_mut(), bb.as_mut())
        } else {
            duel(start.clone(), bb.as_mut(), ba.as_mut())
        };
        assert!(
            !matches!(g.reason, EndReason::Illegal(_)),
            "{a} vs {b}: illegal move"
        );
        match g.outcome {
            Outcome::Win(p) if p == a_side => w += 1,
            Outcome::Win(_) => l += 1,
            Outcome::Draw => d += 1,
        }
    }
    (w, l, d)
}

#[test]
fn specs_parse_and_bad_specs_explain() {
    assert_eq!(bot::<Ut3>("minimax:3", 1).unwrap().name(), "minimax:3");
    assert_eq!(bot::<Ut3>("mcts:100", 1).unwrap().name(), "mcts:100");
    let err = bot::<Ut3>("alphago", 1).err().unwrap();
    assert!(matches!(err, BotSpecError::Unknown { .. }));
    assert!(err.to_string().contains("`alphago`") && err.to_string().contains("hint:"));
    assert!(matches!(
        bot::<Ut3>("minimax:x", 1).err().unwrap(),
        BotSpecError::BadParameter { .. }
    ));
    assert!(matches!(
        bot::<Ut3>("minimax", 1).err().unwrap(),
        BotSpecError::BadParameter { .. }
    ));
    assert!(matches!(
        bot::<Ut3>("random:3", 1).err().unwrap(),
        BotSpecError::BadParameter { .. }
    ));
    assert!(matches!(
        bot::<Ut3>("perfect", 1).err().unwrap(),
        BotSpecError::Unavailable { .. }
    ));
    assert!(bot::<TicTacToe>("perfect", 1).is_ok());
    assert!(bot_for::<Oska>("perfect", 1, &Oska::new(4)).is_ok());
    let err = bot_for::<Oska>("perfect", 1, &Oska::new(5)).err().unwrap();
    assert!(matches!(err, BotSpecError::Unavailable { .. }));
    assert!(err.to_string().contains("Oska with n = 4"), "{err}");
    assert!(bot::<Morris>("perfect", 1).is_ok());
}

fn transcript<G: Playable>(start: &G, a: &str, b: &str, seed: u64) -> Vec<G::Move> {
    let mut ba = bot::<G>(a, seed).unwrap();
    let mut bb = bot::<G>(b, seed + 1).unwrap();
    duel(start.clone(), ba.as_mut(), bb.as_mut()).moves
}

#[test]
fn same_seed_same_game_and_seeds_vary_games() {
    for spec in ["random", "offensive", "defensive", "minimax:2", "mcts:50"] {
        let a = transcript(&Ut3::new(), spec, "random", 7);
        assert_eq!(a, transcript(&Ut3::new(), spec, "random", 7), "{spec}");
        let others: Vec<_> = (8..14)
            .map(|s| transcript(&Ut3::new(), spec, "random", s))
            .collect();
        assert!(
            others.iter().any(|o| *o != a),
            "{spec} plays the same game for every seed"
        );
    }
    let a = transcript(&Oska::new(4), "mcts:30", "defensive", 3);
    assert_eq!(a, transcript(&Oska::new(4), "mcts:30", "defensive", 3));
    let a = transcript(&Sttt::new(), "defensive", "random", 3);
    assert_eq!(a, transcript(&Sttt::new(), "defensive", "random", 3));
}

#[test]
fn perfect_never_loses_at_tictactoe() {
    for other in [
        "random",
        "offensive",
        "defensive",
        "minimax:2",
        "mcts:100",
        "perfect",
    ] {
        let (_, l, _) = score(&TicTacToe::new(), "perfect", other, 40, 11);
        assert_eq!(l, 0, "perfect lost to {other}");
    }
    let (w, _, _) = score(&TicTacToe::new(), "perfect", "random", 40, 12);
    assert!(w >= 30, "perfect won only {w} of 40 against random");
    let (_, _, d) = score(&TicTacToe::new(), "perfect", "perfect", 4, 12);
    assert_eq!(d, 4, "tic-tac-toe is a draw");
}

#[test]
fn perfect_never_loses_at_morris() {
    for other in [
        "random",
        "offensive",
        "defensive",
        "minimax:3",
        "mcts:100",
        "perfect",
    ] {
        let (_, l, _) = score(&Morris::new(), "perfect", other, 20, 21);
        assert_eq!(l, 0, "perfect lost to {other}");
    }
    let (w, _, _) = score(&Morris::new(), "perfect", "random", 20, 22);
    assert!(w >= 15, "perfect won only {w} of 20 against random");
    assert_eq!(
        Morris::new().solve(),
        Some(0),
        "Three Men's Morris is a draw"
    );
    assert_eq!(TicTacToe::new().solve(), Some(0), "tic-tac-toe is a draw");
}

#[test]
fn perfect_never_loses_at_oska4_as_white_and_wins_most_as_black() {
    // Oska n = 4 is a win for white (the first player), so black can lose against good play; `perfect`
    // as black makes the win as hard to find as it can.
    assert!(Oska::new(4).solve().unwrap() > 0, "white wins Oska n = 4");
    for other in ["random", "offensive", "defensive", "minimax:3", "mcts:100"] {
        let (w, l, _) = score(&Oska::new(4), "perfect", other, 20, 31);
        for seed in 0..10 {
            let mut ba = bot::<Oska>("perfect", seed).unwrap();
            let mut bb = bot::<Oska>(other, seed + 100).unwrap();
            let g = duel(Oska::new(4), ba.as_mut(), bb.as_mut());
            assert_eq!(
                g.outcome,
                Outcome::Win(Player::First),
                "perfect did not win as white against {other} (seed {seed})"
            );
        }
        assert!(
            w >= 16,
            "perfect won only {w} of 20 against {other} ({l} lost)"
        );
    }
}

#[test]
fn minimax_beats_random_in_most_games() {
    let (w, l, _) = score(&Ut3::new(), "minimax:2", "random", 20, 5);
    assert!(w >= 16 && l <= 2, "ut3: {w} wins, {l} losses");
    let (w, l, _) = score(&Oska::new(4), "minimax:3", "random", 20, 5);
    assert!(w >= 16 && l <= 2, "oska: {w} wins, {l} losses");
    let (w, l, _) = score(&Sttt::new(), "minimax:1", "random", 10, 5);
    assert!(w >= 6 && l <= 2, "sttt: {w} wins, {l} losses");
}

#[test]
fn retrograde_agrees_with_plain_negamax_on_tictactoe() {
    // Plain recursive game values (no memo) against the table, from random positions.
    let mut rng = Rng::new(3);
    for _ in 0..60 {
        let mut g = TicTacToe::new();
        let plies = rng.below(6);
        random_walk(&mut g, &mut rng, plies);
        if g.outcome().is_none() {
            assert_eq!(g.solve().unwrap().signum(), negamax(&g), "{g:?}");
        }
    }
}

#[test]
fn minimax_takes_an_immediate_win() {
    // Super-TTT: x holds big squares 1 and 2 and two in a row on board 3; every depth must finish it.
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
    for spec in ["minimax:1", "minimax:2", "offensive", "defensive"] {
        let mut b = bot::<Sttt>(spec, 3).unwrap();
        let m = b.choose(&g);
        assert_eq!(
            g.after(m).outcome(),
            Some(Outcome::Win(Player::First)),
            "{spec} played {m:?}"
        );
    }
    // UT3: the same for a one-move win, from a random game's last position before a win.
    let mut rng = Rng::new(9);
    let mut checked = 0;
    for _ in 0..200 {
        let mut g = Ut3::new();
        let mut prev = g.clone();
        while g.outcome().is_none() {
            prev = g.clone();
            g.apply(random_move(&g, &mut rng));
        }
        if matches!(g.outcome(), Some(Outcome::Win(_))) {
            for spec in ["minimax:1", "minimax:3"] {
                let m = bot::<Ut3>(spec, 1).unwrap().choose(&prev);
                assert!(
                    matches!(prev.after(m).outcome(), Some(Outcome::Win(_))),
                    "{spec} missed a win"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 50);
}

#[test]
fn oska4_solver_agrees_with_plain_negamax() {
    // From positions 11 to 16 random plies in (the plain search from the start would take minutes).
    let mut rng = Rng::new(4);
    let mut checked = 0;
    for _ in 0..40 {
        let mut g = Oska::new(4);
        let plies = 11 + rng.below(6);
        random_walk(&mut g, &mut rng, plies);
        if g.outcome().is_none() {
            assert_eq!(g.solve().unwrap().signum(), negamax(&g), "{g:?}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} positions checked");
}
