//! The student build's release artifacts (packaging/student/build.sh), as a student gets them: the
//! wheel installed into a fresh virtual environment, the static binary's glibc needs, the binary alone
//! in a chroot with a kit, and no code in it that computes an answer. They need the artifacts: CI
//! builds them and names their folder in `GRADER_STUDENT_DIST`; without it each test says it is
//! skipped.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::check::filter;
use crate::util::{grader, read, repo, scratch};

const SUITE: &str = "suites/adelaide-2021-a1";

/// The artifacts' folder, or `None` with the reason printed.
fn dist(test: &str) -> Option<PathBuf> {
    match std::env::var_os("GRADER_STUDENT_DIST") {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => {
            eprintln!(
                "skipped `{test}`: no student artifacts (set GRADER_STUDENT_DIST to the folder packaging/student/build.sh wrote; .ci/run does)"
            );
            None
        }
    }
}

/// The one file in `dir` whose name starts with `prefix` and ends with `suffix`.
#[track_caller]
fn one(dir: &Path, prefix: &str, suffix: &str) -> PathBuf {
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with(prefix) && name.ends_with(suffix)
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{prefix}*{suffix} in {}: {found:?}",
        dir.display()
    );
    found[0].clone()
}

/// The static binary out of its release archive, into `to`.
fn binary(dist: &Path, to: &Path) -> PathBuf {
    let archive = one(dist, "grader-student-", "x86_64-unknown-linux-gnu.tar.gz");
    let status = Command::new("tar")
        .arg("xzf")
        .arg(&archive)
        .arg("-C")
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
    to.join("grader")
}

/// Runs `cmd`, returning its exit code and its stdout with times and paths filtered.
fn run(cmd: &mut Command) -> (i32, String) {
    let out = cmd.env("NO_COLOR", "1").output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        filter(&String::from_utf8_lossy(&out.stdout)),
    )
}

/// The Adelaide kit, written by the instructor's build into `dir/adelaide-2021-a1`.
fn kit(dir: &Path) -> PathBuf {
    let kit = dir.join("adelaide-2021-a1");
    grader()
        .arg("kit")
        .arg(repo().join(SUITE))
        .arg("-o")
        .arg(&kit)
        .assert()
        .success();
    kit
}

fn example(name: &str) -> PathBuf {
    repo()
        .join("examples/submissions/adelaide-2021-a1")
        .join(name)
}

#[test]
fn the_wheel_installs_in_a_fresh_venv_and_checks_as_the_instructors_build_does() {
    let Some(dist) = dist("the_wheel_installs_in_a_fresh_venv") else {
        return;
    };
    let dir = scratch();
    let venv = dir.path().join("venv");
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .unwrap();
    assert!(made.success());
    // Offline, from the built wheel alone: `pip install grader-student` as a student types it.
    let install = Command::new(venv.join("bin/pip"))
        .args(["install", "--no-index", "--find-links"])
        .arg(&dist)
        .arg("grader-student")
        .output()
        .unwrap();
    assert!(
        install.status.success(),
        "{}",
        String::from_utf8_lossy(&install.stderr)
    );
    let student = venv.join("bin/grader");
    let kit = kit(dir.path());
    let (code, out) = run(Command::new(&student)
        .arg("check")
        .arg(&kit)
        .arg(example("python-correct")));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("score: 15/15 points on the 6 public cases (6 passed); the grade also counts"),
        "{out}"
    );
    // A flawed hand-in gets word for word what the instructor's build says, on the kit and on the
    // whole suite (the public cases only, as `check` runs them).
    for flawed in ["python-typo-in-prune", "prune-strict", "post-order"] {
        let (code, theirs) = run(Command::new(&student)
            .arg("check")
            .arg(&kit)
            .arg(example(flawed)));
        let ours = |suite: &Path| {
            let out = grader()
                .arg("check")
                .arg(suite)
                .arg(example(flawed))
                .output()
                .unwrap();
            filter(&String::from_utf8_lossy(&out.stdout))
        };
        assert_eq!(theirs, ours(&kit), "{flawed}");
        assert_eq!(theirs, ours(&repo().join(SUITE)), "{flawed}");
        assert_eq!(code, if flawed == "post-order" { 0 } else { 1 }, "{theirs}");
    }
    // The variant is named from the kit: the student build computes none.
    let (_, strict) = run(Command::new(&student)
        .arg("check")
        .arg(&kit)
        .arg(example("prune-strict")));
    assert!(
        strict.contains("your trace is the `prune-strict` variant"),
        "{strict}"
    );
    assert!(
        strict.contains("AIMA stops a min node once v ≤ α"),
        "{strict}"
    );
    // `--json` for a tool.
    let (_, json) = run(Command::new(&student)
        .args(["check", "--json"])
        .arg(&kit)
        .arg(example("python-typo-in-prune")));
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["suite"], "adelaide-2021-a1");
    assert_eq!(json["cases"], 6);
    assert!(json["hidden"]["cases"].as_u64().unwrap() > 0, "{json:#}");
    assert_eq!(json["result"]["cases"].as_array().unwrap().len(), 6);
    assert!(json["passed"].as_u64().unwrap() < 6, "{json:#}");
}

#[test]
fn the_static_binary_needs_no_glibc_newer_than_2_17() {
    let Some(dist) = dist("the_static_binary_needs_no_glibc_newer_than_2_17") else {
        return;
    };
    let dir = scratch();
    let binary = binary(&dist, dir.path());
    let out = Command::new("objdump").arg("-T").arg(&binary).output();
    let Ok(out) = out else {
        eprintln!("skipped: no `objdump` here (binutils)");
        return;
    };
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    // Fully static: no dynamic symbol table at all. Otherwise every glibc version named is ≤ 2.17.
    let versions: Vec<(u32, u32)> = regex::Regex::new(r"GLIBC_(\d+)\.(\d+)")
        .unwrap()
        .captures_iter(&text)
        .map(|c| (c[1].parse().unwrap(), c[2].parse().unwrap()))
        .collect();
    let newest = versions.iter().max();
    assert!(
        text.contains("not a dynamic object") || newest.is_none_or(|v| *v <= (2, 17)),
        "newest glibc symbol {newest:?}:\n{text}"
    );
    // And the instructor's build, linked as usual, does name glibc versions: the check can fail.
    let ours = Command::new("objdump")
        .arg("-T")
        .arg(env!("CARGO_BIN_EXE_grader"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&ours.stdout).contains("GLIBC_"));
}

/// A suite run by `/bin/sh` (the student's language), whose kit and hand-in go in the chroot.
fn echo_suite(dir: &Path) -> PathBuf {
    let suite = dir.join("echo");
    std::fs::create_dir_all(suite.join("golden")).unwrap();
    std::fs::write(suite.join("golden/hello.stdout"), "hello\n").unwrap();
    std::fs::write(suite.join("golden/secret.stdout"), "secret\n").unwrap();
    std::fs::write(
        suite.join("suite.toml"),
        r#"title = "Echo"
seed = 1
[[languages]]
name = "sh"
detect = ["echo.sh"]
run = ["/bin/sh", "{dir}/echo.sh"]
[[groups]]
name = "basic"
points = 4
[[groups.cases]]
name = "hello"
visibility = "public"
args = ["hello"]
stdout = { golden = "golden/hello.stdout" }
[[groups.cases]]
name = "secret"
args = ["secret"]
stdout = { golden = "golden/secret.stdout" }
"#,
    )
    .unwrap();
    suite
}

#[test]
fn the_binary_alone_checks_a_kit_in_a_chroot() {
    let Some(dist) = dist("the_binary_alone_checks_a_kit_in_a_chroot") else {
        return;
    };
    let static_shell = Command::new("ldd")
        .arg("/bin/busybox")
        .output()
        .is_ok_and(|o| {
            let said = String::from_utf8_lossy(&o.stdout) + String::from_utf8_lossy(&o.stderr);
            said.contains("not a dynamic executable") || said.contains("statically linked")
        });
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 || !static_shell {
        eprintln!("skipped: a chroot needs root, and the hand-in's shell a static busybox (apt-get install busybox-static)");
        return;
    }
    let dir = scratch();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("tmp")).unwrap();
    std::fs::create_dir_all(root.join("bin")).unwrap();
    std::fs::create_dir_all(root.join("sub")).unwrap();
    binary(&dist, &root);
    grader()
        .arg("kit")
        .arg(echo_suite(dir.path()))
        .arg("-o")
        .arg(root.join("kit"))
        .assert()
        .success();
    // The hand-in and its language: a shell script, and a static shell to run it. Nothing else: no
    // libc, no loader, no /etc, no /dev, no /proc.
    std::fs::copy("/bin/busybox", root.join("bin/sh")).unwrap();
    std::fs::write(root.join("sub/echo.sh"), "echo \"$1\"\n").unwrap();
    // Found on the host's PATH: the chroot's PATH (`/bin`) is the one the command gets.
    let chroot = ["/usr/sbin/chroot", "/sbin/chroot", "/usr/bin/chroot"]
        .into_iter()
        .find(|p| Path::new(p).is_file())
        .expect("chroot (coreutils)");
    let (code, out) = run(Command::new(chroot)
        .arg(&root)
        .args(["/grader", "check", "/kit", "/sub"])
        .env_clear()
        .env("PATH", "/bin"));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("score: 4/4 points on the 1 public case (1 passed); the grade also counts 1 hidden case (2 of 4 points)"),
        "{out}"
    );
}

#[test]
fn the_student_binary_holds_no_solver_and_traces_no_board_outside_its_kit() {
    let Some(dist) = dist("the_student_binary_holds_no_solver") else {
        return;
    };
    let dir = scratch();
    let student = binary(&dist, dir.path());
    // No solver in the binary: the instructor's build has the search, the student's none of it.
    let symbols = |binary: &Path| {
        let out = Command::new("nm").arg("-C").arg(binary).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let theirs = symbols(&student);
    assert!(
        theirs.contains("reference::"),
        "the student binary keeps its symbols"
    );
    let ours = symbols(Path::new(env!("CARGO_BIN_EXE_grader")));
    assert!(ours.contains("reference::adelaide::solve::tictactoe_answer"));
    for solver in [
        "reference::search::",
        "reference::adelaide::solve::",
        "tictactoe::evaluate",
        "tmmorris::evaluate",
        "MorrisEval",
    ] {
        assert!(
            !theirs.contains(solver),
            "the student binary has `{solver}`"
        );
    }
    // The benchmark bots stay: a game between the perfect player and the offensive one is played.
    let game = Command::new(&student)
        .args(["play", "tictactoe", "perfect", "offensive"])
        .output()
        .unwrap();
    assert!(
        game.status.success(),
        "{}",
        String::from_utf8_lossy(&game.stderr)
    );
    // No command prints an answer.
    let solve = Command::new(&student)
        .args(["solve", "tictactoe", "x--------", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(solve.status.code(), Some(2));
    // A board the kit does not hold: asked of the reference, refused before anything runs.
    let kit = kit(dir.path());
    let suite = kit.join("suite.toml");
    let text = read(&suite).replacen(
        "[[groups]]",
        "[[groups]]\nname = \"extra\"\npoints = 1\nvisibility = \"public\"\n\n[[groups.cases]]\nname = \"new-board\"\nargs = [\"x---o----\", \"{work}/visited.txt\"]\nstdout = { reference = \"tictactoe\" }\nfiles.\"visited.txt\" = { reference = \"tictactoe\", compare = \"trace\" }\n\n[[groups]]",
        1,
    );
    std::fs::write(&suite, text).unwrap();
    let out = Command::new(&student)
        .arg("check")
        .arg(&kit)
        .arg(example("python-correct"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("computes no reference answers"), "{stderr}");
    // The instructor's build computes it (so the refusal is the student build's, not the kit's).
    grader().arg("validate").arg(&kit).assert().success();
}

#[test]
fn the_release_workflow_builds_every_target_with_the_script_tested_here() {
    let text = read(&repo().join(".github/workflows/release.yml"));
    let workflow = yaml_rust2::YamlLoader::load_from_str(&text)
        .unwrap()
        .remove(0);
    assert_eq!(workflow["on"]["push"]["tags"][0].as_str(), Some("v*"));
    let build = &workflow["jobs"]["build"];
    let targets: Vec<&str> = build["strategy"]["matrix"]["include"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|m| m["target"].as_str().unwrap())
        .collect();
    assert_eq!(
        targets,
        [
            "x86_64-unknown-linux-gnu",
            "aarch64-unknown-linux-gnu",
            "x86_64-apple-darwin",
            "aarch64-apple-darwin"
        ]
    );
    let runs: Vec<&str> = build["steps"]
        .as_vec()
        .unwrap()
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect();
    // The script .ci/run builds with, for the matrix's target, and what it built tried there.
    assert!(runs
        .iter()
        .any(|r| r.contains("packaging/student/build.sh ${{ matrix.target }} dist")));
    let script = repo().join("packaging/student/build.sh");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&script).unwrap().permissions());
    assert!(mode & 0o111 != 0, "build.sh is executable");
    assert!(runs.iter().any(|r| r
        .contains("pip install --no-index --find-links dist grader-student")
        && r.contains("grader check kit")));
    // The release needs every build, and carries checksums.
    let release = &workflow["jobs"]["release"];
    assert_eq!(release["needs"].as_str(), Some("build"));
    let release_runs: String = release["steps"]
        .as_vec()
        .unwrap()
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect();
    assert!(release_runs.contains("sha256sum") && release_runs.contains("SHA256SUMS"));
    assert!(release_runs.contains("gh release create"));
}

#[test]
fn the_wheel_holds_the_binary_alone_and_no_golden_file_is_in_it() {
    let Some(dist) = dist("the_wheel_holds_the_binary_alone") else {
        return;
    };
    let dir = scratch();
    let student = std::fs::read(binary(&dist, dir.path())).unwrap();
    // The wheel: the binary (the archive's, byte for byte) and pip's metadata; no Python, no suite.
    let wheel = one(&dist, "grader_student-", ".whl");
    let mut wheel = zip::ZipArchive::new(std::fs::File::open(&wheel).unwrap()).unwrap();
    let names: Vec<String> = wheel.file_names().map(str::to_owned).collect();
    for name in &names {
        let (top, _) = name.split_once('/').unwrap_or((name, ""));
        assert!(
            top.ends_with(".dist-info") || name.ends_with(".data/scripts/grader"),
            "the wheel holds `{name}`"
        );
    }
    let script = names
        .iter()
        .find(|n| n.ends_with("/scripts/grader"))
        .unwrap();
    let mut inside = Vec::new();
    std::io::Read::read_to_end(&mut wheel.by_name(script).unwrap(), &mut inside).unwrap();
    assert!(inside == student, "the wheel's binary is the archive's");
    // No suite's golden file (the hidden cases' traces above all) is in the binary. Ten-byte answers
    // (`1 4\n` and the like) would match by chance, so only files of 20 bytes or more are looked for.
    let holds = |text: &[u8]| {
        let literal = regex::escape(std::str::from_utf8(text).unwrap());
        regex::bytes::Regex::new(&literal)
            .unwrap()
            .is_match(&student)
    };
    // The scan finds text the binary does carry (grader.toml's defaults are built in): it can fail.
    assert!(holds(read(&repo().join("grader.toml")).as_bytes()));
    let mut looked = 0;
    for entry in walk(&repo().join("suites")) {
        let in_golden = entry.components().any(|c| c.as_os_str() == "golden");
        let text = std::fs::read(&entry).unwrap();
        if in_golden && text.len() >= 20 {
            looked += 1;
            assert!(
                !holds(&text),
                "the student binary holds `{}`",
                entry.display()
            );
        }
    }
    assert!(looked >= 16, "{looked} golden files looked for");
}

/// Every file under `dir`, links not followed.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                todo.push(entry.path());
            } else if kind.is_file() {
                files.push(entry.path());
            }
        }
    }
    files
}
