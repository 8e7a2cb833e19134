//! Isolation cost: the median spawn-to-reap of `/bin/true` for a bare `std::process::Command`, the
//! `basic` tier and the `full` tier (namespaces, minimal root, cgroup, seccomp), and the ratio full/bare.
//! Target on the development machine: full ≤ 3 ms and ≤ 4× bare. Run with `cargo bench --bench isolation`.

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
        },
        read_only: Vec::new(),
    }
}

fn median(n: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[n / 2]
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

    let bare = median(n, || {
        assert!(Command::new("/bin/true").status().unwrap().success());
    });
    let basic = median(n, || {
        assert_eq!(BasicSandbox.run(&spec).unwrap().status, Status::Exited(0));
    });
    println!("spawn-to-reap of /bin/true, median of {n}:");
    println!("  bare Command   {:7.3} ms", ms(bare));
    println!(
        "  basic          {:7.3} ms   {:5.2}x bare",
        ms(basic),
        ms(basic) / ms(bare)
    );
    full(n, &spec, bare);
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
            let start_wait = median(n, || {
                let mut r = full.start(&spec).unwrap();
                assert_eq!(r.wait().unwrap(), Status::Exited(0));
            });
            let run = median(n, || {
                assert_eq!(full.run(&spec).unwrap().status, Status::Exited(0));
            });
            println!(
                "  full (spawn)   {:7.3} ms   {:5.2}x bare",
                ms(start_wait),
                ms(start_wait) / ms(bare)
            );
            println!(
                "  full (run)     {:7.3} ms   {:5.2}x bare   (with the driver's pipes and drain)",
                ms(run),
                ms(run) / ms(bare)
            );
            let ok = ms(start_wait) <= 3.0 && ms(start_wait) / ms(bare) <= 4.0;
            println!(
                "target full ≤ 3 ms and ≤ 4x bare: {}",
                if ok { "met" } else { "NOT met" }
            );
        }
        Err(e) => println!("  full           unavailable: {e}"),
    }
}
