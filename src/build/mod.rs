//! Builds a submission in a scratch copy from the suite's language recipes, through the sandbox.
//!
//! The student's folder is only ever read. A build that fails, hits a limit, or leaves no program to
//! run is a compile-error verdict carrying the (trimmed) compiler output; only the grader's own
//! failures (a missing compiler, an unwritable scratch folder, a sandbox fault) are `BuildError`s.

mod copy;
mod detect;
mod python;
mod recipe;

pub use copy::{copy_submission, Copied, MAX_FILE, MAX_FILES, MAX_TOTAL};
pub use detect::{detect_matches, glob_match};
pub use python::Interpreter;
pub use recipe::{trim_log, PythonVersion, Recipe, DIR, LOG_BYTES, LOG_LINES};

use std::ffi::OsString;
use std::fmt::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::sandbox::{LimitHit, Limits, Outcome, Sandbox, SandboxError, Spec, Status, Stdin};
use crate::toolchain::Toolchain;

/// A submission that built: where, and how to run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    pub language: String,
    /// The absolute path of the built copy (the `{dir}` of the run command).
    pub dir: PathBuf,
    /// The run command with `{dir}` filled in and the interpreter resolved to its real path.
    pub command: Vec<String>,
    /// What the copy and the build printed (trimmed).
    pub log: String,
    /// The last build command's outcome; `None` when the recipe has no build step.
    pub outcome: Option<Outcome>,
    /// Whether runs get RLIMIT_AS (the recipe's choice; off for the JVM).
    pub address_space: bool,
    /// The Python interpreter the run command uses (path and version), for a Python recipe.
    /// (Boxed: players hold a `Built` in an enum beside small variants.)
    pub interpreter: Option<Box<Interpreter>>,
}

impl Built {
    /// A spec that runs the built program with `args` in `workdir` (its one writable folder): the
    /// toolchain's clean environment with `HOME` there, the built copy readable, and RLIMIT_AS dropped
    /// from `limits` when the recipe turns it off.
    pub fn spec(&self, args: &[String], workdir: &Path, stdin: Stdin, limits: &Limits) -> Spec {
        self.spec_with(Toolchain::global(), args, workdir, stdin, limits)
    }

    /// [`Built::spec`] with an explicit toolchain.
    pub fn spec_with(
        &self,
        toolchain: &Toolchain,
        args: &[String],
        workdir: &Path,
        stdin: Stdin,
        limits: &Limits,
    ) -> Spec {
        Spec {
            program: self.command[0].clone().into(),
            args: self.command[1..]
                .iter()
                .chain(args)
                .map(OsString::from)
                .collect(),
            workdir: workdir.to_path_buf(),
            env: toolchain.env(workdir),
            stdin,
            limits: Limits {
                address_space: limits.address_space.filter(|_| self.address_space),
                ..limits.clone()
            },
            read_only: vec![self.dir.clone()],
        }
    }
}

/// The result of a build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildOutcome {
    Built(Built),
    /// The build failed, hit a limit, or left no program to run.
    CompileError {
        language: String,
        /// Trimmed compiler output, ending with the reason when it was not the compiler's exit code.
        log: String,
        outcome: Outcome,
    },
    /// Nothing the suite allows was found: each recipe's language and the files it looked for.
    NoLanguage {
        looked_for: Vec<(String, Vec<String>)>,
    },
}

/// The grader could not build (its fault or the machine's), as opposed to a compile-error verdict.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("cannot read the submission at `{}`", path.display())]
    Submission {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot prepare the build folder `{}`", path.display())]
    Scratch {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the build folder `{}` is not empty\nhint: give each build a fresh folder", path.display())]
    ScratchNotEmpty { path: PathBuf },
    #[error(
        "the build folder `{}` lies inside the submission `{}`\nhint: build outside the student's folder",
        scratch.display(),
        submission.display()
    )]
    ScratchInsideSubmission {
        scratch: PathBuf,
        submission: PathBuf,
    },
    #[error("cannot copy `{}` to `{}`", from.display(), to.display())]
    Copy {
        from: PathBuf,
        to: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "the `{language}` recipe has an empty {what} command\nhint: fix the recipe in suite.toml"
    )]
    EmptyCommand {
        language: String,
        what: &'static str,
    },
    #[error(
        "the `{language}` recipe needs `{tool}`, which this machine lacks: {reason}\nhint: install it, or remove `{language}` from the suite"
    )]
    MissingTool {
        language: String,
        tool: String,
        reason: String,
    },
    #[error("the sandbox failed while building `{language}`")]
    Sandbox {
        language: String,
        #[source]
        source: SandboxError,
    },
}

impl BuildError {
    /// True for the grader's or the machine's faults; false for bad input (an unreadable submission,
    /// a broken recipe).
    pub fn is_internal(&self) -> bool {
        // (A missing tool is the machine's fault too: `not-graded`, see `is_missing_tool`.)
        !matches!(
            self,
            BuildError::Submission { .. } | BuildError::EmptyCommand { .. }
        )
    }
}

impl BuildError {
    /// The machine lacks a compiler or interpreter: the submission cannot be graded here.
    pub fn is_missing_tool(&self) -> bool {
        matches!(self, BuildError::MissingTool { .. })
    }
}

/// Builds `submission` in `scratch` (created if missing; must be empty) with the first recipe whose
/// `detect` files all exist, running each build command through `sandbox` under `limits` (without
/// RLIMIT_AS when the recipe turns it off).
pub fn build(
    sandbox: &dyn Sandbox,
    recipes: &[Recipe],
    submission: &Path,
    scratch: &Path,
    limits: &Limits,
) -> Result<BuildOutcome, BuildError> {
    build_with(
        sandbox,
        Toolchain::global(),
        recipes,
        submission,
        scratch,
        limits,
    )
}

/// [`build`] with an explicit toolchain.
pub fn build_with(
    sandbox: &dyn Sandbox,
    toolchain: &Toolchain,
    recipes: &[Recipe],
    submission: &Path,
    scratch: &Path,
    limits: &Limits,
) -> Result<BuildOutcome, BuildError> {
    let meta = std::fs::metadata(submission).map_err(|source| BuildError::Submission {
        path: submission.to_path_buf(),
        source,
    })?;
    if !meta.is_dir() {
        return Err(BuildError::Submission {
            path: submission.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a folder"),
        });
    }
    let Some(recipe) = recipes
        .iter()
        .find(|r| r.detect.iter().all(|f| detect_matches(submission, f)))
    else {
        return Ok(BuildOutcome::NoLanguage {
            looked_for: recipes
                .iter()
                .map(|r| (r.language.clone(), r.detect.clone()))
                .collect(),
        });
    };
    if recipe.run.is_empty() {
        return Err(BuildError::EmptyCommand {
            language: recipe.language.clone(),
            what: "run",
        });
    }
    let dir = prepare_scratch(submission, scratch)?;
    let copied = copy_submission(submission, &dir)?;

    let mut log = String::new();
    for (path, why) in &copied.skipped {
        let _ = writeln!(log, "not copied: {} ({why})", path.display());
    }
    copy_support(recipe, &dir, &mut log)?;
    Ok(
        match compile(sandbox, toolchain, recipe, dir, limits, log)? {
            Compiled::Built(built) => BuildOutcome::Built(built),
            Compiled::Failed { log, outcome } => BuildOutcome::CompileError {
                language: recipe.language.clone(),
                log,
                outcome,
            },
        },
    )
}

/// What running a recipe's build commands in a prepared copy gave.
enum Compiled {
    Built(Built),
    /// A build command failed, or the run command's program is not there: the trimmed log says why.
    Failed {
        log: String,
        outcome: Outcome,
    },
}

/// Runs `recipe`'s build commands in `dir` (which already holds the submission), then checks and
/// resolves its run command. Shared by the main program and a recipe's extra programs.
fn compile(
    sandbox: &dyn Sandbox,
    toolchain: &Toolchain,
    recipe: &Recipe,
    dir: PathBuf,
    limits: &Limits,
    mut log: String,
) -> Result<Compiled, BuildError> {
    let dir_str = dir.to_string_lossy().into_owned();
    let limits = Limits {
        address_space: limits.address_space.filter(|_| recipe.address_space),
        ..limits.clone()
    };
    let mut env = toolchain.env(&dir);
    env.push(("CARGO_TARGET_DIR".into(), dir.join("target").into()));

    let mut last = None;
    for argv in &recipe.build {
        let argv = fill(argv, &dir_str);
        let Some((program, args)) = argv.split_first() else {
            return Err(BuildError::EmptyCommand {
                language: recipe.language.clone(),
                what: "build",
            });
        };
        let spec = Spec {
            program: resolve(toolchain, &recipe.language, program)?.into(),
            args: args.iter().map(OsString::from).collect(),
            workdir: dir.clone(),
            env: env.clone(),
            stdin: Stdin::Null,
            limits: limits.clone(),
            read_only: Vec::new(),
        };
        let outcome = sandbox.run(&spec).map_err(|source| BuildError::Sandbox {
            language: recipe.language.clone(),
            source,
        })?;
        let _ = writeln!(log, "$ {}", argv.join(" "));
        log.push_str(&String::from_utf8_lossy(&outcome.stdout));
        log.push_str(&String::from_utf8_lossy(&outcome.stderr));
        if let Some(why) = failure(&outcome, &limits) {
            let mut log = trim_log(&log);
            let _ = writeln!(log, "build failed: {why}");
            return Ok(Compiled::Failed { log, outcome });
        }
        last = Some(outcome);
    }

    let mut command = fill(&recipe.run, &dir_str);
    if let Some(why) = missing_program(recipe, &command, &dir) {
        let mut log = trim_log(&log);
        let _ = writeln!(log, "build failed: {why}");
        return Ok(Compiled::Failed {
            log,
            outcome: last.unwrap_or_else(nothing_ran),
        });
    }
    if command[0] == "python3" && !recipe.python.is_empty() {
        let choice = python::choose(
            sandbox,
            toolchain,
            &recipe.language,
            &recipe.python,
            &command,
            &recipe.support,
            &dir,
            &env,
            &limits,
            &mut log,
        )?;
        command[0] = choice.tool.to_string();
    }
    let interpreter = resolve_run(toolchain, &recipe.language, &mut command, &mut log)?;
    Ok(Compiled::Built(Built {
        interpreter,
        language: recipe.language.clone(),
        dir,
        command,
        log: trim_log(&log),
        outcome: last,
        address_space: recipe.address_space,
    }))
}

/// Resolves the run command's program, and for an interpreter (`python3`, `python2`) says which:
/// its path and version, noted in the log for Python 2.
fn resolve_run(
    toolchain: &Toolchain,
    language: &str,
    command: &mut [String],
    log: &mut String,
) -> Result<Option<Box<Interpreter>>, BuildError> {
    let interpreter = ["python3", "python2"]
        .into_iter()
        .find(|t| command[0] == *t)
        .map(|tool| {
            (
                tool,
                toolchain.version(tool).unwrap_or("unknown").to_string(),
            )
        });
    command[0] = resolve(toolchain, language, &command[0])?;
    Ok(interpreter.map(|(tool, version)| {
        if tool == "python2" {
            let _ = writeln!(
                log,
                "python: running with Python {version} (`{}`)",
                command[0]
            );
        }
        Box::new(Interpreter {
            path: command[0].clone(),
            version,
        })
    }))
}

/// A second program a recipe can build in the same copy (Adelaide postgrads: `tmmorris` beside
/// `tictactoe`): its own detect files, build commands and run command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtraRecipe {
    /// The name groups use (`program = "tmmorris"`).
    pub name: String,
    /// Files (paths relative to the submission) whose presence shows the student attempted it.
    pub detect: Vec<String>,
    pub build: Vec<Vec<String>>,
    pub run: Vec<String>,
    /// The Python versions its recipe accepts (as the main program's).
    pub python: Vec<PythonVersion>,
}

/// What building an extra program gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExtraOutcome {
    Built(Built),
    /// The submission has none of it: the groups that need it are not attempted.
    Absent {
        missing: Vec<String>,
    },
    CompileError {
        log: String,
        outcome: Outcome,
    },
}

/// Builds `extra` in the copy `main` was built in, after it, under the same limits (RLIMIT_AS as the
/// main recipe says). Detect files are looked for in the built copy, which holds the submission's files.
///
/// # Errors
/// The grader's own failures (a missing tool, the sandbox), as for [`build`].
pub fn build_extra(
    sandbox: &dyn Sandbox,
    main: &Built,
    extra: &ExtraRecipe,
    limits: &Limits,
) -> Result<ExtraOutcome, BuildError> {
    let toolchain = Toolchain::global();
    let dir = main.dir.clone();
    let missing: Vec<String> = extra
        .detect
        .iter()
        .filter(|f| !detect_matches(&dir, f))
        .cloned()
        .collect();
    if !missing.is_empty() {
        return Ok(ExtraOutcome::Absent { missing });
    }
    let recipe = Recipe {
        language: main.language.clone(),
        detect: Vec::new(),
        build: extra.build.clone(),
        run: extra.run.clone(),
        support: Vec::new(),
        address_space: main.address_space,
        python: extra.python.clone(),
    };
    Ok(
        match compile(sandbox, toolchain, &recipe, dir, limits, String::new())? {
            Compiled::Built(built) => ExtraOutcome::Built(built),
            Compiled::Failed { log, outcome } => ExtraOutcome::CompileError { log, outcome },
        },
    )
}

/// Copies the recipe's support files (the suite's adapters) into the build copy under their base names,
/// replacing a student file of the same name and saying so in the log.
fn copy_support(recipe: &Recipe, dir: &Path, log: &mut String) -> Result<(), BuildError> {
    for from in &recipe.support {
        let Some(name) = from.file_name() else {
            continue;
        };
        let to = dir.join(name);
        if to.exists() {
            let _ = writeln!(
                log,
                "note: the suite's `{}` replaces the submission's own",
                name.to_string_lossy()
            );
            let _ = std::fs::remove_file(&to);
        }
        std::fs::copy(from, &to).map_err(|source| BuildError::Copy {
            from: from.clone(),
            to: to.clone(),
            source,
        })?;
    }
    Ok(())
}

/// Creates `scratch` if needed, checks it is empty and outside the submission, and returns its
/// absolute path.
fn prepare_scratch(submission: &Path, scratch: &Path) -> Result<PathBuf, BuildError> {
    let err = |source| BuildError::Scratch {
        path: scratch.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(scratch).map_err(err)?;
    let dir = scratch.canonicalize().map_err(err)?;
    let root = submission
        .canonicalize()
        .map_err(|source| BuildError::Submission {
            path: submission.to_path_buf(),
            source,
        })?;
    if dir.starts_with(&root) {
        return Err(BuildError::ScratchInsideSubmission {
            scratch: dir,
            submission: root,
        });
    }
    if std::fs::read_dir(&dir).map_err(err)?.next().is_some() {
        return Err(BuildError::ScratchNotEmpty { path: dir });
    }
    Ok(dir)
}

fn fill(argv: &[String], dir: &str) -> Vec<String> {
    argv.iter().map(|a| a.replace(DIR, dir)).collect()
}

/// A bare tool name becomes the machine's real executable; paths are left alone.
fn resolve(toolchain: &Toolchain, language: &str, program: &str) -> Result<String, BuildError> {
    if program.contains('/') {
        return Ok(program.to_string());
    }
    if let Some(path) = toolchain.tool(program) {
        return Ok(path.to_string_lossy().into_owned());
    }
    match toolchain.missing(program) {
        Some(reason) => Err(BuildError::MissingTool {
            language: language.to_string(),
            tool: program.to_string(),
            reason: reason.to_string(),
        }),
        // Not a tool we track: the sandbox looks it up on the toolchain `PATH`, where it must be.
        None => match toolchain.locate(program) {
            Ok(_) => Ok(program.to_string()),
            Err(reason) => Err(BuildError::MissingTool {
                language: language.to_string(),
                tool: program.to_string(),
                reason,
            }),
        },
    }
}

/// Why a build command counts as failed, if it does.
fn failure(outcome: &Outcome, limits: &Limits) -> Option<String> {
    if let Some(hit) = outcome.limit {
        return Some(match hit {
            LimitHit::Cpu => format!("the CPU limit of {} was reached", secs(limits.cpu)),
            LimitHit::Wall => format!("the wall-clock limit of {} was reached", secs(limits.wall)),
            LimitHit::Idle => format!(
                "it used no CPU for {} (the idle limit): it was waiting for something",
                secs(limits.idle.unwrap_or_default())
            ),
            LimitHit::Memory => format!(
                "the memory limit of {} MiB was reached",
                limits.memory >> 20
            ),
            LimitHit::Output => format!("more than {} bytes of output", limits.output),
            LimitHit::Stderr => format!(
                "more than the {} file-size limit written to stderr",
                limits.file_size
            ),
        });
    }
    match outcome.status {
        Status::Exited(0) => None,
        Status::Exited(code) => Some(format!("the compiler exited with status {code}")),
        Status::Signaled(signal) => Some(format!("the compiler was killed by signal {signal}")),
    }
}

fn secs(d: Duration) -> String {
    format!("{}s", d.as_secs_f64())
}

/// Checks the build left a program to run: every `{dir}/…` file in the run command (the first one
/// executable), and for Java the main class.
fn missing_program(recipe: &Recipe, command: &[String], dir: &Path) -> Option<String> {
    let mut expected: Vec<(PathBuf, bool)> = command
        .iter()
        .enumerate()
        .filter(|(_, a)| Path::new(a.as_str()).starts_with(dir))
        .map(|(i, a)| (PathBuf::from(a), i == 0))
        .collect();
    if recipe.language == "java" {
        if let Some(class) = command.last() {
            expected.push((dir.join(format!("{class}.class")), false));
        }
    }
    for (path, executable) in expected {
        let shown = path
            .strip_prefix(dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        match path.metadata() {
            Ok(m) if m.is_file() => {
                if executable && m.permissions().mode() & 0o111 == 0 {
                    return Some(format!("`{shown}` is not executable"));
                }
                // The kernel would refuse it (ENOEXEC), and that must be the student's verdict, not a
                // sandbox failure.
                if executable && !starts_like_a_program(&path) {
                    return Some(format!(
                        "`{shown}` is not a program (neither a native executable nor a `#!` script)"
                    ));
                }
            }
            Ok(m) if m.is_dir() && !executable => {}
            _ => return Some(format!("the build left no `{shown}` to run")),
        }
    }
    None
}

fn starts_like_a_program(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    head[..n].starts_with(b"\x7fELF") || head[..n].starts_with(b"#!")
}

/// The outcome reported when no build command ran.
fn nothing_ran() -> Outcome {
    Outcome::silent(Duration::ZERO, Duration::ZERO)
}
