//! What several commands share: the user's settings, the sandbox they run submissions in, flag
//! values, and printing data to stdout.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::exit::{CliError, Exit};
use crate::config::{parse_tier, Config};
use crate::grade::wire;

/// The flags of every command that runs submissions (`run`, `check`, `play`, `tournament`).
#[derive(Debug, clap::Args)]
pub struct RunFlags {
    /// The sandbox tier for submissions: `full`, `basic` or `none` (default: `grader.toml`'s
    /// `run.sandbox`).
    #[arg(long, value_name = "TIER")]
    pub sandbox: Option<String>,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Go on when a toolchain the suite needs is missing: what needs it is `not-graded` (exit 3), and
    /// takes no part in games.
    #[arg(long)]
    pub allow_missing: bool,
}

/// The user's configuration: `--config`, else `./grader.toml` when present, over the built-in defaults.
pub fn load_config(explicit: Option<&Path>) -> Result<Config, CliError> {
    let local = Path::new("grader.toml");
    let path = explicit.or_else(|| local.is_file().then_some(local));
    let config = Config::load(path).map_err(CliError::usage)?;
    crate::toolchain::Toolchain::configure(config.python2.clone());
    Ok(config)
}

/// `--sandbox` when given, else the settings' tier.
fn tier(flag: Option<&str>, config: &Config) -> Result<crate::sandbox::Tier, CliError> {
    match flag {
        Some(t) => parse_tier(t).map_err(|m| CliError::usage(anyhow::anyhow!("{m}"))),
        None => Ok(config.sandbox),
    }
}

/// The sandbox every command that runs submissions uses (`run`, `check`, `play`, `tournament`), chosen
/// one way: `--sandbox` when given, else `grader.toml`'s `run.sandbox`. Never weaker than that without
/// `--sandbox`, except that `allow_degrade` (`check`, on a student's own machine) may fall back to
/// `basic` with a notice on stderr.
///
/// # Errors
/// An unknown tier (usage), or a tier this machine cannot provide (internal, with a hint).
pub fn environment_for(
    flag: Option<&str>,
    config: &Config,
    allow_degrade: bool,
) -> Result<wire::Environment, CliError> {
    Ok(wire::environment(tier(flag, config)?, allow_degrade)?)
}

/// Refuses an `--out` that is not a folder (a file, a FIFO, a device: refused before any grading, not
/// after), or that is, lies inside, or holds one of the class folders `classes`: a second run would
/// grade the results as a student (and overwrite a 15/15 with 0), or write results among the
/// hand-ins. Paths are compared as the filesystem resolves them (links, `..`), the part of `--out`
/// not made yet by its nearest existing folder.
///
/// # Errors
/// Which, with a hint (usage).
pub fn check_out(out: &Path, classes: &[&Path]) -> Result<(), CliError> {
    if let Ok(meta) = std::fs::metadata(out) {
        if !meta.is_dir() {
            return Err(CliError::usage(anyhow::anyhow!(
                "`--out {}` is not a folder\nhint: give a folder for the results (it is made when missing)",
                out.display()
            )));
        }
    }
    let resolved = resolve(out);
    for class in classes {
        let class_real = resolve(class);
        let clash = if resolved == class_real {
            Some("is")
        } else if resolved.starts_with(&class_real) {
            Some("is inside")
        } else if class_real.starts_with(&resolved) {
            Some("holds")
        } else {
            None
        };
        if let Some(clash) = clash {
            return Err(CliError::usage(anyhow::anyhow!(
                "`--out {}` {clash} the class folder `{}`: a later run would grade the results as hand-ins\nhint: write results beside the submissions, not among them (`--out results`)",
                out.display(),
                class.display()
            )));
        }
    }
    Ok(())
}

/// `path` as the filesystem resolves it: its nearest existing ancestor made canonical, then the rest.
fn resolve(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut rest = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(real) = std::fs::canonicalize(at) {
            return rest.iter().rev().fold(real, |p, c| p.join(c));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return absolute,
        }
    }
}

/// `--jobs` resolved: the flag when given (0 = one per core), else `grader.toml`'s `run.jobs`; what
/// `run` and `merge` share.
pub fn jobs(flag: Option<usize>, config: &Config) -> usize {
    match flag {
        Some(0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n,
        None => config.jobs,
    }
}

/// How a graded class went, with its error and warnings on stderr and where its results are: exit 3
/// when a result could not be written (`write_error`), a case hit an internal error, or a submission
/// was not graded or needs review; what `run` and `merge` say at the end of each suite.
pub fn class_outcome(
    results: &[crate::report::result::SubmissionResult],
    write_error: Option<anyhow::Error>,
    dir: &Path,
) -> Exit {
    let mut exit = Exit::Success;
    if let Some(e) = write_error {
        eprintln!("error: {e:#}");
        exit = Exit::Internal;
    }
    if results.iter().any(|r| r.has_internal_error()) {
        eprintln!(
            "warning: some cases hit an internal error (the grader's fault); see their result.json"
        );
        exit = Exit::Internal;
    }
    if results.iter().any(|r| r.not_graded().is_some()) {
        eprintln!(
            "warning: some submissions were not graded (a toolchain is missing); see grades.csv"
        );
        exit = Exit::Internal;
    }
    if results.iter().any(|r| r.needs_review().is_some()) {
        eprintln!(
            "warning: some submissions need review (the grader could not follow a program's dialogue, or a suite's rules program failed; a person should look at the case in its result.json or report.html); see grades.csv"
        );
        exit = Exit::Internal;
    }
    eprintln!("results: {}", dir.display());
    if !results.is_empty() {
        eprintln!("report: {}", dir.join("index.html").display());
    }
    exit
}

/// Grades one submission folder on the cases `which` selects, in a scratch folder removed afterwards,
/// as `student`: what `check` and `autograde` share.
///
/// # Errors
/// A scratch folder that cannot be made (internal).
pub fn grade_folder(
    env: &wire::Environment,
    config: &Config,
    suite: &crate::suite::Suite,
    student: &str,
    dir: &Path,
    which: &dyn Fn(crate::suite::Visibility) -> bool,
) -> Result<crate::grade::pipeline::Graded, CliError> {
    use anyhow::Context as _;
    let scratch = crate::sandbox::scratch::Scratch::new()
        .context("cannot make a scratch folder")
        .map_err(CliError::internal)?;
    let bounded = (env.sandbox.tier() == crate::sandbox::Tier::Full).then_some(config.scratch);
    let rooms = crate::grade::pipeline::Rooms::new(&scratch, "s", bounded)
        .context("cannot make a scratch folder")
        .map_err(CliError::internal)?;
    Ok(crate::grade::pipeline::grade(
        &env.sandbox,
        &*env.prepare,
        suite,
        student,
        dir,
        &rooms,
        which,
        &mut |_| {},
    ))
}

/// The key a submission folder is graded under: its own name (`grade::class::student_key`), or
/// `submission` when it has none.
pub fn student_name(dir: &Path) -> String {
    dir.canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(crate::grade::class::student_key))
        .unwrap_or_else(|| "submission".to_string())
}

/// The settings (`--config`, else `./grader.toml`, over the built-in defaults) and the sandbox an
/// event's submissions run in, chosen exactly as `grader run` chooses (`--sandbox`, else `run.sandbox`,
/// never lower without `--sandbox`), with its notice on stderr. No sandbox when every player is a bot:
/// nothing from a student runs then.
///
/// # Errors
/// A bad `grader.toml` or tier (usage); a tier this machine cannot provide (as `run`).
pub fn sandbox(
    words: &[String],
    flag: Option<&str>,
    config_file: Option<&Path>,
) -> Result<(Config, Option<Arc<dyn crate::sandbox::Sandbox>>), CliError> {
    let settings = load_config(config_file)?;
    if !words.iter().any(|w| Path::new(w).is_dir()) {
        // Still a usage error when misspelt, though no sandbox is needed.
        if let Some(t) = flag {
            parse_tier(t).map_err(|m| CliError::usage(anyhow::anyhow!("{m}")))?;
        }
        return Ok((settings, None));
    }
    let env = environment_for(flag, &settings, false)?;
    eprintln!("sandbox: {}", env.sandbox.tier());
    Ok((settings, Some(env.sandbox)))
}

/// Prints data to stdout. A closed pipe (`grader tournament ... | head`) stops the printing, never the
/// event: games keep their results and records are still saved.
pub fn emit(text: &str) {
    use std::io::Write as _;
    use std::sync::atomic::{AtomicBool, Ordering};
    static CLOSED: AtomicBool = AtomicBool::new(false);
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    // The last door before the terminal: names and reasons are escaped where they are made, and
    // anything that slipped through still cannot move the cursor or retitle the window.
    let text = crate::untrusted::block(text, usize::MAX);
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        CLOSED.store(true, Ordering::Relaxed);
    }
}

/// A `--move-limit` value: a duration, or `none`.
///
/// # Errors
/// Anything else, with a hint.
pub fn limit(text: &str) -> anyhow::Result<Option<Duration>> {
    if text.trim() == "none" {
        return Ok(None);
    }
    crate::units::parse_duration(text, crate::units::ARENA)
        .map(Some)
        .map_err(|_| {
            anyhow::anyhow!("bad --move-limit `{text}`\nhint: write a duration like `1s`, `500ms` or `1.5s`, or `none`")
        })
}

/// An arena command (`play`, `tournament`) loaded and ready to play on its game: its arguments, the
/// event's config, the user's settings and the sandbox for submissions.
pub struct Arena<A> {
    pub args: A,
    pub config: crate::arena::config::ArenaConfig,
    pub settings: Config,
    pub sandbox: Option<Arc<dyn crate::sandbox::Sandbox>>,
}

impl Arena<()> {
    /// The event `game` names, `move_limit` over its per-move limit, and the settings and sandbox that
    /// `players` need (see [`sandbox`]).
    ///
    /// # Errors
    /// An unknown game, a bad limit or settings (usage); a sandbox this machine cannot provide.
    pub fn load(
        game: &str,
        move_limit: Option<&str>,
        players: &[String],
        flags: &RunFlags,
    ) -> Result<Self, CliError> {
        let mut config = crate::arena::setup::event(game).map_err(CliError::usage)?;
        if let Some(text) = move_limit {
            config.policy.limit = limit(text).map_err(CliError::usage)?;
        }
        let (settings, sandbox) =
            sandbox(players, flags.sandbox.as_deref(), flags.config.as_deref())?;
        Ok(Arena {
            args: (),
            config,
            settings,
            sandbox,
        })
    }

    /// Plays the command on the event's game: `args`' [`Visitor`] with its rules and bots.
    ///
    /// # Errors
    /// An unknown game (usage), or what the command returns.
    pub fn dispatch<A>(self, args: A) -> super::exit::CmdResult
    where
        Arena<A>: crate::arena::game::registry::Visitor<Out = super::exit::CmdResult>,
    {
        let game = self.config.game.clone();
        let loaded = Arena {
            args,
            config: self.config,
            settings: self.settings,
            sandbox: self.sandbox,
        };
        crate::arena::game::registry::dispatch(&game, loaded).map_err(CliError::usage)?
    }
}

impl<A> Arena<A> {
    /// The entrants `players` name (bots or submission folders) and what the event is (see
    /// [`crate::grade::entrants::entrants`]).
    ///
    /// # Errors
    /// A player that is neither a bot nor a submission, or a submission that cannot be built.
    pub fn entrants<G: crate::arena::game::ArenaGame>(
        &self,
        game: &str,
        players: &[String],
        bots: crate::arena::game::registry::MakeBot<G>,
        allow_missing: bool,
    ) -> Result<
        (
            Vec<crate::arena::seat::players::Entrant>,
            crate::grade::entrants::Event,
        ),
        CliError,
    > {
        Ok(crate::grade::entrants::entrants::<G>(
            game,
            players,
            &self.config,
            bots,
            self.sandbox.as_deref(),
            &self.settings,
            allow_missing,
        )?)
    }
}

/// `1 file`, `2 files`: a count a person reads.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
