//! `grader run` against hostile students: what one leaves behind never stops the class, and a grader
//! killed with SIGKILL takes its runs along, its scratch going at the next start.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{grader, read, repo, scratch};

const SUITE: &str = "suites/adelaide-2021-a1";

/// `grader run SUITE STUDENTS` under `tier` with `config`, one job (students in name order); the
/// suite's results folder.
fn run_class(dir: &Path, students: &Path, tier: &str, config: &str) -> PathBuf {
    let out = dir.join("results");
    let config_path = dir.join("grader.toml");
    std::fs::write(&config_path, config).unwrap();
    let run = grader()
        .arg("run")
        .arg(repo().join(SUITE))
        .arg(students)
        .arg("--out")
        .arg(&out)
        .arg("--config")
        .arg(&config_path)
        .args(["--jobs", "1", "--sandbox", tier])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{tier}: {stderr}");
    out.join("adelaide-2021-a1")
}

fn student(students: &Path, name: &str, program: &str) {
    std::fs::create_dir_all(students.join(name)).unwrap();
    std::fs::write(students.join(name).join("tictactoe.py"), program).unwrap();
}

/// A program that runs `attack` (indented Python) in the case `handout-example` only, one case being
/// enough to prove the point, and does nothing in the others.
fn in_one_case(attack: &str) -> String {
    format!("import os, sys\nif sys.argv[1:2] == ['oxxxo-ox-']:\n{attack}")
}

/// Makes a chain of folders `depth` deep in the working directory (past PATH_MAX), then exits 0.
fn deep(depth: usize) -> String {
    in_one_case(&format!(
        "    for _ in range({depth}):\n        os.mkdir('d')\n        os.chdir('d')\n"
    ))
}

#[test]
fn a_deep_chain_and_locked_folders_first_do_not_stop_the_class() {
    for tier in ["full", "basic"] {
        let dir = scratch();
        let students = dir.path().join("students");
        student(&students, "a-deep", &deep(30_000));
        student(
            &students,
            "b-locked",
            &in_one_case(
                "    os.makedirs('locked/inner')\n    open('locked/inner/f', 'w').close()\n    os.chmod('locked/inner', 0)\n    os.chmod('locked', 0)\n",
            ),
        );
        student(&students, "c-silent", "pass\n");
        // Room for the whole chain on the submission's tmpfs (under full).
        let results = run_class(dir.path(), &students, tier, "[scratch]\ninodes = 100000\n");
        let book = read(&results.join("grades.csv"));
        let rows: Vec<&str> = book.lines().skip(1).collect();
        assert_eq!(rows.len(), 3, "{tier}: {book}");
        assert!(
            rows[2].starts_with("c-silent,") && rows[2].ends_with(",2"),
            "{tier}: {book}"
        );
        let silent: serde_json::Value =
            serde_json::from_str(&read(&results.join("c-silent/result.json"))).unwrap();
        assert_eq!(silent["score"], 2.0, "{tier}");
        // The chain was made: its case ran to the end (and then failed on the missing trace).
        let deep: serde_json::Value =
            serde_json::from_str(&read(&results.join("a-deep/result.json"))).unwrap();
        let case = deep["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "handout-example")
            .unwrap();
        assert_ne!(case["verdict"], "runtime-error", "{tier}: {case}");
    }
}

#[test]
fn a_million_tiny_files_stop_at_the_scratch_inode_cap() {
    let dir = scratch();
    let students = dir.path().join("students");
    student(
        &students,
        "tiny",
        &in_one_case("    for i in range(1000000):\n        open('f%d' % i, 'w').close()\n"),
    );
    let results = run_class(dir.path(), &students, "full", "[scratch]\ninodes = 2000\n");
    let result: serde_json::Value =
        serde_json::from_str(&read(&results.join("tiny/result.json"))).unwrap();
    let case = result["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "handout-example")
        .unwrap();
    assert_eq!(case["verdict"], "runtime-error", "{case}");
    assert!(
        case["details"]
            .to_string()
            .contains("No space left on device"),
        "{case}"
    );
}

/// Processes whose command line holds `needle`, zombies aside.
fn processes_with(needle: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let hay = String::from_utf8_lossy(&cmdline);
        if pid != me && hay.contains(needle) {
            found.push(pid);
        }
    }
    found
}

/// The scratch folders of grader `pid` in the temporary folder.
fn scratch_of(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("grader-run-{pid}-");
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

fn wait_for(within: Duration, mut ok: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + within;
    loop {
        if ok() {
            return true;
        }
        if Instant::now() > end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn start_grader(dir: &Path, students: &Path, tier: &str, token: &str) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("grader"))
        .arg("run")
        .arg(repo().join(SUITE))
        .arg(students)
        .arg("--out")
        .arg(dir.join(token))
        .args(["--jobs", "1", "--sandbox", tier])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn a_grader_killed_with_sigkill_takes_its_runs_along_and_its_scratch_goes_at_the_next_start() {
    for tier in ["full", "basic"] {
        let dir = scratch();
        let students = dir.path().join("students");
        student(&students, "sleeper", "import time\ntime.sleep(1000)\n");
        let token = format!("out-{tier}-{}", std::process::id());
        let mut grader_run = start_grader(dir.path(), &students, tier, &token);
        let pid = grader_run.id();
        // The program's command line names its build folder, in the grader's scratch.
        let marker = format!("grader-run-{pid}-");
        assert!(
            wait_for(Duration::from_secs(60), || !processes_with(&marker)
                .is_empty()),
            "{tier}: the sleeper never started"
        );
        // SAFETY: kill has no memory-safety preconditions; `pid` is our unreaped child.
        unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        grader_run.wait().unwrap();
        // Under full the init, a copy of the grader, shows the grader's command line (the token).
        let gone = wait_for(Duration::from_secs(2), || {
            processes_with(&marker).is_empty() && processes_with(&token).is_empty()
        });
        assert!(
            gone,
            "{tier}: left alive: {:?} {:?}",
            processes_with(&marker),
            processes_with(&token)
        );
        let left = scratch_of(pid);
        assert_eq!(left.len(), 1, "{tier}: the dead grader's scratch: {left:?}");
        // The next grader start sweeps it.
        let next = dir.path().join("next");
        student(&next, "silent", "pass\n");
        run_class(dir.path(), &next, tier, "");
        assert!(
            scratch_of(pid).is_empty(),
            "{tier}: {left:?} is still there"
        );
    }
}
