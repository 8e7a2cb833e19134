//! Oska ladder experiments: upper against lower with the results split by colour, for choosing rungs
//! (n = 4 is a win for white, so what separates two bots is how often each wins as black).
//!
//! `cargo run --release -p reference --example oska_lab -- [--n 4] [--games N] [--seed S]
//! upper/lower ...`, or `--show white/black` to print one game with the exact values.

use reference::bots::{bot_for, duel};
use reference::games::Oska;
use reference::rng::Rng;
use reference::{Game, Outcome, Player};

fn main() {
    let mut n = 4;
    let mut games = 40u32;
    let mut seed = 1u64;
    let mut pairs = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--n" => n = it.next().expect("--n N").parse().expect("a number"),
            "--games" => games = it.next().expect("--games N").parse().expect("a number"),
            "--seed" => seed = it.next().expect("--seed S").parse().expect("a number"),
            "--show" => {
                let wb = it.next().expect("--show white/black");
                let (w, b) = wb.split_once('/').expect("white/black");
                show(w, b, seed, n);
                return;
            }
            "--agree" => {
                agree(seed);
                return;
            }
            p => pairs.push(p.to_owned()),
        }
    }
    let start = Oska::new(n);
    println!("| upper | lower | W as white | L as white | W as black | L as black | draws | % of decided | s |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for p in pairs {
        let (upper, lower) = p.split_once('/').expect("upper/lower");
        let t = std::time::Instant::now();
        let root = Rng::new(seed);
        let mut c = [[0u32; 3]; 2];
        for i in 0..games {
            let mut r = root.fork(u64::from(i));
            let mut up = bot_for::<Oska>(upper, r.next_u64(), &start).expect("valid spec");
            let mut low = bot_for::<Oska>(lower, r.next_u64(), &start).expect("valid spec");
            let up_side = if i % 2 == 0 {
                Player::First
            } else {
                Player::Second
            };
            let res = if up_side == Player::First {
                duel(start.clone(), up.as_mut(), low.as_mut())
            } else {
                duel(start.clone(), low.as_mut(), up.as_mut())
            };
            let k = match res.outcome {
                Outcome::Win(p) if p == up_side => 0,
                Outcome::Win(_) => 1,
                Outcome::Draw => 2,
            };
            c[up_side.index()][k] += 1;
        }
        let (w, l) = (c[0][0] + c[1][0], c[0][1] + c[1][1]);
        let pct = if w + l == 0 {
            0.0
        } else {
            100.0 * f64::from(w) / f64::from(w + l)
        };
        println!(
            "| {upper} | {lower} | {} | {} | {} | {} | {} | {pct:.1} | {:.1} |",
            c[0][0],
            c[0][1],
            c[1][0],
            c[1][1],
            c[0][2] + c[1][2],
            t.elapsed().as_secs_f64()
        );
    }
}

/// Prints one game board by board with the exact value at n = 4 (`--show white/black`).
fn show(white: &str, black: &str, seed: u64, n: usize) {
    let start = Oska::new(n);
    let mut w = bot_for::<Oska>(white, seed, &start).expect("valid spec");
    let mut b = bot_for::<Oska>(black, seed + 1, &start).expect("valid spec");
    let d = duel(start.clone(), w.as_mut(), b.as_mut());
    let mut g = start;
    for m in d.moves {
        let v = if n == 4 {
            reference::bots::Playable::solve(&g)
        } else {
            None
        };
        println!("{:?} to move, exact {v:?}", g.to_move());
        for row in g.rows() {
            let s: Vec<&str> = row
                .iter()
                .map(|c| match c {
                    Some(Player::First) => "w",
                    Some(Player::Second) => "b",
                    None => ".",
                })
                .collect();
            println!("  {:^9}", s.join(" "));
        }
        g.apply(m);
    }
    println!("outcome {:?}", d.outcome);
}

/// How often the sign of `evaluate` (for the side to move) matches the exact n = 4 value, over the
/// positions of 3,000 random games (`--agree`).
fn agree(seed: u64) {
    use reference::bots::Playable;
    let mut rng = Rng::new(seed);
    let (mut same, mut all) = (0u32, 0u32);
    for _ in 0..3000 {
        let mut g = Oska::new(4);
        while g.outcome().is_none() {
            let exact = g.solve().expect("n = 4").signum();
            let est = (g.evaluate() * g.to_move().sign()).signum();
            if exact != 0 {
                all += 1;
                same += u32::from(exact == est);
            }
            let ms = g.moves();
            g.apply(ms[rng.below(ms.len())]);
        }
    }
    println!(
        "{same} of {all} positions ({:.1}%)",
        100.0 * f64::from(same) / f64::from(all)
    );
}
