//! From the LMS download to the gradebook: `grader import` of each platform's documented layout (built
//! here from the shipped examples), `grader run` under the Adelaide course policy (tracks, the late
//! cap), and the exports' maxima and late deductions.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::util::{copy_dir, grader, read, repo, scratch};

/// The Adelaide suite with its shipped course.toml and a roster: Ann and Cy undergraduates, Bob and
/// Eve postgraduates; Canvas user ids 101–104.
fn adelaide(dir: &Path) -> PathBuf {
    let suite = dir.join("adelaide-2021-a1");
    copy_dir(&repo().join("suites/adelaide-2021-a1"), &suite);
    let course = read(&suite.join("course.toml"));
    std::fs::write(
        suite.join("course.toml"),
        format!("roster = \"roster.csv\"\n{course}"),
    )
    .unwrap();
    std::fs::write(
        suite.join("roster.csv"),
        "name,login,email,id,lms-id,track\n\
         \"Lee, Ann\",alee,ann@x.edu,a1001,101,undergraduate\n\
         \"Bell, Bob\",bbell,bob@x.edu,a1002,102,postgraduate\n\
         \"Dee, Cy\",cdee,cy@x.edu,a1003,103,undergraduate\n\
         \"Ek, Eve\",eek,eve@x.edu,a1004,104,postgraduate\n",
    )
    .unwrap();
    suite
}

fn example(name: &str) -> Vec<(String, Vec<u8>)> {
    let dir = repo()
        .join("examples/submissions/adelaide-2021-a1")
        .join(name);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

fn zip(path: &Path, files: &[(String, Vec<u8>)]) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (name, bytes) in files {
        z.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
}

/// `grader import …`, which must succeed; its stderr.
fn import(args: &[&str], dl: &Path, out: &Path, suite: &Path) -> String {
    let o = grader()
        .arg("import")
        .args(args)
        .arg(dl)
        .arg("-o")
        .arg(out)
        .arg("--suite")
        .arg(suite)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{stderr}");
    stderr
}

/// The grades.csv rows by student, each a map of column → cell.
fn gradebook(results: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let text = read(&results.join("grades.csv"));
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records()
        .map(|row| {
            header
                .iter()
                .cloned()
                .zip(row.unwrap().iter().map(str::to_string))
                .collect()
        })
        .collect()
}

fn row<'a>(
    book: &'a [std::collections::BTreeMap<String, String>],
    who: &str,
) -> &'a std::collections::BTreeMap<String, String> {
    book.iter()
        .find(|r| r["student"] == who)
        .unwrap_or_else(|| panic!("no row `{who}` in {book:?}"))
}

/// `grader export RESULTS --to FORMAT -o OUT`, which must succeed; the file (or folder) written.
fn export(results: &Path, format: &str, out: &Path) -> PathBuf {
    let o = grader()
        .arg("export")
        .arg(results)
        .args(["--to", format, "-o"])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out.to_path_buf()
}

fn run(suite: &Path, class: &Path, out: &Path) -> PathBuf {
    let o = grader()
        .arg("run")
        .arg(suite)
        .arg(class)
        .arg("--out")
        .arg(out)
        .args(["--jobs", "2"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out.join("adelaide-2021-a1")
}

#[test]
fn canvas_download_with_a_late_resubmission_graded_under_adelaides_tracks_and_late_cap() {
    let dir = scratch();
    let suite = adelaide(dir.path());
    // Canvas's names: `<sortable name>_[LATE_]<user id>_<file id>_<file>`; Ann handed tictactoe.c in
    // again (Canvas renamed it `tictactoe-1.c`) and late.
    let mut files = Vec::new();
    for (who, late, id, example_name) in [
        ("leeann", true, 101, "c-correct"),
        ("bellbob", false, 102, "morris-c"),
        ("deecy", false, 103, "c-correct"),
        ("ekeve", false, 104, "c-correct"),
    ] {
        for (k, (name, bytes)) in example(example_name).into_iter().enumerate() {
            let name = if who == "leeann" && name == "tictactoe.c" {
                "tictactoe-1.c".to_string()
            } else {
                name
            };
            let late = if late { "LATE_" } else { "" };
            files.push((format!("{who}_{late}{id}_{}_{name}", 900 + k), bytes));
        }
    }
    let dl = dir.path().join("submissions.zip");
    zip(&dl, &files);
    let class = dir.path().join("class");
    let said = import(&["canvas"], &dl, &class, &suite);
    assert!(
        said.contains("imported 4 submission(s) from canvas"),
        "{said}"
    );
    assert!(said.contains("1 late hand-in(s) have no time"), "{said}");
    assert!(
        class.join("alee/tictactoe.c").is_file(),
        "the resubmission's name is restored"
    );
    let subs = read(&class.join("submissions.toml"));
    assert!(
        subs.contains("[submissions.alee]") && subs.contains("late = true"),
        "{subs}"
    );
    // Canvas gives no time: the late total waits for one.
    let results = run(&suite, &class, &dir.path().join("results"));
    let book = gradebook(&results);
    assert_eq!(row(&book, "alee")["total"], "");
    assert!(row(&book, "alee")["total-note"].starts_with("Canvas marked it late but gives no time"));
    // The instructor sets it from SpeedGrader: 25 hours after 23:59 ACDT on 30 March.
    let subs = subs.replace(
        "late = true",
        "late = true\nsubmitted = 2021-03-31T14:29:00Z",
    );
    std::fs::write(class.join("submissions.toml"), subs).unwrap();
    let o = grader()
        .arg("run")
        .arg(&suite)
        .arg(&class)
        .arg("--out")
        .arg(dir.path().join("results"))
        .args(["--jobs", "2", "--resume"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let book = gradebook(&results);
    let cells = |who: &str| {
        let r = row(&book, who);
        (
            r["track"].clone(),
            r["total"].clone(),
            r["max"].clone(),
            r["late-hours"].clone(),
            r["late-deduction"].clone(),
        )
    };
    let s = String::from;
    assert_eq!(
        cells("alee"),
        (s("undergraduate"), s("7.5"), s("15"), s("25"), s("7.5"))
    );
    assert_eq!(
        cells("bbell"),
        (s("postgraduate"), s("15"), s("15"), s(""), s(""))
    );
    assert_eq!(
        cells("cdee"),
        (s("undergraduate"), s("15"), s("15"), s(""), s(""))
    );
    // A postgraduate's tic-tac-toe alone: 12 of 15.
    assert_eq!(
        cells("eek"),
        (s("postgraduate"), s("12"), s("15"), s(""), s(""))
    );
    // Canvas: Points Possible 15, each student by Canvas's own id, Ann capped.
    let canvas = export(&results, "canvas", &dir.path().join("canvas.csv"));
    let text = read(&canvas);
    assert!(text.contains("\nPoints Possible,,,,,15\n"), "{text}");
    assert!(
        text.contains("\"Lee, Ann\",101,a1001,alee,,7.5\n"),
        "{text}"
    );
    assert!(text.contains("\"Ek, Eve\",104,a1004,eek,,12\n"), "{text}");
    // Moodle: the feedback says why Ann's mark was capped.
    let moodle = export(&results, "moodle", &dir.path().join("moodle.csv"));
    let text = read(&moodle);
    assert!(text.contains("alee,7.5,\"7.5/15 points; handed in 25 hours late (2 days or part): the maximum is capped at 7.5 of 15 (25% per day): 15 earned, 7.5 kept"), "{text}");
    // Gradescope: the score is the capped total.
    let gs = export(&results, "gradescope", &dir.path().join("gs"));
    let json: serde_json::Value =
        serde_json::from_str(&read(&gs.join("alee/results.json"))).unwrap();
    assert_eq!(json["score"], 7.5);
}

#[test]
fn moodle_gradescope_and_github_classroom_downloads_import_and_grade() {
    let dir = scratch();
    let suite = adelaide(dir.path());
    let ok = example("c-correct");
    // Moodle, downloaded in folders and unzipped: `<Full Name>_<participant id>_assignsubmission_file`,
    // with the grading worksheet's times (Cy on time, Ann 25 hours late).
    let moodle = dir.path().join("moodle-dl");
    for (who, id) in [("Ann Lee", 111), ("Cy Dee", 333)] {
        let folder = moodle.join(format!("{who}_{id}_assignsubmission_file"));
        std::fs::create_dir_all(&folder).unwrap();
        for (name, bytes) in &ok {
            std::fs::write(folder.join(name), bytes).unwrap();
        }
    }
    let sheet = dir.path().join("worksheet.csv");
    std::fs::write(
        &sheet,
        "Identifier,Full name,Email address,Status,Last modified (submission)\n\
         Participant 111,Ann Lee,ann@x.edu,Submitted for grading,\"Thursday, 1 April 2021, 12:59 AM\"\n\
         Participant 333,Cy Dee,cy@x.edu,Submitted for grading,\"Tuesday, 30 March 2021, 11:00 PM\"\n",
    )
    .unwrap();
    let class = dir.path().join("moodle-class");
    import(
        &["moodle", "--times", sheet.to_str().unwrap()],
        &moodle,
        &class,
        &suite,
    );
    let results = run(&suite, &class, &dir.path().join("moodle-results"));
    let book = gradebook(&results);
    assert_eq!(
        (
            row(&book, "alee")["total"].as_str(),
            row(&book, "alee")["late-hours"].as_str()
        ),
        ("7.5", "25")
    );
    assert_eq!(row(&book, "cdee")["total"], "15");

    // Gradescope: a group submission by Bob and Eve (postgraduates, tic-tac-toe only) and Cy's.
    let mut files = vec![(
        "submission_metadata.yml".to_string(),
        b"---\nsubmission_1:\n  :submitters:\n  - :name: Bob Bell\n    :sid: a1002\n    :email: bob@x.edu\n  - :name: Eve Ek\n    :sid: a1004\n    :email: eve@x.edu\n  :created_at: 2021-03-30 10:00:00.000000000 Z\n  :score: 0.0\n  :history: []\nsubmission_2:\n  :submitters:\n  - :name: Cy Dee\n    :sid: a1003\n    :email: cy@x.edu\n  :created_at: 2021-03-30 11:00:00.000000000 Z\n".to_vec(),
    )];
    for folder in ["submission_1", "submission_2"] {
        files.extend(ok.iter().map(|(n, b)| (format!("{folder}/{n}"), b.clone())));
    }
    let dl = dir.path().join("gradescope.zip");
    zip(&dl, &files);
    let class = dir.path().join("gs-class");
    import(&["gradescope"], &dl, &class, &suite);
    let subs = read(&class.join("submissions.toml"));
    assert!(
        subs.contains("[submissions.bbell]") && subs.contains("Eve Ek"),
        "{subs}"
    );
    let results = run(&suite, &class, &dir.path().join("gs-results"));
    let canvas = export(&results, "canvas", &dir.path().join("gs-canvas.csv"));
    let text = read(&canvas);
    // Both members of the group get its row, as the roster knows them.
    assert!(
        text.contains("\"Bell, Bob\",102,a1002,bbell,,12\n")
            && text.contains("\"Ek, Eve\",104,a1004,eek,,12\n"),
        "{text}"
    );

    // GitHub Classroom: `<assignment>-<login>` repositories and the grades CSV's times.
    let gh = dir.path().join("a1-submissions");
    for login in ["alee", "cdee"] {
        let repo_dir = gh.join(format!("a1-tictactoe-{login}"));
        std::fs::create_dir_all(repo_dir.join(".git")).unwrap();
        std::fs::write(repo_dir.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        for (name, bytes) in &ok {
            std::fs::write(repo_dir.join(name), bytes).unwrap();
        }
    }
    let times = dir.path().join("grades.csv");
    std::fs::write(
        &times,
        "assignment_name,assignment_url,starter_code_url,github_username,roster_identifier,student_repository_name,student_repository_url,submission_timestamp,points_awarded,points_available\n\
         a1,,,alee,a1001,a1-tictactoe-alee,,2021-03-31 14:29:00 UTC,0,15\n\
         a1,,,cdee,a1003,a1-tictactoe-cdee,,2021-03-30 12:00:00 UTC,0,15\n",
    )
    .unwrap();
    let class = dir.path().join("gh-class");
    import(
        &["github-classroom", "--times", times.to_str().unwrap()],
        &gh,
        &class,
        &suite,
    );
    assert!(!class.join("alee/.git").exists());
    let results = run(&suite, &class, &dir.path().join("gh-results"));
    let book = gradebook(&results);
    assert_eq!(row(&book, "alee")["late-deduction"], "7.5");
    assert_eq!(row(&book, "cdee")["total"], "15");
}

#[test]
fn a_class_folder_of_loose_lms_files_is_an_error_with_a_hint_to_import() {
    let dir = scratch();
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::write(
        class.join("smithjohn_12345_67890_tictactoe.py"),
        "print()\n",
    )
    .unwrap();
    let o = grader()
        .arg("run")
        .arg(repo().join("suites/adelaide-2021-a1"))
        .arg(&class)
        .arg("--out")
        .arg(dir.path().join("r"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("holds 1 file(s) (`smithjohn_12345_67890_tictactoe.py`…) and no student folders: it looks like a canvas download"), "{stderr}");
    assert!(stderr.contains("hint: grader import canvas"), "{stderr}");
}

/// Super-Tic-Tac-Toe (000:22-23): six teams of two in two sections of three. Each section plays its
/// round robin, the all-class knockout follows (the top two seeds wait for the semi-finals), and the
/// bonus is the handout's table for every entrant: 40, 30, 20, 20, then 10 for each other section
/// qualifier; both members of a team get the team's marks in every export.
#[test]
fn two_sections_of_three_teams_get_the_handouts_bonus_and_both_members_have_it() {
    let dir = scratch();
    let suite = dir.path().join("csci1901-2004-sttt");
    copy_dir(&repo().join("suites/csci1901-2004-sttt"), &suite);
    let course = read(&suite.join("course.toml"));
    std::fs::write(
        suite.join("course.toml"),
        format!("roster = \"roster.csv\"\n{course}"),
    )
    .unwrap();
    let mut roster = String::from("login,name,team,section\n");
    let class = dir.path().join("class");
    for t in 1..=6 {
        let section = if t <= 3 { "A" } else { "B" };
        for m in ["a", "b"] {
            roster.push_str(&format!("t{t}{m},Member {m} of {t},team{t},{section}\n"));
        }
        copy_dir(
            &repo().join("examples/submissions/csci1901-2004-sttt/python-protocol"),
            &class.join(format!("team{t}")),
        );
    }
    std::fs::write(suite.join("roster.csv"), roster).unwrap();
    let out = dir.path().join("results");
    let o = grader()
        .arg("run")
        .arg(&suite)
        .arg(&class)
        .arg("--out")
        .arg(&out)
        .args(["--jobs", "2", "--allow-missing"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let results = out.join("csci1901-2004-sttt");
    let ranking = read(&results.join("tournament.csv"));
    let mut marks: Vec<f64> = ranking
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
        .collect();
    marks.sort_by(|a, b| b.total_cmp(a));
    assert_eq!(marks, [40.0, 30.0, 20.0, 20.0, 10.0, 10.0], "{ranking}");
    // The effort marks given (issue 32: out of 50, incomplete until then), then every member's Canvas
    // row carries the team's total.
    let mut marks = String::from("suite = \"csci1901-2004-sttt\"\n");
    for t in 1..=6 {
        marks.push_str(&format!(
            "[students.team{t}.groups.effort]\npoints = {t}\nby = \"ta\"\nat = \"2026-11-26T12:00:00Z\"\n"
        ));
    }
    std::fs::write(results.join("manual.toml"), marks).unwrap();
    grader().arg("report").arg(&results).assert().success();
    let book = gradebook(&results);
    assert_eq!(row(&book, "team2")["effort"], "2");
    assert_eq!(row(&book, "team2")["max"], "50");
    let canvas = export(&results, "canvas", &dir.path().join("canvas.csv"));
    let text = read(&canvas);
    assert_eq!(text.lines().count(), 2 + 12, "{text}");
    for t in 1..=6 {
        let total = &row(&book, &format!("team{t}"))["total"];
        for m in ["a", "b"] {
            let line = format!(
                "Member {m} of {t},,,t{t}{m},{},{total}\n",
                if t <= 3 { "A" } else { "B" }
            );
            assert!(text.contains(&line), "{line} in {text}");
        }
    }
}
