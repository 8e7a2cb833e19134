//! Waiting does not hold a core (`sandbox::pace`): a sleeping program's slot admits another submission,
//! and a program that wakes while its slot is lent is stopped until one is free, off its clock, so its
//! verdict is the one it would have had alone.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use grader::grade::wire::environment;
use grader::sandbox::line::{Answer, Awaited};
use grader::sandbox::pace::{self, Cores, Pacer};
use grader::sandbox::{self, LineReader, ReadLine, Sandbox, Spec, Stdin, Tier, Watch};

/// Sleeps 0.4 s, then uses 0.3 s of CPU: 0.7 s alone, under a 1.2 s wall limit.
const SLEEP_THEN_WORK: &str = "import sys, time\n\
    sys.stdin.readline()\n\
    time.sleep(0.4)\n\
    t = time.process_time()\n\
    while time.process_time() - t < 0.3:\n    pass\n\
    print('done', flush=True)\n";

/// How long the other submission holds the only slot once it has it.
const HOLD: Duration = Duration::from_millis(1500);
const WALL: Duration = Duration::from_millis(1200);

fn spec(dir: &std::path::Path, stdin: Stdin) -> Spec {
    python(dir, stdin, SLEEP_THEN_WORK)
}

/// `python3 -c code` in `dir` under these tests' limits.
fn python(dir: &std::path::Path, stdin: Stdin, code: &str) -> Spec {
    let mut limits = grader::config::Config::load(None).unwrap().limits;
    limits.wall = WALL;
    limits.cpu = Duration::from_secs(5);
    Spec {
        program: "python3".into(),
        args: vec!["-c".into(), code.into()],
        workdir: dir.to_path_buf(),
        env: Vec::new(),
        stdin,
        limits,
        read_only: Vec::new(),
    }
}

/// Whether the machine is quiet enough for these tests' clocks: they time sub-second sleeps and bursts
/// against a 1.2 s limit, which a machine running several times more work than it has cores stretches
/// past any margin (seen at a load average of 10 on 2 cores). Says why when it is not.
fn quiet() -> bool {
    let (load, cores) = crate::util::load_and_cores();
    match load {
        Some(load) if load > 3.0 * cores => {
            println!(
                "skipped: the load average is {load} on {cores} cores, too busy to time a pause"
            );
            false
        }
        _ => true,
    }
}

fn sandboxes() -> Vec<(Tier, Arc<dyn Sandbox>)> {
    let mut out = Vec::new();
    if !quiet() {
        return out;
    }
    for tier in [Tier::Basic, Tier::Full] {
        match environment(tier, false) {
            Ok(env) => out.push((tier, env.sandbox)),
            Err(_) => println!("skipped under {tier:?}: the tier is not available here"),
        }
    }
    out
}

/// One slot, lendable once. Worker A runs `program` (which sleeps first); worker B waits for a slot,
/// which it can only get from A's lending, and holds it for [`HOLD`]. Returns what A's program gave,
/// A's clock reading for the run, how long A's programs were stopped, and whether B got the slot
/// while A's program was still running.
fn lend_and_wake<T: Send>(program: impl FnOnce() -> T + Send) -> (T, Duration, Duration, bool) {
    let cores = Cores::new(1, 1);
    let a_done = AtomicBool::new(false);
    let b_in_while_a_ran = Mutex::new(None);
    std::thread::scope(|s| {
        let _a_slot = Pacer::enter(&cores);
        s.spawn(|| {
            let _b_slot = Pacer::enter(&cores);
            *b_in_while_a_ran.lock().unwrap() = Some(!a_done.load(Ordering::SeqCst));
            std::thread::sleep(HOLD);
        });
        let asked = pace::now();
        let out = program();
        let took = pace::since(asked);
        a_done.store(true, Ordering::SeqCst);
        let stopped = pace::stopped();
        let admitted = b_in_while_a_ran.lock().unwrap().unwrap_or(false);
        (out, took, stopped, admitted)
    })
}

/// The sleeping program's slot admitted the other worker, and, woken while the other held the only
/// core (alone it takes 0.7 s; the other held the core for 1.5 s of it), it was stopped.
fn lent_then_stopped(tier: Tier, admitted: bool, started: Instant, stopped: Duration) {
    assert!(
        admitted,
        "{tier:?}: the sleeping program's slot admitted the other"
    );
    assert!(
        started.elapsed() > WALL,
        "{tier:?}: {:?}",
        started.elapsed()
    );
    assert!(
        stopped >= Duration::from_millis(700),
        "{tier:?}: {stopped:?}"
    );
}

#[test]
fn a_run_woken_while_its_core_is_lent_is_stopped_off_its_clock() {
    let dir = crate::util::scratch();
    for (tier, sandbox) in sandboxes() {
        let started = Instant::now();
        let (outcome, took, stopped, admitted) =
            lend_and_wake(|| sandbox.run(&spec(dir.path(), Stdin::Bytes(b"go\n".to_vec()))));
        let outcome = outcome.expect("the sandbox runs");
        lent_then_stopped(tier, admitted, started, stopped);
        assert_eq!(outcome.limit, None, "{tier:?}: {outcome:?}");
        assert_eq!(outcome.stdout, b"done\n", "{tier:?}");
        assert!(
            outcome.wall < WALL && took < WALL,
            "{tier:?}: {outcome:?} {took:?}"
        );
    }
}

/// Starts `spec`, types `go`, and awaits its answer for `wait` on the clock; the program is killed after.
fn answer_to_go(sandbox: &dyn Sandbox, spec: &Spec, wait: Duration) -> Answer {
    let mut running = sandbox.spawn(spec).unwrap();
    let mut stdin = running.take_stdin().unwrap();
    let mut stdout = LineReader::new(running.take_stdout().unwrap(), 1 << 10);
    sandbox::write_all(&mut stdin, b"go\n", Some(pace::now() + WALL)).unwrap();
    let mut awaited = Awaited {
        running: &mut *running,
        stdin: &stdin,
        watch: &mut Watch::new(None),
    };
    let read = stdout.read_line_awaiting(Some(pace::now() + wait), &mut awaited);
    running.kill();
    read.unwrap()
}

#[test]
fn an_answer_awaited_while_the_core_is_lent_keeps_its_clock() {
    let dir = crate::util::scratch();
    for (tier, sandbox) in sandboxes() {
        let started = Instant::now();
        let (read, took, stopped, admitted) =
            lend_and_wake(|| answer_to_go(&*sandbox, &spec(dir.path(), Stdin::Piped), WALL));
        lent_then_stopped(tier, admitted, started, stopped);
        assert_eq!(
            read,
            Answer::Read(ReadLine::Line(b"done".to_vec())),
            "{tier:?}"
        );
        assert!(took < WALL, "{tier:?}: {took:?}");
    }
}

/// A program asleep past its deadline while its core is lent times out at the deadline on its clock,
/// not when a core comes back: the other worker holds the only one for 1.5 s, and the stop that waits
/// for it is off the clock although the program sleeps on a timer (the timeout is settled before it).
#[test]
fn a_program_asleep_past_its_deadline_times_out_at_the_deadline_not_when_a_core_comes_back() {
    let dir = crate::util::scratch();
    for (tier, sandbox) in sandboxes() {
        let sleeper = python(
            dir.path(),
            Stdin::Piped,
            "import sys, time\nsys.stdin.readline()\ntime.sleep(1.0)\nprint('late', flush=True)\n",
        );
        let started = Instant::now();
        let (read, took, stopped, admitted) =
            lend_and_wake(|| answer_to_go(&*sandbox, &sleeper, Duration::from_millis(400)));
        assert!(
            admitted,
            "{tier:?}: the sleeping program's slot admitted the other"
        );
        assert_eq!(read, Answer::Read(ReadLine::Timeout), "{tier:?}");
        assert!(
            started.elapsed() > HOLD,
            "{tier:?}: {:?}",
            started.elapsed()
        );
        assert!(
            took < Duration::from_millis(900),
            "{tier:?}: timed out after {took:?} on its clock"
        );
        assert!(
            stopped >= Duration::from_millis(500),
            "{tier:?}: {stopped:?}"
        );
    }
}

/// Without lending (no lend cap) the same program keeps its slot: nothing is stopped, and the other
/// worker only starts once it is done.
#[test]
fn with_no_lending_a_sleeping_run_keeps_its_core() {
    if !quiet() {
        return;
    }
    let dir = crate::util::scratch();
    let sandbox: Arc<dyn Sandbox> = Arc::new(sandbox::BasicSandbox);
    let cores = Cores::new(1, 0);
    let a_done = AtomicBool::new(false);
    let order = std::thread::scope(|s| {
        let a_slot = Pacer::enter(&cores);
        let b = s.spawn(|| {
            let _b_slot = Pacer::enter(&cores);
            a_done.load(Ordering::SeqCst)
        });
        let outcome = sandbox
            .run(&spec(dir.path(), Stdin::Bytes(b"go\n".to_vec())))
            .unwrap();
        assert_eq!(outcome.stdout, b"done\n");
        assert_eq!(pace::stopped(), Duration::ZERO);
        a_done.store(true, Ordering::SeqCst);
        drop(a_slot);
        b.join().unwrap()
    });
    assert!(order, "the other worker waited for the slot");
}

/// A program with two threads asleep on timers is never lent its core: stopped when one woke, the
/// other's timer would run on off its clock (a free sleep). So the other worker waits.
/// One thread alone on a timer is rightly lent its core, so the program never leaves one so: each
/// thread sleeps until a fixed moment, the second's 0.1 s after the first's (under load either may
/// start its sleep late), and the first, its own sleep over, runs until the second has ended instead
/// of waiting for it. Waiting (`join`), it would leave the second alone on its timer (a CI run saw
/// that once with both sleeping until the same moment, the second's wake-up coming after the first's
/// on a machine whose cores the hypervisor takes away).
#[test]
fn a_program_sleeping_on_two_timers_keeps_its_core() {
    let dir = crate::util::scratch();
    for (tier, sandbox) in sandboxes() {
        let two_timers = python(
            dir.path(),
            Stdin::Null,
            "import threading, time\n\
             end = time.monotonic() + 0.8\n\
             nap = lambda later: time.sleep(max(0, end + later - time.monotonic()))\n\
             t = threading.Thread(target=nap, args=(0.1,))\n\
             t.start()\n\
             nap(0)\n\
             while t.is_alive():\n    pass\n\
             print('done', flush=True)\n",
        );
        let (outcome, _, stopped, admitted) = lend_and_wake(|| sandbox.run(&two_timers));
        let outcome = outcome.expect("the sandbox runs");
        assert_eq!(outcome.stdout, b"done\n", "{tier:?}: {outcome:?}");
        assert!(!admitted, "{tier:?}: the slot was lent");
        assert_eq!(stopped, Duration::ZERO, "{tier:?}");
    }
}

/// After its sleep, three chains of processes run: each process of a chain first sends `SIGCONT` to
/// the whole process group (undoing any stop by signals that missed it), spins 10 ms of CPU, forks
/// its successor and exits, fifty times, so the run's processes are never the same for long: 1.5 s
/// of CPU in all. The last of each chain tells the first process, which then prints `done`.
const SLEEP_THEN_FORK: &str = "import os, signal, sys, time\n\
    sys.stdin.readline()\n\
    time.sleep(0.4)\n\
    r, w = os.pipe()\n\
    def spin(s):\n    t = time.process_time()\n    while time.process_time() - t < s:\n        pass\n\
    def chain(hops):\n    while True:\n        os.killpg(0, signal.SIGCONT)\n        spin(0.01)\n        hops -= 1\n        if hops == 0:\n            os.write(w, b'x')\n            os._exit(0)\n        if os.fork() != 0:\n            os._exit(0)\n\
    for c in range(3):\n    if os.fork() == 0:\n        chain(50)\n\
    os.close(w)\n\
    got = b''\n\
    while len(got) < 3:\n    got += os.read(r, 3)\n\
    print('done', flush=True)\n";

/// The second audit's escape from the pacer: a stop by `SIGSTOP` to each process of a snapshot missed
/// a child forked after it, which woke its family, and the grader still took the stop off the clock
/// (2.7 s of CPU in 0.45 s of clock on 2 cores). Now the freezer stops every process of the group at
/// once, and a stop is only taken off the clock when the group's CPU time did not move while it
/// lasted: the program never gets more CPU than its clock's time on every core. (`full` only: the
/// tier whose CPU accounting sees a whole tree; `basic` stops its process group with one `killpg`,
/// which a fork cannot race.)
#[test]
fn a_forking_waker_is_frozen_whole_and_never_gains_time() {
    if !quiet() {
        return;
    }
    let dir = crate::util::scratch();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) as u32;
    let Some((_, sandbox)) = sandboxes().into_iter().find(|(t, _)| *t == Tier::Full) else {
        println!("skipped: the full tier is not available here");
        return;
    };
    let mut waker = python(dir.path(), Stdin::Bytes(b"go\n".to_vec()), SLEEP_THEN_FORK);
    waker.limits.wall = Duration::from_secs(10);
    let (outcome, took, stopped, admitted) = lend_and_wake(|| sandbox.run(&waker));
    let outcome = outcome.expect("the sandbox runs");
    assert_eq!(outcome.stdout, b"done\n", "{outcome:?}");
    assert!(admitted, "the sleeping program's slot admitted the other");
    assert!(outcome.cpu >= Duration::from_millis(1400), "{outcome:?}");
    // What must not happen: more CPU than the clock allows on every core.
    assert!(
        outcome.cpu <= took * cores + Duration::from_millis(100),
        "{:?} of CPU in {took:?} of clock ({stopped:?} taken off)",
        outcome.cpu
    );
    let freezer = std::path::Path::new("/sys/fs/cgroup/freezer/cgroup.procs").exists()
        || std::path::Path::new("/sys/fs/cgroup/cgroup.controllers").exists();
    if freezer {
        // The freezer holds every stop, and only a stop that held is taken off the clock: the wake
        // was stopped, whole, while the other worker held the core.
        assert!(stopped >= Duration::from_millis(700), "{stopped:?}");
    }
}
