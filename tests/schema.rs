//! The JSON Schemas of `suite.toml`, `course.toml` and `grader.toml` (`grader schema`): the shipped
//! copies under `schema/` are the generated ones; every shipped file fits its schema, and each of the
//! broken variants below is refused, both by `grader validate` and by taplo (the TOML toolkit editors
//! are built on: VS Code's TOML extensions, Zed, Helix), which reads the schema on its own. taplo is
//! installed by `.ci/run` (PyPI's `taplo`, a prebuilt binary); without it its half is skipped, saying so.

use std::path::{Path, PathBuf};

use crate::util::{grader, read, repo, scratch};

/// Each variant: what it breaks, the shipped file it starts from, and the text replaced (first match).
const BROKEN: [(&str, &str, &str, &str); 36] = [
    (
        "an unknown top-level key",
        SUITE,
        "seed = 2021",
        "seed = 2021\nsed = 1",
    ),
    (
        "no title",
        SUITE,
        "title = \"Adelaide AI 2021 A1: tic-tac-toe\"\n",
        "",
    ),
    (
        "a title that is a number",
        SUITE,
        "title = \"Adelaide AI 2021 A1: tic-tac-toe\"",
        "title = 7",
    ),
    (
        "a seed that is a string",
        SUITE,
        "seed = 2021",
        "seed = \"2021\"",
    ),
    ("a negative seed", SUITE, "seed = 2021", "seed = -1"),
    (
        "a duration in words",
        SUITE,
        "cpu = \"5s\"",
        "cpu = \"5 seconds\"",
    ),
    (
        "a size with a decimal unit",
        SUITE,
        "memory = \"512M\"",
        "memory = \"512MB\"",
    ),
    ("a misspelt limit", SUITE, "processes = 64", "procs = 64"),
    (
        "no processes at all",
        SUITE,
        "processes = 64",
        "processes = 0",
    ),
    (
        "an unknown game",
        SUITE,
        "game = \"tmmorris\"",
        "game = \"chess\"",
    ),
    (
        "an unknown protocol",
        SUITE,
        "protocol = \"per-move\"",
        "protocol = \"permove\"",
    ),
    (
        "a move limit in words",
        SUITE,
        "move-limit = \"2s\"",
        "move-limit = \"fast\"",
    ),
    ("a move cap of 0", SUITE, "move-cap = 40", "move-cap = 0"),
    (
        "a misspelt arena key",
        SUITE,
        "reply = \"state\"",
        "replies = \"state\"",
    ),
    (
        "an unknown reply form",
        SUITE,
        "reply = \"state\"",
        "reply = \"board\"",
    ),
    (
        "an empty detect list",
        SUITE,
        "detect = [\"Makefile\", \"tictactoe.cpp\"]",
        "detect = []",
    ),
    (
        "a language name with capitals",
        SUITE,
        "name = \"cpp\"",
        "name = \"C++\"",
    ),
    (
        "a run command that is a string",
        SUITE,
        "run = [\"{dir}/tictactoe.bin\"]",
        "run = \"{dir}/tictactoe.bin\"",
    ),
    (
        "an unknown Python version",
        SUITE,
        "versions = [\"3\", \"2\"]",
        "versions = [\"3\", \"2.7\"]",
    ),
    (
        "address-space as a word",
        SUITE,
        "address-space = false",
        "address-space = \"no\"",
    ),
    (
        "a variant credit above 1",
        SUITE,
        "post-order = { credit = 1.0",
        "post-order = { credit = 1.5",
    ),
    (
        "a misspelt variant key",
        SUITE,
        "prune-strict = { credit = 0.0 }",
        "prune-strict = { credit = 0.0, notes = \"x\" }",
    ),
    ("points of 1e308", SUITE, "points = 5", "points = 1e308"),
    ("negative points", SUITE, "points = 5", "points = -5"),
    ("infinite points", SUITE, "points = 5", "points = inf"),
    (
        "an unknown credit rule",
        SUITE,
        "credit = \"proportional\"",
        "credit = \"proportionate\"",
    ),
    ("`pionts`", SUITE, "points = 5", "pionts = 5"),
    (
        "an unknown visibility",
        SUITE,
        "visibility = \"public\"",
        "visibility = \"open\"",
    ),
    (
        "a case name with spaces",
        SUITE,
        "name = \"handout-example\"",
        "name = \"handout example\"",
    ),
    (
        "an unknown comparator",
        SUITE,
        "compare = \"trace\"",
        "compare = \"diff\"",
    ),
    (
        "an unknown reference solver",
        SUITE,
        "reference = \"tictactoe\"",
        "reference = \"chess\"",
    ),
    (
        "a misspelt case key",
        SUITE,
        "args = [\"oxxxo-ox-\"",
        "argv = [\"oxxxo-ox-\"",
    ),
    (
        "a calibrate folder that is a number",
        SUITE,
        "c = \"../../examples/submissions/adelaide-2021-a1/c-correct\"",
        "c = 1",
    ),
    (
        "an unknown late rule",
        COURSE,
        "rule = \"cap\"",
        "rule = \"halve\"",
    ),
    (
        "a late percentage above 100",
        COURSE,
        "per-day = 25",
        "per-day = 250",
    ),
    (
        "an unknown sandbox tier",
        GRADER,
        "sandbox = \"full\"",
        "sandbox = \"strong\"",
    ),
];

const SUITE: &str = "suites/adelaide-2021-a1/suite.toml";
const COURSE: &str = "suites/adelaide-2021-a1/course.toml";
const GRADER: &str = "grader.toml";

/// The files each schema describes, and the files every shipped one of them is.
fn shipped() -> Vec<(PathBuf, &'static str)> {
    let mut files = vec![(repo().join("grader.toml"), "grader")];
    for entry in std::fs::read_dir(repo().join("suites")).unwrap() {
        let dir = entry.unwrap().path();
        for (file, kind) in [("suite.toml", "suite"), ("course.toml", "course")] {
            if dir.join(file).is_file() {
                files.push((dir.join(file), kind));
            }
        }
    }
    assert!(files.len() >= 9, "{files:?}");
    files
}

#[test]
fn the_shipped_schemas_are_the_generated_ones() {
    for kind in ["suite", "course", "grader"] {
        let out = grader().args(["schema", kind]).assert().success();
        let printed = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let file = repo().join(format!("schema/{kind}.schema.json"));
        assert!(
            read(&file) == printed,
            "`{}` is stale: write it again with `grader schema --write schema`",
            file.display()
        );
    }
    let dir = scratch();
    grader()
        .args(["schema", "--write"])
        .arg(dir.path())
        .assert()
        .success();
    for kind in ["suite", "course", "grader"] {
        let name = format!("{kind}.schema.json");
        assert_eq!(
            read(&dir.path().join(&name)),
            read(&repo().join("schema").join(&name))
        );
    }
}

/// The book's key pages (`docs/keys-*.md`) are what `grader schema --markdown` prints now, so a doc
/// comment changed in a raw type shows in the book, and every table of the file has its section.
#[test]
fn the_key_pages_are_the_generated_ones() {
    for kind in ["suite", "course", "grader"] {
        let out = grader()
            .args(["schema", "--markdown", kind])
            .assert()
            .success();
        let printed = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let page = format!("docs/keys-{kind}.md");
        assert!(
            read(&repo().join(&page)) == printed,
            "`{page}` is stale: write it again with `grader schema --markdown {kind} > {page}`"
        );
        assert!(
            printed.starts_with(&format!("# Every key of `{kind}.toml`\n")),
            "{printed}"
        );
    }
    let suite = read(&repo().join("docs/keys-suite.md"));
    for table in [
        "`[limits]`",
        "`[[languages]]`",
        "`[[groups.cases]]`",
        "`[arena.dialogue]`",
    ] {
        assert!(suite.contains(&format!("\n## {table}\n")), "{table}");
    }
}

#[test]
fn every_shipped_file_names_its_schema_on_its_first_line() {
    for (file, kind) in shipped() {
        let text = read(&file);
        let first = text.lines().next().unwrap_or_default();
        let rest = first
            .strip_prefix("#:schema ")
            .unwrap_or_else(|| panic!("{} does not start with `#:schema`", file.display()));
        let target = file.parent().unwrap().join(rest.trim());
        assert!(
            target.is_file(),
            "{}: {} is not a file",
            file.display(),
            target.display()
        );
        assert!(
            rest.ends_with(&format!("{kind}.schema.json")),
            "{}: {first}",
            file.display()
        );
    }
}

/// Writes a copy of the shipped file with `from` (its first place outside a comment) replaced by
/// `to`, in a scratch copy of its suite folder (golden files, course file: whatever the suite has, its
/// `[calibrate]` folders pointed at the examples, so that only the break is wrong). Returns the file
/// and the line the break is on.
fn broken_copy(root: &Path, base: &str, from: &str, to: &str) -> (PathBuf, usize) {
    let text = read(&repo().join(base));
    let at = text
        .match_indices(from)
        .map(|(i, _)| i)
        .find(|&i| !text[text[..i].rfind('\n').map_or(0, |n| n + 1)..i].contains('#'))
        .unwrap_or_else(|| panic!("`{from}` is not in {base} outside a comment"));
    let line = text[..at].matches('\n').count() + 1;
    let text = format!("{}{to}{}", &text[..at], &text[at + from.len()..]);
    let examples = |text: &str| {
        text.replace(
            "\"../../examples/",
            &format!("\"{}/examples/", repo().display()),
        )
    };
    let file = if base == GRADER {
        root.join("grader.toml")
    } else {
        let suite = root.join("adelaide-2021-a1");
        crate::util::copy_dir(&repo().join("suites/adelaide-2021-a1"), &suite);
        let toml = suite.join("suite.toml");
        std::fs::write(&toml, examples(&read(&toml))).unwrap();
        suite.join(Path::new(base).file_name().unwrap())
    };
    std::fs::write(&file, examples(&text)).unwrap();
    (file, line)
}

/// `grader validate` on the suite `file` is in (or, for `grader.toml`, on a suite with it in the
/// working folder): exit code and stderr.
fn validate(dir: &Path, file: &Path) -> (Option<i32>, String) {
    let mut cmd = grader();
    cmd.current_dir(dir).arg("validate");
    if file.file_name().is_some_and(|n| n == "grader.toml") {
        cmd.arg(repo().join("suites/wpi-2000-ttt"));
    } else {
        cmd.arg(file.parent().unwrap());
    }
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn validate_refuses_every_broken_variant_and_names_its_place() {
    // The copies themselves, unbroken, validate: each refusal below is the break's.
    for base in [SUITE, COURSE, GRADER] {
        let dir = scratch();
        let (file, _) = broken_copy(dir.path(), base, "\n", "\n");
        let (code, stderr) = validate(dir.path(), &file);
        assert_eq!(code, Some(0), "{base}: {stderr}");
    }
    for (what, base, from, to) in BROKEN {
        let dir = scratch();
        let (file, line) = broken_copy(dir.path(), base, from, to);
        let (code, stderr) = validate(dir.path(), &file);
        assert_eq!(code, Some(1), "{what}: {stderr}");
        let name = file.file_name().unwrap().to_str().unwrap();
        // A key removed is missing from the file as a whole; anything else is on a line it wrote.
        let places: Vec<String> = if to.is_empty() {
            vec![format!("{name}: ")]
        } else {
            (line..=line + to.matches('\n').count())
                .map(|l| format!("{name}:{l}:"))
                .collect()
        };
        assert!(
            places.iter().any(|p| stderr.contains(p)),
            "{what}: no error at {places:?}: {stderr}"
        );
    }
}

/// taplo, from `GRADER_TAPLO` or `PATH` or where `.ci/run` installs it.
fn taplo() -> Option<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let candidates = [
        std::env::var_os("GRADER_TAPLO").map(PathBuf::from),
        home.map(|h| h.join(".local/share/grader/tools/bin/taplo")),
        Some(PathBuf::from("taplo")),
    ];
    candidates.into_iter().flatten().find(|t| {
        std::process::Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// `taplo check` on `file` (with `--schema` when given, else the file's own `#:schema` line).
fn taplo_check(taplo: &Path, file: &Path, schema: Option<&Path>) -> (bool, String) {
    let mut cmd = std::process::Command::new(taplo);
    cmd.arg("check").env("RUST_LOG", "error");
    if let Some(schema) = schema {
        cmd.arg("--schema")
            .arg(format!("file://{}", schema.display()));
    }
    let out = cmd.arg(file).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn taplo_reads_the_schemas_as_the_grader_does() {
    let Some(taplo) = taplo() else {
        eprintln!("skipped: taplo is not installed (`.ci/run` installs it: `pip install taplo`)");
        return;
    };
    // Through each file's own `#:schema` line, as an editor finds it.
    for (file, _) in shipped() {
        let (ok, stderr) = taplo_check(&taplo, &file, None);
        assert!(ok, "taplo refuses {}: {stderr}", file.display());
    }
    // ... which taplo follows: a break in a copy laid out as the repository is refused through it.
    let dir = scratch();
    crate::util::copy_dir(&repo().join("schema"), &dir.path().join("schema"));
    let (file, _) = broken_copy(
        &dir.path().join("suites"),
        SUITE,
        "seed = 2021",
        "seed = \"x\"",
    );
    let (ok, stderr) = taplo_check(&taplo, &file, None);
    assert!(!ok && stderr.contains("is not of type"), "{stderr}");
    for (what, base, from, to) in BROKEN {
        let dir = scratch();
        let (file, _) = broken_copy(dir.path(), base, from, to);
        let kind = if base == GRADER {
            "grader"
        } else if base == COURSE {
            "course"
        } else {
            "suite"
        };
        let schema = repo().join(format!("schema/{kind}.schema.json"));
        let (ok, stderr) = taplo_check(&taplo, &file, Some(&schema));
        assert!(!ok, "taplo accepts {what}");
        assert!(stderr.contains("error"), "{what}: {stderr}");
    }
}
