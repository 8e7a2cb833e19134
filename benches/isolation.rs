//! Isolation cost: the median spawn-to-reap of `/bin/true` for a bare `std::process::Command`, the
//! `basic` tier and the `full` tier (namespaces, minimal root, cgroup, seccomp), and the ratio full/bare.
//! Target on the development machine: full ≤ 3 ms and ≤ 4× bare, also with runs 30 ms apart. Run with
//! `cargo bench --bench isolation`.

use std::process::Command;
use std::time::{Duration, Instant};

use grader::sandbox::{BasicSandbox, Limits, Sandbox, Spec, Status, Stdin};

fn spec(workdir: &std::path::Path) -> Spec {
    Spec {
        program: "/bin/true".into(),
        args: Vec::new(),
        workdir: workdir.to_owned(),
        env: Vec::new(),
        stdin: Stdin::Null,
        limits: Limits {
            cpu: Duration::from_secs(5),
            wall: Duration::from_secs(10),
            memory: 256 << 20,
            output: 1 << 20,
            file_size: 1 << 20,
            processes: 64,
            open_files: 64,
            stack: 8 << 20,
            address_space: None,
            idle: None,
        },
        read_only: Vec::new(),
    }
}

/// The median and the 90th percentile of `n` timed calls, after a few untimed ones (first-run costs:
/// the pools' threads starting, the page cache).
fn timed(n: usize, f: impl FnMut()) -> (Duration, Duration) {
    timed_apart(n, Duration::ZERO, f)
}

/// [`timed`] with an untimed `pause` before each call.
fn timed_apart(n: usize, pause: Duration, mut f: impl FnMut()) -> (Duration, Duration) {
    for _ in 0..n.min(10) {
        f();
    }
    let mut times: Vec<Duration> = (0..n)
        .map(|_| {
            std::thread::sleep(pause);
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    (times[n / 2], times[n * 9 / 10])
}

/// One line of the report: median, p90 and the median's ratio to bare.
fn line(name: &str, (median, p90): (Duration, Duration), bare: Duration, note: &str) {
    println!(
        "  {name:<14} {:7.3} ms   p90 {:7.3} ms   {:5.2}x bare{note}",
        ms(median),
        ms(p90),
        ms(median) / ms(bare)
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    // `cargo bench` passes `--bench`; under `cargo test --all-targets` this is only a quick smoke run.
    let n = if std::env::args().any(|a| a == "--bench") {
        300
    } else {
        5
    };
    let dir = tempfile::tempdir().expect("a scratch dir");
    let spec = spec(dir.path());

    let bare = timed(n, || {
        assert!(Command::new("/bin/true").status().unwrap().success());
    });
    let basic = timed(n, || {
        assert_eq!(BasicSandbox.run(&spec).unwrap().status, Status::Exited(0));
    });
    println!("spawn-to-reap of /bin/true, {n} runs each:");
    line("bare Command", bare, bare.0, "");
    line("basic", basic, bare.0, "");
    full(n, &spec, bare.0);
}

#[cfg(not(target_os = "linux"))]
fn full(_: usize, _: &Spec, _: Duration) {
    println!("  full           unavailable: Linux only");
}

#[cfg(target_os = "linux")]
fn full(n: usize, spec: &Spec, bare: Duration) {
    use grader::sandbox::linux::FullSandbox;
    let spec = spec.clone();
    match FullSandbox::new() {
        Ok(full) => {
            let spawn = timed(n, || {
                let mut r = full.start(&spec).unwrap();
                assert_eq!(r.wait().unwrap(), Status::Exited(0));
            });
            let run = timed(n, || {
                assert_eq!(full.run(&spec).unwrap().status, Status::Exited(0));
            });
            // Runs in a grading are tens of milliseconds apart (the program runs, the grader judges):
            // a start that waits for the kernel (an RCU grace period, as moving a process into a cgroup
            // v1 by its pid does) pays that wait at every run there, which back-to-back runs hide.
            let apart = timed_apart(n, Duration::from_millis(30), || {
                let mut r = full.start(&spec).unwrap();
                assert_eq!(r.wait().unwrap(), Status::Exited(0));
            });
            line("full (spawn)", spawn, bare, "");
            line(
                "full, apart",
                apart,
                bare,
                "   (spawn, 30 ms between runs, as in a grading)",
            );
            line(
                "full (run)",
                run,
                bare,
                "   (with the driver's pipes and drain)",
            );
            // The init is cloned from the grader, whose page tables the clone copies: a grader holding
            // more memory starts runs more slowly. A grading of a whole class holds ~150 MB.
            let ballast: Vec<u8> = (0..150usize << 20).map(|i| i as u8).collect();
            let heavy = timed(n, || {
                let mut r = full.start(&spec).unwrap();
                assert_eq!(r.wait().unwrap(), Status::Exited(0));
            });
            std::hint::black_box(&ballast);
            drop(ballast);
            line(
                "full, 150 MB",
                heavy,
                bare,
                "   (spawn, with the grader holding 150 MB more)",
            );
            let verdict = |ok: bool| if ok { "PASS" } else { "MISS" };
            println!(
                "target, full (spawn) median ≤ 3 ms: {} ({:.3} ms); ≤ 4x bare: {} ({:.2}x); \
                 30 ms apart ≤ 3 ms: {} ({:.3} ms)",
                verdict(ms(spawn.0) <= 3.0),
                ms(spawn.0),
                verdict(ms(spawn.0) / ms(bare) <= 4.0),
                ms(spawn.0) / ms(bare),
                verdict(ms(apart.0) <= 3.0),
                ms(apart.0),
            );
        }
        Err(e) => println!("  full           unavailable: {e}"),
    }
}
