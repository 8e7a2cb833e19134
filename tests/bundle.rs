//! `grader bundle` and `grader kit`: Gradescope's zip and PrairieLearn's folders unpacked and run end
//! to end with their root moved to a temporary folder, on Adelaide examples whose marks their
//! `.expected.toml` pins; and a student kit that holds no hidden case's arguments or expected outputs.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{grader, read, repo, scratch};

const SUITE: &str = "suites/adelaide-2021-a1";

/// The suite's toolchains are here, or the test says why it is skipped (`run_autograder` would refuse
/// to grade, as it must, and setup would need the network to install them).
pub(crate) fn toolchains_present() -> bool {
    let out = grader()
        .arg("doctor")
        .arg(repo().join(SUITE))
        .output()
        .unwrap();
    if !out.status.success() {
        eprintln!(
            "skipped: a toolchain the Adelaide suite needs is missing here:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    out.status.success()
}

/// The marks the Adelaide example `name` must get out of 15 (`10.17`, `15.0`), as its
/// `.expected.toml` pins them (the tic-tac-toe examples are undergraduates' hand-ins), or `None` for
/// full marks.
pub(crate) fn expected_marks(name: &str) -> Option<(f64, f64)> {
    use grader::author::verify::{file_for, Expected};
    let file = file_for(
        &repo()
            .join("examples/submissions/adelaide-2021-a1")
            .join(name),
    );
    let total = Expected::read(&file)
        .unwrap_or_else(|e| panic!("{e}"))
        .total
        .unwrap_or_else(|| panic!("`{}` pins no total", file.display()));
    (total < 15.0).then_some((total, 15.0))
}

/// Copies the files of an example hand-in (flat folders) into `to`.
fn copy_example(name: &str, to: &Path) {
    let from = repo()
        .join("examples/submissions/adelaide-2021-a1")
        .join(name);
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Extracts `zip` into `to` (modes kept), returning each entry's name and Unix mode.
fn unzip(zip: &Path, to: &Path) -> Vec<(String, u32)> {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(zip).unwrap()).unwrap();
    let names = (0..archive.len())
        .map(|i| {
            let f = archive.by_index(i).unwrap();
            (f.name().to_string(), f.unix_mode().unwrap_or(0) & 0o777)
        })
        .collect();
    archive.extract(to).unwrap();
    names
}

/// Runs the script at `path` with `var` set to `root`; it must exit 0.
#[track_caller]
fn run_script(path: &Path, var: &str, root: &Path) -> String {
    let out = Command::new(path)
        .env(var, root)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{} failed:\n{text}", path.display());
    text
}

/// `/autograder` as Gradescope lays it out for one submission: the zip in `source/`, `run_autograder`
/// copied beside it, the submission in `submission/`.
fn gradescope_root(zip: &Path, example: &str) -> (tempfile::TempDir, Vec<(String, u32)>) {
    let root = scratch();
    let entries = unzip(zip, &root.path().join("source"));
    std::fs::copy(
        root.path().join("source/run_autograder"),
        root.path().join("run_autograder"),
    )
    .unwrap();
    copy_example(example, &root.path().join("submission"));
    (root, entries)
}

#[test]
fn the_gradescope_bundle_gives_the_marks_expected_md_states() {
    if !toolchains_present() {
        return;
    }
    let dir = scratch();
    let bundle = |zip: &Path| {
        grader()
            .current_dir(dir.path())
            .args(["bundle", "gradescope"])
            .arg(repo().join(SUITE))
            .arg("-o")
            .arg(zip)
            .args(["--hidden-visibility", "after_published"])
            .assert()
            .success();
    };
    let zip = dir.path().join("autograder.zip");
    bundle(&zip);
    // The same inputs give the same bytes.
    let again = dir.path().join("again.zip");
    bundle(&again);
    assert!(std::fs::read(&zip).unwrap() == std::fs::read(&again).unwrap());
    let mut total_max = None;
    for example in ["python-correct", "python-typo-in-prune"] {
        let (root, entries) = gradescope_root(&zip, example);
        let root = root.path();
        // Gradescope's two scripts at the zip's root, executable; the grader and the whole suite.
        assert_eq!(entries[0], ("setup.sh".to_string(), 0o755));
        assert_eq!(entries[1], ("run_autograder".to_string(), 0o755));
        assert!(entries.contains(&("grader".to_string(), 0o755)));
        assert!(entries
            .iter()
            .any(|(n, _)| n == "suite/adelaide-2021-a1/golden/prune-blank-board.visited"));
        // Setup twice: the second run finds everything in place (no network, no apt).
        let setup = root.join("source/setup.sh");
        run_script(&setup, "AUTOGRADER_ROOT", root);
        let again = run_script(&setup, "AUTOGRADER_ROOT", root);
        assert!(
            again.contains("every toolchain the suites need is here"),
            "{again}"
        );
        // Gradescope keeps run_autograder's output for the instructor: every case is in it.
        let log = run_script(&root.join("run_autograder"), "AUTOGRADER_ROOT", root);
        assert!(log.contains("plain/blank-board"), "{log}");
        let json: serde_json::Value =
            serde_json::from_str(&read(&root.join("results/results.json"))).unwrap();
        let tests = json["tests"].as_array().unwrap();
        let score = json["score"].as_f64().unwrap();
        let sum: f64 = tests.iter().map(|t| t["score"].as_f64().unwrap()).sum();
        let max: f64 = tests.iter().map(|t| t["max_score"].as_f64().unwrap()).sum();
        let round = |p: f64| (p * 100.0).round() / 100.0;
        assert_eq!(round(sum), score, "{json:#}");
        match expected_marks(example) {
            Some((marks, most)) => {
                assert_eq!(score, marks, "{example}: {json:#}");
                assert_eq!(round(max), most);
                total_max = Some(most);
            }
            None => {
                assert_eq!(score, round(max), "{example} is correct: {json:#}");
                assert!(tests.iter().all(|t| t["status"] == "passed"), "{json:#}");
            }
        }
        // Visibility kept: the suite's public cases are visible, its hidden ones after publication.
        let shown = |name: &str| {
            tests.iter().find(|t| t["name"] == name).unwrap()["visibility"]
                .as_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(shown("plain/handout-example"), "visible");
        assert_eq!(shown("plain/blank-board"), "after_published");
    }
    assert_eq!(total_max, Some(15.0));
}

#[test]
fn the_prairielearn_bundle_grades_under_grade_and_hides_hidden_cases() {
    if !toolchains_present() {
        return;
    }
    let dir = scratch();
    let out = dir.path().join("pl");
    grader()
        .current_dir(dir.path())
        .args(["bundle", "prairielearn"])
        .arg(repo().join(SUITE))
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let info: serde_json::Value = serde_json::from_str(&read(&out.join("info.json"))).unwrap();
    let options = &info["externalGradingOptions"];
    assert_eq!(options["entrypoint"], "/grade/tests/run.sh");
    assert_eq!(options["serverFilesCourse"][0], "grader/");
    // PrairieLearn mounts the question's `tests/` and the course's `serverFilesCourse/` under /grade,
    // with the student's files in /grade/student.
    let root = dir.path().join("grade");
    let copy = |from: &Path, to: &Path| {
        let status = Command::new("cp")
            .arg("-a")
            .arg(from)
            .arg(to)
            .status()
            .unwrap();
        assert!(status.success());
    };
    std::fs::create_dir_all(&root).unwrap();
    copy(&out.join("tests"), &root.join("tests"));
    copy(
        &out.join("serverFilesCourse"),
        &root.join("serverFilesCourse"),
    );
    copy_example("python-typo-in-prune", &root.join("student"));
    run_script(
        &root.join("serverFilesCourse/grader/setup.sh"),
        "GRADE_ROOT",
        &root,
    );
    // PrairieLearn shows the job's output to the student: nothing of a hidden case in it.
    let log = run_script(&root.join("tests/run.sh"), "GRADE_ROOT", &root);
    assert!(!log.contains("blank-board"), "{log}");
    let json: serde_json::Value =
        serde_json::from_str(&read(&root.join("results/results.json"))).unwrap();
    let (marks, most) = expected_marks("python-typo-in-prune").unwrap();
    assert_eq!(json["gradable"], true);
    let score = json["score"].as_f64().unwrap();
    assert!((score - marks / most).abs() < 1e-9, "{json:#}");
    let tests = json["tests"].as_array().unwrap();
    assert!(tests.iter().any(|t| t["name"] == "plain/handout-example"));
    // A hidden case shows its group and points, never its name or output.
    let text = json.to_string();
    assert!(!text.contains("blank-board"), "{json:#}");
    assert!(!text.contains("interesting-2"), "{json:#}");
}

/// Every hidden case's arguments and expected outputs in `suite` (goldens read from files, the rest
/// from `grader solve`), less those a public case shares.
fn hidden_secrets(suite: &Path) -> Vec<String> {
    let text = read(&suite.join("suite.toml"));
    let table: toml::Table = text.parse().unwrap();
    let mut public = Vec::new();
    let mut hidden = Vec::new();
    for group in table["groups"].as_array().unwrap() {
        let default = group
            .get("visibility")
            .and_then(|v| v.as_str())
            .unwrap_or("hidden");
        for case in group["cases"].as_array().unwrap() {
            let visibility = case
                .get("visibility")
                .and_then(|v| v.as_str())
                .unwrap_or(default);
            let mut secrets = Vec::new();
            if let Some(args) = case.get("args") {
                secrets.push(args.to_string());
            }
            if let Some(position) = case.get("position") {
                secrets.push(position["state"].as_str().unwrap().to_string());
            }
            let expects = case.get("stdout").into_iter().chain(
                case.get("files")
                    .into_iter()
                    .flat_map(|f| f.as_table().unwrap().values().collect::<Vec<_>>()),
            );
            for expect in expects {
                if let Some(golden) = expect.get("golden") {
                    secrets.push(read(&suite.join(golden.as_str().unwrap())));
                } else if expect.get("reference").is_some() {
                    secrets.extend(solve(case["args"].as_array().unwrap()));
                }
            }
            if visibility == "public" {
                public.extend(secrets);
            } else {
                hidden.extend(secrets);
            }
        }
    }
    hidden.retain(|s| !s.trim().is_empty() && !public.contains(s));
    hidden.sort();
    hidden.dedup();
    hidden
}

/// The reference's stdout and visited file for a case's `args` (`{work}/visited.txt` → a scratch path).
fn solve(args: &[toml::Value]) -> Vec<String> {
    let dir = scratch();
    let path = dir.path().join("visited.txt");
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            let a = a.as_str().unwrap();
            if a.contains("visited.txt") {
                path.display().to_string()
            } else {
                a.to_string()
            }
        })
        .collect();
    let out = grader()
        .args(["solve", "tictactoe"])
        .args(&args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    let mut found = vec![String::from_utf8(out.stdout).unwrap()];
    if let Ok(text) = std::fs::read_to_string(&path) {
        found.push(text);
    }
    found
}

/// Every file under `dir`, with its bytes as text.
fn files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                out.push((p, text));
            }
        }
    }
    out
}

#[test]
fn the_student_kit_holds_no_hidden_case_and_checks_a_correct_example() {
    let suite = repo().join(SUITE);
    let dir = scratch();
    let kit = dir.path().join("adelaide-2021-a1");
    grader()
        .args(["kit"])
        .arg(&suite)
        .arg("-o")
        .arg(&kit)
        .assert()
        .success();
    let secrets = hidden_secrets(&suite);
    // The hidden traces and boards, and every hidden board: not one may be in the kit.
    assert!(secrets.len() > 30, "{}", secrets.len());
    let kit_files = files(&kit);
    for secret in &secrets {
        for (path, text) in &kit_files {
            assert!(
                !text.contains(secret.as_str()),
                "`{}` holds a hidden case's `{}`",
                path.display(),
                secret.lines().next().unwrap_or("")
            );
        }
    }
    if !toolchains_present() {
        return;
    }
    let check = grader()
        .arg("check")
        .arg(&kit)
        .arg(repo().join("examples/submissions/adelaide-2021-a1/python-correct"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(
            "score: 15/15 points on the 6 public cases (6 passed); the grade also counts"
        ),
        "{stdout}"
    );
}

#[test]
fn every_shipped_suite_has_a_kit_without_its_hidden_golden_files() {
    for entry in std::fs::read_dir(repo().join("suites")).unwrap() {
        let suite = entry.unwrap().path();
        if !suite.join("suite.toml").is_file() {
            continue;
        }
        let dir = scratch();
        let kit = dir.path().join(suite.file_name().unwrap());
        grader()
            .arg("kit")
            .arg(&suite)
            .arg("-o")
            .arg(&kit)
            .assert()
            .success();
        grader().arg("validate").arg(&kit).assert().success();
        let table: toml::Table = read(&kit.join("suite.toml")).parse().unwrap();
        for group in table["groups"].as_array().unwrap() {
            for case in group["cases"].as_array().unwrap() {
                let visibility = case
                    .get("visibility")
                    .or_else(|| group.get("visibility"))
                    .and_then(|v| v.as_str());
                assert_eq!(visibility, Some("public"), "{}: {case}", suite.display());
            }
        }
    }
}

/// A suite whose only language needs Python 2, with a `grader.toml` that points it nowhere, and a
/// submission for it: the machine cannot grade (after `tests/run.rs`'s `missing_python2`).
fn python2_nowhere(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let suite = dir.join("py2only");
    std::fs::create_dir_all(suite.join("golden")).unwrap();
    std::fs::write(suite.join("golden/hello.stdout"), "hello\n").unwrap();
    std::fs::write(
        suite.join("suite.toml"),
        "title = \"Echo\"\nseed = 1\n[[languages]]\nname = \"python\"\ndetect = [\"echo.py\"]\nrun = [\"python3\", \"{dir}/echo.py\"]\nversions = [\"2\"]\n[[groups]]\nname = \"basic\"\npoints = 3\n[[groups.cases]]\nname = \"hello\"\nargs = [\"hello\"]\nstdout = { golden = \"golden/hello.stdout\" }\n",
    )
    .unwrap();
    let submission = dir.join("submission");
    std::fs::create_dir_all(&submission).unwrap();
    std::fs::write(
        submission.join("echo.py"),
        "import sys\nprint sys.argv[1]\n",
    )
    .unwrap();
    let config = dir.join("grader.toml");
    std::fs::write(&config, "[toolchains]\npython2 = \"no/such/python2.7\"\n").unwrap();
    (suite, submission, config)
}

#[test]
fn the_machines_fault_is_no_score_on_gradescope_and_not_gradable_on_prairielearn() {
    let dir = scratch();
    let (suite, submission, config) = python2_nowhere(dir.path());
    for allow_missing in [false, true] {
        for to in ["gradescope", "prairielearn"] {
            let out = dir.path().join(format!("{to}-{allow_missing}.json"));
            let mut cmd = grader();
            cmd.arg("autograde")
                .arg(&suite)
                .arg(&submission)
                .args(["--to", to])
                .arg("--out")
                .arg(&out)
                .arg("--config")
                .arg(&config);
            if allow_missing {
                cmd.arg("--allow-missing");
            }
            let run = cmd.output().unwrap();
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert_eq!(run.status.code(), Some(3), "{to}: {stderr}");
            assert!(stderr.contains("python2"), "{stderr}");
            if to == "gradescope" {
                assert!(!out.exists(), "{to} got a score the machine caused");
            } else {
                let json: serde_json::Value = serde_json::from_str(&read(&out)).unwrap();
                assert_eq!(json["gradable"], false, "{json:#}");
            }
        }
    }
}

#[test]
fn setup_builds_a_shipped_source_once_and_then_finds_the_grader_in_place() {
    if !toolchains_present() {
        return;
    }
    let dir = scratch();
    let zip = dir.path().join("autograder.zip");
    let made = grader()
        .current_dir(dir.path())
        .args(["bundle", "gradescope"])
        .arg(repo().join(SUITE))
        .arg("-o")
        .arg(&zip)
        .arg("--source")
        .arg(repo())
        .assert()
        .success();
    let said = String::from_utf8_lossy(&made.get_output().stderr).into_owned();
    assert!(said.contains("built by the setup script"), "{said}");
    let (root, entries) = gradescope_root(&zip, "python-correct");
    let root = root.path();
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert!(!names.contains(&"grader"), "{names:?}");
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "src/main.rs",
        "reference/Cargo.toml",
    ] {
        assert!(
            names.contains(&format!("grader-src/{needed}").as_str()),
            "{needed}"
        );
    }
    assert!(!names
        .iter()
        .any(|n| n.contains("/target/") || n.contains("examples/submissions")));
    // A stand-in for `cargo build` that puts the grader under test where a build would, and logs
    // each call: the real build is minutes, and what is tested here is the script around it.
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.path().join("cargo.log");
    let fake = bin.join("cargo");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{log}'\nwhile [ \"$1\" != --manifest-path ]; do shift; done\nout=\"$(dirname \"$2\")/target/release\"\nmkdir -p \"$out\" && cp '{real}' \"$out/grader\"\n",
            log = log.display(),
            real = env!("CARGO_BIN_EXE_grader"),
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    for _ in 0..2 {
        let out = Command::new(root.join("source/setup.sh"))
            .env("AUTOGRADER_ROOT", root)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let calls = read(&log);
    assert_eq!(calls.lines().count(), 1, "{calls}");
    assert!(
        calls.starts_with("build --release --locked --manifest-path ")
            && calls
                .trim_end()
                .ends_with("grader-src/Cargo.toml --bin grader"),
        "{calls}"
    );
    run_script(&root.join("run_autograder"), "AUTOGRADER_ROOT", root);
    let json: serde_json::Value =
        serde_json::from_str(&read(&root.join("results/results.json"))).unwrap();
    assert_eq!(json["score"], 15.0, "{json:#}");
}

#[test]
fn a_kit_is_named_after_its_suite_and_warns_when_it_checks_nothing() {
    let dir = scratch();
    let (suite, _, _) = python2_nowhere(dir.path());
    // No public case and no `[arena]`: the kit would hold no group; said, and nothing is written.
    let here = dir.path().join("here");
    std::fs::create_dir_all(&here).unwrap();
    let made = grader()
        .current_dir(&here)
        .arg("kit")
        .arg(&suite)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&made.stderr).into_owned();
    assert_eq!(made.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("warning: `py2only` has no public case"),
        "{stderr}"
    );
    assert!(stderr.contains("none was written"), "{stderr}");
    assert!(!here.join("py2only").exists());
    // Without `-o`, a folder named as the suite.
    grader()
        .current_dir(&here)
        .arg("kit")
        .arg(repo().join(SUITE))
        .assert()
        .success();
    assert!(here.join("adelaide-2021-a1/kit.toml").is_file());
    // Under another name it is still the suite's kit, with a guide written from it.
    let elsewhere = dir.path().join("kit-copy");
    grader()
        .arg("kit")
        .arg(repo().join(SUITE))
        .arg("-o")
        .arg(&elsewhere)
        .assert()
        .success();
    let guide = read(&elsewhere.join("README.md"));
    assert!(guide.starts_with("# Adelaide AI 2021 A1"), "{guide}");
    assert!(
        guide.contains("`grader check kit-copy path/to/your/folder`"),
        "{guide}"
    );
    assert!(guide.contains("pip install grader-student"), "{guide}");
    assert!(guide.contains("hidden cases"), "{guide}");
    assert!(guide.contains("`tictactoe.py`"), "{guide}");
    assert!(
        !guide.contains("blank-board") && !guide.contains("xo--x----"),
        "{guide}"
    );
    let validate = grader().arg("validate").arg(&elsewhere).output().unwrap();
    let said =
        String::from_utf8_lossy(&validate.stdout) + String::from_utf8_lossy(&validate.stderr);
    assert!(said.contains("adelaide-2021-a1"), "{said}");
    assert!(!said.contains("kit-copy"), "{said}");
}
