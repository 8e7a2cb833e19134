//! Entrants from a suite's recipes: `grader play SUITE A B` and `grader tournament SUITE FOLDERS...`
//! build each submission folder once with the suite's `[[languages]]` (globbed `detect`, `support` files
//! copied in, `{entry}` from `[entries]`) before any game starts. A folder that does not build becomes an
//! entrant that loses every game by fault, with the reason in each record.

use std::path::Path;

use anyhow::Context as _;

use crate::build::BuildOutcome;
use crate::error::Error;
use crate::sandbox::Sandbox;
use crate::suite::Suite;

use crate::arena::seat::players::Kind;

/// Replaced in a recipe's commands by the name the student's adapter loads.
pub use crate::grade::wire::{recipes, ENTRY};

/// The suite in `dir`, loaded and checked; `None` when `dir` is not a suite folder or has no
/// `[[languages]]` (its players are then run as plain folders).
///
/// # Errors
/// A suite that does not load, with its located error.
pub fn load(dir: &Path, settings: &crate::config::Config) -> anyhow::Result<Option<Suite>> {
    let file = dir.join(crate::suite::SUITE_FILE);
    if !file.is_file() {
        return Ok(None);
    }
    // A suite.toml holding only `[arena]` (no recipes, no groups) names a game, not a graded suite.
    let has_languages = std::fs::read_to_string(&file)
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .is_some_and(|t| t.contains_key("languages"));
    if !has_languages {
        return Ok(None);
    }
    let suite = Suite::load(dir, settings, crate::suite::oracle::builtin())?;
    Ok((!suite.languages.is_empty()).then_some(suite))
}

/// Builds `folder` in `scratch` (an empty folder of its own) and returns how the entrant plays.
///
/// # Errors
/// Only the grader's own failures (a missing tool, an unwritable scratch folder, the sandbox); a
/// submission that does not build is a `Kind::Failed`.
pub fn build(
    suite: &Suite,
    folder: &Path,
    student: &str,
    scratch: &Path,
    sandbox: &dyn Sandbox,
) -> anyhow::Result<Kind> {
    let out = crate::build::build(
        sandbox,
        &recipes(suite, student),
        folder,
        scratch,
        &suite.build_limits,
    )?;
    Ok(match out {
        BuildOutcome::Built(built) => Kind::Built(built),
        BuildOutcome::CompileError { language, log, .. } => Kind::Failed(format!(
            "its {language} build failed{}",
            crate::untrusted::one_line(&build_summary(&log), SUMMARY_CAP)
        )),
        BuildOutcome::NoLanguage { looked_for } => {
            let looked: Vec<String> = looked_for
                .iter()
                .map(|(language, files)| format!("{language} ({})", files.join(" + ")))
                .collect();
            Kind::Failed(format!(
                "no language of the suite matches its files (looked for {})",
                looked.join("; ")
            ))
        }
    })
}

/// Characters of a compiler's complaint kept in a failed build's reason.
const SUMMARY_CAP: usize = 300;

/// ` (why): first error line` from a trimmed build log, for a one-line reason.
fn build_summary(log: &str) -> String {
    let why = log
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("build failed: "))
        .map(|w| format!(" ({w})"))
        .unwrap_or_default();
    let first = log
        .lines()
        .find(|l| l.to_lowercase().contains("error") && !l.starts_with("build failed"))
        .map(|l| format!(": {}", l.trim()))
        .unwrap_or_default();
    format!("{why}{first}")
}

/// Entrants for `play` and `tournament`. Every submission folder plays from a scratch copy in a
/// temporary folder that lives as long as the returned [`Event`]: with a suite that has recipes it is
/// built there in `sandbox` (the suite loaded with `settings`); otherwise copied as it is
/// ([`crate::arena::seat::players::resolve`]). `sandbox` is `None` only when no word is a folder.
///
/// A suite whose toolchains this machine lacks is refused (exit 3, the list printed, as `grader run`
/// does) unless `allow_missing`; then a folder that needs a missing toolchain takes no part and is
/// named in [`Event::not_graded`]: the machine's fault is never the student's lost games.
///
/// # Errors
/// A bad bot spec, a folder without a player (no suite) (usage), a missing toolchain, or a copy or
/// build the grader itself could not make (internal).
pub fn entrants<G: crate::arena::game::ArenaGame>(
    game_arg: &str,
    words: &[String],
    config: &crate::arena::config::ArenaConfig,
    bots: crate::arena::game::registry::MakeBot<G>,
    sandbox: Option<&dyn Sandbox>,
    settings: &crate::config::Config,
    allow_missing: bool,
) -> Result<(Vec<crate::arena::seat::players::Entrant>, Event), Error> {
    let scratch = || {
        crate::sandbox::scratch::Scratch::new()
            .context("cannot create a scratch folder for the submissions")
            .map_err(Error::machine)
    };
    let Some(suite) = load(Path::new(game_arg), settings)? else {
        let scratch = scratch()?;
        let list = crate::arena::seat::players::resolve(words, config, bots, scratch.path())
            .map_err(|e| Error::input(anyhow::Error::new(e)))?;
        return Ok((
            list,
            Event {
                suite: None,
                not_graded: Vec::new(),
                _scratch: scratch,
            },
        ));
    };
    if words.iter().any(|w| Path::new(w).is_dir()) {
        crate::doctor::require(&[&suite], allow_missing)?;
    }
    // `class/*` also names the class folder's loose files (an EXPECTED.md, a roster): not players.
    let words: Vec<String> = words
        .iter()
        .filter(|w| {
            let file = Path::new(w).is_file();
            if file {
                eprintln!(
                    "note: skipping `{}`: a file, not a submission folder",
                    crate::untrusted::one_line(w, 200)
                );
            }
            !file
        })
        .cloned()
        .collect();
    if words.len() < 2 {
        return Err(Error::input(anyhow::anyhow!(
            "fewer than two players\nhint: give submission folders or bot names, e.g. `submissions/ut3/*`"
        )));
    }
    let scratch = scratch()?;
    let mut builder = Builder::new(&suite, sandbox, &scratch);
    let list = crate::arena::seat::players::resolve_with(&words, bots, &mut |path, name| {
        builder.kind(path, name)
    })
    .map_err(player_error)?;
    builder.finish(list, scratch)
}

/// Entrants for the class tournament of `grader run`: each `(key, folder)` of `folders`, in that order
/// and under that name (the student's key, as in grades.csv), built with `suite`'s recipes as
/// [`entrants`] builds them. The toolchains were checked by `run` already.
///
/// # Errors
/// As [`entrants`].
pub fn class_entrants(
    suite: &Suite,
    folders: &[(String, std::path::PathBuf)],
    sandbox: &dyn Sandbox,
) -> Result<(Vec<crate::arena::seat::players::Entrant>, Event), Error> {
    let scratch = crate::sandbox::scratch::Scratch::new()
        .context("cannot create a scratch folder for the submissions")
        .map_err(Error::machine)?;
    let mut builder = Builder::new(suite, Some(sandbox), &scratch);
    // Built at once on the slots that come free (`grade::spread`), each in its own folder; kept in
    // student order.
    let made = super::spread::spread(folders.len(), &|i| {
        let (name, path) = &folders[i];
        builder.make(i + 1, path, name)
    });
    let mut list = Vec::new();
    for ((name, path), made) in folders.iter().zip(made) {
        if let Some(kind) = builder.keep(path, name, made).map_err(player_error)? {
            list.push(crate::arena::seat::players::Entrant {
                name: name.clone(),
                kind,
            });
        }
    }
    builder.finish(list, scratch)
}

fn player_error(e: crate::arena::seat::players::PlayerError) -> Error {
    match e {
        crate::arena::seat::players::PlayerError::Build { .. } => {
            Error::machine(anyhow::Error::new(e))
        }
        e => Error::input(anyhow::Error::new(e)),
    }
}

/// Builds submission folders one after another, each in its own folder of a scratch tree, and keeps
/// who cannot play (a failed build) and who cannot be graded here (a missing toolchain).
struct Builder<'a> {
    suite: &'a Suite,
    sandbox: Option<&'a dyn Sandbox>,
    root: std::path::PathBuf,
    k: usize,
    failed: Vec<String>,
    not_graded: Vec<(String, String)>,
}

impl<'a> Builder<'a> {
    fn new(
        suite: &'a Suite,
        sandbox: Option<&'a dyn Sandbox>,
        scratch: &crate::sandbox::scratch::Scratch,
    ) -> Self {
        Builder {
            suite,
            sandbox,
            root: scratch.path().to_path_buf(),
            k: 0,
            failed: Vec::new(),
            not_graded: Vec::new(),
        }
    }

    /// How the folder plays, or `None` when the machine cannot build it: the next folder's.
    fn kind(
        &mut self,
        path: &Path,
        name: &str,
    ) -> Result<Option<Kind>, crate::arena::seat::players::PlayerError> {
        self.k += 1;
        let made = self.make(self.k, path, name);
        self.keep(path, name, made)
    }

    /// Builds `path` in the scratch tree's folder `k` (any thread may, each in its own folder).
    fn make(&self, k: usize, path: &Path, name: &str) -> anyhow::Result<Kind> {
        let sandbox = self
            .sandbox
            .ok_or_else(|| anyhow::anyhow!("no sandbox was chosen to build submissions"))?;
        build(
            self.suite,
            path,
            name,
            &self.root.join(k.to_string()),
            sandbox,
        )
    }

    /// How the folder `made` built plays, or `None` when the machine cannot build it; notes who
    /// cannot play or be graded here.
    fn keep(
        &mut self,
        path: &Path,
        name: &str,
        made: anyhow::Result<Kind>,
    ) -> Result<Option<Kind>, crate::arena::seat::players::PlayerError> {
        let kind = match made {
            Ok(kind) => kind,
            Err(e)
                if e.downcast_ref::<crate::build::BuildError>()
                    .is_some_and(crate::build::BuildError::is_missing_tool) =>
            {
                let why = format!("{e}");
                let why = why.lines().next().unwrap_or_default();
                self.not_graded.push((name.to_string(), why.to_string()));
                return Ok(None);
            }
            Err(source) => {
                return Err(crate::arena::seat::players::PlayerError::Build {
                    path: path.to_path_buf(),
                    source,
                })
            }
        };
        if let Kind::Failed(why) = &kind {
            self.failed.push(format!("`{name}` cannot play: {why}"));
        }
        Ok(Some(kind))
    }

    /// Says who cannot play and why, and refuses an event that fewer than two can play because of the
    /// machine.
    fn finish(
        self,
        list: Vec<crate::arena::seat::players::Entrant>,
        scratch: crate::sandbox::scratch::Scratch,
    ) -> Result<(Vec<crate::arena::seat::players::Entrant>, Event), Error> {
        for line in &self.failed {
            eprintln!("note: {line}; it loses every game by fault");
        }
        for (name, why) in &self.not_graded {
            eprintln!("note: `{name}` is not graded and plays no game: {why} (the machine's fault, not the student's)");
        }
        if list.len() < 2 && !self.not_graded.is_empty() {
            return Err(Error::machine(anyhow::anyhow!(
                "fewer than two players can play: this machine lacks a toolchain for the others\nhint: run `grader doctor --install`"
            )));
        }
        Ok((
            list,
            Event {
                suite: Some(self.suite.name.clone()),
                not_graded: self.not_graded,
                _scratch: scratch,
            },
        ))
    }
}

/// Keeps the copies and builds of an event alive; knows the suite's name (if any) for its results
/// folder.
pub struct Event {
    pub suite: Option<String>,
    /// Submission folders (by entrant name) left out because this machine lacks a toolchain they
    /// need, each with why.
    pub not_graded: Vec<(String, String)>,
    _scratch: crate::sandbox::scratch::Scratch,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_build_is_summed_up_in_one_line() {
        let log = "$ make player\ncc -o player player.c\nplayer.c:1:25: error: 'missing' undeclared\n\
                   make: *** [Makefile:2: player] Error 1\nbuild failed: the compiler exited with status 2\n";
        assert_eq!(
            build_summary(log),
            " (the compiler exited with status 2): player.c:1:25: error: 'missing' undeclared"
        );
        assert_eq!(build_summary("nothing useful"), "");
    }
}
