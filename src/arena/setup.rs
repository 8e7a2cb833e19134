//! What `play` and `tournament` share: turning the GAME argument (a game name, an arena TOML file, or a
//! suite folder) into an `ArenaConfig`, the per-game defaults, and saving records.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use serde::Deserialize;

use super::config::{self, ArenaConfig, Protocol, RawArena};
use super::record::GameRecord;
use super::referee::{IllegalPolicy, Policy};
use super::standings::Scoring;

/// The defaults for a game named on the command line, from its seed handout.
#[must_use]
pub fn defaults(game: &str) -> ArenaConfig {
    let base = game.split(':').next().unwrap_or(game);
    let mut policy = Policy::default();
    let mut scoring = Scoring::STANDARD;
    match base {
        // 000: "illegal placements result in that placement opportunity being forfeited"; 1 s a move.
        "sttt" => policy.illegal = IllegalPolicy::Forfeit,
        // 002: 6 s a move; win 4, draws 2–1 by blocks then corners.
        "ut3" => {
            policy.limit = Some(Duration::from_secs(6));
            scoring = Scoring::UT3;
        }
        // Morris and Oska can go round in circles: adjudicate well before the default.
        "tmmorris" | "oska" => policy.move_cap = Some(200),
        _ => {}
    }
    ArenaConfig {
        game: game.to_string(),
        protocol: Protocol::Persistent {
            startup: Duration::from_secs(10),
        },
        command: None,
        args: None,
        policy,
        games: 1,
        scoring,
        stages: Vec::new(),
        knockout: false,
        marks: None,
    }
}

/// A suite.toml seen only for its `[arena]` table (the suite loader owns the rest).
#[derive(Deserialize)]
struct SuiteArena {
    arena: Option<RawArena>,
}

/// Reads the GAME argument.
///
/// # Errors
/// A file or suite that cannot be read or is invalid; a suite without `[arena]`.
pub fn event(arg: &str) -> anyhow::Result<ArenaConfig> {
    let path = Path::new(arg);
    if path.is_file() {
        return Ok(config::load(path)?);
    }
    if path.is_dir() {
        let file = path.join("suite.toml");
        let source = std::fs::read_to_string(&file)
            .with_context(|| format!("cannot read `{}`", file.display()))?;
        let suite: SuiteArena = toml::from_str(&source)
            .with_context(|| format!("`{}` is not valid TOML", file.display()))?;
        let raw = suite.arena.ok_or_else(|| {
            anyhow::anyhow!(
                "`{}` has no `[arena]` table\nhint: only suites graded by playing can run matches",
                file.display()
            )
        })?;
        return Ok(config::validate(&raw, &file, &source)?);
    }
    Ok(defaults(arg))
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
) -> Result<
    (
        crate::config::Config,
        Option<Arc<dyn crate::sandbox::Sandbox>>,
    ),
    crate::exit::CliError,
> {
    let settings = crate::suite::validate::load_config(config_file)?;
    if !words.iter().any(|w| Path::new(w).is_dir()) {
        // Still a usage error when misspelt, though no sandbox is needed.
        if let Some(t) = flag {
            crate::config::parse_tier(t)
                .map_err(|m| crate::exit::CliError::usage(anyhow::anyhow!("{m}")))?;
        }
        return Ok((settings, None));
    }
    let env = crate::grade::environment_for(flag, &settings, false)?;
    eprintln!("sandbox: {}", env.sandbox.tier());
    Ok((settings, Some(env.sandbox)))
}

/// Writes each record as pretty JSON into `dir`, named `{prefix}{index:04}.json`.
///
/// # Errors
/// The folder cannot be created or a file written.
pub fn save(dir: &Path, prefix: &str, records: &[GameRecord]) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    for (i, r) in records.iter().enumerate() {
        let file = dir.join(format!("{prefix}{:04}.json", i + 1));
        let mut json = serde_json::to_string_pretty(r)?;
        json.push('\n');
        std::fs::write(&file, json)
            .with_context(|| format!("cannot write `{}`", file.display()))?;
    }
    Ok(())
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
    crate::units::parse_duration(text, crate::units::ARENA).map(Some).map_err(|_| {
        anyhow::anyhow!("bad --move-limit `{text}`\nhint: write a duration like `1s`, `500ms` or `1.5s`, or `none`")
    })
}
