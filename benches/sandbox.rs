//! Sandbox overhead: a sandboxed run of `/bin/true` against a bare `std::process::Command`, and the
//! driver's throughput on a large stdout, and what a flood on stderr past its cap costs the grader (issue 31:
//! its CPU against the program's; target: next to nothing). Prints numbers and ratios; run with
//! `cargo bench --bench sandbox`.

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
    stderr_flood(if full { 3 } else { 1 });
    println!("capturing {mb} MiB of stdout:");
    println!("  bare Command   {:>8.0} MiB/s", mb as f64 / bare_secs);
    println!(
        "  basic sandbox  {:>8.0} MiB/s  ({:.2}x bare time)",
        mb as f64 / secs,
        secs / bare_secs
    );
}

/// The grader's own CPU (this process, every thread) so far.
fn own_cpu() -> Duration {
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// A program writing 64 KiB blocks to stderr, with a 1 MiB output cap: under `basic` (stderr a file of
/// the run's own, stopped at the 64 MiB file-size limit) and under `none` (a pipe drained past the cap,
/// to the CPU limit of `secs`): the program's CPU, the wall time, and the grader's own CPU over the run.
fn stderr_flood(secs: u64) {
    let mut flood = spec(
        "/bin/sh",
        &["-c", "exec dd if=/dev/zero bs=65536 status=none >&2"],
        1 << 20,
    );
    flood.limits.cpu = Duration::from_secs(secs);
    flood.limits.file_size = 64 << 20;
    println!("a stderr flood (1 MiB kept):");
    for (tier, sandbox) in [
        ("basic", &BasicSandbox as &dyn Sandbox),
        ("none", &NoSandbox as &dyn Sandbox),
    ] {
        let before = own_cpu();
        let t = Instant::now();
        let out = sandbox.run(&flood).unwrap();
        let wall = t.elapsed().as_secs_f64();
        let grader = (own_cpu() - before).as_secs_f64();
        assert!(out.stderr_truncated, "the flood went past its cap");
        let program = out.cpu.as_secs_f64();
        println!(
            "  {tier:<5} stopped by {:?}: program CPU {program:>5.2} s, wall {wall:>5.2} s; grader's own CPU {grader:>6.3} s ({:.3} s per program CPU second; target next to 0)",
            out.limit,
            grader / program.max(0.001)
        );
    }
}
