//! Play-case benchmark: grading a submission's play cases end to end (build, games, measures, records)
//! against playing the same games by hand with the referee alone, on the test fixture
//! (tests/fixtures/play-ttt: 8 distinct tic-tac-toe games measured by 5 cases, Python player). The
//! difference per game is the pipeline's overhead (target: a few milliseconds, small beside a game).
//! Run with `cargo bench --bench play`.

use std::path::Path;
use std::time::{Duration, Instant};

use grader::arena::event::schedule::SeatMaker;
use grader::arena::game::seeds::ladder;
use grader::arena::referee::{play, Match};
use grader::arena::seat::players::{Entrant, Kind, Maker};
use grader::build::{BuildOutcome, Built, Recipe};
use grader::config::Config;
use grader::grade::pipeline::{grade, Rooms};
use grader::grade::sets::{game_seed, my_side};
use grader::grade::wire::{environment, Environment};
use grader::sandbox::scratch::Scratch;
use grader::sandbox::Tier;
use grader::suite::{oracle, Kind as CaseKind, Suite};
use reference::games::tictactoe::TicTacToe;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let suite = Suite::load(
        &root.join("tests/fixtures/play-ttt"),
        &Config::load(None).unwrap(),
        oracle::builtin(),
    )
    .unwrap();
    let good = root.join("tests/fixtures/play-ttt-class/good");
    let env = environment(Tier::Basic, false).unwrap();
    let scratch = Scratch::new().unwrap();

    // End to end, best of 3.
    let mut graded_best = Duration::MAX;
    let mut games = 0;
    for i in 0..3 {
        let rooms = Rooms::new(&scratch, &format!("g{i}"), None).unwrap();
        let started = Instant::now();
        let g = grade(
            &env.sandbox,
            &*env.prepare,
            &suite,
            "good",
            &good,
            &rooms,
            &|_| true,
            &mut |_| {},
        );
        graded_best = graded_best.min(started.elapsed());
        games = g.games_played;
        assert!(g.result.score > 0.0, "{:?}", g.result);
    }

    // The same games by hand: one build, then the referee on each distinct game set.
    let built = build_by_hand(&suite, &env, &good, &scratch);
    let (by_hand_best, by_hand_games) = by_hand(&suite, &env, &built, &distinct_sets(&suite));
    assert_eq!(
        games, by_hand_games,
        "the pipeline plays each distinct game once"
    );
    let per_game = |d: Duration| d.as_secs_f64() * 1000.0 / games as f64;
    let overhead = graded_best.saturating_sub(by_hand_best);
    println!(
        "play cases: {} cases, {games} distinct games",
        suite.cases().count()
    );
    println!(
        "graded end to end (build + games + measures + records): {:.0} ms ({:.1} ms/game)",
        graded_best.as_secs_f64() * 1000.0,
        per_game(graded_best)
    );
    println!(
        "the same games by hand (referee only): {:.0} ms ({:.1} ms/game)",
        by_hand_best.as_secs_f64() * 1000.0,
        per_game(by_hand_best)
    );
    println!(
        "pipeline overhead: {:.1} ms in all, {:.2} ms/game, ratio {:.3}",
        overhead.as_secs_f64() * 1000.0,
        per_game(overhead),
        graded_best.as_secs_f64() / by_hand_best.as_secs_f64()
    );
}

/// The fixture's player built once, as the pipeline would.
fn build_by_hand(suite: &Suite, env: &Environment, good: &Path, scratch: &Scratch) -> Built {
    let l = &suite.languages[0];
    let recipe = Recipe {
        language: l.name.clone(),
        detect: l.detect.clone(),
        build: l.build.clone(),
        run: l
            .run
            .iter()
            .map(|a| a.replace("{entry}", "player"))
            .collect(),
        address_space: l.address_space,
        support: l.support.iter().map(|f| suite.dir.join(f)).collect(),
        python: Vec::new(),
    };
    let BuildOutcome::Built(built) = grader::build::build(
        &*env.sandbox,
        &[recipe],
        good,
        &scratch.path().join("by-hand"),
        &suite.build_limits,
    )
    .unwrap() else {
        panic!("the fixture builds")
    };
    built
}

/// Each opponent the play cases name, with the most games any case asks of it.
fn distinct_sets(suite: &Suite) -> Vec<(String, u32)> {
    let mut sets: Vec<(String, u32)> = Vec::new();
    for (_, c) in suite.cases() {
        if let CaseKind::Play(p) = &c.kind {
            match sets.iter_mut().find(|(o, _)| o == p.opponent.spec()) {
                Some(s) => s.1 = s.1.max(p.games),
                None => sets.push((p.opponent.spec().to_string(), p.games)),
            }
        }
    }
    sets
}

/// Plays the distinct game sets with the referee alone, best of 3: the time and the games played.
fn by_hand(
    suite: &Suite,
    env: &Environment,
    built: &Built,
    sets: &[(String, u32)],
) -> (Duration, usize) {
    let config = (**suite.arena.as_ref().unwrap()).clone();
    let mut by_hand_best = Duration::MAX;
    let mut by_hand_games = 0;
    for _ in 0..3 {
        let started = Instant::now();
        by_hand_games = 0;
        for (opponent, n) in sets {
            let them = if opponent == "self" {
                Kind::Built(built.clone())
            } else {
                Kind::Bot(opponent.clone())
            };
            let maker = Maker {
                entrants: vec![
                    Entrant {
                        name: "good".into(),
                        kind: Kind::Built(built.clone()),
                    },
                    Entrant {
                        name: opponent.clone(),
                        kind: them,
                    },
                ],
                bots: ladder::<TicTacToe>,
                config: config.clone(),
                sandbox: Some(env.sandbox.clone()),
            };
            for k in 0..*n as usize {
                let seed = game_seed(suite.seed, opponent, "tictactoe", k as u32);
                let order = if my_side(k) == 0 { [0, 1] } else { [1, 0] };
                let mut a = maker.seat(order[0], seed);
                let mut b = maker.seat(order[1], seed.rotate_left(32));
                let who = Match {
                    players: [
                        maker.entrants[order[0]].name.clone(),
                        maker.entrants[order[1]].name.clone(),
                    ],
                    seed,
                };
                play(
                    TicTacToe::new(),
                    [a.as_mut(), b.as_mut()],
                    &who,
                    &config.policy,
                    &mut |_, _| {},
                );
                by_hand_games += 1;
            }
        }
        by_hand_best = by_hand_best.min(started.elapsed());
    }
    (by_hand_best, by_hand_games)
}
