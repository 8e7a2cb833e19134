//! Benchmark: `grader solve tictactoe --------- PATH` (plain minimax, 549,945 trace lines) against
//! copying the file it wrote with `cp`, and against a plain Python solver (`benches/tictactoe.py`).
//!
//! Run with `cargo bench --bench solve`. Prints lines/s and the ratios; targets: within 10× of `cp`,
//! and at least 30× faster than Python. Each command runs several times and the fastest run counts,
//! which filters out noise from other work on the machine.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const RUNS: usize = 7;

fn best_of(runs: usize, mut cmd: impl FnMut() -> Command) -> Duration {
    (0..runs)
        .map(|_| {
            let mut c = cmd();
            let start = Instant::now();
            let status = c.status().expect("the command starts");
            let took = start.elapsed();
            assert!(status.success(), "{c:?} failed: {status}");
            took
        })
        .min()
        .expect("at least one run")
}

fn python() -> Option<&'static str> {
    // Debian's interpreter directly: a pyenv shim would add its own start-up to every run.
    ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists())
}

fn main() {
    let grader = env!("CARGO_BIN_EXE_grader");
    let dir = tempfile::tempdir().expect("a scratch folder");
    let out = dir.path().join("visited.txt");
    let copy = dir.path().join("copy.txt");

    let solve = best_of(RUNS, || {
        let mut c = Command::new(grader);
        c.args(["solve", "tictactoe", "---------"]).arg(&out);
        c.stdout(std::process::Stdio::null());
        c
    });
    let text = std::fs::read(&out).expect("the trace was written");
    let lines = text.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(lines, 549_945, "the blank board's plain trace");

    let cp = best_of(RUNS, || {
        let mut c = Command::new("cp");
        c.arg(&out).arg(&copy);
        c
    });

    let secs = solve.as_secs_f64();
    println!(
        "solve tictactoe --------- (plain): {lines} lines, {} bytes",
        text.len()
    );
    println!(
        "  grader solve: {:>9.2} ms  ({:.1} M lines/s)",
        secs * 1e3,
        lines as f64 / secs / 1e6
    );
    println!("  cp of output: {:>9.2} ms", cp.as_secs_f64() * 1e3);
    println!(
        "  ratio grader/cp: {:.2}x (target <= 10x)",
        secs / cp.as_secs_f64()
    );

    match python() {
        Some(py) => {
            let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/tictactoe.py");
            let py_out = dir.path().join("python.txt");
            let t = best_of(2, || {
                let mut c = Command::new(py);
                c.arg(&script).arg("---------").arg(&py_out);
                c.stdout(std::process::Stdio::null());
                c
            });
            let same = std::fs::read(&py_out).expect("python wrote its trace") == text;
            println!(
                "  python ({py}): {:>9.2} ms, same trace: {same}",
                t.as_secs_f64() * 1e3
            );
            println!(
                "  ratio python/grader: {:.1}x (target >= 30x)",
                t.as_secs_f64() / secs
            );
            assert!(same, "the Python solver disagrees with grader");
        }
        None => println!("  python: skipped (no /usr/bin/python3)"),
    }
}
