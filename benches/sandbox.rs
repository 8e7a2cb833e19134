//! Sandbox overhead: a sandboxed run of `/bin/true` against a bare `std::process::Command`, and the
//! driver's throughput on a large stdout. Prints numbers and ratios; run with `cargo bench --bench sandbox`.

use std::process::Command;
use std::time::{Duration, Instant};

use grader::sandbox::{BasicSandbox, Limits, NoSandbox, Sandbox, Spec, Status, Stdin};

fn spec(program: &str, args: &[&str], output: u64) -> Spec {
    Spec {
        program: program.into(),
        args: args.iter().map(Into::into).collect(),
        workdir: std::env::temp_dir(),
        env: Vec::new(),
        stdin: Stdin::Null,
        limits: Limits {
            cpu: Duration::from_secs(10),
            wall: Duration::from_secs(20),
            memory: 1 << 30,
            output,
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

fn per_run(n: u32, mut f: impl FnMut()) -> Duration {
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed() / n
}

fn main() {
    // `cargo bench` passes `--bench`; under `cargo test --all-targets` this is only a quick smoke run.
    let full = std::env::args().any(|a| a == "--bench");
    let (n, mb) = if full { (200, 256u64) } else { (5, 8u64) };
    let bare = per_run(n, || {
        let status = Command::new("/bin/true").status().unwrap();
        assert!(status.success());
    });
    let true_spec = spec("/bin/true", &[], 1 << 20);
    let none = per_run(n, || {
        assert_eq!(NoSandbox.run(&true_spec).unwrap().status, Status::Exited(0));
    });
    let basic = per_run(n, || {
        assert_eq!(
            BasicSandbox.run(&true_spec).unwrap().status,
            Status::Exited(0)
        );
    });
    println!("spawn+wait of /bin/true, mean of {n}:");
    println!("  bare Command   {:>8.3} ms", bare.as_secs_f64() * 1e3);
    println!(
        "  none sandbox   {:>8.3} ms  ({:.2}x bare)",
        none.as_secs_f64() * 1e3,
        none.as_secs_f64() / bare.as_secs_f64()
    );
    println!(
        "  basic sandbox  {:>8.3} ms  ({:.2}x bare)",
        basic.as_secs_f64() * 1e3,
        basic.as_secs_f64() / bare.as_secs_f64()
    );

    let flood = spec(
        "/bin/sh",
        &["-c", &format!("head -c {mb}M /dev/zero")],
        (mb + 1) << 20,
    );
    let t = Instant::now();
    let out = BasicSandbox.run(&flood).unwrap();
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(out.stdout.len() as u64, mb << 20);
    let bare_t = Instant::now();
    let bare_out = Command::new("/bin/sh")
        .args(["-c", &format!("head -c {mb}M /dev/zero")])
        .output()
        .unwrap();
    let bare_secs = bare_t.elapsed().as_secs_f64();
    assert_eq!(bare_out.stdout.len() as u64, mb << 20);
    println!("capturing {mb} MiB of stdout:");
    println!("  bare Command   {:>8.0} MiB/s", mb as f64 / bare_secs);
    println!(
        "  basic sandbox  {:>8.0} MiB/s  ({:.2}x bare time)",
        mb as f64 / secs,
        secs / bare_secs
    );
}
