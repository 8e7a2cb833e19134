//! `grader run`: a class graded end to end, results written per student, the gradebook, exit codes.

use crate::util::{grader, read, repo, scratch};

/// A tiny class: an empty folder, a program that never writes its trace, one that does nothing at all,
/// one that crashes.
fn class(root: &std::path::Path) -> std::path::PathBuf {
    let students = root.join("students");
    std::fs::create_dir_all(students.join("empty")).unwrap();
    std::fs::create_dir_all(students.join("no-trace")).unwrap();
    std::fs::create_dir_all(students.join("crash")).unwrap();
    std::fs::create_dir_all(students.join("silent")).unwrap();
    std::fs::write(students.join("silent/tictactoe.py"), "pass\n").unwrap();
    std::fs::create_dir_all(students.join(".hidden")).unwrap();
    std::fs::write(
        students.join("no-trace/tictactoe.py"),
        "print('oxxxo-oxo')\n",
    )
    .unwrap();
    std::fs::write(students.join("crash/tictactoe.py"), "raise SystemExit(3)\n").unwrap();
    students
}

#[test]
fn a_class_is_graded_into_results_and_a_gradebook() {
    let dir = scratch();
    let students = class(dir.path());
    let out = dir.path().join("results");
    let run = grader()
        .arg("run")
        .arg(repo().join("suites/adelaide-2021-a1"))
        .arg(&students)
        .arg("--out")
        .arg(&out)
        .args(["--jobs", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stdout}\n{stderr}");
    let csv = read(&out.join("adelaide-2021-a1/grades.csv"));
    assert_eq!(
        csv,
        "student,plain,prune,ply,no-move,morris-moves,morris-no-move,morris-tactics,morris-play,track,max,late-hours,late-deduction,total\ncrash,0,0,0,0,,,,,undergraduate,15,,,0\nempty,0,0,0,0,,,,,undergraduate,15,,,0\nno-trace,0,0,0,0,,,,,undergraduate,15,,,0\nsilent,0,0,0,2,,,,,undergraduate,15,,,2\n"
    );
    assert!(stdout.contains("no-trace  "), "{stdout}");
    assert!(stdout.contains("CE 22"), "{stdout}");
    assert!(stdout.contains("RE 22"), "{stdout}");
    // The program that prints nothing and writes nothing passes exactly the no-move cases.
    let result: serde_json::Value =
        serde_json::from_str(&read(&out.join("adelaide-2021-a1/silent/result.json"))).unwrap();
    assert_eq!(result["score"], 2.0);
    assert_eq!(result["max"], 15.0);
    assert_eq!(result["build"]["language"], "python");
    let cases = result["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 22);
    let accepted: Vec<&str> = cases
        .iter()
        .filter(|c| c["verdict"] == "accepted")
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(accepted, ["x-won", "o-won", "full-draw", "x-won-pruning"]);
    assert!(!out.join("adelaide-2021-a1/.hidden").exists());
}

#[test]
fn the_suites_layout_finds_students_under_the_suite_name() {
    let dir = scratch();
    let subs = dir.path().join("submissions/adelaide-2021-a1");
    std::fs::create_dir_all(subs.join("alone")).unwrap();
    std::fs::write(subs.join("alone/tictactoe.py"), "pass\n").unwrap();
    let out = dir.path().join("results");
    grader()
        .arg("run")
        .arg(repo().join("suites"))
        .arg(dir.path().join("submissions"))
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    assert_eq!(
        read(&out.join("adelaide-2021-a1/grades.csv")),
        "student,plain,prune,ply,no-move,morris-moves,morris-no-move,morris-tactics,morris-play,track,max,late-hours,late-deduction,total\nalone,0,0,0,2,,,,,undergraduate,15,,,2\n"
    );
}

/// Classes are graded side by side, but what each grades is said on stderr suite by suite, in order.
#[test]
fn a_folder_of_suites_says_what_it_grades_in_suite_order() {
    let dir = scratch();
    for suite in ["adelaide-2021-a1", "wpi-2000-ttt"] {
        let student = dir.path().join("submissions").join(suite).join("alone");
        std::fs::create_dir_all(&student).unwrap();
        std::fs::write(student.join("tictactoe.py"), "pass\n").unwrap();
    }
    let run = grader()
        .arg("run")
        .arg(repo().join("suites"))
        .arg(dir.path().join("submissions"))
        .arg("--out")
        .arg(dir.path().join("results"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    let said: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("grading `")?.split('`').next())
        .collect();
    assert_eq!(said, ["adelaide-2021-a1", "wpi-2000-ttt"], "{stderr}");
}

#[test]
fn nothing_to_grade_is_bad_input() {
    let dir = scratch();
    let run = grader()
        .arg("run")
        .arg(repo().join("suites"))
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("error: nothing to grade"), "{stderr}");
    assert!(
        stderr.contains("hint: lay submissions out as `SUBMISSIONS/<suite-name>/<student>/`"),
        "{stderr}"
    );
}

#[test]
fn golden_files_match_the_reference() {
    grader()
        .args(["golden", "--check"])
        .arg(repo().join("suites"))
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "ok: 32 golden files match the reference solver",
        ));
}

#[test]
fn a_stale_golden_file_fails_the_check() {
    let dir = scratch();
    let suite = dir.path().join("adelaide-2021-a1");
    std::fs::create_dir_all(suite.join("golden")).unwrap();
    for entry in std::fs::read_dir(repo().join("suites/adelaide-2021-a1/golden")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), suite.join("golden").join(entry.file_name())).unwrap();
    }
    std::fs::copy(
        repo().join("suites/adelaide-2021-a1/suite.toml"),
        suite.join("suite.toml"),
    )
    .unwrap();
    std::fs::write(
        suite.join("golden/plain-handout-example.visited"),
        "oxxxoooxx 0\n",
    )
    .unwrap();
    let run = grader()
        .args(["golden", "--check"])
        .arg(&suite)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("plain-handout-example.visited` (differs from the reference)"),
        "{stderr}"
    );
    // Writing them repairs the suite.
    grader().arg("golden").arg(&suite).assert().success();
    grader()
        .args(["golden", "--check"])
        .arg(&suite)
        .assert()
        .success();
}

/// A suite whose language needs an interpreter this machine lacks (a path in `grader.toml`).
fn missing_python2(
    dir: &std::path::Path,
) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let suite = dir.join("py2only");
    std::fs::create_dir_all(suite.join("golden")).unwrap();
    std::fs::write(suite.join("golden/hello.stdout"), "hello\n").unwrap();
    std::fs::write(
        suite.join("suite.toml"),
        "title = \"Echo\"\nseed = 1\n[[languages]]\nname = \"python\"\ndetect = [\"echo.py\"]\nrun = [\"python3\", \"{dir}/echo.py\"]\nversions = [\"2\"]\n[[groups]]\nname = \"basic\"\npoints = 3\nvisibility = \"public\"\n[[groups.cases]]\nname = \"hello\"\nargs = [\"hello\"]\nstdout = { golden = \"golden/hello.stdout\" }\n",
    )
    .unwrap();
    let class = dir.join("class");
    std::fs::create_dir_all(class.join("ann")).unwrap();
    std::fs::write(class.join("ann/echo.py"), "import sys\nprint sys.argv[1]\n").unwrap();
    let config = dir.join("grader.toml");
    std::fs::write(&config, "[toolchains]\npython2 = \"no/such/python2.7\"\n").unwrap();
    (suite, class, config)
}

#[test]
fn doctor_lists_a_missing_interpreter_with_what_provides_it() {
    let dir = crate::util::scratch();
    let (suite, _, config) = missing_python2(dir.path());
    let out = crate::util::grader()
        .arg("doctor")
        .arg(&suite)
        .arg("--config")
        .arg(&config)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    let mut lines = stdout.lines().skip_while(|l| !l.starts_with("python2"));
    let line = lines.next().unwrap();
    assert!(line.contains("MISSING"), "{line}");
    let needs = lines.next().unwrap();
    assert!(needs.trim_start() == "for py2only (python)", "{needs}");
    assert!(line.contains("pyenv install 2.7.18"), "{line}");
}

#[test]
fn run_refuses_without_a_toolchain_and_allow_missing_gives_not_graded() {
    let dir = crate::util::scratch();
    let (suite, class, config) = missing_python2(dir.path());
    let out = dir.path().join("out");
    let refused = crate::util::grader()
        .arg("run")
        .arg(&suite)
        .arg(&class)
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("`python2`"), "{stderr}");
    assert!(stderr.contains("--allow-missing"), "{stderr}");
    assert!(!out.join("py2only/grades.csv").exists());

    let allowed = crate::util::grader()
        .arg("run")
        .arg(&suite)
        .arg(&class)
        .arg("--config")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .arg("--allow-missing")
        .output()
        .unwrap();
    assert_eq!(
        allowed.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&allowed.stderr)
    );
    let grades = crate::util::read(&out.join("py2only/grades.csv"));
    let mut lines = grades.lines();
    assert_eq!(lines.next(), Some("student,basic,total,not-graded"));
    let row = lines.next().unwrap();
    assert!(row.starts_with("ann,,,"), "{grades}");
    assert!(row.contains("python2"), "{grades}");
    let result = crate::util::read(&out.join("py2only/ann/result.json"));
    assert!(result.contains("\"verdict\": \"not-graded\""), "{result}");
    assert!(!result.contains("wrong-answer"), "{result}");
}

#[test]
fn regrading_part_of_a_class_keeps_every_other_row_of_the_gradebook() {
    let dir = scratch();
    let out = dir.path().join("results");
    let grade = |students: &std::path::Path| {
        let run = grader()
            .arg("run")
            .arg(repo().join("suites/adelaide-2021-a1"))
            .arg(students)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
        assert_eq!(run.status.code(), Some(0), "{stderr}");
        (read(&out.join("adelaide-2021-a1/grades.csv")), stderr)
    };
    let (whole, _) = grade(&class(dir.path()));
    assert_eq!(whole.lines().count(), 5, "{whole}");
    // One student hands in again (now crashing) and is regraded alone into the same results.
    let late = dir.path().join("late");
    std::fs::create_dir_all(late.join("silent")).unwrap();
    std::fs::write(late.join("silent/tictactoe.py"), "raise SystemExit(3)\n").unwrap();
    let (book, stderr) = grade(&late);
    assert!(
        stderr.contains("grades.csv keeps 3 earlier result(s)"),
        "{stderr}"
    );
    assert_eq!(
        book,
        whole.replace(
            "silent,0,0,0,2,,,,,undergraduate,15,,,2",
            "silent,0,0,0,0,,,,,undergraduate,15,,,0"
        ),
        "{book}"
    );
    // A result.json that is not one (or a link) is named and left out; the rest stay.
    let broken = out.join("adelaide-2021-a1/zz-broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("result.json"), "not json").unwrap();
    let linked = out.join("adelaide-2021-a1/zz-linked");
    std::fs::create_dir_all(&linked).unwrap();
    std::os::unix::fs::symlink(
        out.join("adelaide-2021-a1/empty/result.json"),
        linked.join("result.json"),
    )
    .unwrap();
    let (again, stderr) = grade(&late);
    assert_eq!(again, book);
    assert!(stderr.contains("zz-broken/result.json"), "{stderr}");
    assert!(stderr.contains("zz-linked/result.json"), "{stderr}");
}
