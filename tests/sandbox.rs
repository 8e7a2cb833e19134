//! The `basic` and `none` sandboxes through the shared driver: statuses, limits, caps, pipes, groups.

use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, Instant};

use grader::sandbox::{
    self, BasicSandbox, LimitHit, LineReader, NoSandbox, ReadLine, Sandbox, Spec, Status, Stdin,
    Tier, Wrote,
};

fn limits() -> sandbox::Limits {
    sandbox::Limits {
        cpu: Duration::from_secs(5),
        wall: Duration::from_secs(10),
        memory: 512 << 20,
        output: 1 << 20,
        file_size: 16 << 20,
        processes: 64,
        open_files: 64,
        stack: 8 << 20,
        address_space: None,
        idle: None,
    }
}

fn sh(dir: &Path, script: &str) -> Spec {
    Spec {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), script.into()],
        workdir: dir.to_path_buf(),
        env: Vec::new(),
        stdin: Stdin::Null,
        limits: limits(),
        read_only: Vec::new(),
    }
}

fn run(spec: &Spec) -> sandbox::Outcome {
    BasicSandbox.run(spec).expect("the sandbox runs")
}

fn pid_alive(pid: i32) -> bool {
    // A zombie is dead for our purposes; anything else in /proc is alive.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

#[test]
fn exit_codes_and_output() {
    let dir = crate::util::scratch();
    let out = run(&sh(dir.path(), "echo out; echo err >&2; exit 3"));
    assert_eq!(out.status, Status::Exited(3));
    assert_eq!(out.stdout, b"out\n");
    assert_eq!(out.stderr, b"err\n");
    assert_eq!(out.limit, None);
    assert!(!out.stdout_truncated && !out.stderr_truncated);
    assert!(out.peak_memory.is_some_and(|m| m > 0));
}

#[test]
fn abort_is_signal_6() {
    let dir = crate::util::scratch();
    let out = run(&sh(dir.path(), "kill -ABRT $$"));
    assert_eq!(out.status, Status::Signaled(6));
    assert_eq!(out.limit, None);
}

#[test]
fn wall_timeout_kills_sleep() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "sleep 30");
    spec.limits.wall = Duration::from_millis(300);
    let t = Instant::now();
    let out = run(&spec);
    assert_eq!(out.limit, Some(LimitHit::Wall));
    assert!(
        matches!(out.status, Status::Signaled(_)),
        "{:?}",
        out.status
    );
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "took {:?}",
        t.elapsed()
    );
    assert!(out.wall >= Duration::from_millis(300));
}

#[test]
fn sigterm_ignored_still_killed() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "trap '' TERM; while :; do sleep 0.05; done");
    spec.limits.wall = Duration::from_millis(200);
    let t = Instant::now();
    let out = run(&spec);
    assert_eq!(out.limit, Some(LimitHit::Wall));
    assert_eq!(out.status, Status::Signaled(libc::SIGKILL));
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "took {:?}",
        t.elapsed()
    );
}

#[test]
fn cpu_limit_on_busy_loop() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "while :; do :; done");
    spec.limits.cpu = Duration::from_millis(300);
    let out = run(&spec);
    assert_eq!(out.limit, Some(LimitHit::Cpu));
    assert!(out.cpu >= Duration::from_millis(300), "cpu {:?}", out.cpu);
    assert!(out.cpu < Duration::from_secs(2), "cpu {:?}", out.cpu);
}

#[test]
fn rlimit_cpu_sends_sigxcpu() {
    // The kernel's SIGXCPU at the soft RLIMIT_CPU is reported as the CPU limit, whoever sent it.
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "kill -XCPU $$");
    spec.limits.cpu = Duration::from_secs(1);
    let out = run(&spec);
    assert_eq!(out.status, Status::Signaled(libc::SIGXCPU));
    assert_eq!(out.limit, Some(LimitHit::Cpu));
}

#[test]
fn stdout_flood_hits_output_limit() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "yes");
    spec.limits.output = 100_000;
    let out = run(&spec);
    assert_eq!(out.limit, Some(LimitHit::Output));
    assert!(out.stdout_truncated);
    assert_eq!(out.stdout.len(), 100_000);
    assert!(out.stdout.starts_with(b"y\ny\n"));
}

#[test]
fn stderr_flood_is_truncated_not_fatal() {
    let dir = crate::util::scratch();
    let mut spec = sh(
        dir.path(),
        "head -c 3000000 /dev/zero | tr '\\0' e >&2; echo done",
    );
    spec.limits.output = 1000;
    let out = run(&spec);
    assert_eq!(out.limit, None);
    assert_eq!(out.status, Status::Exited(0));
    assert!(out.stderr_truncated);
    assert_eq!(out.stderr.len(), 1000);
    assert_eq!(out.stdout, b"done\n");
}

#[test]
fn stdin_bytes_are_delivered() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "cat");
    let input: Vec<u8> = (0..200_000u32).map(|i| b'a' + (i % 26) as u8).collect();
    spec.stdin = Stdin::Bytes(input.clone());
    let out = run(&spec);
    assert_eq!(out.status, Status::Exited(0));
    assert_eq!(out.stdout, input);
}

#[test]
fn unread_large_stdin_does_not_hang() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "echo ignored");
    spec.stdin = Stdin::Bytes(vec![b'x'; 10 << 20]);
    let t = Instant::now();
    let out = run(&spec);
    assert_eq!(out.status, Status::Exited(0));
    assert_eq!(out.stdout, b"ignored\n");
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "took {:?}",
        t.elapsed()
    );
}

#[test]
fn background_child_holding_stdout_is_killed() {
    let dir = crate::util::scratch();
    let spec = sh(dir.path(), "sleep 100 & echo $!; echo hi");
    let t = Instant::now();
    let out = run(&spec);
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "took {:?}",
        t.elapsed()
    );
    assert_eq!(out.status, Status::Exited(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let pid: i32 = lines.next().unwrap().parse().unwrap();
    assert_eq!(lines.next(), Some("hi"));
    // SIGKILL is delivered asynchronously; give the kernel a moment.
    let gone = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(10));
        !pid_alive(pid)
    });
    assert!(gone, "background pid {pid} survived the run");
}

#[test]
fn whole_group_killed_on_timeout() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "sleep 100 & echo $!; sleep 100");
    spec.limits.wall = Duration::from_millis(300);
    let out = run(&spec);
    assert_eq!(out.limit, Some(LimitHit::Wall));
    let pid: i32 = String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let gone = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(10));
        !pid_alive(pid)
    });
    assert!(gone, "pid {pid} survived the timeout");
}

#[test]
fn environment_is_only_what_was_given() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "env | sort; pwd");
    spec.env = vec![(OsString::from("ONLY"), OsString::from("this"))];
    let out = run(&spec);
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let pwd = lines.pop().unwrap();
    // sh itself may export PWD (and SHLVL); nothing from the grader's environment may appear.
    let vars: Vec<&str> = lines
        .into_iter()
        .filter(|l| !l.starts_with("PWD=") && !l.starts_with("SHLVL=") && !l.starts_with("_="))
        .collect();
    assert_eq!(vars, ["ONLY=this", "PATH=/usr/local/bin:/usr/bin:/bin"]);
    assert_eq!(Path::new(pwd), dir.path().canonicalize().unwrap());
}

#[test]
fn rlimits_are_applied_by_basic_only() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "ulimit -n; ulimit -c; ulimit -t");
    spec.limits.open_files = 37;
    spec.limits.cpu = Duration::from_millis(1500);
    let out = run(&spec);
    assert_eq!(out.stdout, b"37\n0\n2\n");
    let plain = NoSandbox.run(&spec).unwrap();
    assert_ne!(plain.stdout, b"37\n0\n2\n");
}

#[test]
fn file_size_limit_stops_big_writes() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "head -c 200000 /dev/zero > big");
    spec.limits.file_size = 10_000;
    let out = run(&spec);
    assert_ne!(out.status, Status::Exited(0));
    assert_eq!(
        std::fs::metadata(dir.path().join("big")).unwrap().len(),
        10_000
    );
}

#[test]
fn memory_watch_stops_a_hog() {
    let dir = crate::util::scratch();
    // Each `x=$x$x` doubles a shell string: well past 64 MiB within a few steps.
    let mut spec = sh(dir.path(), "x=0123456789abcdef; while :; do x=$x$x; done");
    spec.limits.memory = 64 << 20;
    let out = run(&spec);
    assert_eq!(out.limit, Some(LimitHit::Memory), "{out:?}");
}

/// A file without `#!` runs under `/bin/sh`, as `execvp` runs it; an empty `PATH` entry is the working
/// directory, searched in order; the program starts with no signal ignored or blocked (the grader
/// ignores SIGPIPE), and leads a process group of its own.
#[test]
fn basic_starts_programs_as_execvp_would_with_signals_reset() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = crate::util::scratch();
    let script = dir.path().join("probe");
    std::fs::write(
        &script,
        // Builtins only: a shell blocks every signal for a moment around each fork, which a child
        // reading its status could catch.
        "while IFS= read -r l; do case $l in SigIgn*|SigBlk*) echo \"$l\";; esac; done < /proc/$$/status\n\
         read -r s < /proc/$$/stat; set -- $s; echo $$ $5\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The first directory has a `probe` it may not run: the search goes on, as execvp's does.
    let first = dir.path().join("first");
    std::fs::create_dir(&first).unwrap();
    std::fs::write(first.join("probe"), "echo wrong\n").unwrap();
    std::fs::set_permissions(first.join("probe"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut spec = sh(dir.path(), "");
    spec.program = "probe".into();
    spec.args = Vec::new();
    spec.env = vec![(
        OsString::from("PATH"),
        OsString::from(format!("/nonexistent:{}::/usr/bin:/bin", first.display())),
    )];
    let out = run(&spec);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status, Status::Exited(0), "{out:?}");
    assert!(
        text.contains("SigIgn:\t0000000000000000") && text.contains("SigBlk:\t0000000000000000"),
        "{text}"
    );
    let last = text.lines().last().unwrap();
    let (pid, pgid) = last.split_once(' ').unwrap();
    assert_eq!(pid, pgid, "the program leads its own process group: {text}");
}

/// What cannot start says why, as `Command::spawn` would: a program on no `PATH` entry is not found, a
/// working directory that is not there is named by its error.
#[test]
fn basic_start_failures_are_sandbox_errors() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "");
    spec.program = "no-such-program-anywhere".into();
    match BasicSandbox.run(&spec) {
        Err(sandbox::SandboxError::Spawn { source, .. }) => {
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound, "{source}");
        }
        other => panic!("{other:?}"),
    }
    let mut spec = sh(&dir.path().join("gone"), "echo hi");
    spec.program = "/bin/sh".into();
    match BasicSandbox.run(&spec) {
        Err(sandbox::SandboxError::Spawn { source, .. }) => {
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound, "{source}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn missing_program_is_a_sandbox_error() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "");
    spec.program = "/nonexistent/program".into();
    let err = BasicSandbox.run(&spec).unwrap_err();
    assert!(err.to_string().contains("/nonexistent/program"), "{err}");
}

#[test]
fn select_and_probe() {
    assert_eq!(
        sandbox::select(Tier::Basic, &[]).unwrap().tier(),
        Tier::Basic
    );
    assert_eq!(sandbox::select(Tier::None, &[]).unwrap().tier(), Tier::None);
    let probes = sandbox::probe();
    assert_eq!(probes.len(), 3);
    assert!(probes[1].unavailable.is_none());
}

#[test]
fn interactive_lines_with_deadlines() {
    let dir = crate::util::scratch();
    let mut spec = sh(
        dir.path(),
        "read a; echo got $a; read b; printf 'partial'; sleep 5",
    );
    spec.stdin = Stdin::Piped;
    let mut running = BasicSandbox.spawn(&spec).unwrap();
    let mut stdin = running.take_stdin().unwrap();
    let mut reader = LineReader::new(running.take_stdout().unwrap(), 100);
    let soon = || Some(Instant::now() + Duration::from_secs(3));
    assert_eq!(
        sandbox::write_all(&mut stdin, b"one\n", soon()).unwrap(),
        Wrote::Done
    );
    assert_eq!(
        reader.read_line(soon()).unwrap(),
        ReadLine::Line(b"got one".to_vec())
    );
    sandbox::write_all(&mut stdin, b"two\n", soon()).unwrap();
    let t = Instant::now();
    let r = reader
        .read_line(Some(Instant::now() + Duration::from_millis(200)))
        .unwrap();
    assert_eq!(r, ReadLine::Timeout);
    assert!(t.elapsed() < Duration::from_secs(1));
    assert_eq!(reader.pending(), b"partial");
    // Over the cap without a newline: the reader's unit tests (`sandbox::line`), where the cap is set.
    running.kill();
    assert!(matches!(
        running.try_wait().unwrap(),
        Some(Status::Signaled(9))
    ));
    assert_eq!(reader.read_line(soon()).unwrap(), ReadLine::Eof);
    assert_eq!(reader.pending(), b"partial");
}

#[test]
fn line_reader_eof_and_closed_stdin() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "exec 0<&-; echo a; echo b");
    spec.stdin = Stdin::Piped;
    let mut running = NoSandbox.spawn(&spec).unwrap();
    let mut stdin = running.take_stdin().unwrap();
    let mut reader = LineReader::new(running.take_stdout().unwrap(), 10);
    let soon = || Some(Instant::now() + Duration::from_secs(3));
    assert_eq!(
        reader.read_line(soon()).unwrap(),
        ReadLine::Line(b"a".to_vec())
    );
    assert_eq!(
        reader.read_line(soon()).unwrap(),
        ReadLine::Line(b"b".to_vec())
    );
    assert_eq!(reader.read_line(soon()).unwrap(), ReadLine::Eof);
    let big = vec![b'x'; 1 << 20];
    assert_eq!(
        sandbox::write_all(&mut stdin, &big, soon()).unwrap(),
        Wrote::Closed
    );
}

#[test]
fn parallel_runs_keep_their_own_usage() {
    let dir = crate::util::scratch();
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let spec = sh(dir.path(), &format!("echo {i}; exit {i}"));
            std::thread::spawn(move || BasicSandbox.run(&spec).unwrap())
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        let out = h.join().unwrap();
        assert_eq!(out.status, Status::Exited(i as i32));
        assert_eq!(out.stdout, format!("{i}\n").into_bytes());
    }
}

#[test]
fn escaped_process_holding_stdout_does_not_hang_the_driver() {
    let dir = crate::util::scratch();
    // `setsid` leaves the process group, so the group kill misses it: only the drain grace saves us.
    let spec = sh(dir.path(), "setsid sleep 3 & echo $!; sleep 0.2");
    let t = Instant::now();
    let out = run(&spec);
    let elapsed = t.elapsed();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if let Ok(pid) = text.trim().parse::<i32>() {
        // SAFETY: plain syscall; cleaning up the stray this test made on purpose.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
    assert_eq!(out.status, Status::Exited(0));
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
}

#[test]
fn chatty_stderr_is_drained_while_playing() {
    let dir = crate::util::scratch();
    // 1 MB of stderr before the answer: without a drain the pipe fills and the player blocks.
    let mut spec = sh(
        dir.path(),
        "read a; head -c 1000000 /dev/zero >&2; echo move $a; while :; do :; done",
    );
    spec.stdin = Stdin::Piped;
    spec.limits.cpu = Duration::from_millis(100);
    let started = Instant::now();
    let mut running = BasicSandbox.spawn(&spec).unwrap();
    let drain = sandbox::Drain::start(running.take_stderr().unwrap(), 1000).unwrap();
    let mut stdin = running.take_stdin().unwrap();
    let mut reader = LineReader::new(running.take_stdout().unwrap(), 100);
    let soon = || Some(Instant::now() + Duration::from_secs(5));
    // Blocked on `read`, the player has used no CPU yet.
    assert_eq!(
        sandbox::over_limit(running.as_mut(), &spec.limits, started),
        None
    );
    sandbox::write_all(&mut stdin, b"7\n", soon()).unwrap();
    assert_eq!(
        reader.read_line(soon()).unwrap(),
        ReadLine::Line(b"move 7".to_vec())
    );
    // The busy loop now burns CPU until the check notices (a loaded machine gives it less of a core).
    let hit = (0..900).find_map(|_| {
        std::thread::sleep(Duration::from_millis(10));
        sandbox::over_limit(running.as_mut(), &spec.limits, started)
    });
    assert_eq!(hit, Some(LimitHit::Cpu));
    running.kill();
    let (kept, truncated) = drain.finish();
    assert_eq!(kept.len(), 1000);
    assert!(truncated);
}

#[test]
fn files_written_lists_what_the_run_left() {
    let dir = crate::util::scratch();
    let spec = sh(
        dir.path(),
        "mkdir -p out/deep; printf abc > out/deep/trace.txt; printf 12345 > visited; ln -s /etc/passwd link",
    );
    assert_eq!(run(&spec).status, Status::Exited(0));
    let listed = sandbox::files_written(dir.path()).unwrap();
    let names: Vec<(String, u64, bool)> = listed
        .files
        .iter()
        .map(|f| (f.path.display().to_string(), f.size, f.special))
        .collect();
    assert_eq!(names[0], ("link".to_string(), 11, true));
    assert_eq!(names[1], ("out/deep/trace.txt".to_string(), 3, false));
    assert_eq!(names[2], ("visited".to_string(), 5, false));
    assert!(!listed.truncated);
}

#[test]
fn live_groups_are_tracked_until_reaped() {
    use grader::sandbox::Running;
    let dir = crate::util::scratch();
    let mut running = BasicSandbox
        .spawn_group(&sh(dir.path(), "sleep 5"))
        .unwrap();
    let pid = running.pid();
    assert!(sandbox::cleanup::live_groups().contains(&pid));
    running.kill();
    assert!(!sandbox::cleanup::live_groups().contains(&pid));
    assert!(!pid_alive(pid));
}

/// Run by `interrupt_kills_live_groups` in a child copy of this test binary: starts a long program
/// under the interrupt handler, says its pid, and waits to be signalled.
#[test]
#[ignore = "a helper for interrupt_kills_live_groups"]
fn interrupt_helper() {
    if std::env::var_os("GRADER_INTERRUPT_HELPER").is_none() {
        return;
    }
    sandbox::cleanup::install_interrupt_handler().unwrap();
    let dir = crate::util::scratch();
    let running = BasicSandbox
        .spawn_group(&sh(dir.path(), "sleep 100"))
        .unwrap();
    println!("PID {}", running.pid());
    std::thread::sleep(Duration::from_secs(20));
}

#[test]
fn interrupt_kills_live_groups() {
    use std::io::BufRead;
    let mut helper = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "sandbox::interrupt_helper",
            "--ignored",
            "--nocapture",
        ])
        .env("GRADER_INTERRUPT_HELPER", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = std::io::BufReader::new(helper.stdout.take().unwrap());
    let pid: i32 = stdout
        .lines()
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("PID ").map(|p| p.parse().unwrap()))
        .expect("the helper reports its program's pid");
    assert!(pid_alive(pid));
    // SAFETY: plain syscall on our own child.
    unsafe {
        libc::kill(helper.id() as i32, libc::SIGTERM);
    }
    let status = helper.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGTERM));
    let gone = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(10));
        !pid_alive(pid)
    });
    assert!(gone, "pid {pid} outlived the interrupted grader");
}

const PROBE_C: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int depth(int n) { volatile char pad[4096]; pad[0] = (char)n; return n == 0 ? pad[0] : depth(n - 1) + pad[0]; }
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    if (!strcmp(argv[1], "abort")) abort();
    if (!strcmp(argv[1], "recurse")) return depth(1 << 20) == 7;
    if (!strcmp(argv[1], "malloc")) {
        char *p = malloc((size_t)1 << 30);
        if (!p) { puts("no memory"); return 42; }
        memset(p, 1, (size_t)1 << 30);
        return 0;
    }
    return 3;
}
"#;

/// Compiles the probe program into `dir`, or says why not.
fn probe_program(dir: &Path) -> Option<std::path::PathBuf> {
    let Some(cc) = grader::toolchain::Toolchain::global().tool("cc") else {
        eprintln!("skipped: no C compiler");
        return None;
    };
    std::fs::write(dir.join("probe.c"), PROBE_C).unwrap();
    let mut spec = sh(dir, "");
    spec.program = cc.into();
    spec.args = vec!["-O0".into(), "-o".into(), "probe".into(), "probe.c".into()];
    let out = run(&spec);
    assert_eq!(
        out.status,
        Status::Exited(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(dir.join("probe"))
}

#[test]
fn c_program_crashes_and_rlimits() {
    let dir = crate::util::scratch();
    let Some(probe) = probe_program(dir.path()) else {
        return;
    };
    let mut spec = sh(dir.path(), "");
    spec.program = probe.into();

    spec.args = vec!["abort".into()];
    assert_eq!(run(&spec).status, Status::Signaled(libc::SIGABRT));

    spec.args = vec!["recurse".into()];
    spec.limits.stack = 1 << 20;
    assert_eq!(run(&spec).status, Status::Signaled(libc::SIGSEGV));

    spec.args = vec!["malloc".into()];
    spec.limits.address_space = Some(256 << 20);
    let out = run(&spec);
    assert_eq!(out.status, Status::Exited(42));
    assert_eq!(out.stdout, b"no memory\n");
}

#[test]
fn a_program_that_stops_itself_is_still_killed() {
    let dir = crate::util::scratch();
    let mut spec = sh(dir.path(), "kill -STOP $$; echo never");
    spec.limits.wall = Duration::from_millis(200);
    let out = run(&spec);
    assert_eq!(out.limit, Some(LimitHit::Wall));
    assert_eq!(out.status, Status::Signaled(libc::SIGKILL));
    assert!(out.stdout.is_empty());
}
