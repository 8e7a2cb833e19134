//! `grader completions` and `grader man`: generated from the parser itself, so they name every command
//! and flag there is.

use crate::util::{grader, scratch};

const COMMANDS: [&str; 19] = [
    "solve",
    "run",
    "check",
    "doctor",
    "validate",
    "golden",
    "play",
    "tournament",
    "calibrate",
    "export",
    "merge",
    "bundle",
    "kit",
    "autograde",
    "similarity",
    "report",
    "new",
    "verify",
    "schema",
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

#[test]
fn the_man_pages_install_where_man_finds_them_beside_cargo_install() {
    // README, "Install": `grader man | gzip > ~/.cargo/share/man/man1/grader.1.gz`; man-db looks in
    // `../share/man` of each folder on PATH, and `cargo install` puts `grader` in `~/.cargo/bin`.
    let home = scratch();
    let pages = home.path().join(".cargo/share/man/man1");
    std::fs::create_dir_all(&pages).unwrap();
    std::fs::create_dir_all(home.path().join(".cargo/bin")).unwrap();
    let page = grader().arg("man").assert().success();
    let mut gz = std::process::Command::new("gzip")
        .stdin(std::process::Stdio::piped())
        .stdout(std::fs::File::create(pages.join("grader.1.gz")).unwrap())
        .spawn();
    match &mut gz {
        Ok(child) => {
            use std::io::Write as _;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(&page.get_output().stdout)
                .unwrap();
            assert!(child.wait().unwrap().success());
        }
        Err(e) => {
            eprintln!("skipped: no gzip here ({e})");
            return;
        }
    }
    let run = grader().args(["man", "run"]).assert().success();
    std::fs::write(pages.join("grader-run.1"), &run.get_output().stdout).unwrap();
    let found = std::process::Command::new("man")
        .args(["-w", "grader", "grader-run"])
        .env_remove("MANPATH")
        .env("HOME", home.path())
        .env(
            "PATH",
            format!("{}:/usr/bin:/bin", home.path().join(".cargo/bin").display()),
        )
        .output();
    match found {
        Ok(out) if String::from_utf8_lossy(&out.stdout).contains("minimized") => {
            eprintln!("skipped: this system's `man` is a minimized stub");
        }
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{text}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                text.contains("man1/grader.1.gz") && text.contains("man1/grader-run.1"),
                "{text}"
            );
        }
        Err(e) => eprintln!("skipped: no `man` here ({e})"),
    }
}
