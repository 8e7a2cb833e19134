//! The hostile corpus: small C, Python and Java programs (in `tests/hostile/`) that attack the machine,
//! each run under `full` and under `basic`. Every run checks its verdict, that the grader survived, that
//! nothing outside the working directory changed, that no process of the run is left, and that the run
//! ended within its limits plus a margin. Attacks `basic` cannot stop are asserted as not contained there
//! (or skipped, with the reason printed, when trying them would harm the machine).

mod attacks;
mod class;
mod leftovers;

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use grader::sandbox::{self, Limits, Outcome, Sandbox, Spec, Stdin, Tier};

/// The C programs of the corpus, compiled once per test process.
const C_PROGRAMS: &[&str] = &[
    "loop",
    "sleep",
    "threads",
    "forkbomb",
    "membomb",
    "memspread",
    "stdout_flood",
    "stderr_flood",
    "bigfile",
    "snoop",
    "connect",
    "daemon",
    "ptrace",
    "killer",
    "close_stdin",
    "ignore_stdin",
    "outside",
    "escape_ns",
    "deep",
    "tinyfiles",
    "locked",
    "cmdline",
];

/// Short limits keep the corpus fast: 1 s CPU, 2 s wall, 64 MB.
pub fn limits() -> Limits {
    Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(2),
        memory: 64 << 20,
        output: 1 << 20,
        file_size: 1 << 20,
        processes: 32,
        open_files: 64,
        stack: 8 << 20,
        address_space: None,
        idle: None,
    }
}

/// How late a run may end past its limits on a loaded two-core machine.
const MARGIN: Duration = Duration::from_millis(2500);

/// [`MARGIN`], stretched on a machine running more than twice its cores' work: ending a fork bomb's
/// thousand processes needs CPU the others hold (seen: 5.6 s for a 4.8 s bound at load 15 on 2 cores).
/// Containment is still checked: the run ends, and leaves nothing behind.
fn margin() -> Duration {
    let (load, cores) = crate::util::load_and_cores();
    let load = load.unwrap_or(0.0);
    MARGIN.mul_f64((load / (2.0 * cores)).max(1.0))
}

/// The compiled corpus (a directory readable by the sandbox's uid).
pub struct Corpus {
    _dir: tempfile::TempDir,
    pub bin: PathBuf,
    pub src: PathBuf,
}

pub fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
        let children: Vec<_> = C_PROGRAMS
            .iter()
            .map(|name| {
                let child = Command::new("gcc")
                    .args(["-O1", "-pthread", "-o"])
                    .arg(bin.join(name))
                    .arg(src.join(format!("{name}.c")))
                    .spawn()
                    .expect("gcc runs");
                (name, child)
            })
            .collect();
        for (name, mut child) in children {
            assert!(child.wait().unwrap().success(), "compiling {name}.c");
        }
        for d in [dir.path(), &bin] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        Corpus {
            _dir: dir,
            bin,
            src,
        }
    })
}

/// The compiled Java classes of the corpus, or why there are none.
static JAVA: OnceLock<Result<(tempfile::TempDir, PathBuf), String>> = OnceLock::new();

pub fn java_classes() -> Result<&'static Path, String> {
    JAVA.get_or_init(|| {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let src = &corpus().src;
        let status = Command::new("javac")
            .arg("-d")
            .arg(dir.path())
            .arg(src.join("Spin.java"))
            .arg(src.join("Hello.java"))
            .status()
            .map_err(|e| format!("`javac` cannot run: {e}"))?;
        if !status.success() {
            return Err("`javac` failed on the corpus".into());
        }
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = dir.path().to_owned();
        Ok((dir, path))
    })
    .as_ref()
    .map(|(_, p)| p.as_path())
    .map_err(Clone::clone)
}

/// The real `java` executable (not a wrapper), if any.
pub fn java() -> Option<PathBuf> {
    grader::toolchain::Toolchain::global()
        .tool("java")
        .map(|p| p.canonicalize().unwrap_or(p.to_owned()))
}

/// The real Python interpreter.
pub fn python() -> PathBuf {
    grader::toolchain::Toolchain::global()
        .tool("python3")
        .map(Path::to_owned)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/python3"))
}

/// The folders the toolchains live in, which the `full` tier binds read-only (as `grader run` passes
/// them).
fn toolchain_dirs() -> &'static [PathBuf] {
    grader::toolchain::Toolchain::global().read_only_dirs()
}

/// The sandboxes to run the corpus under: `full` (required when the tests run as root, as in CI) and
/// `basic`.
pub fn sandboxes() -> Vec<Box<dyn Sandbox>> {
    let mut out = Vec::new();
    match sandbox::select(Tier::Full, toolchain_dirs()) {
        Ok(s) => out.push(s),
        // SAFETY: geteuid has no preconditions.
        Err(e) if unsafe { libc::geteuid() } == 0 => {
            panic!("the full sandbox must work as root: {e}")
        }
        Err(e) => eprintln!("skipping the full tier: {e}"),
    }
    out.push(sandbox::select(Tier::Basic, &[]).expect("basic always works"));
    out
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// One run of a corpus program, with the folders around its working directory to check afterwards.
pub struct Run {
    pub tier: Tier,
    pub outcome: Outcome,
    pub elapsed: Duration,
    /// Holds `work/` (the program's), `neighbour/` (another student's) and `suite/` (golden files).
    pub root: tempfile::TempDir,
    marker: String,
    limits: Limits,
}

/// What a run can see of its surroundings: paths to attack.
pub struct Ground {
    pub root: tempfile::TempDir,
}

impl Ground {
    pub fn new() -> Ground {
        Ground::new_in(&std::env::temp_dir())
    }

    /// A ground in `dir` rather than the temporary directory (a class's results folder, say).
    pub fn new_in(dir: &Path) -> Ground {
        let root = tempfile::tempdir_in(dir).expect("a temporary directory");
        std::fs::create_dir(root.path().join("work")).unwrap();
        std::fs::create_dir(root.path().join("neighbour")).unwrap();
        std::fs::create_dir(root.path().join("suite")).unwrap();
        std::fs::write(root.path().join("neighbour/tictactoe.c"), "int main(){}\n").unwrap();
        std::fs::write(root.path().join("suite/golden.out"), "x--------\n").unwrap();
        // World-readable, so only the sandbox (not file modes) keeps them out of reach.
        std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        Ground { root }
    }

    pub fn work(&self) -> PathBuf {
        self.root.path().join("work")
    }

    pub fn neighbour(&self) -> PathBuf {
        self.root.path().join("neighbour/tictactoe.c")
    }

    pub fn golden(&self) -> PathBuf {
        self.root.path().join("suite/golden.out")
    }
}

/// Runs `program args` in a fresh ground under `sandbox`.
pub fn run(
    sandbox: &dyn Sandbox,
    program: &Path,
    args: &[OsString],
    stdin: Stdin,
    limits: Limits,
) -> Run {
    run_in(Ground::new(), sandbox, program, args, stdin, limits)
}

pub fn run_in(
    ground: Ground,
    sandbox: &dyn Sandbox,
    program: &Path,
    args: &[OsString],
    stdin: Stdin,
    limits: Limits,
) -> Run {
    let marker = format!(
        "GRADER_HOSTILE_RUN={}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let (key, value) = marker.split_once('=').unwrap();
    let mut read_only = vec![corpus().bin.clone()];
    // Only when a Java test compiled them: the other attacks need not wait for `javac`.
    if let Some(Ok((_, classes))) = JAVA.get() {
        read_only.push(classes.clone());
    }
    read_only.push(corpus().src.clone());
    let spec = Spec {
        program: program.into(),
        args: args.to_vec(),
        workdir: ground.work(),
        env: vec![(key.into(), value.into())],
        stdin,
        limits: limits.clone(),
        read_only,
    };
    let start = Instant::now();
    let outcome = sandbox.run(&spec).expect("the sandbox runs the program");
    let elapsed = start.elapsed();
    Run {
        tier: sandbox.tier(),
        outcome,
        elapsed,
        root: ground.root,
        marker,
        limits,
    }
}

pub fn c(name: &str) -> PathBuf {
    corpus().bin.join(name)
}

pub fn py(name: &str) -> (PathBuf, Vec<OsString>) {
    (python(), vec![corpus().src.join(name).into()])
}

pub fn args(list: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    list.iter().map(|a| a.as_ref().to_owned()).collect()
}

/// Host pids whose environment carries `marker`: processes of a run.
pub fn processes_with(marker: &str) -> Vec<i32> {
    let mut found = Vec::new();
    let me = std::process::id() as i32;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let zombie = std::fs::read_to_string(entry.path().join("stat"))
            .map(|s| {
                s.rsplit_once(')')
                    .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
            })
            .unwrap_or(true);
        if !zombie && env.split(|b| *b == 0).any(|kv| kv == marker.as_bytes()) {
            found.push(pid);
        }
    }
    found
}

impl Run {
    /// The checks every run gets: ended within its limits plus a margin, no process left, nothing
    /// changed outside its working directory.
    #[track_caller]
    pub fn assert_contained(&self) {
        let bound =
            self.limits.wall + sandbox::drive::TERM_GRACE + sandbox::drive::DRAIN_GRACE + margin();
        assert!(
            self.elapsed <= bound,
            "{}: the run took {:?}, more than {bound:?}",
            self.tier,
            self.elapsed
        );
        let left = processes_with(&self.marker);
        assert!(
            left.is_empty(),
            "{}: processes left behind: {left:?}",
            self.tier
        );
        self.assert_surroundings_unchanged();
    }

    #[track_caller]
    pub fn assert_surroundings_unchanged(&self) {
        let root = self.root.path();
        let mut names: Vec<_> = std::fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["neighbour", "suite", "work"],
            "{}: new files next to the working dir",
            self.tier
        );
        assert_eq!(
            std::fs::read_dir(root.join("neighbour")).unwrap().count(),
            1,
            "{}",
            self.tier
        );
        assert_eq!(
            std::fs::read_to_string(root.join("suite/golden.out")).unwrap(),
            "x--------\n",
            "{}",
            self.tier
        );
    }

    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.outcome.stdout).into_owned()
    }

    pub fn work(&self) -> PathBuf {
        self.root.path().join("work")
    }
}

/// Says on stderr that a tier skips an attack, and why.
pub fn skip(tier: Tier, attack: &str, why: &str) {
    eprintln!("skipping `{attack}` under {tier}: {why}");
}

#[test]
fn the_configured_tier_is_selected_and_named() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipping: the full tier needs root here");
        return;
    }
    let selected = sandbox::select_or_degrade(Tier::Full, false, toolchain_dirs())
        .expect("full works as root");
    assert_eq!(selected.sandbox.tier(), Tier::Full);
    assert!(selected.degraded.is_none());
    assert_eq!(selected.notice(), "sandbox: full");
    let basic = sandbox::select_or_degrade(Tier::Basic, true, &[]).unwrap();
    assert_eq!(basic.notice(), "sandbox: basic");
    let degraded = sandbox::Selected {
        sandbox: Box::new(sandbox::BasicSandbox),
        degraded: Some(sandbox::Degraded {
            requested: Tier::Full,
            reason: "no user namespaces".into(),
        }),
    };
    assert_eq!(
        degraded.notice(),
        "sandbox: basic (full unavailable: no user namespaces)"
    );
}
