//! Issue 14: a class graded as shards (`grader run --shard K/N`) and merged (`grader merge`) gives the
//! results of one run, byte for byte but for timings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::util::{grader, output_ok, repo, scratch, tournament};

/// Every file under `root` (but shard manifests), by relative path, with timings masked.
pub fn tree(root: &Path) -> BTreeMap<PathBuf, String> {
    let timing = regex::Regex::new(
        r#""(cpu-ms|wall-ms|peak-memory|micros|first-cpu-ms|second-cpu-ms)": (\d+|null)"#,
    )
    .unwrap();
    // The HTML report writes each timing in one span of class `t`.
    let page_timing = regex::Regex::new(r#"<span class="(mute )?t">[^<]*</span>"#).unwrap();
    let mut files = BTreeMap::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.file_name().is_some_and(|n| n != "shard.json") {
                let text = std::fs::read_to_string(&path).unwrap();
                let masked = timing.replace_all(&text, "\"$1\": T");
                let masked = page_timing.replace_all(&masked, "T").into_owned();
                files.insert(path.strip_prefix(root).unwrap().to_path_buf(), masked);
            }
        }
    }
    files
}

/// `grader ARGS`, which must exit 0; returns its stderr.
#[track_caller]
pub fn ok(args: &[&std::ffi::OsStr]) -> String {
    output_ok(grader().args(args)).1
}

/// Grades `class` against `suite` once into `DIR/one`, and as three shards (`DIR/shard-K`) merged
/// into `DIR/merged`; returns both trees of the suite's results and the merge's stderr.
pub fn one_and_merged(
    dir: &Path,
    suite: &Path,
    class: &Path,
) -> (BTreeMap<PathBuf, String>, BTreeMap<PathBuf, String>, String) {
    let os = |p: &Path| p.as_os_str().to_owned();
    let one = dir.join("one");
    ok(&[
        "run".as_ref(),
        &os(suite),
        &os(class),
        "--jobs".as_ref(),
        "2".as_ref(),
        "--out".as_ref(),
        &os(&one),
    ]);
    let mut merge = vec!["merge".into(), "--out".into(), os(&dir.join("merged"))];
    for k in 1..=3 {
        let out = dir.join(format!("shard-{k}"));
        let stderr = ok(&[
            "run".as_ref(),
            &os(suite),
            &os(class),
            "--shard".as_ref(),
            format!("{k}/3").as_ref(),
            "--out".as_ref(),
            &os(&out),
        ]);
        assert!(stderr.contains(&format!("shard {k}/3 of `")), "{stderr}");
        merge.push(os(&out));
    }
    let merge: Vec<&std::ffi::OsStr> = merge.iter().map(|s| s.as_os_str()).collect();
    let stderr = ok(&merge);
    let name = suite.file_name().unwrap();
    (
        tree(&dir.join("one").join(name)),
        tree(&dir.join("merged").join(name)),
        stderr,
    )
}

/// A class folder of links to the named examples of `suite`.
fn class_of(dir: &Path, suite: &str, names: &[&str]) -> PathBuf {
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    for name in names {
        let example = repo().join("examples/submissions").join(suite).join(name);
        std::os::unix::fs::symlink(example, class.join(name)).unwrap();
    }
    class
}

#[track_caller]
fn assert_same(one: &BTreeMap<PathBuf, String>, merged: &BTreeMap<PathBuf, String>) {
    let names = |t: &BTreeMap<PathBuf, String>| t.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(one), names(merged));
    for (path, text) in one {
        if text != &merged[path] {
            // The first line that differs, not two whole pages.
            let (k, (a, b)) = text
                .lines()
                .chain(std::iter::repeat(""))
                .zip(merged[path].lines().chain(std::iter::repeat("")))
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .unwrap_or((0, ("", "")));
            panic!(
                "{} differs at line {}:\n  one run: {}\n  merged:  {}",
                path.display(),
                k + 1,
                a.chars().take(400).collect::<String>(),
                b.chars().take(400).collect::<String>()
            );
        }
    }
}

#[test]
fn three_shards_merged_equal_one_run_without_a_tournament() {
    let dir = scratch();
    let class = class_of(
        dir.path(),
        "adelaide-2021-a1",
        &[
            "python-correct",
            "crashes",
            "debug-prints",
            "post-order",
            "ties-last-blank",
            "empty-file-when-no-move",
        ],
    );
    let suite = repo().join("suites/adelaide-2021-a1");
    let (one, merged, stderr) = one_and_merged(dir.path(), &suite, &class);
    assert!(
        stderr.contains("merged `adelaide-2021-a1`: 6 submissions from 3 shards"),
        "{stderr}"
    );
    assert!(one.contains_key(Path::new("grades.csv")));
    assert_eq!(one.keys().filter(|p| p.ends_with("result.json")).count(), 6);
    assert_same(&one, &merged);
    // Each shard graded a part, and no shard all of it.
    for k in 1..=3 {
        let manifest = crate::util::read(
            &dir.path()
                .join(format!("shard-{k}/adelaide-2021-a1/shard.json")),
        );
        assert!(manifest.contains(&format!("\"shard\": {k},")), "{manifest}");
        assert!(manifest.contains("\"class\": 6,"), "{manifest}");
    }
    // A shard left out is named, as is one given twice, and nothing is merged.
    let shard = |k: u32| dir.path().join(format!("shard-{k}"));
    let refused = |shards: &[PathBuf], says: &str| {
        let run = grader()
            .arg("merge")
            .arg("--out")
            .arg(dir.path().join("refused"))
            .args(shards)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(!dir
            .path()
            .join("refused/adelaide-2021-a1/grades.csv")
            .exists());
    };
    refused(
        &[shard(1), shard(3)],
        "`adelaide-2021-a1` is missing shard(s) 2/3: they did not finish, or their folders were not given",
    );
    refused(
        &[shard(1), shard(2), shard(3), shard(2)],
        "shard 2/3 of `adelaide-2021-a1` is given twice",
    );
    refused(&[dir.path().join("one")], "holds no shard's results");
    let into_itself = grader()
        .args(["merge", "--out"])
        .args([shard(1), shard(1), shard(2), shard(3)])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&into_itself.stderr);
    assert_eq!(into_itself.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is one of the shards' folders"), "{stderr}");
    // A result replaced by a link is never followed.
    let manifest = crate::util::read(&shard(1).join("adelaide-2021-a1/shard.json"));
    let first: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let student = first["students"][0]
        .as_str()
        .expect("shard 1 graded someone");
    let result = shard(1)
        .join("adelaide-2021-a1")
        .join(student)
        .join("result.json");
    std::fs::remove_file(&result).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", &result).unwrap();
    refused(&[shard(1), shard(2), shard(3)], "result.json");
}

#[test]
fn three_shards_merged_equal_one_run_with_the_class_tournament() {
    let dir = scratch();
    let class = class_of(
        dir.path(),
        "iiit-2015-ut3",
        &["c-greedy", "decent", "malformed", "random-handout"],
    );
    let suite = repo().join("suites/iiit-2015-ut3");
    let (one, merged, stderr) = one_and_merged(dir.path(), &suite, &class);
    assert!(
        stderr.contains("tournament `iiit-2015-ut3`: 3 entrants"),
        "{stderr}"
    );
    assert!(
        one[Path::new("grades.csv")].starts_with("student,plays-legally,benchmarks,tournament,")
    );
    assert!(one.contains_key(Path::new("tournament.csv")));
    assert_same(&one, &merged);
}

#[test]
fn three_shards_of_a_round_robin_merged_equal_one_tournament() {
    let dir = scratch();
    let d = dir.path();
    let suite = repo().join("suites/iiit-2015-ut3");
    let suite = suite.to_str().unwrap();
    for game in ["tictactoe", suite] {
        let event = || {
            let mut cmd = tournament(game, &["random"; 4]);
            cmd.args(["--games", "2", "--seed", "9", "--format", "round-robin"]);
            cmd
        };
        let one = d.join("one");
        let (printed, _) = output_ok(event().arg("--records").arg(&one).arg("--out").arg(&one));
        let mut merge = vec![d.join("merged")];
        for k in 1..=3 {
            let share = d.join(format!("share-{k}"));
            output_ok(
                event()
                    .args(["--shard", &format!("{k}/3"), "--records"])
                    .arg(&share),
            );
            merge.push(share);
        }
        let merge: Vec<&Path> = merge.iter().map(PathBuf::as_path).collect();
        let (merged, _) = output_ok(grader().args(["merge", "--out"]).args(&merge));
        assert_eq!(merged, printed, "{game}");
        let (one, merged) = (tree(&one), tree(merge[0]));
        // 4 players, 6 pairings, 2 games with each colour.
        assert_eq!(
            one.keys()
                .filter(|p| p.to_string_lossy().starts_with("round-robin-"))
                .count(),
            24
        );
        assert_eq!(
            game == suite,
            one.contains_key(Path::new("iiit-2015-ut3/tournament.csv"))
        );
        assert_same(&one, &merged);
        for sub in ["one", "merged", "share-1", "share-2", "share-3"] {
            std::fs::remove_dir_all(d.join(sub)).unwrap();
        }
    }
    // A game missing from its shard is named; a staged event is never shared out.
    let share = |k: u32| d.join(format!("share-{k}"));
    for k in 1..=3 {
        output_ok(
            tournament("tictactoe", &["random"; 3])
                .args(["--shard", &format!("{k}/3"), "--records"])
                .arg(share(k)),
        );
    }
    std::fs::remove_file(share(2).join("round-robin-0005.json")).unwrap();
    let run = grader()
        .args(["merge", "--out"])
        .args([d.join("merged"), share(1), share(2), share(3)])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("game 5 of 6 (`round-robin-0005.json`, shard 2/3) is missing"),
        "{stderr}"
    );
    let run = tournament("tictactoe", &["random"; 3])
        .args(["--format", "staged", "--shard", "1/2", "--records"])
        .arg(d.join("staged"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("only a round robin's games can be shared out"),
        "{stderr}"
    );
}
