//! The full tier's own checks: probes, limits and isolation seen from inside.

use super::*;

#[test]
fn probe_starts_true() {
    probe().unwrap();
}

/// Every run has a network namespace of its own, ready-made or not: never the grader's, never
/// another live run's (a finished run's is handed back for reuse).
#[test]
fn each_run_has_its_own_network_namespace() {
    let Ok(sandbox) = FullSandbox::new() else {
        eprintln!("skipping: the full tier is unavailable here");
        return;
    };
    let host = std::fs::read_link("/proc/self/ns/net").unwrap();
    let dirs: Vec<_> = (0..6).map(|_| tempfile::tempdir().unwrap()).collect();
    // Six runs alive at once (each waits on its stdin), more than the pool keeps ready.
    let mut live: Vec<FullRunning> = dirs
        .iter()
        .map(|dir| {
            let spec = small_spec(
                "/bin/sh",
                &["-c", "readlink /proc/self/ns/net; read x; exit 0"],
                dir.path(),
                Stdin::Piped,
            );
            sandbox.start(&spec).unwrap()
        })
        .collect();
    let mut seen = Vec::new();
    for running in &mut live {
        let mut line = String::new();
        let mut out = std::io::BufReader::new(running.take_stdout().unwrap());
        std::io::BufRead::read_line(&mut out, &mut line).unwrap();
        let ns = line.trim().to_owned();
        assert!(ns.starts_with("net:["), "{ns}");
        assert_ne!(Path::new(&ns), host, "a run shares the grader's network");
        assert!(
            !seen.contains(&ns),
            "two live runs share network namespace {ns}"
        );
        seen.push(ns);
    }
    for mut running in live {
        drop(running.take_stdin());
        assert_eq!(running.wait().unwrap(), Status::Exited(0));
    }
}

/// A namespace handed back by a finished run is reused, and holds nothing of that run: an abstract
/// unix socket it listened on is gone with it.
#[test]
fn a_recycled_network_namespace_holds_nothing_of_the_run_before() {
    let Ok(sandbox) = FullSandbox::new() else {
        eprintln!("skipping: the full tier is unavailable here");
        return;
    };
    let python = |code: &str| {
        let dir = tempfile::tempdir().unwrap();
        let mut spec = small_spec("/usr/bin/python3", &["-c", code], dir.path(), Stdin::Null);
        spec.limits.wall = std::time::Duration::from_secs(10);
        spec.limits.memory = 256 << 20;
        let out = sandbox.run(&spec).unwrap();
        assert_eq!(out.status, Status::Exited(0), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let ns = "import os; print(os.readlink('/proc/self/ns/net'))";
    let mut reused = 0;
    // Other tests of this process take namespaces too: try until the second run got the first's.
    for _ in 0..10 {
        let first = python(&format!(
            "import socket; s = socket.socket(socket.AF_UNIX); s.bind('\\0grader-left'); s.listen(); {ns}"
        ));
        let second = python(&format!(
            "import socket\ntry:\n    socket.socket(socket.AF_UNIX).connect('\\0grader-left'); print('connected')\nexcept OSError: print('refused')\n{ns}"
        ));
        assert!(second.starts_with("refused"), "{second}");
        if second.lines().nth(1) == first.lines().next() {
            reused += 1;
        }
    }
    assert!(reused > 0, "no namespace was ever reused");
}

/// Spawning from many threads at once, while others allocate, must never deadlock or crash a child.
#[test]
fn spawning_is_thread_safe() {
    let Ok(sandbox) = FullSandbox::new() else {
        eprintln!("skipping: the full tier is unavailable here");
        return;
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let v: Vec<Vec<u8>> = (0..100).map(|i| vec![0u8; 1000 + i]).collect();
                    std::hint::black_box(v);
                }
            });
        }
        let workers: Vec<_> = (0..6)
            .map(|_| {
                s.spawn(|| {
                    for _ in 0..15 {
                        let dir = tempfile::tempdir().unwrap();
                        let spec = small_spec("/bin/true", &[], dir.path(), Stdin::Null);
                        let mut running = sandbox.start(&spec).unwrap();
                        let mut err = Vec::new();
                        let mut stderr = running.take_stderr().unwrap();
                        let status = running.wait().unwrap();
                        stderr.read_to_end(&mut err).unwrap();
                        assert_eq!(
                            status,
                            Status::Exited(0),
                            "{}",
                            String::from_utf8_lossy(&err)
                        );
                    }
                })
            })
            .collect();
        for w in workers {
            let r = w.join();
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            r.unwrap();
        }
    });
}

/// Under `full` the watch sees the run's processes through its cgroup: a shell blocked reading the
/// stdin the grader holds is a deadlock; one whose child sleeps is not (a timed wait ends by itself).
#[test]
fn the_watch_sees_a_run_blocked_on_its_stdin_and_not_one_asleep() {
    use crate::sandbox::line::{Answer, Awaited};
    use crate::sandbox::{LineReader, ReadLine, Stall, Watch};
    use std::time::{Duration, Instant};

    let Ok(sandbox) = FullSandbox::new() else {
        eprintln!("skipping: the full tier is unavailable here");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (script, blocked) in [("read x; echo never", true), ("sleep 3; echo late", false)] {
        let spec = small_spec("/bin/sh", &["-c", script], dir.path(), Stdin::Piped);
        let mut running = sandbox.start(&spec).unwrap();
        let stdin = running.take_stdin().unwrap();
        let mut reader = LineReader::new(running.take_stdout().unwrap(), 1024);
        let mut watch = Watch::new(None);
        // Long enough that only the watch can end the blocked one on a loaded machine.
        let wait = Duration::from_secs(if blocked { 30 } else { 1 });
        let mut awaited = Awaited {
            running: &mut running,
            stdin: &stdin,
            watch: &mut watch,
        };
        let got = reader
            .read_line_awaiting(Some(Instant::now() + wait), &mut awaited)
            .unwrap();
        let want = if blocked {
            Answer::Stalled(Stall::Input)
        } else {
            Answer::Read(ReadLine::Timeout)
        };
        assert_eq!(got, want, "{script}");
        running.kill();
    }
}

/// In every tier a `Stdin::Terminal` program sees a terminal on stdin and stdout, its prompt without a
/// newline shows before it reads, the watch finds it waiting to read the terminal, and what is typed
/// reaches it; its end reads as the end of output.
#[test]
fn a_program_on_a_terminal_shows_its_prompt_and_is_seen_waiting() {
    use crate::sandbox::line::{wait_awaiting, Awaited};
    use crate::sandbox::{Stall, Watch};
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let tiers = every_tier();
    let script = "[ -t 0 ] && [ -t 1 ] && t=tty; printf 'Your move: '; read m; echo \"got $m $t\"";
    for sandbox in tiers {
        let tier = sandbox.tier();
        let spec = small_spec("/bin/sh", &["-c", script], dir.path(), Stdin::Terminal);
        let mut running = sandbox.spawn(&spec).unwrap();
        let mut keys = running.take_stdin().unwrap();
        let mut screen = running.take_stdout().unwrap();
        let mut watch = Watch::new(None);
        let mut shown = Vec::new();
        let until = Instant::now() + Duration::from_secs(30);
        let stall = loop {
            let mut awaited = Awaited {
                running: &mut *running,
                stdin: &keys,
                watch: &mut watch,
            };
            match wait_awaiting(&[&screen], Some(until), &mut awaited).unwrap() {
                Ok(true) => {
                    let mut chunk = [0u8; 256];
                    let n = screen.read(&mut chunk).unwrap();
                    shown.extend_from_slice(&chunk[..n]);
                }
                Ok(false) => panic!("{tier}: nothing within 30 s: {shown:?}"),
                Err(stall) => break stall,
            }
        };
        assert_eq!(stall, Stall::Input, "{tier}");
        assert_eq!(shown, b"Your move: ", "{tier}");
        keys.write_all(b"5\n").unwrap();
        let mut rest = Vec::new();
        let mut chunk = [0u8; 256];
        loop {
            match screen.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => rest.extend_from_slice(&chunk[..n]),
                // The last slave closed: how a terminal says the program is gone.
                Err(e) if e.raw_os_error() == Some(libc::EIO) => break,
                Err(e) => panic!("{tier}: {e}"),
            }
        }
        assert_eq!(rest, b"got 5 tty\n", "{tier}");
        running.kill();
    }
}

/// A program of one thread back in its read of the terminal waits for what is typed: the first look
/// of a responsive watch that finds it there ends the turn. A shell waiting for the child that reads
/// takes a second look, a millisecond on, first (between two looks another process may act).
#[test]
fn one_thread_back_in_its_read_of_the_terminal_is_waiting_at_the_first_look() {
    use crate::sandbox::procfs::look;
    use crate::sandbox::{Stall, Watch};
    use std::io::Read;
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let tiers = every_tier();
    let scripts = [
        ("printf 'P: '; read m", 1),
        ("printf 'P: '; head -n 1 >/dev/null; true", 2),
    ];
    for sandbox in tiers {
        let tier = sandbox.tier();
        for (script, threads) in scripts {
            let spec = small_spec("/bin/sh", &["-c", script], dir.path(), Stdin::Terminal);
            let mut running = sandbox.spawn(&spec).unwrap();
            let keys = running.take_stdin().unwrap();
            let mut screen = running.take_stdout().unwrap();
            let mut shown = [0u8; 3];
            screen.read_exact(&mut shown).unwrap();
            assert_eq!(&shown, b"P: ", "{tier}: {script}");
            // Until a look finds every thread asleep, one of them reading the terminal.
            let until = Instant::now() + Duration::from_secs(30);
            let seen = loop {
                match look(&mut *running, Some(&keys)) {
                    Some(s) if s.asleep && s.reading => break s,
                    _ if Instant::now() > until => panic!("{tier}: {script}: never seen reading"),
                    _ => std::thread::sleep(Duration::from_millis(1)),
                }
            };
            assert_eq!(seen.threads, threads, "{tier}: {script}");
            let mut watch = Watch::responsive(None);
            let first = watch.check(&mut *running, Some(&keys));
            if threads == 1 {
                assert_eq!(first, Some(Stall::Input), "{tier}: {script}");
            } else {
                assert_eq!(first, None, "{tier}: {script}");
                std::thread::sleep(Duration::from_millis(3));
                let second = watch.check(&mut *running, Some(&keys));
                assert_eq!(second, Some(Stall::Input), "{tier}: {script}");
            }
            running.kill();
        }
    }
}

/// A program that printed and went back to its read is seen there at the first check after the
/// grader heard it, though its CPU time moved since the check before (it ran to print): right after
/// output, a check reads the threads' states rather than take moved CPU time for work.
#[test]
fn a_program_that_just_printed_is_seen_back_in_its_read_at_the_next_check() {
    use crate::sandbox::procfs::look;
    use crate::sandbox::{Stall, Watch};
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let tiers = every_tier();
    // It answers what is typed after some work of its own, so its CPU time moves.
    let script = "read a; i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; printf 'P: '; read m";
    for sandbox in tiers {
        let tier = sandbox.tier();
        let spec = small_spec("/bin/sh", &["-c", script], dir.path(), Stdin::Terminal);
        let mut running = sandbox.spawn(&spec).unwrap();
        let mut keys = running.take_stdin().unwrap();
        let mut screen = running.take_stdout().unwrap();
        let until = Instant::now() + Duration::from_secs(30);
        let reading = |running: &mut dyn crate::sandbox::Running, keys: &std::fs::File| loop {
            match look(running, Some(keys)) {
                Some(s) if s.asleep && s.reading => return,
                _ if Instant::now() > until => panic!("{tier}: never seen reading"),
                _ => std::thread::sleep(Duration::from_millis(1)),
            }
        };
        reading(&mut *running, &keys);
        let mut watch = Watch::responsive(None);
        assert_eq!(
            watch.check(&mut *running, Some(&keys)),
            Some(Stall::Input),
            "{tier}"
        );
        keys.write_all(b"a\n").unwrap();
        let mut shown = [0u8; 3];
        screen.read_exact(&mut shown).unwrap();
        assert_eq!(&shown, b"P: ", "{tier}");
        reading(&mut *running, &keys);
        watch.heard();
        std::thread::sleep(Duration::from_millis(1));
        assert_eq!(
            watch.check(&mut *running, Some(&keys)),
            Some(Stall::Input),
            "{tier}"
        );
        running.kill();
    }
}

/// Every tier this machine has: `none` and `basic` always, `full` where it can be set up (said so
/// when it cannot).
fn every_tier() -> Vec<Box<dyn crate::sandbox::Sandbox>> {
    use crate::sandbox::{BasicSandbox, NoSandbox};
    let mut tiers: Vec<Box<dyn crate::sandbox::Sandbox>> =
        vec![Box::new(NoSandbox), Box::new(BasicSandbox)];
    match FullSandbox::new() {
        Ok(full) => tiers.push(Box::new(full)),
        Err(_) => eprintln!("skipping the full tier: unavailable here"),
    }
    tiers
}
