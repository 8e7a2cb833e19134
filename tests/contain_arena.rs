//! `grader play` and `grader tournament` hold entrants as `grader run` does: the configured sandbox (or a
//! refusal), a scratch copy and working folder for every submission, with a suite and without; and no
//! text a player printed reaches the terminal or a record raw or whole.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{grader, read, repo, scratch};

fn root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Every file under `dir` (relative path → bytes), to tell whether anything changed there.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                out.insert(path.strip_prefix(dir).unwrap().to_path_buf(), bytes);
            }
        }
    }
    out
}

/// A golden file of a real suite: what no player may read.
fn golden() -> PathBuf {
    let dir = repo().join("suites/adelaide-2021-a1/golden");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files.into_iter().next().expect("a golden file")
}

/// The hostile player (tests/hostile/arena_player.py) in `root/student`, aimed at a golden file,
/// `root/outside.txt`, its own folder and the loopback `port`.
fn hostile(root: &Path, port: u16) -> PathBuf {
    let student = root.join("student");
    std::fs::create_dir_all(&student).unwrap();
    let code = read(&repo().join("tests/hostile/arena_player.py"))
        .replace("@GOLDEN@", &golden().display().to_string())
        .replace("@OUTSIDE@", &root.join("outside.txt").display().to_string())
        .replace("@HOME@", &student.display().to_string())
        .replace("@PORT@", &port.to_string());
    std::fs::write(student.join("player.py"), code).unwrap();
    student
}

/// Every record saved in `dir`.
fn records(dir: &Path) -> Vec<Value> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".json") && name != "standings.json" {
            out.push(serde_json::from_str(&read(&path)).unwrap());
        }
    }
    assert!(!out.is_empty(), "no records in {}", dir.display());
    out
}

#[test]
fn a_hostile_entrant_is_contained_in_play_and_tournament_with_and_without_a_suite() {
    if !root() {
        eprintln!("skipping: the full tier needs root here");
        return;
    }
    let suite = repo().join("tests/fixtures/play-ttt");
    let games = [
        ("tictactoe", "a bare folder"),
        (suite.to_str().unwrap(), "a suite"),
    ];
    for command in ["play", "tournament"] {
        for (game, what) in games {
            let dir = scratch();
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            listener.set_nonblocking(true).unwrap();
            let student = hostile(dir.path(), listener.local_addr().unwrap().port());
            let before = snapshot(&student);
            let saved = dir.path().join("records");
            let mut cmd = grader();
            cmd.arg(command).arg(game).arg(&student).arg("random");
            cmd.args(["--move-limit", "5s", "--records"]).arg(&saved);
            if command == "tournament" {
                cmd.arg("--out").arg(dir.path().join("results"));
            }
            let out = cmd.output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let ctx = format!("{command} with {what}:\n{stdout}\n{stderr}");
            assert_eq!(out.status.code(), Some(0), "{ctx}");
            assert!(stderr.contains("sandbox: full"), "{ctx}");
            for r in records(&saved) {
                assert_ne!(r["ending"], "fault", "{ctx}\n{r}");
                assert!(!r["reason"].as_str().unwrap().is_empty(), "{ctx}\n{r}");
                let side = usize::from(r["players"][0] != "student");
                let said = r["stderr"][side].as_str().unwrap_or_default();
                assert!(said.contains("attacks done"), "{ctx}\n{said}");
                assert_eq!(said.matches(": blocked (").count(), 6, "{ctx}\n{said}");
                assert!(!said.contains("SUCCEEDED"), "{ctx}\n{said}");
            }
            assert!(
                listener.accept().is_err(),
                "{ctx}: a player reached the port"
            );
            assert!(!dir.path().join("outside.txt").exists(), "{ctx}");
            assert_eq!(
                snapshot(&student),
                before,
                "{ctx}: the student's folder changed"
            );
        }
    }
}

/// A tic-tac-toe player in sh: answers `ready`, then plays the first blank of the board it is sent.
const FIRST_BLANK: &str = r#"#!/bin/sh
while IFS="$(printf '\t')" read -r kind side last board; do
  case "$kind" in
    game) echo ready ;;
    turn) i=0; while [ "$(printf '%s' "$board" | cut -c$((i+1)))" != "-" ]; do i=$((i+1)); done; echo $i ;;
    end) exit 0 ;;
  esac
done
"#;

/// A folder `root/name` whose `player` is the sh `script`, readable by everyone.
fn sh_player(root: &Path, name: &str, script: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("player"), script).unwrap();
    std::fs::set_permissions(dir.join("player"), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

#[test]
fn below_the_configured_tier_is_refused_as_run_refuses() {
    use std::os::unix::fs::PermissionsExt;
    // An unprivileged user has no `full` tier here: `grader.toml` asks for it, so the commands must
    // refuse rather than run the players more weakly, unless `--sandbox` says so.
    if !root() || !Path::new("/usr/bin/setpriv").exists() {
        eprintln!("skipping: needs root and setpriv to run the grader as `nobody`");
        return;
    }
    let dir = tempfile::Builder::new().tempdir_in("/tmp").unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let class = dir.path().join("class");
    let player = sh_player(&class, "first-blank", FIRST_BLANK);
    let config = dir.path().join("grader.toml");
    std::fs::write(&config, "[run]\nsandbox = \"full\"\n").unwrap();
    let nobody = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new("/usr/bin/setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(assert_cmd::cargo::cargo_bin("grader"))
            .args(args)
            .env("NO_COLOR", "1")
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stderr)
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    let suite = repo().join("tests/fixtures/play-ttt");
    let (run_code, run_said) = nobody(&[
        &os("run"),
        suite.as_os_str(),
        class.as_os_str(),
        &os("--config"),
        config.as_os_str(),
    ]);
    assert_eq!(run_code, Some(3), "{run_said}");
    assert!(
        run_said.contains("`full` sandbox is not available"),
        "{run_said}"
    );
    for command in ["play", "tournament"] {
        let (code, said) = nobody(&[
            &os(command),
            &os("tictactoe"),
            player.as_os_str(),
            &os("random"),
            &os("--config"),
            config.as_os_str(),
        ]);
        assert_eq!(code, run_code, "{command}: {said}");
        assert_eq!(said, run_said, "{command}");
        let results = dir.path().join("results");
        let mut lower = vec![
            os(command),
            os("tictactoe"),
            player.clone().into_os_string(),
            os("random"),
            os("--config"),
            config.clone().into_os_string(),
            os("--sandbox"),
            os("basic"),
        ];
        if command == "tournament" {
            lower.extend([os("--out"), results.into_os_string()]);
        }
        let lower: Vec<&std::ffi::OsStr> =
            lower.iter().map(std::ffi::OsString::as_os_str).collect();
        let (code, said) = nobody(&lower);
        assert_eq!(code, Some(0), "{command}: {said}");
        assert!(said.contains("sandbox: basic"), "{command}: {said}");
    }
}

/// Every string in a JSON value.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

#[test]
fn control_bytes_and_long_lines_never_reach_the_terminal_or_records() {
    let dir = scratch();
    // Its name, its stderr and its move all carry an OSC title sequence; the move is a 65,000-byte line.
    let script = "#!/bin/sh\nread l; echo ready; read l\n\
                  printf '\\033]0;owned\\007\\033[2J\\n' >&2\n\
                  printf '\\033]0;owned\\007'; head -c 65000 /dev/zero | tr '\\0' x; echo\nsleep 5\n";
    let player = sh_player(dir.path(), "evil\x1b]0;name\x07", script);
    let saved = dir.path().join("records");
    for command in ["play", "tournament"] {
        let out = grader()
            .arg(command)
            .arg("tictactoe")
            .arg(&player)
            .arg("random")
            .args(["--sandbox", "basic", "--move-limit", "5s", "--records"])
            .arg(&saved)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
        assert!(stdout.contains("sent `"), "{command}: {stdout}");
        for text in [&stdout, &stderr] {
            assert!(
                !text.contains(['\x1b', '\x07']),
                "{command}: raw control bytes in {text:?}"
            );
            let longest = text.lines().map(str::len).max().unwrap_or(0);
            assert!(longest <= 1200, "{command}: a {longest}-byte line");
        }
        for r in records(&saved) {
            let mut all = Vec::new();
            strings(&r, &mut all);
            for s in &all {
                assert!(
                    !s.contains(['\x1b', '\x07']),
                    "{command}: raw control bytes in {s:?}"
                );
                assert!(
                    s.len() <= 5000,
                    "{command}: a {}-byte string in a record",
                    s.len()
                );
            }
            assert!(r["reason"].as_str().unwrap().len() <= 1100, "{r}");
        }
    }
}

#[test]
fn a_player_that_never_says_ready_is_told_the_startup_limit() {
    let dir = scratch();
    let config = dir.path().join("arena.toml");
    std::fs::write(
        &config,
        "[arena]\ngame = \"tictactoe\"\nmove-limit = \"1s\"\nstartup = \"1500ms\"\n",
    )
    .unwrap();
    let player = sh_player(dir.path(), "mute", "#!/bin/sh\nsleep 100\n");
    let out = grader()
        .arg("play")
        .arg(&config)
        .arg(&player)
        .args(["random", "--sandbox", "basic"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout
            .contains("x failed to start: did not answer `ready` within the 1.50 s startup limit"),
        "{stdout}"
    );
    assert!(!stdout.contains("0 µs"), "{stdout}");
}
