//! The bot ladder: each rung against the one below, colours swapped, per game; prints the table.
//!
//! `cargo run --release -p reference --example ladder -- [--games N] [--game NAME] [--seed S]
//! [--rungs a,b,c]`

use std::time::Instant;

use reference::bots::{bot, duel, Playable};
use reference::games::tictactoe::TicTacToe;
use reference::games::tmmorris::Morris;
use reference::games::{Oska, Sttt, Ut3};
use reference::rng::Rng;
use reference::{Outcome, Player};

struct Args {
    games: u32,
    only: Option<String>,
    seed: u64,
    /// Replaces the built-in rungs (with `--game`), for trying other strengths.
    rungs: Option<Vec<String>>,
}

fn parse_args() -> Args {
    let mut a = Args {
        games: 200,
        only: None,
        seed: 1,
        rungs: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let val = it
            .next()
            .unwrap_or_else(|| panic!("`{flag}` needs a value"));
        match flag.as_str() {
            "--games" => a.games = val.parse().expect("--games takes a number"),
            "--game" => a.only = Some(val),
            "--seed" => a.seed = val.parse().expect("--seed takes a number"),
            "--rungs" => a.rungs = Some(val.split(',').map(str::to_owned).collect()),
            other => panic!("unknown flag `{other}`"),
        }
    }
    a
}

/// Upper rung's wins, losses, draws against the lower rung over `games` games, colours alternating.
fn pair<G: Playable>(
    start: &G,
    upper: &str,
    lower: &str,
    games: u32,
    seed: u64,
) -> (u32, u32, u32) {
    let root = Rng::new(seed);
    let (mut w, mut l, mut d) = (0, 0, 0);
    for i in 0..games {
        let mut r = root.fork(u64::from(i));
        let mut up = bot::<G>(upper, r.next_u64()).expect("valid spec");
        let mut low = bot::<G>(lower, r.next_u64()).expect("valid spec");
        let up_side = if i % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let result = if up_side == Player::First {
            duel(start.clone(), up.as_mut(), low.as_mut())
        } else {
            duel(start.clone(), low.as_mut(), up.as_mut())
        };
        match result.outcome {
            Outcome::Win(p) if p == up_side => w += 1,
            Outcome::Win(_) => l += 1,
            Outcome::Draw => d += 1,
        }
    }
    (w, l, d)
}

fn ladder<G: Playable>(label: &str, start: G, rungs: &[&str], args: &Args) {
    if args.only.as_deref().is_some_and(|o| o != label) {
        return;
    }
    let custom: Vec<&str> = args.rungs.iter().flatten().map(String::as_str).collect();
    let rungs = if custom.is_empty() {
        rungs
    } else {
        &custom[..]
    };
    println!("## {label} ({} games a pair, colours swapped)", args.games);
    println!("| upper | lower | upper wins | lower wins | draws | upper % of decided | s |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for pairs in rungs.windows(2) {
        let t = Instant::now();
        let (w, l, d) = pair(&start, pairs[1], pairs[0], args.games, args.seed);
        let pct = if w + l == 0 {
            "—".to_string()
        } else {
            format!("{:.1}", 100.0 * f64::from(w) / f64::from(w + l))
        };
        println!(
            "| {} | {} | {w} | {l} | {d} | {pct} | {:.1} |",
            pairs[1],
            pairs[0],
            t.elapsed().as_secs_f64()
        );
    }
    println!();
}

/// The rungs of each game's ladder, weakest first.
const LADDERS: [(&str, &[&str]); 5] = [
    (
        "tictactoe",
        &[
            "random",
            "offensive",
            "defensive",
            "minimax:2",
            "mcts:2000",
            "perfect",
        ],
    ),
    (
        "morris",
        &[
            "random",
            "offensive",
            "defensive",
            "minimax:4",
            "mcts:2000",
            "perfect",
        ],
    ),
    (
        "ut3",
        &[
            "random",
            "offensive",
            "defensive",
            "minimax:3",
            "mcts:10000",
        ],
    ),
    (
        "sttt",
        // MCTS is no rung here: with 3,240 turns from the empty board, 2,000 playouts lost 9 of 10
        // games to `defensive`.
        &["random", "offensive", "defensive", "minimax:2"],
    ),
    (
        "oska4",
        &["random", "offensive", "defensive", "minimax:4", "mcts:2000"],
    ),
];

fn main() {
    let args = parse_args();
    for (label, rungs) in LADDERS {
        match label {
            "tictactoe" => ladder(label, TicTacToe::new(), rungs, &args),
            "morris" => ladder(label, Morris::new(), rungs, &args),
            "ut3" => ladder(label, Ut3::new(), rungs, &args),
            "sttt" => ladder(label, Sttt::new(), rungs, &args),
            _ => ladder(label, Oska::new(4), rungs, &args),
        }
    }
}
