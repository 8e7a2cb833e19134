//! `grader completions` and `grader man`: generated from the parser itself, so they name every command
//! and flag there is.

use crate::util::{grader, scratch};

const COMMANDS: [&str; 12] = [
    "solve",
    "run",
    "check",
    "doctor",
    "validate",
    "golden",
    "play",
    "tournament",
    "calibrate",
    "bundle",
    "kit",
    "autograde",
];

#[test]
fn bash_completion_names_every_command_and_is_valid_bash() {
    let out = grader().args(["completions", "bash"]).assert().success();
    let script = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for c in COMMANDS {
        assert!(script.contains(c), "no `{c}` in the completion script");
    }
    assert!(
        script.contains("--no-tournament"),
        "run's flags are completed"
    );
    assert!(script.contains("complete -F"), "{script}");
    // The script must parse: `bash -n` reads it without running it.
    let dir = scratch();
    let file = dir.path().join("grader.bash");
    std::fs::write(&file, &script).unwrap();
    match std::process::Command::new("bash")
        .arg("-n")
        .arg(&file)
        .output()
    {
        Ok(o) => assert!(
            o.status.success(),
            "bash rejects the script: {}",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => eprintln!("skipped the `bash -n` check: no bash here ({e})"),
    }
}

#[test]
fn every_shell_gets_a_script_and_an_unknown_one_is_a_usage_error() {
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = grader().args(["completions", shell]).assert().success();
        let script = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(script.contains("tournament"), "{shell}: {script}");
    }
    grader()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("tcsh"));
}

#[test]
fn the_man_page_lists_the_commands_and_each_command_has_its_own() {
    let out = grader().arg("man").assert().success();
    let page = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(page.contains(".TH grader 1"), "{page}");
    for c in COMMANDS {
        assert!(page.contains(c), "no `{c}` in the man page");
    }
    let out = grader().args(["man", "run"]).assert().success();
    let page = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(page.contains(".TH grader-run 1"), "{page}");
    assert!(page.contains("no\\-tournament"), "{page}");
    grader()
        .args(["man", "grade"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no command `grade`"))
        .stderr(predicates::str::contains("tournament"));
}
