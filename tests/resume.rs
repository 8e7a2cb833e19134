//! Issue 14: `grader run --resume` grades only the students whose result is not current (another
//! submission, suite, settings or grader), and a resumed class still plays its tournament over everyone.

use std::path::Path;

use crate::shard::{ok, tree};
use crate::util::{read, repo, scratch};

/// `grader run SUITE CLASS --out OUT [--resume]`; returns its stderr.
fn run(suite: &Path, class: &Path, out: &Path, resume: bool) -> String {
    let mut args = vec![
        "run".as_ref(),
        suite.as_os_str(),
        class.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ];
    if resume {
        args.push("--resume".as_ref());
    }
    ok(&args)
}

#[test]
fn resume_grades_only_what_changed_and_keeps_the_rest_byte_for_byte() {
    let dir = scratch();
    let class = dir.path().join("class");
    for (name, program) in [
        ("crash", "raise SystemExit(3)\n"),
        ("silent", "pass\n"),
        ("no-trace", "print('oxxxo-oxo')\n"),
    ] {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::write(class.join(name).join("tictactoe.py"), program).unwrap();
    }
    let suite = repo().join("suites/adelaide-2021-a1");
    let out = dir.path().join("results");
    let results = out.join("adelaide-2021-a1");
    let first = run(&suite, &class, &out, false);
    assert!(!first.contains("resume:"), "{first}");
    let print = read(&results.join("silent/input.sha256"));
    assert_eq!(print.trim().len(), 64, "{print}");
    let before = tree(&results);
    let bytes = |s: &str| std::fs::read(results.join(s).join("result.json")).unwrap();
    let (crash, silent) = (bytes("crash"), bytes("silent"));

    let again = run(&suite, &class, &out, true);
    assert!(
        again.contains("resume: 3 of 3 submissions are current"),
        "{again}"
    );
    assert_eq!(tree(&results), before);
    assert_eq!(
        bytes("crash"),
        crash,
        "a current result is not written again"
    );

    // One student hands in again; another's stored print is not what it was graded from.
    std::fs::write(class.join("silent/tictactoe.py"), "raise SystemExit(1)\n").unwrap();
    std::fs::write(results.join("crash/input.sha256"), "0000\n").unwrap();
    let changed = run(&suite, &class, &out, true);
    assert!(
        changed.contains("resume: 1 of 3 submissions are current"),
        "{changed}"
    );
    assert_ne!(bytes("silent"), silent);
    assert_ne!(read(&results.join("silent/input.sha256")), print);
    assert_eq!(read(&results.join("crash/input.sha256")).trim().len(), 64);
    let book = read(&results.join("grades.csv"));
    assert_eq!(book.lines().count(), 4, "{book}");

    // Playing every game of a case whose first two ended in the same fault can change a result: with
    // `GRADER_REPLAY_FAULTS` set, nothing graded without it is current.
    let mut copy = std::process::Command::new("cp");
    copy.arg("-r").arg(&out).arg(dir.path().join("copied"));
    assert!(copy.status().unwrap().success());
    let replayed = crate::util::grader()
        .arg("run")
        .arg(&suite)
        .arg(&class)
        .arg("--out")
        .arg(dir.path().join("copied"))
        .arg("--resume")
        .env("GRADER_REPLAY_FAULTS", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&replayed.stderr);
    assert_eq!(replayed.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("resume: 0 of 3 submissions are current"),
        "{stderr}"
    );

    // Other settings make every result stale.
    let basic = crate::util::grader()
        .arg("run")
        .arg(&suite)
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .args(["--resume", "--sandbox", "basic"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&basic.stderr);
    assert_eq!(basic.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("resume: 0 of 3 submissions are current"),
        "{stderr}"
    );
}

#[test]
fn a_resumed_class_still_plays_its_tournament_over_everyone() {
    let dir = scratch();
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    for name in ["c-greedy", "decent", "malformed"] {
        let example = repo().join("examples/submissions/iiit-2015-ut3").join(name);
        std::os::unix::fs::symlink(example, class.join(name)).unwrap();
    }
    let suite = repo().join("suites/iiit-2015-ut3");
    let out = dir.path().join("results");
    run(&suite, &class, &out, false);
    let results = out.join("iiit-2015-ut3");
    let before = tree(&results);
    assert!(before[Path::new("decent/result.json")].contains("\"tournament\""));
    let again = run(&suite, &class, &out, true);
    assert!(
        again.contains("resume: 3 of 3 submissions are current"),
        "{again}"
    );
    assert!(
        again.contains("tournament `iiit-2015-ut3`: 2 entrants"),
        "{again}"
    );
    // The marks given afresh, never twice.
    assert_eq!(tree(&results), before);
}
