//! One test per attack of the corpus, each under every available tier.

use std::ffi::OsString;
use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

use grader::sandbox::{LimitHit, Limits, Status, Stdin, Tier};

use super::{args, c, java, java_classes, py, run, run_in, sandboxes, skip, Ground};

/// CPU-bound attacks get a generous wall limit: on a loaded machine a spinning program may get a
/// fraction of a core (under 10% was seen with the whole test suite running on two cores), and the
/// verdict must still be the CPU limit. Unloaded, these runs end after 1 s of CPU either way.
fn cpu_limits() -> Limits {
    Limits {
        wall: Duration::from_secs(30),
        ..super::limits()
    }
}

fn is_time_limit(limit: Option<LimitHit>) -> bool {
    matches!(limit, Some(LimitHit::Cpu | LimitHit::Wall))
}

#[test]
fn infinite_loop_is_a_cpu_limit() {
    for sb in sandboxes() {
        let r = run(&*sb, &c("loop"), &[], Stdin::Null, cpu_limits());
        assert_eq!(
            r.outcome.limit,
            Some(LimitHit::Cpu),
            "{}: {:?}",
            r.tier,
            r.outcome
        );
        r.assert_contained();
    }
}

#[test]
fn python_infinite_loop_is_a_cpu_limit() {
    for sb in sandboxes() {
        let (python, a) = py("loop.py");
        let r = run(&*sb, &python, &a, Stdin::Null, cpu_limits());
        assert_eq!(
            r.outcome.limit,
            Some(LimitHit::Cpu),
            "{}: {:?}",
            r.tier,
            r.outcome
        );
        r.assert_contained();
    }
}

#[test]
fn sleep_is_a_wall_limit() {
    for sb in sandboxes() {
        let r = run(&*sb, &c("sleep"), &[], Stdin::Null, super::limits());
        assert_eq!(
            r.outcome.limit,
            Some(LimitHit::Wall),
            "{}: {:?}",
            r.tier,
            r.outcome
        );
        assert!(r.elapsed >= Duration::from_secs(2), "{}", r.tier);
        r.assert_contained();
    }
}

#[test]
fn spinning_threads_count_together() {
    for sb in sandboxes() {
        let r = run(&*sb, &c("threads"), &[], Stdin::Null, cpu_limits());
        assert_eq!(
            r.outcome.limit,
            Some(LimitHit::Cpu),
            "{}: {:?}",
            r.tier,
            r.outcome
        );
        // The cgroup counts every thread (its counter may trail the kernel's rlimit check a little).
        if r.tier == Tier::Full {
            assert!(
                r.outcome.cpu >= Duration::from_millis(800),
                "{:?}",
                r.outcome.cpu
            );
        }
        r.assert_contained();
    }
}

#[test]
fn java_threads_count_together() {
    let (Some(java), Ok(classes)) = (java(), java_classes()) else {
        eprintln!("skipping the Java spinner: no `java`/`javac` here");
        return;
    };
    for sb in sandboxes() {
        let limits = Limits {
            memory: 512 << 20,
            processes: 64,
            ..cpu_limits()
        };
        let a = args(&[&"-Xmx64m", &"-Xss512k", &"-cp", &classes, &"Spin"]);
        let r = run(&*sb, &java, &a, Stdin::Null, limits);
        assert_eq!(
            r.outcome.limit,
            Some(LimitHit::Cpu),
            "{}: {:?}",
            r.tier,
            r.outcome
        );
        r.assert_contained();
    }
}

#[test]
fn java_runs_normally() {
    let (Some(java), Ok(classes)) = (java(), java_classes()) else {
        eprintln!("skipping the Java program: no `java`/`javac` here");
        return;
    };
    for sb in sandboxes() {
        let limits = Limits {
            cpu: Duration::from_secs(10),
            wall: Duration::from_secs(20),
            memory: 512 << 20,
            processes: 64,
            ..super::limits()
        };
        let a = args(&[&"-Xmx64m", &"-cp", &classes, &"Hello"]);
        let r = run(&*sb, &java, &a, Stdin::Null, limits);
        assert_eq!(
            r.outcome.status,
            Status::Exited(0),
            "{}: {:?}",
            r.tier,
            r.outcome
        );
        assert!(
            r.stdout().starts_with("hello from java"),
            "{}: {}",
            r.tier,
            r.stdout()
        );
        r.assert_contained();
    }
}

#[test]
fn fork_bomb_is_contained() {
    for sb in sandboxes() {
        if sb.tier() == Tier::Basic {
            skip(
                sb.tier(),
                "fork bomb",
                "basic has no process limit for root (RLIMIT_NPROC is ignored): it would flood the machine",
            );
            continue;
        }
        // A fork the process cap refuses still has the kernel copy the process first, and the copy
        // counts against the run's memory until the fork fails: peaks of 16-26 MiB here, and 64 MiB
        // (a memory verdict, the cap holding) once under CI's load. With room to spare, the bomb,
        // held to 32 processes, runs to its CPU limit.
        let limits = Limits {
            memory: 256 << 20,
            ..super::limits()
        };
        let r = run(&*sb, &c("forkbomb"), &[], Stdin::Null, limits);
        assert!(
            is_time_limit(r.outcome.limit),
            "{}: {:?}",
            r.tier,
            r.outcome
        );
        r.assert_contained();
    }
}

#[test]
fn memory_bomb_is_a_memory_limit() {
    for sb in sandboxes() {
        // `basic` cannot watch memory fast enough to stop a bomb: it needs an address-space rlimit, which
        // turns the bomb into a failed allocation (a runtime error) rather than a memory verdict.
        let limits = match sb.tier() {
            Tier::Basic => Limits {
                address_space: Some(64 << 20),
                ..super::limits()
            },
            _ => super::limits(),
        };
        for (program, a) in [(c("membomb"), vec![]), py("membomb.py")] {
            let r = run(&*sb, &program, &a, Stdin::Null, limits.clone());
            match r.tier {
                Tier::Full => {
                    assert_eq!(
                        r.outcome.limit,
                        Some(LimitHit::Memory),
                        "{}: {:?}",
                        r.tier,
                        r.outcome
                    )
                }
                _ => assert_ne!(
                    r.outcome.status,
                    Status::Exited(0),
                    "{}: {:?}",
                    r.tier,
                    r.outcome
                ),
            }
            r.assert_contained();
        }
    }
}

#[test]
fn memory_spread_over_children_counts_for_the_tree() {
    for sb in sandboxes() {
        let limits = Limits {
            address_space: (sb.tier() == Tier::Basic).then_some(64 << 20),
            ..cpu_limits()
        };
        let r = run(&*sb, &c("memspread"), &args(&[&"48"]), Stdin::Null, limits);
        match r.tier {
            Tier::Full => assert_eq!(r.outcome.limit, Some(LimitHit::Memory), "{:?}", r.outcome),
            // Not contained under basic: each child stays under its own limit, the tree far exceeds it.
            _ => assert_eq!(
                r.outcome.status,
                Status::Exited(0),
                "{}: {:?}",
                r.tier,
                r.outcome
            ),
        }
        r.assert_contained();
    }
}

#[test]
fn peak_memory_is_the_trees() {
    for sb in sandboxes().into_iter().filter(|s| s.tier() == Tier::Full) {
        let limits = Limits {
            memory: 512 << 20,
            wall: Duration::from_secs(10),
            ..super::limits()
        };
        let r = run(&*sb, &c("memspread"), &args(&[&"48"]), Stdin::Null, limits);
        assert_eq!(r.outcome.status, Status::Exited(0), "{:?}", r.outcome);
        let peak = r.outcome.peak_memory.expect("full measures peak memory");
        assert!(
            peak >= 4 * (48 << 20),
            "peak {peak} is not the sum of four 48 MB children"
        );
        r.assert_contained();
    }
}

#[test]
fn stdout_flood_is_an_output_limit() {
    for sb in sandboxes() {
        let r = run(&*sb, &c("stdout_flood"), &[], Stdin::Null, super::limits());
        assert_eq!(
            r.outcome.limit,
            Some(LimitHit::Output),
            "{}: {:?}",
            r.tier,
            r.outcome.limit
        );
        assert!(r.outcome.stdout.len() as u64 <= super::limits().output);
        r.assert_contained();
    }
}

/// stderr is a file of the run's own, so a flood stops at the file-size limit (and costs the grader
/// nothing), long before the CPU limit it used to run into.
#[test]
fn stderr_flood_is_capped_and_stopped() {
    for sb in sandboxes() {
        let r = run(&*sb, &c("stderr_flood"), &[], Stdin::Null, super::limits());
        assert_eq!(
            (r.outcome.limit, r.outcome.status),
            (Some(LimitHit::Stderr), Status::Signaled(libc::SIGXFSZ)),
            "{}",
            r.tier
        );
        assert!(r.outcome.cpu < super::limits().cpu, "{}", r.tier);
        assert!(r.outcome.stderr_truncated);
        assert!(r.outcome.stderr.len() as u64 <= super::limits().output);
        r.assert_contained();
    }
}

#[test]
fn huge_file_stops_at_the_file_size_limit() {
    for sb in sandboxes() {
        let r = run(&*sb, &c("bigfile"), &[], Stdin::Null, super::limits());
        assert_eq!(
            r.outcome.status,
            Status::Signaled(libc::SIGXFSZ),
            "{}: {:?}",
            r.tier,
            r.outcome
        );
        let size = std::fs::metadata(r.work().join("big.txt")).unwrap().len();
        assert!(size <= super::limits().file_size, "{}: {size}", r.tier);
        r.assert_contained();
    }
}

#[test]
fn secrets_are_out_of_reach() {
    for sb in sandboxes() {
        let ground = Ground::new();
        // `/proc/1/environ` under full is the init's: a copy of the grader, holding its environment.
        let targets = args(&[
            &"/etc/shadow",
            &ground.neighbour(),
            &ground.golden(),
            &"/proc/1/environ",
        ]);
        let (python, mut py_args) = py("snoop.py");
        py_args.extend(targets.iter().cloned());
        let r = run_in(
            ground,
            &*sb,
            &c("snoop"),
            &targets,
            Stdin::Null,
            super::limits(),
        );
        let r2 = run(&*sb, &python, &py_args, Stdin::Null, super::limits());
        for r in [&r, &r2] {
            match r.tier {
                Tier::Full => {
                    assert_eq!(r.outcome.status, Status::Exited(0), "{}", r.stdout());
                    assert_eq!(r.stdout().matches("denied").count(), 4, "{}", r.stdout());
                }
                // Not contained under basic: the program runs as the grader's user.
                _ => assert_eq!(r.outcome.status, Status::Exited(1), "{}", r.stdout()),
            }
            r.assert_contained();
        }
    }
}

#[test]
fn network_is_unreachable() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let local = listener.local_addr().unwrap().to_string();
    for sb in sandboxes() {
        // 192.0.2.1 is TEST-NET-1 (never routed). Only `full` gets it: there socket() itself fails, so no
        // packet can leave; under basic the attempt would really go out.
        let targets: Vec<OsString> = match sb.tier() {
            Tier::Full => args(&[&local, &"192.0.2.1:80"]),
            _ => args(&[&local]),
        };
        let (python, mut py_args) = py("connect.py");
        py_args.extend(targets.iter().cloned());
        for (program, a) in [(c("connect"), targets.clone()), (python, py_args)] {
            let r = run(&*sb, &program, &a, Stdin::Null, super::limits());
            let accepted = std::iter::from_fn(|| listener.accept().ok()).count();
            match r.tier {
                Tier::Full => {
                    assert_eq!(r.outcome.status, Status::Exited(0), "{}", r.stdout());
                    assert_eq!(accepted, 0);
                    assert!(r.elapsed < Duration::from_secs(2), "{:?}", r.elapsed);
                }
                // Not contained under basic: the grader's network is the program's.
                _ => {
                    assert_eq!(r.outcome.status, Status::Exited(1), "{}", r.stdout());
                    assert_eq!(accepted, 1);
                }
            }
            r.assert_contained();
        }
    }
}

#[test]
fn daemons_do_not_outlive_the_run() {
    for sb in sandboxes() {
        // full: the daemon dies with the run's pid namespace. basic: it left the process group with
        // `setsid`, and the grader (its subreaper) sweeps it after the run.
        let r = run(&*sb, &c("daemon"), &[], Stdin::Null, super::limits());
        assert_eq!(
            r.outcome.status,
            Status::Exited(0),
            "{}: {:?}",
            r.tier,
            r.outcome
        );
        r.assert_contained();
        std::thread::sleep(Duration::from_millis(1500));
        assert!(
            !r.work().join("alive").exists(),
            "{}: the daemon survived the run",
            r.tier
        );
    }
}

#[test]
fn ptrace_of_the_parent_is_refused() {
    for sb in sandboxes() {
        if sb.tier() == Tier::Basic {
            skip(
                sb.tier(),
                "ptrace",
                "under basic the parent is the grader itself and root may attach to it",
            );
            continue;
        }
        let r = run(&*sb, &c("ptrace"), &[], Stdin::Null, super::limits());
        assert_eq!(r.outcome.status, Status::Exited(0), "{}", r.stdout());
        r.assert_contained();
    }
}

#[test]
fn killing_the_parent_and_everything_fails() {
    for sb in sandboxes() {
        if sb.tier() == Tier::Basic {
            skip(
                sb.tier(),
                "kill",
                "under basic `kill(-1)` as root would kill every process on the machine",
            );
            continue;
        }
        let r = run(&*sb, &c("killer"), &[], Stdin::Null, super::limits());
        // The grader (this test) is still here, and so is the program: its init ignored the signals.
        assert_eq!(r.outcome.status, Status::Exited(0), "{:?}", r.outcome);
        assert_eq!(r.stdout(), "still here\n");
        r.assert_contained();
    }
}

#[test]
fn closing_or_ignoring_a_large_stdin_is_harmless() {
    let input = vec![b'7'; 10 << 20];
    for sb in sandboxes() {
        for name in ["close_stdin", "ignore_stdin"] {
            let r = run(
                &*sb,
                &c(name),
                &[],
                Stdin::Bytes(input.clone()),
                super::limits(),
            );
            assert_eq!(
                r.outcome.status,
                Status::Exited(0),
                "{}: {name}: {:?}",
                r.tier,
                r.outcome
            );
            assert_eq!(r.stdout(), "done\n");
            r.assert_contained();
        }
    }
}

#[test]
fn writes_outside_the_working_dir_fail() {
    for sb in sandboxes() {
        let ground = Ground::new();
        let planted = ground.root.path().join("neighbour/planted.txt");
        let unique = format!("grader-planted-{}", std::process::id());
        let targets = match sb.tier() {
            Tier::Full => args(&[
                &planted,
                &format!("/usr/{unique}"),
                &format!("/{unique}"),
                &"../escape.txt",
            ]),
            // Only paths the test owns: under basic the program could write anywhere root can.
            _ => args(&[&planted]),
        };
        let r = run_in(
            ground,
            &*sb,
            &c("outside"),
            &targets,
            Stdin::Null,
            super::limits(),
        );
        match r.tier {
            Tier::Full => {
                assert_eq!(r.stdout().matches("denied").count(), 3, "{}", r.stdout());
                assert!(!std::path::Path::new(&format!("/usr/{unique}")).exists());
                assert!(!std::path::Path::new(&format!("/{unique}")).exists());
                r.assert_contained();
            }
            _ => {
                // Not contained under basic.
                assert_eq!(r.outcome.status, Status::Exited(1), "{}", r.stdout());
                assert!(planted.exists());
            }
        }
    }
}

/// Under `full`, a working directory outside `/tmp` (a class's results folder) gets its mount point in a
/// fresh tmpfs over the first folder the sandbox lacks: the run sees no neighbour there and can write
/// nowhere beside its own folder.
#[test]
fn a_workdir_outside_tmp_sees_no_neighbour_and_writes_nowhere_else() {
    for sb in sandboxes().into_iter().filter(|s| s.tier() == Tier::Full) {
        // Neither in `/tmp` (the run's own scratch) nor in the sandbox's template.
        let ground = Ground::new_in(Path::new("/var/tmp"));
        let script = "ls -a ..; cat ../neighbour/tictactoe.c && echo READ; \
                      echo x > ../escape.txt && echo WROTE; echo y > mine.txt && echo OWN";
        let r = run_in(
            ground,
            &*sb,
            Path::new("/bin/sh"),
            &args(&[&"-c", &script]),
            Stdin::Null,
            super::limits(),
        );
        let out = r.stdout();
        assert!(out.contains("OWN"), "{out}");
        assert!(out.lines().any(|l| l == "work"), "{out}");
        assert!(!out.contains("READ") && !out.contains("WROTE"), "{out}");
        assert!(
            !out.lines().any(|l| l == "neighbour" || l == "suite"),
            "{out}"
        );
        assert!(!r.root.path().join("escape.txt").exists());
        assert!(r.root.path().join("work/mine.txt").exists());
        r.assert_contained();
    }
}

#[test]
fn namespaces_and_mounts_are_refused() {
    for sb in sandboxes().into_iter().filter(|s| s.tier() == Tier::Full) {
        let r = run(&*sb, &c("escape_ns"), &[], Stdin::Null, super::limits());
        assert_eq!(r.outcome.status, Status::Exited(0), "{}", r.stdout());
        r.assert_contained();
    }
}
