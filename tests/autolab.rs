//! `grader bundle autolab`: autograde.tar and the Makefile, run end to end as Autolab runs them (the
//! two files and a handin in an empty folder, then `make`), on Adelaide examples whose marks their
//! `.expected.toml` pins; hidden cases masked in the feedback students read; the grader stripped.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{grader, repo, scratch};

const SUITE: &str = "suites/adelaide-2021-a1";

/// The marks an Adelaide example's `.expected.toml` pins (`10.17`), or `None` for full marks.
fn expected_marks(name: &str) -> Option<f64> {
    crate::bundle::expected_marks(name).map(|(marks, _)| marks)
}

fn bundle(dir: &Path, out: &Path, extra: &[&str]) {
    grader()
        .current_dir(dir)
        .args(["bundle", "autolab"])
        .arg(repo().join(SUITE))
        .arg("-o")
        .arg(out)
        .args(extra)
        .assert()
        .success();
}

/// Autolab's folder for one submission: the Makefile, autograde.tar and `handin.tar` of `example`.
fn autolab_folder(bundle: &Path, example: &str) -> tempfile::TempDir {
    let dir = scratch();
    std::fs::copy(
        bundle.join("autograde-Makefile"),
        dir.path().join("Makefile"),
    )
    .unwrap();
    std::fs::copy(
        bundle.join("autograde.tar"),
        dir.path().join("autograde.tar"),
    )
    .unwrap();
    let from = repo()
        .join("examples/submissions/adelaide-2021-a1")
        .join(example);
    let tarred = Command::new("tar")
        .arg("cf")
        .arg(dir.path().join("handin.tar"))
        .arg("-C")
        .arg(&from)
        .arg(".")
        .status()
        .unwrap();
    assert!(tarred.success());
    dir
}

/// `make` in `dir`, as Autolab runs it: its whole output (the feedback) and the autoresult line.
fn make(dir: &Path) -> (String, serde_json::Value) {
    let out = Command::new("make")
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let feedback = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.status.success(), "{feedback}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let json = serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {last}\n{feedback}"));
    (feedback, json)
}

fn tar_entries(tar: &Path) -> Vec<String> {
    let out = Command::new("tar").arg("tf").arg(tar).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_autolab_bundle_gives_the_marks_expected_md_states_and_masks_hidden_cases() {
    if !crate::bundle::toolchains_present() {
        return;
    }
    let dir = scratch();
    let out = dir.path().join("autolab");
    bundle(dir.path(), &out, &[]);
    // The same inputs give the same bytes.
    let again = dir.path().join("again");
    bundle(dir.path(), &again, &[]);
    assert!(read_bytes(&out.join("autograde.tar")) == read_bytes(&again.join("autograde.tar")));
    let entries = tar_entries(&out.join("autograde.tar"));
    for needed in [
        "autograde/grader",
        "autograde/run.sh",
        "autograde/suite/adelaide-2021-a1/suite.toml",
    ] {
        assert!(entries.iter().any(|e| e == needed), "{needed}: {entries:?}");
    }
    for example in ["python-correct", "python-typo-in-prune"] {
        let folder = autolab_folder(&out, example);
        let (feedback, json) = make(folder.path());
        let scores = json["scores"].as_object().unwrap();
        let total: f64 = scores.values().map(|v| v.as_f64().unwrap()).sum();
        let total = (total * 100.0).round() / 100.0;
        assert_eq!(json["scoreboard"][0].as_f64().unwrap(), total, "{json}");
        match expected_marks(example) {
            Some(marks) => assert_eq!(total, marks, "{example}: {feedback}"),
            None => assert_eq!(total, 15.0, "{example}: {feedback}"),
        }
        // Autolab shows the student all of it: a hidden case by its group and verdict only.
        assert!(feedback.contains("plain/handout-example"), "{feedback}");
        assert!(!feedback.contains("blank-board"), "{feedback}");
        assert!(feedback.contains("plain/hidden-1"), "{feedback}");
    }
    // `--hidden-visibility visible` shows them, and a handin file of another name is read.
    let shown = dir.path().join("shown");
    bundle(
        dir.path(),
        &shown,
        &["--hidden-visibility", "visible", "--handin", "work.tar"],
    );
    let folder = autolab_folder(&shown, "python-correct");
    std::fs::rename(
        folder.path().join("handin.tar"),
        folder.path().join("work.tar"),
    )
    .unwrap();
    let (feedback, _) = make(folder.path());
    assert!(feedback.contains("plain/blank-board"), "{feedback}");
}

fn read_bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn bundled_graders_are_stripped_of_their_debug_information() {
    let dir = scratch();
    let out = dir.path().join("autolab");
    bundle(dir.path(), &out, &[]);
    let unpacked = dir.path().join("unpacked");
    std::fs::create_dir_all(&unpacked).unwrap();
    let status = Command::new("tar")
        .arg("xf")
        .arg(out.join("autograde.tar"))
        .arg("-C")
        .arg(&unpacked)
        .status()
        .unwrap();
    assert!(status.success());
    let shipped: PathBuf = unpacked.join("autograde/grader");
    let sections = |binary: &Path| {
        let out = Command::new("objdump").arg("-h").arg(binary).output();
        out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let (Ok(ours), Ok(theirs)) = (
        sections(Path::new(env!("CARGO_BIN_EXE_grader"))),
        sections(&shipped),
    ) else {
        eprintln!("skipped: no `objdump` here (binutils)");
        return;
    };
    assert!(
        ours.contains(".debug_info"),
        "the test binary has debug information"
    );
    for section in [".debug_info", ".debug_line", ".debug_str"] {
        assert!(!theirs.contains(section), "{section}: {theirs}");
    }
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    // Smaller by what was stripped (test builds carry line tables only, so not by half any more).
    assert!(size(&shipped) < size(Path::new(env!("CARGO_BIN_EXE_grader"))));
    // Still the grader.
    let version = Command::new(&shipped).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("grader "));
}
