//! Same grades as before: grades the shipped examples (`grader run suites/ examples/submissions/`) and
//! the hostile C corpus (`tests/hostile` as Adelaide hand-ins) with this grader and with an earlier
//! one, `--jobs 1` and `--jobs 2`, and compares the results folders: gradebooks byte for byte, every
//! `result.json`, record and page with its timings masked (`support/same.rs`).
//!
//! `cargo bench --bench same -- --base PATH/TO/OLD/grader [--jobs 1,2] [--set examples,hostile,attackers]
//! [--keep DIR]`. The earlier grader's results are kept in `DIR` (default: the system's temporary
//! folder), by the hash of its binary, and graded again only when missing. Exits 1 when anything
//! differs. Each run's time and CPU are printed with the load they were taken under; a verdict near a
//! CPU limit can differ between two runs of one grader on a loaded machine, so a difference is worth
//! a run of the earlier grader against itself (`--base` twice over: `--against-base`).

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sha2::Digest as _;

#[path = "../tests/attackers.rs"]
mod attackers;

struct Options {
    base: PathBuf,
    jobs: Vec<usize>,
    sets: Vec<String>,
    keep: PathBuf,
    against_base: bool,
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let Some(base) = value("--base") else {
        eprintln!("usage: cargo bench --bench same -- --base PATH/TO/OLD/grader [--jobs 1,2] [--set examples,hostile,attackers] [--keep DIR] [--against-base]");
        std::process::exit(2);
    };
    let list = |v: Option<String>, default: &str| -> Vec<String> {
        v.unwrap_or_else(|| default.to_string())
            .split(',')
            .map(str::to_string)
            .collect()
    };
    Options {
        base: PathBuf::from(base),
        jobs: list(value("--jobs"), "1,2")
            .iter()
            .map(|j| j.parse().expect("--jobs takes numbers: 1,2"))
            .collect(),
        sets: list(value("--set"), "examples,hostile"),
        keep: value("--keep")
            .map_or_else(|| std::env::temp_dir().join("grader-same"), PathBuf::from),
        against_base: args.iter().any(|a| a == "--against-base"),
    }
}

/// The suites and class folder of a set, made under `keep` where it is not shipped.
fn set(root: &Path, name: &str, keep: &Path) -> (PathBuf, PathBuf) {
    match name {
        "examples" => (root.join("suites"), root.join("examples/submissions")),
        "hostile" => {
            let class = keep.join("hostile-c-class");
            let _ = std::fs::remove_dir_all(&class);
            support::hostile_c_class(root, &class);
            (root.join("suites/adelaide-2021-a1"), class)
        }
        "attackers" => {
            use std::os::unix::ffi::OsStrExt as _;
            let class = keep.join("attackers-class");
            let _ = std::fs::remove_dir_all(&class);
            let golden = root.join("suites/adelaide-2021-a1/golden/prune-blank-board.visited");
            for (folder, program) in attackers::attackers() {
                let dir = class.join(std::ffi::OsStr::from_bytes(folder));
                std::fs::create_dir_all(&dir).unwrap();
                let program = program.replace("{golden}", golden.to_str().unwrap());
                std::fs::write(dir.join("tictactoe.py"), program).unwrap();
            }
            (root.join("suites/adelaide-2021-a1"), class)
        }
        other => panic!("no set `{other}` (examples, hostile, attackers)"),
    }
}

/// `grader run SUITES CLASS --out OUT --jobs J` by `grader`, from the repository; prints its cost.
fn grade(grader: &Path, root: &Path, suites: &Path, class: &Path, out: &Path, jobs: usize) {
    let _ = std::fs::remove_dir_all(out);
    let mut command = Command::new(grader);
    command
        .arg("run")
        .arg(suites)
        .arg(class)
        .arg("--out")
        .arg(out)
        .args(["--jobs", &jobs.to_string()])
        .current_dir(root)
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let load = support::load();
    let (status, cost) = support::run_costed(&mut command);
    // 3 as well: the examples hold a case left for a person (`review`) and manual marks to give.
    assert!(
        status.code().is_some_and(|c| c <= 1 || c == 3),
        "{} exited {status:?}",
        grader.display()
    );
    println!(
        "  {:<40} {:>7.1} s wall, grader {:>6.1} s CPU, programs {:>6.1} s CPU ({load} at the start)",
        out.file_name().unwrap().to_string_lossy(),
        cost.wall,
        cost.own_cpu,
        cost.children_cpu,
    );
}

fn main() {
    let o = options();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let new = PathBuf::from(env!("CARGO_BIN_EXE_grader"));
    let bytes =
        std::fs::read(&o.base).unwrap_or_else(|e| panic!("reading `{}`: {e}", o.base.display()));
    let hash = format!("{:x}", sha2::Sha256::digest(&bytes));
    let keep = o.keep.join(&hash[..12]);
    std::fs::create_dir_all(&keep).unwrap();
    println!(
        "base: {} ({}); kept in {}",
        o.base.display(),
        &hash[..12],
        keep.display()
    );
    let mut differ = 0;
    for name in &o.sets {
        let (suites, class) = set(&root, name, &keep);
        for &jobs in &o.jobs {
            let before = keep.join(format!("base-{name}-j{jobs}"));
            let done = keep.join(format!("base-{name}-j{jobs}.done"));
            if !done.exists() {
                grade(&o.base, &root, &suites, &class, &before, jobs);
                std::fs::write(&done, "").unwrap();
            }
            let (grader, label) = if o.against_base {
                (&o.base, "base")
            } else {
                (&new, "new")
            };
            let now = keep.join(format!("{label}-{name}-j{jobs}-now"));
            grade(grader, &root, &suites, &class, &now, jobs);
            let found = support::same::differences(&before, &now);
            let files = support::same::tree(&before).len();
            if found.is_empty() {
                println!("{name}, --jobs {jobs}: the same ({files} files, timings masked)");
            } else {
                differ += found.len();
                println!("{name}, --jobs {jobs}: {} difference(s)", found.len());
                for d in &found {
                    println!("  {d}");
                }
            }
        }
    }
    if differ > 0 {
        std::process::exit(1);
    }
}
