//! Super-TTT placement by placement: the step view plays the same game as whole turns, its search
//! shortcuts lose no position, and the bots that search it (`minimax:D`, `mcts:N`) and `defensive`
//! keep their promises: legal, deterministic per seed, a win in one taken, an avoidable loss in one
//! avoided, the exact value kept near the end.

use std::collections::HashSet;

use reference::bots::{bot, duel, EndReason, Playable, SplitTurn};
use reference::games::sttt::Placement;
use reference::games::{SttSteps, Sttt};
use reference::rng::Rng;
use reference::{Game, Notation, Outcome, Player};

/// Positions (not over) from `games` random games.
fn positions(games: usize, seed: u64) -> Vec<Sttt> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut g = Sttt::new();
        while g.outcome().is_none() {
            out.push(g.clone());
            let ms = g.moves();
            g.apply(ms[rng.below(ms.len())]);
        }
    }
    out
}

/// Every position a whole turn reaches, through the step view with `moves` at each step.
fn reached(g: &Sttt, moves: impl Fn(&SttSteps) -> Vec<Placement>) -> HashSet<String> {
    let me = g.to_move();
    let mut out = HashSet::new();
    let start = g.steps();
    for p1 in moves(&start) {
        let s1 = start.after(p1);
        if s1.outcome().is_some() || s1.to_move() != me {
            out.insert(s1.position().encode() + &format!("{:?}", s1.outcome()));
            continue;
        }
        for p2 in moves(&s1) {
            let s2 = s1.after(p2);
            out.insert(s2.position().encode() + &format!("{:?}", s2.outcome()));
        }
    }
    out
}

#[test]
fn steps_reach_what_turns_reach_and_name_legal_turns() {
    let mut rng = Rng::new(3);
    let all = positions(6, 1);
    let mut checked = 0;
    for g in all.iter().step_by(3) {
        let turns = g.moves();
        let by_turns: HashSet<String> = turns
            .iter()
            .map(|&t| {
                let n = g.after(t);
                n.encode() + &format!("{:?}", n.outcome())
            })
            .collect();
        let by_steps = reached(g, SttSteps::moves);
        let searched = reached(g, SttSteps::search_moves);
        assert!(
            by_turns == by_steps,
            "steps and turns differ: {}",
            g.encode()
        );
        // Only wins may be lost: a placement that wins the game first ends the turn before the
        // other one, so the swapped pair reaches a different (as good) position.
        let won = format!("{:?}", Some(Outcome::Win(g.to_move())));
        let lost: Vec<_> = by_turns.difference(&searched).collect();
        assert!(
            lost.iter().all(|p| p.ends_with(&won)),
            "search moves lose {lost:?} from {}",
            g.encode()
        );
        assert!(lost.is_empty() || searched.iter().any(|p| p.ends_with(&won)));
        // A turn played placement by placement, named by `turn`, is a listed turn reaching the same
        // position.
        for _ in 0..20 {
            let mut s = g.steps();
            let me = g.to_move();
            let mut steps = Vec::new();
            while s.outcome().is_none() && s.to_move() == me {
                let ms = s.moves();
                let p = ms[rng.below(ms.len())];
                steps.push(p);
                s.apply(p);
            }
            let t = g.turn(&steps);
            assert!(turns.contains(&t), "{t:?} is not listed: {}", g.encode());
            assert_eq!(g.after(t), *s.position());
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn evaluation_calls_a_reachable_big_line_won() {
    // x holds big squares 1 and 2 and two in a row on board 3: one placement wins.
    let g = near_win();
    let s = g.steps();
    assert_eq!(s.won_within(), Some(1));
    assert!(s.evaluate() > 100_000, "{}", s.evaluate());
    // Seen by o, to move in the same position, x's line is a threat, not a win.
    let o = Sttt::decode(&g.encode(), Player::Second).unwrap().steps();
    assert_eq!(o.won_within(), None);
    assert!(o.evaluate() > 0, "x is better: {}", o.evaluate());
}

fn near_win() -> Sttt {
    let mut littles = vec![
        "(little x x x () () () () () ())".to_string(),
        "(little x x x () () () () () ())".to_string(),
        "(little x x () () () () () () ())".to_string(),
    ];
    littles.extend(std::iter::repeat_n(
        format!("(little{})", " ()".repeat(9)),
        6,
    ));
    Sttt::decode(&format!("(big {})", littles.join(" ")), Player::First).unwrap()
}

#[test]
fn placement_bots_take_a_win_in_one() {
    let g = near_win();
    for spec in ["minimax:2", "minimax:4", "mcts:50", "defensive"] {
        let m = bot::<Sttt>(spec, 3).unwrap().choose(&g);
        assert_eq!(
            g.after(m).outcome(),
            Some(Outcome::Win(Player::First)),
            "{spec} played {m:?}"
        );
    }
}

#[test]
fn defensive_and_minimax_never_leave_a_win_in_one_they_could_stop() {
    // After our turn the opponent wins at once exactly when it is within two placements of a big
    // line (`can_win_now`); wherever some turn avoids that, these bots must pick one.
    let mut bots: Vec<_> = ["defensive", "minimax:2", "minimax:4"]
        .into_iter()
        .map(|s| (s, bot::<Sttt>(s, 9).unwrap()))
        .collect();
    let mut tested = 0;
    for g in positions(30, 4) {
        let turns = g.moves();
        let loses = |t| {
            let n = g.after(t);
            n.outcome().is_none() && n.can_win_now()
        };
        if g.can_win_now() || turns.iter().all(|&t| !loses(t)) || turns.iter().all(|&t| loses(t)) {
            continue;
        }
        for (name, b) in &mut bots {
            let t = b.choose(&g);
            assert!(!loses(t), "{name} handed over a win: {}", g.encode());
        }
        tested += 1;
    }
    assert!(tested >= 15, "only {tested} positions");
}

/// The exact value for the side to move by plain search over whole turns: 1, 0 or -1.
fn exact(g: &Sttt) -> i32 {
    let me = g.to_move();
    g.moves()
        .into_iter()
        .map(|t| {
            let n = g.after(t);
            match n.outcome() {
                Some(Outcome::Win(p)) if p == me => 1,
                Some(Outcome::Win(_)) => -1,
                Some(Outcome::Draw) => 0,
                None => -exact(&n),
            }
        })
        .max()
        .expect("a position not over has a move")
}

#[test]
fn placement_search_keeps_the_exact_value_near_the_end() {
    // With a depth beyond the squares left, `minimax:D` over placements (pruned, reordered, second
    // placements skipped when they only swap) must play a turn keeping the plain search's value.
    let mut b = bot::<Sttt>("minimax:12", 5).unwrap();
    let mut checked = 0;
    for g in positions(60, 6) {
        if g.open_count() > 7 {
            continue;
        }
        let v = exact(&g);
        let t = b.choose(&g);
        let n = g.after(t);
        let after = match n.outcome() {
            Some(Outcome::Win(p)) if p == g.to_move() => 1,
            Some(Outcome::Win(_)) => -1,
            Some(Outcome::Draw) => 0,
            None => -exact(&n),
        };
        assert_eq!(after, v, "played {t:?} in {}", g.encode());
        checked += 1;
    }
    assert!(checked >= 30, "{checked}");
}

#[test]
fn placement_bots_are_legal_and_deterministic_per_seed() {
    for spec in ["defensive", "minimax:2", "mcts:100"] {
        let play = |seed: u64| {
            let mut a = bot::<Sttt>(spec, seed).unwrap();
            let mut r = bot::<Sttt>("random", seed + 50).unwrap();
            let d = duel(Sttt::new(), a.as_mut(), r.as_mut());
            assert!(
                !matches!(d.reason, EndReason::Illegal(_)),
                "{spec}: illegal turn"
            );
            d.moves
        };
        let a = play(7);
        assert_eq!(a, play(7), "{spec}");
        assert!((8..12).any(|s| play(s) != a), "{spec} ignores its seed");
    }
}

#[test]
fn winning_placement_playouts_take_every_win_in_one() {
    // A playout from a position where the side to move can complete a big line with one placement
    // always ends with that side winning at once (scored without playing, or with that placement).
    let mut rng = Rng::new(11);
    let mut checked = 0;
    for g in positions(40, 12) {
        let s = g.steps();
        let me = s.to_move();
        let wins_now = s
            .moves()
            .into_iter()
            .any(|p| s.after(p).outcome() == Some(Outcome::Win(me)));
        if !wins_now {
            continue;
        }
        let marks = |s: &SttSteps| s.position().encode().matches(['x', 'o']).count();
        let mut p = s.clone();
        assert_eq!(p.playout(&mut rng, 81), Some(Outcome::Win(me)));
        assert!(marks(&p) <= marks(&s) + 1, "{}", g.encode());
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}

#[test]
fn evaluation_calls_a_loss_exactly_when_no_turn_holds_the_opponent_off() {
    // At the start of our turn, with the opponent within two placements of a big line (it wins on
    // its next turn) and no win of our own, the position is lost exactly when none of our turns
    // leaves it three or more placements away; the evaluation says so without trying every turn.
    let mut lost = 0;
    let mut held = 0;
    for g in positions(80, 13) {
        let me = g.to_move();
        let opp = me.opponent();
        if g.placements_to_win(me) <= 2 || g.placements_to_win(opp) > 2 {
            continue;
        }
        let escapes = g.moves().into_iter().any(|t| {
            let n = g.after(t);
            n.outcome().is_some() || n.placements_to_win(opp) > 2
        });
        let called_lost = g.steps().evaluate() * me.sign() <= -100_000;
        assert_eq!(called_lost, !escapes, "{}", g.encode());
        if escapes {
            held += 1;
        } else {
            lost += 1;
        }
    }
    assert!(lost >= 10 && held >= 10, "{lost} lost, {held} held off");
}
