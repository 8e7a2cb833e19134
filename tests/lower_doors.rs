//! The lower doors of the second audit (issue 28's sixth finding): links planted in a results folder,
//! characters that reorder or break a page's text unseen, the grader's inherited descriptors, one
//! seat's processes crowding out its opponent, `--games 0`.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::util::{grader, read, repo, scratch};

/// A result of suite `s` for `student` with `summary` in its one case.
fn result(student: &str, summary: &str) -> String {
    serde_json::json!({
        "suite": "s", "student": student, "sandbox": "none",
        "build": { "status": "built", "language": "c", "log": "", "wall-ms": 0 },
        "cases": [{
            "group": "g", "name": "c", "visibility": "public", "verdict": "wrong-answer",
            "credit": 0.0, "summary": summary, "details": [], "variant": null,
            "cpu-ms": 1, "wall-ms": 1, "peak-memory": null
        }],
        "groups": [], "score": 0.0, "max": 1.0
    })
    .to_string()
}

fn results_folder(dir: &Path, students: &[(&str, &str)]) -> std::path::PathBuf {
    let results = dir.join("results/s");
    for (student, summary) in students {
        std::fs::create_dir_all(results.join(student)).unwrap();
        std::fs::write(
            results.join(student).join("result.json"),
            result(student, summary),
        )
        .unwrap();
    }
    results
}

/// `similarity.csv` (or its temporary name) planted as a link to a file the grader may write (it
/// runs as root) is replaced, never written through; an `export/` planted as a link is refused, so
/// no export lands where it points.
#[test]
fn links_planted_in_a_results_folder_are_never_written_through() {
    let dir = scratch();
    let results = results_folder(dir.path(), &[("amy", "ok"), ("bob", "ok")]);
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    std::os::unix::fs::symlink(&victim, results.join("similarity.csv")).unwrap();
    std::os::unix::fs::symlink(&victim, results.join("similarity.csv.tmp")).unwrap();
    let subs = dir.path().join("subs");
    std::fs::create_dir_all(subs.join("amy")).unwrap();
    let run = grader()
        .env("GRADER_DOLOS", dir.path().join("no-dolos"))
        .arg("similarity")
        .arg(&results)
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3), "{run:?}");
    assert_eq!(read(&victim), "precious");
    assert!(!results.join("similarity.csv").is_symlink());
    assert!(read(&results.join("similarity.csv")).starts_with("kind,student"));

    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, results.join("export")).unwrap();
    let export = grader()
        .arg("export")
        .arg(&results)
        .args(["--to", "canvas"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&export.stderr);
    assert_eq!(export.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("is a symbolic link"), "{stderr}");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
}

/// A student's folder in `--out` replaced by a link (to a folder the grader may write) is not written
/// through by the next run: the link is replaced by the grader's own folder.
#[test]
fn a_students_results_folder_planted_as_a_link_is_not_written_through() {
    let dir = scratch();
    let suite = repo().join("tests/fixtures/play-ttt");
    let class = dir.path().join("class");
    crate::util::copy_dir(
        &repo().join("tests/fixtures/play-ttt-class/good"),
        &class.join("good"),
    );
    let out = dir.path().join("results");
    let run = || {
        grader()
            .arg("run")
            .arg(&suite)
            .arg(&class)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap()
    };
    let first = run();
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    let folder = out.join("play-ttt/good");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(elsewhere.join("games")).unwrap();
    std::fs::write(elsewhere.join("games/keep.txt"), "mine").unwrap();
    std::fs::remove_dir_all(&folder).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &folder).unwrap();
    let second = run();
    assert_eq!(second.status.code(), Some(0), "{second:?}");
    assert!(!folder.is_symlink() && folder.join("result.json").is_file());
    assert_eq!(read(&elsewhere.join("games/keep.txt")), "mine");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 1);
}

/// U+200F, U+061C and U+2028 (and the other bidirectional controls and separators) a result quotes
/// never reach a page raw: each is shown escaped.
#[test]
fn bidi_marks_and_line_separators_are_escaped_on_pages() {
    let dir = scratch();
    let hidden = "rlm\u{200f}alm\u{61c}ls\u{2028}ps\u{2029}lrm\u{200e}";
    let results = results_folder(dir.path(), &[("amy", hidden), ("bob", "ok")]);
    let out = grader().arg("report").arg(&results).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    for page in [results.join("index.html"), results.join("amy/report.html")] {
        let html = read(&page);
        for c in ['\u{200f}', '\u{61c}', '\u{2028}', '\u{2029}', '\u{200e}'] {
            assert!(
                !html.contains(c),
                "{}: U+{:04X} raw",
                page.display(),
                c as u32
            );
        }
    }
    assert!(read(&results.join("amy/report.html")).contains("rlm\\u{200f}alm"));
}

/// Under `--sandbox basic` a descriptor the grader inherited without close-on-exec (from a shell or a
/// batch system) is closed before the program runs, as isolate and nsjail close every one past 2.
#[test]
fn basic_closes_the_graders_inherited_descriptors() {
    use grader::sandbox::{BasicSandbox, Sandbox, Spec, Stdin};
    let dir = scratch();
    let file = dir.path().join("secret");
    std::fs::write(&file, "s").unwrap();
    let c = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; opened without O_CLOEXEC on purpose, high so no other test reuses it.
    let fd = unsafe { libc::open(c.as_ptr(), libc::O_RDONLY) };
    assert!(fd >= 0);
    // SAFETY: `fd` is ours.
    let high = unsafe { libc::fcntl(fd, libc::F_DUPFD, 900) };
    // SAFETY: `fd` is ours.
    unsafe { libc::close(fd) };
    assert!(high >= 900);
    let mut limits = grader::config::Config::load(None).unwrap().limits;
    limits.wall = Duration::from_secs(10);
    let spec = Spec {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), "ls /proc/$$/fd".into()],
        workdir: dir.path().to_path_buf(),
        env: Vec::new(),
        stdin: Stdin::Null,
        limits,
        read_only: Vec::new(),
    };
    let sandbox: Arc<dyn Sandbox> = Arc::new(BasicSandbox);
    let outcome = sandbox.run(&spec).unwrap();
    // SAFETY: `high` is ours.
    unsafe { libc::close(high) };
    let fds: Vec<String> = String::from_utf8_lossy(&outcome.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert!(fds.contains(&"2".to_string()), "{fds:?}");
    assert!(
        !fds.contains(&high.to_string()),
        "the program got fd {high}: {fds:?}"
    );
}

/// Each seat, each run, is a cgroup of its own in every hierarchy the machine mounts, the `cpu` one
/// included (on cgroup v1 it is mounted apart from `cpuacct`): one scheduling entity with the default
/// share, whatever number of processes it starts. Read from the host, two runs' processes are in
/// two groups.
#[test]
fn each_run_is_a_cgroup_of_its_own_in_every_hierarchy() {
    use grader::sandbox::{Spec, Stdin, Tier};
    let Ok(env) = grader::grade::wire::environment(Tier::Full, false) else {
        println!("skipped: the full tier is not available here");
        return;
    };
    let dir = scratch();
    let mut limits = grader::config::Config::load(None).unwrap().limits;
    limits.wall = Duration::from_secs(10);
    let spec = |name: &str| {
        let work = dir.path().join(name);
        std::fs::create_dir_all(&work).unwrap();
        Spec {
            program: "/bin/sleep".into(),
            args: vec!["5".into()],
            workdir: work,
            env: Vec::new(),
            stdin: Stdin::Null,
            limits: limits.clone(),
            read_only: Vec::new(),
        }
    };
    let mut a = env.sandbox.spawn(&spec("a")).unwrap();
    let mut b = env.sandbox.spawn(&spec("b")).unwrap();
    let groups = |pids: Vec<i32>| -> Vec<String> {
        let pid = *pids.iter().max().expect("a live process");
        read(Path::new(&format!("/proc/{pid}/cgroup")))
            .lines()
            .filter(|l| !l.contains("name=systemd"))
            .map(str::to_string)
            .collect()
    };
    let (ga, gb) = (groups(a.pids()), groups(b.pids()));
    a.kill();
    b.kill();
    let v1 = Path::new("/sys/fs/cgroup/cpuacct/cgroup.procs").exists();
    let mut wanted = vec!["memory", "pids", "cpuacct"];
    if v1 && Path::new("/sys/fs/cgroup/cpu/cpu.shares").exists() {
        wanted.push(":cpu:");
    }
    if v1 && Path::new("/sys/fs/cgroup/freezer/cgroup.procs").exists() {
        wanted.push("freezer");
    }
    for c in if v1 { wanted } else { vec!["0::"] } {
        let line = |g: &[String]| {
            g.iter()
                .find(|l| l.contains(c))
                .cloned()
                .unwrap_or_default()
        };
        let (la, lb) = (line(&ga), line(&gb));
        assert!(la.contains("/grader/"), "{c}: {ga:?}");
        assert_ne!(la, lb, "{c}: the two runs share a group");
    }
}

#[test]
fn play_refuses_zero_games() {
    let out = grader()
        .args(["play", "tictactoe", "random", "random", "--games", "0"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--games"), "{stderr}");
}
