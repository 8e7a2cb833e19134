//! Oska's ladder bots, move by move: `minimax:D` takes wins and, when the search proves it lost,
//! leaves the opponent the fewest winning replies; `defensive` spoils the opponent's best next move,
//! weighed by who leads the race; MCTS playouts take a win in one; `perfect` as black sets traps the
//! other bots fall into. Every bot is legal and deterministic given its seed at n = 4 and 5.

use reference::bots::{bot_for, duel, EndReason, Playable};
use reference::games::Oska;
use reference::rng::Rng;
use reference::{Game, Outcome, Player};

/// Positions (not over) from `games` random games of size `n`.
fn positions(n: usize, games: usize, seed: u64) -> Vec<Oska> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut g = Oska::new(n);
        while g.outcome().is_none() {
            out.push(g.clone());
            let ms = g.moves();
            g.apply(ms[rng.below(ms.len())]);
        }
    }
    out
}

fn wins_now(g: &Oska, m: reference::games::OskaMove) -> bool {
    g.after(m).outcome() == Some(Outcome::Win(g.to_move()))
}

#[test]
fn minimax_takes_a_win_in_one() {
    let mut tested = 0;
    for depth in [1, 3, 6] {
        let mut b = bot_for::<Oska>(&format!("minimax:{depth}"), 4, &Oska::new(4)).unwrap();
        for g in positions(4, 40, 4) {
            if g.moves().into_iter().any(|m| wins_now(&g, m)) {
                let m = b.choose(&g);
                assert!(
                    wins_now(&g, m),
                    "minimax:{depth} missed a win in one: {g:?}"
                );
                tested += 1;
            }
        }
    }
    assert!(tested >= 60, "{tested}");
}

/// Of the replies to `next`, the share (per thousand) after which the replying side still wins, by
/// the exact solution.
fn winning_replies_permille(next: &Oska) -> usize {
    let them = next.to_move();
    let replies = next.moves();
    let keep = replies
        .iter()
        .filter(|&&r| {
            let after = next.after(r);
            match after.outcome() {
                Some(o) => o == Outcome::Win(them),
                None => after.solve().unwrap() < 0,
            }
        })
        .count();
    1000 * keep / replies.len()
}

#[test]
fn minimax_when_lost_leaves_the_fewest_winning_replies() {
    // Positions lost for the side to move whose game must end within the search's horizon (every move
    // advances a piece, passes never come twice in a row, so at most 2 × rows to go + 1 plies remain):
    // there the search proves the loss and the trap rule is exact, so the bot's move must leave the
    // fewest winning replies of all its moves.
    let mut b = bot_for::<Oska>("minimax:12", 5, &Oska::new(4)).unwrap();
    let mut tested = 0;
    for g in positions(4, 400, 5) {
        let rows = g.rows_to_go(Player::First) + g.rows_to_go(Player::Second);
        if 2 * rows + 1 > 10 || g.solve().unwrap() >= 0 {
            continue;
        }
        let moves = g.moves();
        if moves.len() < 2 {
            continue;
        }
        let share = |m| {
            let next = g.after(m);
            if next.outcome().is_some() {
                1001
            } else {
                winning_replies_permille(&next)
            }
        };
        let best = moves.iter().map(|&m| share(m)).min().unwrap();
        let m = b.choose(&g);
        assert_eq!(share(m), best, "{g:?}: played {m:?}");
        tested += 1;
    }
    assert!(tested >= 20, "only {tested} lost endgames");
}

#[test]
fn defensive_spoils_the_opponents_best_next_move_weighed_by_the_race() {
    // The rule written out again from the public API: maximise twice our race score minus the best
    // race score the opponent reaches with one move (a win counts above everything), weighed 3 when the
    // opponent leads or ties the race and 1 when it trails; never hand over a win in one.
    let score = |g: &Oska, m| -> i64 {
        let me = g.to_move();
        let next = g.after(m);
        let them = me.opponent();
        let best = next
            .moves()
            .into_iter()
            .map(|r| {
                let a = next.after(r);
                if a.outcome() == Some(Outcome::Win(them)) {
                    i64::from(reference::bots::WIN / 4)
                } else {
                    i64::from(a.own_score(them))
                }
            })
            .max()
            .unwrap();
        let lead = i64::from(next.rows_to_go(me)) - i64::from(next.rows_to_go(them));
        let hands_over = next.moves().into_iter().any(|r| wins_now(&next, r));
        let penalty = if hands_over { -(1i64 << 40) } else { 0 };
        penalty + 2 * i64::from(next.own_score(me)) - if lead >= 0 { 3 * best } else { best }
    };
    let mut b = bot_for::<Oska>("defensive", 6, &Oska::new(4)).unwrap();
    let mut tested = 0;
    for n in [4, 5] {
        for g in positions(n, 30, 6) {
            let moves = g.moves();
            if moves
                .iter()
                .any(|&m| wins_now(&g, m) || g.after(m).outcome().is_some())
            {
                continue;
            }
            let best = moves.iter().map(|&m| score(&g, m)).max().unwrap();
            let m = b.choose(&g);
            assert_eq!(score(&g, m), best, "{g:?}: played {m:?}");
            tested += 1;
        }
    }
    assert!(tested >= 300, "{tested}");
}

#[test]
fn playouts_take_a_win_in_one() {
    let mut tested = 0;
    for g in positions(4, 60, 8) {
        if !g.moves().into_iter().any(|m| wins_now(&g, m)) {
            continue;
        }
        for seed in 0..5 {
            let mut p = g.clone();
            let o = p.playout(&mut Rng::new(seed), 2_000);
            assert_eq!(o, Some(Outcome::Win(g.to_move())), "{g:?}");
        }
        tested += 1;
    }
    assert!(tested >= 30, "{tested}");
}

#[test]
fn the_ladder_bots_are_legal_and_deterministic_at_n4_and_n5() {
    for n in [4, 5] {
        let start = Oska::new(n);
        for spec in ["defensive", "minimax:3", "minimax:6", "mcts:300"] {
            let game = |seed: u64, as_white: bool| {
                let mut a = bot_for::<Oska>(spec, seed, &start).unwrap();
                let mut r = bot_for::<Oska>("random", seed + 100, &start).unwrap();
                let d = if as_white {
                    duel(start.clone(), a.as_mut(), r.as_mut())
                } else {
                    duel(start.clone(), r.as_mut(), a.as_mut())
                };
                assert!(
                    !matches!(d.reason, EndReason::Illegal(_)),
                    "{spec} at n = {n}: an illegal move"
                );
                d.moves
            };
            let mut games = Vec::new();
            for seed in 0..4 {
                let g = game(seed, seed % 2 == 0);
                assert_eq!(
                    g,
                    game(seed, seed % 2 == 0),
                    "{spec} at n = {n}, seed {seed}"
                );
                games.push(g);
            }
            assert!(
                games[0] != games[2] || games[1] != games[3],
                "{spec} at n = {n} plays the same games for every seed"
            );
        }
    }
}

#[test]
fn perfect_as_black_traps_the_search_bots() {
    // n = 4 is won for white, so `perfect` as black wins only when white slips: its traps catch the
    // search bots in most games (at the ladder's 200 games: every one).
    let start = Oska::new(4);
    for other in ["minimax:4", "minimax:6", "mcts:500"] {
        let mut wins = 0;
        for seed in 0..10 {
            let mut w = bot_for::<Oska>(other, seed, &start).unwrap();
            let mut p = bot_for::<Oska>("perfect", seed + 50, &start).unwrap();
            let d = duel(start.clone(), w.as_mut(), p.as_mut());
            wins += usize::from(d.outcome == Outcome::Win(Player::Second));
        }
        assert!(
            wins >= 7,
            "perfect won {wins} of 10 as black against {other}"
        );
    }
}
