//! `grader bundle github-classroom`: the starter repository's workflow parsed, and its steps' commands
//! run in a temporary repository here as GitHub Actions runs them (`bash -eo pipefail`, step outputs
//! through `$GITHUB_OUTPUT`); the actions it uses are played by hand: checkout (the repository is in
//! place), setup-python (a fresh virtual environment) and Classroom's reporter (its sum of the runners'
//! scores). The install step runs unchanged when the wheel is built (`GRADER_STUDENT_DIST`), with pip
//! pointed at it; otherwise the instructor's build stands in for it, said.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use yaml_rust2::{Yaml, YamlLoader};

use crate::util::{copy_dir, grader, read, repo, scratch};

const SUITE: &str = "suites/adelaide-2021-a1";
const REPORTER: &str = "classroom-resources/autograding-grading-reporter@v1";

/// `${{ steps.check.outputs.NAME }}` in `text`, from the step outputs.
fn expand(text: &str, outputs: &BTreeMap<String, String>) -> String {
    regex::Regex::new(r"\$\{\{\s*steps\.check\.outputs\.([A-Za-z0-9_-]+)\s*\}\}")
        .unwrap()
        .replace_all(text, |c: &regex::Captures| {
            outputs.get(&c[1]).cloned().unwrap_or_default()
        })
        .into_owned()
}

/// `name=value` lines, as GitHub reads `$GITHUB_OUTPUT`.
fn outputs(file: &Path) -> BTreeMap<String, String> {
    read(file)
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// What the reporter does with the runners: decode each `<RUNNER>_RESULTS` and add up the tests'
/// scores and the runners' `max_score` (its `NotifyClassroom`), and whether any runner failed.
fn report(step: &Yaml, outputs: &BTreeMap<String, String>) -> (f64, f64, bool) {
    let env: BTreeMap<String, String> = step["env"]
        .as_hash()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().unwrap().to_string(),
                expand(v.as_str().unwrap(), outputs),
            )
        })
        .collect();
    let runners = expand(step["with"]["runners"].as_str().unwrap(), outputs);
    let (mut score, mut max, mut failed) = (0.0, 0.0, false);
    for runner in runners.split(',') {
        let var = format!("{}_RESULTS", runner.trim().to_uppercase());
        let encoded = env
            .get(&var)
            .unwrap_or_else(|| panic!("no `{var}` in {env:?}"));
        let json = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .unwrap();
        let results: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(results["version"], 1);
        max += results["max_score"].as_f64().unwrap();
        failed |= results["status"] == "fail";
        for test in results["tests"].as_array().unwrap() {
            score += test["score"].as_f64().unwrap();
            assert!(test["name"].as_str().unwrap().starts_with(runner.trim()));
        }
    }
    (score, max, failed)
}

/// The starter repository with `example`'s files at its top, as a student pushes it.
fn repository(starter: &Path, example: &str, into: &Path) -> PathBuf {
    let repo_dir = into.join("repo");
    copy_dir(starter, &repo_dir);
    copy_dir(
        &repo()
            .join("examples/submissions/adelaide-2021-a1")
            .join(example),
        &repo_dir,
    );
    repo_dir
}

/// Runs the workflow's steps in `repo_dir`; returns the reporter's (score, max, failed).
fn run_steps(workflow: &Yaml, repo_dir: &Path, scratch_dir: &Path) -> (f64, f64, bool) {
    let steps = workflow["jobs"]["run-autograding-tests"]["steps"]
        .as_vec()
        .unwrap();
    let github_output = scratch_dir.join("github_output");
    std::fs::write(&github_output, "").unwrap();
    let bin = scratch_dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let wheel = std::env::var_os("GRADER_STUDENT_DIST").filter(|d| !d.is_empty());
    let mut path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let tools = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    for step in steps {
        let uses = step["uses"].as_str().unwrap_or_default();
        if uses.starts_with("actions/checkout@") {
            continue;
        }
        if uses.starts_with("actions/setup-python@") {
            // Outside /tmp, as the runner's tool cache is: the full sandbox gives each run a /tmp
            // of its own, where an interpreter under the host's /tmp is not.
            let venv = tools.path().join("venv");
            let made = Command::new("python3")
                .args(["-m", "venv"])
                .arg(&venv)
                .status()
                .unwrap();
            assert!(made.success());
            path = format!("{}:{path}", venv.join("bin").display());
            continue;
        }
        if uses == REPORTER {
            return report(step, &outputs(&github_output));
        }
        assert!(uses.is_empty(), "an action this test cannot play: {uses}");
        let script = step["run"].as_str().unwrap();
        let installs = step["name"].as_str() == Some("Install the grader");
        if installs && wheel.is_none() {
            eprintln!("note: no wheel built (GRADER_STUDENT_DIST): the instructor's build stands in for `{}`", script.trim());
            std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_grader"), bin.join("grader")).unwrap();
            continue;
        }
        let mut cmd = Command::new("bash");
        cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(repo_dir)
            .env("PATH", &path)
            .env("GITHUB_OUTPUT", &github_output)
            .env("NO_COLOR", "1");
        if let Some(dist) = &wheel {
            cmd.env("PIP_NO_INDEX", "1").env("PIP_FIND_LINKS", dist);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "step `{}` failed:\n{}{}",
            step["name"].as_str().unwrap_or("?"),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    panic!("the workflow has no reporter step");
}

#[test]
fn the_classroom_workflow_runs_here_and_reports_each_groups_points() {
    if !crate::bundle::toolchains_present() {
        return;
    }
    let dir = scratch();
    let starter = dir.path().join("starter");
    let made = grader()
        .args(["bundle", "github-classroom"])
        .arg(repo().join(SUITE))
        .arg("-o")
        .arg(&starter)
        .assert()
        .success();
    let said = String::from_utf8_lossy(&made.get_output().stderr).into_owned();
    assert!(
        said.contains("hidden cases are not in the starter repository"),
        "{said}"
    );
    let text = read(&starter.join(".github/workflows/classroom.yml"));
    let workflow = YamlLoader::load_from_str(&text).unwrap().remove(0);
    // The shape Classroom's own workflows have.
    assert_eq!(workflow["name"].as_str(), Some("Autograding Tests"));
    assert_eq!(workflow["on"][0].as_str(), Some("push"));
    assert_eq!(workflow["permissions"]["checks"].as_str(), Some("write"));
    let job = &workflow["jobs"]["run-autograding-tests"];
    assert_eq!(job["runs-on"].as_str(), Some("ubuntu-latest"));
    let steps = job["steps"].as_vec().unwrap();
    let reporter = steps.last().unwrap();
    assert_eq!(reporter["uses"].as_str(), Some(REPORTER));
    // A runner per group of the kit; none for a group with no public case.
    let env = reporter["env"].as_hash().unwrap();
    let has = |key: &str| env.contains_key(&Yaml::String(key.to_string()));
    for group in ["PLAIN", "PRUNE", "PLY", "NO-MOVE"] {
        assert!(has(&format!("{group}_RESULTS")), "{group}: {env:?}");
    }
    assert!(!has("MORRIS-PLAY_RESULTS"));
    // The kit holds no hidden case.
    assert!(!starter
        .join(".grader/adelaide-2021-a1/golden/prune-blank-board.visited")
        .exists());
    for example in ["python-correct", "python-typo-in-prune"] {
        let run = scratch();
        let repo_dir = repository(&starter, example, run.path());
        let (score, max, failed) = run_steps(&workflow, &repo_dir, run.path());
        // The same points `grader check` gives on the kit.
        let check = grader()
            .args(["check", "--json"])
            .arg(repo_dir.join(".grader/adelaide-2021-a1"))
            .arg(&repo_dir)
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
        let round = |p: f64| (p * 100.0).round() / 100.0;
        assert_eq!(
            round(score),
            round(json["score"].as_f64().unwrap()),
            "{example}"
        );
        assert_eq!(
            round(max),
            round(json["max"].as_f64().unwrap()),
            "{example}"
        );
        assert_eq!(failed, example != "python-correct", "{example}");
        if example == "python-correct" {
            assert_eq!((round(score), round(max)), (15.0, 15.0));
        } else {
            assert!(score < max, "{score}/{max}");
        }
    }
}
