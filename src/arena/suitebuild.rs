//! Entrants from a suite's recipes: `grader play SUITE A B` and `grader tournament SUITE FOLDERS...`
//! build each submission folder once with the suite's `[[languages]]` (globbed `detect`, `support` files
//! copied in, `{entry}` from `[entries]`) before any game starts. A folder that does not build becomes an
//! entrant that loses every game by fault, with the reason in each record.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::Deserialize;

use crate::build::{BuildOutcome, Recipe};
use crate::sandbox::{Limits, Sandbox};

use super::players::Kind;

/// Replaced in a recipe's `run` by the name the student's adapter loads.
pub const ENTRY: &str = "{entry}";

/// The parts of suite.toml this module reads; the suite loader checks the whole file strictly.
#[derive(Deserialize)]
struct Parts {
    #[serde(default)]
    languages: Vec<RawLanguage>,
    entries: Option<RawEntries>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct RawLanguage {
    name: String,
    detect: Vec<String>,
    #[serde(default)]
    build: Vec<Vec<String>>,
    run: Vec<String>,
    #[serde(default)]
    support: Vec<String>,
    address_space: Option<bool>,
}

#[derive(Default, Deserialize)]
struct RawEntries {
    default: Option<String>,
    #[serde(default)]
    students: BTreeMap<String, String>,
}

/// A suite's recipes, ready to build folders.
pub struct SuiteRecipes {
    /// The suite's folder name: tournaments write `results/<name>/`.
    pub name: String,
    dir: PathBuf,
    languages: Vec<(Recipe, Vec<String>)>,
    entries: RawEntries,
}

/// Reads the recipes of the suite in `dir`; `None` when `dir` is not a suite or has no `[[languages]]`
/// (its players are then run as plain folders).
///
/// # Errors
/// An unreadable suite.toml, bad TOML, or a support path that leaves the suite folder.
pub fn load(dir: &Path) -> anyhow::Result<Option<SuiteRecipes>> {
    let file = dir.join(crate::suite::SUITE_FILE);
    if !dir.is_dir() || !file.is_file() {
        return Ok(None);
    }
    let source = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read `{}`", file.display()))?;
    let parts: Parts = toml::from_str(&source)
        .with_context(|| format!("`{}` is not a valid suite file", file.display()))?;
    if parts.languages.is_empty() {
        return Ok(None);
    }
    let mut languages = Vec::new();
    for l in parts.languages {
        for s in &l.support {
            let p = Path::new(s);
            if p.is_absolute() || p.components().any(|c| c == std::path::Component::ParentDir) {
                anyhow::bail!(
                    "`{}`: support file `{s}` must lie inside the suite folder\nhint: write a path relative to the suite folder, without `..`",
                    file.display()
                );
            }
            if !dir.join(p).is_file() {
                anyhow::bail!(
                    "`{}`: support file `{s}` does not exist\nhint: paths are relative to the suite folder",
                    file.display()
                );
            }
        }
        languages.push((
            Recipe {
                language: l.name,
                detect: l.detect,
                build: l.build,
                run: l.run,
                address_space: l.address_space.unwrap_or(true),
            },
            l.support,
        ));
    }
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "suite".into());
    Ok(Some(SuiteRecipes {
        name,
        dir: dir.to_path_buf(),
        languages,
        entries: parts.entries.unwrap_or_default(),
    }))
}

/// `*` (any run of characters) and `?` (one character) over a file name.
#[must_use]
pub fn glob(pattern: &str, name: &str) -> bool {
    fn go(p: &[char], n: &[char]) -> bool {
        match p.split_first() {
            None => n.is_empty(),
            Some(('*', rest)) => (0..=n.len()).any(|k| go(rest, &n[k..])),
            Some(('?', rest)) => !n.is_empty() && go(rest, &n[1..]),
            Some((c, rest)) => n.first() == Some(c) && go(rest, &n[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    go(&p, &n)
}

impl SuiteRecipes {
    /// The entry a student's adapter loads: `[entries].students` by folder name, else `default`, else
    /// empty (the adapter discovers it).
    #[must_use]
    pub fn entry(&self, student: &str) -> String {
        self.entries
            .students
            .get(student)
            .or(self.entries.default.as_ref())
            .cloned()
            .unwrap_or_default()
    }

    /// The first recipe whose every `detect` pattern matches a file in the folder's top level.
    fn recipe(&self, folder: &Path) -> Option<&(Recipe, Vec<String>)> {
        let names: Vec<String> = std::fs::read_dir(folder)
            .ok()?
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        self.languages.iter().find(|(r, _)| {
            r.detect
                .iter()
                .all(|pat| names.iter().any(|n| glob(pat, n)))
        })
    }

    /// Builds `folder` in `scratch` (an empty folder of its own) and returns how the entrant plays.
    ///
    /// # Errors
    /// Only the grader's own failures (a missing tool, an unwritable scratch folder, the sandbox); a
    /// submission that does not build is a `Kind::Failed`.
    pub fn build(
        &self,
        folder: &Path,
        student: &str,
        scratch: &Path,
        sandbox: &dyn Sandbox,
        limits: &Limits,
    ) -> anyhow::Result<Kind> {
        let Some((recipe, support)) = self.recipe(folder) else {
            let looked: Vec<String> = self
                .languages
                .iter()
                .map(|(r, _)| format!("{} ({})", r.language, r.detect.join(", ")))
                .collect();
            return Ok(Kind::Failed(format!(
                "no language of the suite matches its files (looked for {})",
                looked.join("; ")
            )));
        };
        // The student's files, then the suite's support files over them, then the build proper.
        let staging = scratch.join("hand-in");
        std::fs::create_dir_all(&staging)
            .with_context(|| format!("cannot create `{}`", staging.display()))?;
        crate::build::copy_submission(folder, &staging)?;
        let mut notes = String::new();
        for s in support {
            let from = self.dir.join(s);
            let base = Path::new(s).file_name().unwrap_or_default();
            let to = staging.join(base);
            if to.exists() {
                notes.push_str(&format!(
                    "the suite's `{}` replaced the student's file of that name\n",
                    base.to_string_lossy()
                ));
            }
            std::fs::copy(&from, &to).with_context(|| {
                format!("cannot copy `{}` to `{}`", from.display(), to.display())
            })?;
        }
        let concrete = Recipe {
            detect: Vec::new(),
            ..recipe.clone()
        };
        let out = crate::build::build(
            sandbox,
            &[concrete],
            &staging,
            &scratch.join("built"),
            limits,
        )
        .map_err(anyhow::Error::new)?;
        Ok(match out {
            BuildOutcome::Built(mut built) => {
                let entry = self.entry(student);
                for arg in &mut built.command {
                    *arg = arg.replace(ENTRY, &entry);
                }
                built.log.insert_str(0, &notes);
                Kind::Built(built)
            }
            BuildOutcome::CompileError { language, log, .. } => Kind::Failed(format!(
                "its {language} build failed{}",
                build_summary(&log)
            )),
            BuildOutcome::NoLanguage { .. } => {
                Kind::Failed("no language of the suite matches its files".into())
            }
        })
    }
}

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

/// Entrants for `play` and `tournament`: with a suite that has recipes, folders are built (in a
/// temporary folder that lives as long as the returned guard); otherwise as [`resolve`].
///
/// # Errors
/// A bad bot spec, a folder without a player (no suite), or a build the grader itself could not run.
pub fn entrants<G: super::game::ArenaGame>(
    game_arg: &str,
    words: &[String],
    config: &super::config::ArenaConfig,
    bots: super::registry::MakeBot<G>,
) -> anyhow::Result<(Vec<super::players::Entrant>, Option<Built>)> {
    let Some(recipes) = load(Path::new(game_arg))? else {
        return Ok((super::players::resolve(words, config, bots)?, None));
    };
    let scratch = tempfile::Builder::new()
        .prefix("grader-event-")
        .tempdir()
        .context("cannot create a folder for the builds")?;
    let sandbox = super::play::sandbox()
        .ok_or_else(|| anyhow::anyhow!("no sandbox is available to build submissions"))?;
    let limits = crate::suite::validate::load_config(None)
        .map_err(|e| e.error)?
        .build;
    let mut k = 0;
    let mut failed = Vec::new();
    let list = super::players::resolve_with(words, bots, &mut |path, name| {
        k += 1;
        let kind = recipes
            .build(
                path,
                name,
                &scratch.path().join(k.to_string()),
                sandbox.as_ref(),
                &limits,
            )
            .map_err(|source| super::players::PlayerError::Build {
                path: path.to_path_buf(),
                source,
            })?;
        if let Kind::Failed(why) = &kind {
            failed.push(format!("`{name}` cannot play: {why}"));
        }
        Ok(kind)
    })?;
    for line in failed {
        eprintln!("note: {line}; it loses every game by fault");
    }
    Ok((
        list,
        Some(Built {
            suite: recipes.name,
            _scratch: scratch,
        }),
    ))
}

/// Keeps the builds of a suite event alive; knows the suite's name for its results folder.
pub struct Built {
    pub suite: String,
    _scratch: tempfile::TempDir,
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

    #[test]
    fn globs_match_file_names() {
        assert!(glob("*.py", "team7.py"));
        assert!(glob("*.py", ".py"));
        assert!(!glob("*.py", "team7.pyc"));
        assert!(glob("team?.py", "team7.py"));
        assert!(!glob("team?.py", "team10.py"));
        assert!(glob("Makefile", "Makefile"));
        assert!(!glob("Makefile", "makefile"));
        assert!(glob("*", "anything"));
    }

    #[test]
    fn entries_fall_back_to_the_default_then_to_discovery() {
        let parts: Parts = toml::from_str(
            "[[languages]]\nname = \"python\"\ndetect = [\"*.py\"]\nrun = [\"python3\"]\n\
             [entries]\ndefault = \"Player\"\nstudents = { team-07 = \"Team7\" }\n",
        )
        .unwrap();
        let r = SuiteRecipes {
            name: "s".into(),
            dir: PathBuf::from("."),
            languages: Vec::new(),
            entries: parts.entries.unwrap(),
        };
        assert_eq!(r.entry("team-07"), "Team7");
        assert_eq!(r.entry("team-08"), "Player");
        let none = SuiteRecipes {
            entries: RawEntries::default(),
            ..r
        };
        assert_eq!(none.entry("team-07"), "");
    }
}
