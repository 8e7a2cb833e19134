//! The bot ladder: each rung against the one below, colours swapped, per game; prints the table.
//!
//! `cargo run --release -p reference --example ladder -- [--games N] [--game NAME] [--seed S]
//! [--rungs a,b,c] [--speed]`
//!
//! `--speed` prints, instead, each bot's mean and worst time a move (thread CPU time, so the other
//! jobs on a shared machine do not count) over `--games` games against `random`.

use std::time::{Duration, Instant};

use reference::bots::{bot_for, duel, Bot, Playable};
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
    speed: bool,
}

fn parse_args() -> Args {
    let mut a = Args {
        games: 200,
        only: None,
        seed: 1,
        rungs: None,
        speed: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--speed" {
            a.speed = true;
            continue;
        }
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
        let mut up = bot_for::<G>(upper, r.next_u64(), start).expect("valid spec");
        let mut low = bot_for::<G>(lower, r.next_u64(), start).expect("valid spec");
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

/// The calling thread's CPU time: the machine is shared, so wall time would measure the neighbours.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and the clock id is a constant the kernel knows.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// A bot wrapped to time its moves.
struct Timed<'a, G: Playable> {
    inner: &'a mut dyn Bot<G>,
    total: Duration,
    worst: Duration,
    moves: u32,
}

impl<G: Playable> Bot<G> for Timed<'_, G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, state: &G) -> G::Move {
        let t = thread_cpu();
        let m = self.inner.choose(state);
        let d = thread_cpu() - t;
        self.total += d;
        self.worst = self.worst.max(d);
        self.moves += 1;
        m
    }
}

/// Each bot's mean and worst CPU time a move over `games` games against `random`, colours alternating.
fn speed<G: Playable>(label: &str, start: &G, rungs: &[&str], args: &Args) {
    println!(
        "## {label}: CPU time a move against random ({} games)",
        args.games
    );
    println!("| bot | moves | mean ms/move | worst ms/move |");
    println!("|---|---:|---:|---:|");
    for spec in rungs {
        let root = Rng::new(args.seed);
        let (mut total, mut worst, mut moves) = (Duration::ZERO, Duration::ZERO, 0);
        for i in 0..args.games {
            let mut r = root.fork(u64::from(i));
            let mut b = bot_for::<G>(spec, r.next_u64(), start).expect("valid spec");
            let mut low = bot_for::<G>("random", r.next_u64(), start).expect("valid spec");
            let mut timed = Timed {
                inner: b.as_mut(),
                total: Duration::ZERO,
                worst: Duration::ZERO,
                moves: 0,
            };
            if i % 2 == 0 {
                duel(start.clone(), &mut timed, low.as_mut());
            } else {
                duel(start.clone(), low.as_mut(), &mut timed);
            }
            total += timed.total;
            worst = worst.max(timed.worst);
            moves += timed.moves;
        }
        println!(
            "| {spec} | {moves} | {:.3} | {:.1} |",
            total.as_secs_f64() * 1000.0 / f64::from(moves.max(1)),
            worst.as_secs_f64() * 1000.0
        );
    }
    println!();
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
    if args.speed {
        speed(label, &start, rungs, args);
        return;
    }
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

/// The rungs of each game's ladder, weakest first: each wins at least 90% of its decided games
/// against the one below over 200 games (`reference/rules/ladder.md`). The bots left out of a ladder
/// are measured there too.
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
        // `mcts:10000` needs its playouts to take a win in one and less exploration (0.7).
        &[
            "random",
            "offensive",
            "defensive",
            "minimax:4",
            "mcts:10000",
        ],
    ),
    (
        "sttt",
        // `minimax:D` and `mcts:N` search one placement at a time; `minimax:D` counts placements,
        // and odd depths stop mid-turn (`minimax:3` lost to `mcts:5000`).
        &["random", "offensive", "defensive", "mcts:5000", "minimax:4"],
    ),
    (
        "oska4",
        // White wins n = 4, so each rung must win most of its games as black: the searches set
        // traps when they see themselves lost (`reference/rules/ladder.md`).
        &[
            "random",
            "offensive",
            "defensive",
            "minimax:6",
            "mcts:5000",
            "perfect",
        ],
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
