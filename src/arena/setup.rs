//! Turning the GAME argument of `play` and `tournament` (a game name, an arena TOML file, or a suite
//! folder) into an `ArenaConfig`, the per-game defaults, and saving records.

use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use crate::arena::config::{self, ArenaConfig, Protocol, RawArena};
use crate::arena::event::standings::Scoring;
use crate::arena::referee::{IllegalPolicy, Policy};

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

/// Reads the GAME argument: a suite folder, an arena file, a built-in game's name, or `rules:PATH`
/// (a rules program, docs/rules-programs.md).
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
        // Only `[arena]` is read here (the suite loader owns, and checks, the rest).
        let (suite, source): (SuiteArena, String) = crate::toml_file::read_toml(&file)?;
        let raw = suite.arena.ok_or_else(|| {
            anyhow::anyhow!(
                "`{}` has no `[arena]` table\nhint: only suites graded by playing can run matches",
                file.display()
            )
        })?;
        return Ok(config::validate(&raw, &file, &source)?);
    }
    if let Some(rules) = arg.strip_prefix(crate::arena::game::rules::PREFIX) {
        let name =
            crate::arena::game::rules::name_for(Path::new(rules)).map_err(anyhow::Error::msg)?;
        return Ok(defaults(&name));
    }
    Ok(defaults(arg))
}
