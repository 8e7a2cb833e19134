//! Reference-side speed: playouts per second for each game on one core (random moves; UT3's take a
//! win in one), and UT3 MCTS iterations per second against the 200k/s target.
//! `cargo bench -p reference --bench speed`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use reference::bots::{Mcts, MctsBudget, Playable};
use reference::games::tictactoe::TicTacToe;
use reference::games::tmmorris::Morris;
use reference::games::{Oska, Sttt, Ut3};
use reference::rng::Rng;

/// CPU time of this thread: the machine is shared, so wall time would measure the neighbours.
fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Runs playouts from `start` for about `budget` of CPU time; playouts per CPU second.
fn playouts_per_sec<G: Playable>(start: &G, budget: Duration) -> f64 {
    let mut rng = Rng::new(1);
    let t = cpu_time();
    let mut n = 0u64;
    while cpu_time() - t < budget {
        for _ in 0..100 {
            let mut g = start.clone();
            black_box(g.playout(&mut rng, G::MAX_PLIES));
        }
        n += 100;
    }
    n as f64 / (cpu_time() - t).as_secs_f64()
}

fn main() {
    let budget = Duration::from_millis(1500);
    println!(
        "playouts per CPU second (UT3's take a win in one; thread CPU time, the machine is shared)"
    );
    let rows: [(&str, f64); 7] = [
        ("tictactoe", playouts_per_sec(&TicTacToe::new(), budget)),
        (
            "morris (200-ply cap)",
            playouts_per_sec(&Morris::new(), budget),
        ),
        ("ut3", playouts_per_sec(&Ut3::new(), budget)),
        ("sttt", playouts_per_sec(&Sttt::new(), budget)),
        ("oska n=4", playouts_per_sec(&Oska::new(4), budget)),
        ("oska n=6", playouts_per_sec(&Oska::new(6), budget)),
        ("oska n=8", playouts_per_sec(&Oska::new(8), budget)),
    ];
    for (name, rate) in rows {
        println!("  {name:<22} {rate:>12.0} /s");
    }

    println!("UT3 MCTS from the empty board (UCT, playouts taking a win in one), one core");
    for n in [20_000u32, 200_000] {
        let mut m = Mcts::new(MctsBudget::Playouts(n), 7, format!("mcts:{n}"));
        let (t, wall) = (cpu_time(), Instant::now());
        black_box(m.search(&Ut3::new()));
        let rate = f64::from(n) / (cpu_time() - t).as_secs_f64();
        let wall_rate = f64::from(n) / wall.elapsed().as_secs_f64();
        println!(
            "  mcts:{n:<8} {rate:>12.0} playouts/CPU-s   target 200000/s   ratio {:.2}   (wall {wall_rate:.0}/s)",
            rate / 200_000.0
        );
    }
}
