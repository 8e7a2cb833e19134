//! `grader.toml`: the built-in defaults layered under a user's file (limits, jobs, sandbox tier).

use std::path::{Path, PathBuf};
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::sandbox::scratch::Bounds;
use crate::sandbox::{Limits, Tier};
use crate::toml_file::{form, located, parse_toml, Spanned, TomlError};
use crate::units::{parse_duration, parse_size, LIMIT};

/// The commented defaults shipped in the binary.
pub const DEFAULTS: &str = include_str!("../grader.toml");

/// Limits of a run or of a build command. Each key given replaces the same key beneath it (the
/// built-in `grader.toml`, a `grader.toml`, the suite, then the case); a key left out keeps it.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawLimits {
    /// CPU time of the whole process tree.
    #[schemars(with = "Option<form::Duration>")]
    pub cpu: Option<Spanned<String>>,
    /// Wall-clock time.
    #[schemars(with = "Option<form::Duration>")]
    pub wall: Option<Spanned<String>>,
    /// Memory of the whole process tree.
    #[schemars(with = "Option<form::Size>")]
    pub memory: Option<Spanned<String>>,
    /// Standard output kept; more is an output-limit verdict.
    #[schemars(with = "Option<form::Size>")]
    pub output: Option<Spanned<String>>,
    /// The largest file the program may write.
    #[schemars(with = "Option<form::Size>")]
    pub file_size: Option<Spanned<String>>,
    /// Processes and threads at once (at least 1).
    #[schemars(range(min = 1))]
    pub processes: Option<Spanned<u32>>,
    /// Open files at once (at least 3).
    #[schemars(range(min = 3))]
    pub open_files: Option<Spanned<u64>>,
    /// The stack of each process.
    #[schemars(with = "Option<form::Size>")]
    pub stack: Option<Spanned<String>>,
    /// No CPU used this long, every process asleep: stopped as `idle`.
    #[schemars(with = "Option<form::Duration>")]
    pub idle: Option<Spanned<String>>,
}

impl RawLimits {
    /// Applies every key present here over `base`, checking each value (errors located in `path`).
    pub fn apply(&self, base: &Limits, path: &Path, text: &str) -> Result<Limits, TomlError> {
        let mut out = base.clone();
        let bad = |span: std::ops::Range<usize>, msg: String| located(path, text, Some(span), &msg);
        let duration =
            |v: &Spanned<String>| parse_duration(v.get_ref(), LIMIT).map_err(|m| bad(v.span(), m));
        let size = |v: &Spanned<String>| parse_size(v.get_ref()).map_err(|m| bad(v.span(), m));
        if let Some(v) = &self.cpu {
            out.cpu = duration(v)?;
        }
        if let Some(v) = &self.wall {
            out.wall = duration(v)?;
        }
        if let Some(v) = &self.memory {
            out.memory = size(v)?;
        }
        if let Some(v) = &self.output {
            out.output = size(v)?;
        }
        if let Some(v) = &self.file_size {
            out.file_size = size(v)?;
        }
        if let Some(v) = &self.stack {
            out.stack = size(v)?;
        }
        if let Some(v) = &self.idle {
            out.idle = Some(duration(v)?);
        }
        if let Some(v) = &self.processes {
            if *v.get_ref() == 0 {
                return Err(bad(v.span(), "`processes` must be at least 1".into()));
            }
            out.processes = *v.get_ref();
        }
        if let Some(v) = &self.open_files {
            if *v.get_ref() < 3 {
                return Err(bad(v.span(), "`open-files` must be at least 3".into()));
            }
            out.open_files = *v.get_ref();
        }
        Ok(out)
    }
}

/// `grader.toml`: a machine's settings, over the built-in defaults.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "grader.toml")]
pub(crate) struct RawConfig {
    /// Limits of every run; a suite's `[limits]` and a case's `limits` go over them.
    #[serde(default)]
    limits: RawLimits,
    /// Limits of each build command (a suite's `[build-limits]` goes over them).
    #[serde(default)]
    build: RawLimits,
    /// How a class is graded on this machine: submissions at once, the weakest sandbox accepted.
    #[serde(default)]
    run: RawRun,
    /// The caps of a submission's scratch folder and of each run's working folder.
    #[serde(default)]
    scratch: RawScratch,
    /// Interpreters named by path instead of found on `PATH`.
    #[serde(default)]
    toolchains: RawToolchains,
}

/// `[scratch]`: what a submission's scratch folder and each run's working folder may hold.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawScratch {
    /// Bytes each may hold: under the `full` sandbox each is a tmpfs of its own with this cap (a run
    /// past it gets `ENOSPC`); `basic` cannot cap it.
    #[schemars(with = "Option<form::Size>")]
    size: Option<Spanned<String>>,
    /// Files, folders and links each may hold (a build alone makes a few dozen).
    #[schemars(range(min = 64))]
    inodes: Option<Spanned<u64>>,
}

/// Interpreters named by path instead of found on `PATH`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawToolchains {
    /// The Python 2 interpreter, relative to this file's folder or absolute.
    python2: Option<Spanned<String>>,
}

/// `[run]`: how a class is graded on this machine.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRun {
    /// Submissions graded at once; 0 for one per core.
    jobs: Option<usize>,
    /// The weakest sandbox tier `run` accepts: `none`, `basic` or `full`.
    #[schemars(extend("enum" = ["none", "basic", "full"]))]
    sandbox: Option<Spanned<String>>,
}

/// The checked configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// Default limits for every run (a suite may override them).
    pub limits: Limits,
    /// Limits for builds (compilers need more than the programs they build).
    pub build: Limits,
    /// Parallel submissions; at least 1.
    pub jobs: usize,
    /// The weakest sandbox `run` accepts without `--sandbox`.
    pub sandbox: Tier,
    /// What a submission's scratch folder (its build) and each of its runs' working folders may hold:
    /// under `full`, the caps of the tmpfs each sits on.
    pub scratch: Bounds,
    /// `[toolchains] python2`: the Python 2 interpreter, resolved from the file's folder; `None` to
    /// look on `PATH` and in pyenv's versions folder.
    pub python2: Option<PathBuf>,
}

/// The floor every layer starts from, before the built-in file fills it in.
fn floor() -> Limits {
    Limits {
        cpu: Duration::from_secs(10),
        wall: Duration::from_secs(20),
        memory: 512 << 20,
        output: 64 << 20,
        file_size: 256 << 20,
        processes: 64,
        open_files: 256,
        stack: 64 << 20,
        address_space: None,
        idle: None,
    }
}

impl Config {
    /// The built-in defaults, then `user` (if given) over them.
    pub fn load(user: Option<&Path>) -> Result<Config, TomlError> {
        let mut config = Config {
            limits: floor(),
            build: floor(),
            jobs: 1,
            sandbox: Tier::Basic,
            scratch: Bounds {
                bytes: 256 << 20,
                inodes: 16_384,
            },
            python2: None,
        };
        config.layer(Path::new("<built-in grader.toml>"), DEFAULTS)?;
        if let Some(path) = user {
            let text = crate::toml_file::read_text(path)?;
            config.layer(path, &text)?;
        }
        Ok(config)
    }

    fn layer(&mut self, path: &Path, text: &str) -> Result<(), TomlError> {
        let raw: RawConfig = parse_toml(path, text)?;
        self.limits = raw.limits.apply(&self.limits, path, text)?;
        // Builds start from the run limits, then take their own keys.
        let build_base = Limits {
            cpu: self.build.cpu,
            wall: self.build.wall,
            memory: self.build.memory,
            // A compiler never waits on anyone: builds keep to their wall limit unless told otherwise.
            idle: self.build.idle,
            ..self.limits.clone()
        };
        self.build = raw.build.apply(&build_base, path, text)?;
        if let Some(jobs) = raw.run.jobs {
            self.jobs = if jobs == 0 {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            } else {
                jobs
            };
        }
        if let Some(v) = &raw.scratch.size {
            self.scratch.bytes =
                parse_size(v.get_ref()).map_err(|m| located(path, text, Some(v.span()), &m))?;
        }
        if let Some(v) = &raw.scratch.inodes {
            if *v.get_ref() < 64 {
                let m = "`inodes` must be at least 64 (a build alone makes a few dozen files)";
                return Err(located(path, text, Some(v.span()), m));
            }
            self.scratch.inodes = *v.get_ref();
        }
        if let Some(tier) = &raw.run.sandbox {
            self.sandbox = parse_tier(tier.get_ref())
                .map_err(|m| located(path, text, Some(tier.span()), &m))?;
        }
        if let Some(python2) = &raw.toolchains.python2 {
            if python2.get_ref().trim().is_empty() {
                return Err(located(
                    path,
                    text,
                    Some(python2.span()),
                    "`python2` is empty\nhint: give the interpreter's path, e.g. `/usr/bin/python2.7`",
                ));
            }
            let dir = path.parent().unwrap_or(Path::new("."));
            self.python2 = Some(dir.join(python2.get_ref()));
        }
        Ok(())
    }
}

/// `full`, `basic` or `none`.
pub fn parse_tier(s: &str) -> Result<Tier, String> {
    match s {
        "full" => Ok(Tier::Full),
        "basic" => Ok(Tier::Basic),
        "none" => Ok(Tier::None),
        _ => Err(format!(
            "unknown sandbox `{s}`\nhint: use `full`, `basic` or `none`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_defaults_load_and_a_user_file_layers_over_them() {
        let config = Config::load(None).unwrap();
        assert_eq!(config.limits.cpu, Duration::from_secs(10));
        assert_eq!(config.build.memory, 2 << 30);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grader.toml");
        std::fs::write(&path, "[limits]\ncpu = \"3s\"\n").unwrap();
        let config = Config::load(Some(&path)).unwrap();
        assert_eq!(config.limits.cpu, Duration::from_secs(3));
        assert_eq!(config.limits.wall, Duration::from_secs(20));
    }

    #[test]
    fn scratch_bounds_default_and_layer() {
        let config = Config::load(None).unwrap();
        assert_eq!(
            config.scratch,
            Bounds {
                bytes: 256 << 20,
                inodes: 16_384
            }
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grader.toml");
        std::fs::write(&path, "[scratch]\nsize = \"64M\"\ninodes = 1000\n").unwrap();
        let config = Config::load(Some(&path)).unwrap();
        assert_eq!(config.scratch.bytes, 64 << 20);
        assert_eq!(config.scratch.inodes, 1000);
        std::fs::write(&path, "[scratch]\ninodes = 3\n").unwrap();
        let e = Config::load(Some(&path)).unwrap_err().to_string();
        assert!(
            e.contains("grader.toml:2:10: `inodes` must be at least 64"),
            "{e}"
        );
    }

    #[test]
    fn errors_name_the_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grader.toml");
        std::fs::write(&path, "[limits]\ncpu = \"3s\"\nwall = \"soon\"\n").unwrap();
        let e = Config::load(Some(&path)).unwrap_err().to_string();
        assert!(e.contains("grader.toml:3:8: bad duration `soon`"), "{e}");
        std::fs::write(&path, "[limits]\ncpus = \"3s\"\n").unwrap();
        let e = Config::load(Some(&path)).unwrap_err().to_string();
        assert!(e.contains("grader.toml:2:1: unknown field `cpus`"), "{e}");
    }

    #[test]
    fn python2_is_resolved_from_the_file_folder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grader.toml");
        std::fs::write(&path, "[toolchains]\npython2 = \"py/bin/python2.7\"\n").unwrap();
        let config = Config::load(Some(&path)).unwrap();
        assert_eq!(config.python2, Some(dir.path().join("py/bin/python2.7")));
        std::fs::write(&path, "[toolchains]\npython = \"x\"\n").unwrap();
        let e = Config::load(Some(&path)).unwrap_err().to_string();
        assert!(e.contains("grader.toml:2:1: unknown field `python`"), "{e}");
    }

    #[test]
    fn line_col_counts_from_one() {
        use crate::toml_file::line_col;
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
    }
}
