//! The turning point and the missed tactics checked against a plain minimax by brute force, over
//! many tic-tac-toe games a weak (random) player loses or draws; and the estimate against the exact
//! values wherever it claims a proof.

use reference::analysis::{tactics, turning_point, Worth};
use reference::games::tictactoe::TicTacToe;
use reference::rng::Rng;
use reference::{Game, Outcome, Player};

/// The value of `g` for its side to move by full minimax: 1 win, 0 draw, −1 loss. No table, no
/// pruning: the simple code the solver is checked against.
fn minimax(g: &TicTacToe) -> i32 {
    match g.outcome() {
        Some(Outcome::Draw) => 0,
        Some(Outcome::Win(p)) => {
            if p == g.to_move() {
                1
            } else {
                -1
            }
        }
        None => g
            .moves()
            .into_iter()
            .map(|m| -minimax(&g.after(m)))
            .max()
            .expect("a game not over has moves"),
    }
}

fn worth(v: i32) -> Worth {
    match v {
        1 => Worth::Won,
        0 => Worth::Drawn,
        _ => Worth::Lost,
    }
}

/// A game where x plays at random and o plays the first move that keeps its minimax value, or the
/// other way round.
fn game(rng: &mut Rng, random: Player) -> Vec<<TicTacToe as Game>::Move> {
    play(rng, Some(random))
}

/// A game where `random` (or both sides, for `None`) plays at random and the other side perfectly.
fn play(rng: &mut Rng, random: Option<Player>) -> Vec<<TicTacToe as Game>::Move> {
    let mut g = TicTacToe::new();
    let mut moves = Vec::new();
    while g.outcome().is_none() {
        let all = g.moves();
        let m = if random.is_none_or(|r| g.to_move() == r) {
            all[rng.below(all.len())]
        } else {
            let best = all.iter().map(|&m| -minimax(&g.after(m))).max().unwrap();
            *all.iter()
                .find(|&&m| -minimax(&g.after(m)) == best)
                .unwrap()
        };
        moves.push(m);
        g.apply(m);
    }
    moves
}

#[test]
fn the_turning_point_is_the_first_move_that_lowers_the_minimax_value() {
    let mut rng = Rng::new(2026);
    let mut found = 0;
    for k in 0..200 {
        let weak = if k % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let moves = game(&mut rng, weak);
        let start = TicTacToe::new();
        let turn = turning_point(&start, &moves, weak);
        // Brute force: walk the game, and at each of the weak side's moves compare what the move
        // kept against the best any move kept.
        let mut g = start;
        let mut expected = None;
        for (ply, &m) in moves.iter().enumerate() {
            if g.to_move() == weak && expected.is_none() {
                let value = |m| -minimax(&g.after(m));
                let best = g.moves().into_iter().map(value).max().unwrap();
                if value(m) < best {
                    let better: Vec<_> = g
                        .moves()
                        .into_iter()
                        .filter(|&b| value(b) == best)
                        .collect();
                    expected = Some((ply, m, worth(best), worth(value(m)), better));
                }
            }
            g.apply(m);
        }
        let got = turn.map(|t| (t.ply, t.played, t.before, t.after, t.better));
        assert_eq!(got, expected, "game {k}: {moves:?}");
        found += usize::from(expected.is_some());
    }
    // A random player against a perfect one throws its game away often: the check is not vacuous.
    assert!(found > 100, "only {found} games turned");
}

#[test]
fn missed_tactics_of_random_games_match_a_one_ply_brute_force() {
    let mut rng = Rng::new(5);
    let mut seen = (0, 0);
    for k in 0..200 {
        let weak = if k % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let moves = play(&mut rng, None);
        let t = tactics(&TicTacToe::new(), &moves, weak);
        let mut g = TicTacToe::new();
        let (mut wins, mut blocks) = (Vec::new(), Vec::new());
        for (ply, &m) in moves.iter().enumerate() {
            if g.to_move() == weak {
                let me = g.to_move();
                let won = |m| g.after(m).outcome() == Some(Outcome::Win(me));
                // After `m`, the opponent has a move that wins at once.
                let loses = |m| {
                    let n = g.after(m);
                    n.outcome().is_none()
                        && n.moves()
                            .into_iter()
                            .any(|r| n.after(r).outcome() == Some(Outcome::Win(me.opponent())))
                };
                if g.moves().into_iter().any(won) {
                    if !won(m) {
                        wins.push(ply);
                    }
                } else if loses(m) && g.moves().into_iter().any(|b| !loses(b)) {
                    blocks.push(ply);
                }
            }
            g.apply(m);
        }
        assert_eq!(
            (t.missed_wins.clone(), t.missed_blocks.clone()),
            (wins, blocks),
            "game {k}"
        );
        seen.0 += t.missed_wins.len();
        seen.1 += t.missed_blocks.len();
    }
    assert!(seen.0 > 10 && seen.1 > 10, "{seen:?}");
}

#[test]
fn an_estimate_never_contradicts_the_solver() {
    // Every position the weak player faced: whatever the bounded search proves is the exact value.
    let mut rng = Rng::new(11);
    let mut proofs = 0;
    for _ in 0..100 {
        let moves = game(&mut rng, Player::First);
        let mut g = TicTacToe::new();
        for &m in &moves {
            let proved = reference::analysis::estimate(&g);
            if let Some(v) = proved {
                assert_eq!(v, minimax(&g), "{g:?}");
                proofs += 1;
            }
            g.apply(m);
        }
    }
    assert!(proofs > 50, "{proofs}");
}
