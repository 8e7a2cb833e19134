//! Connects grading to the sandbox and build modules: picks the sandbox tier and builds submissions.

use std::path::Path;

use crate::build::{build, BuildOutcome, Recipe};
use crate::exit::CliError;
use crate::sandbox::{select, Sandbox, SandboxError, Tier};
use crate::suite::Suite;

use super::case::Program;
use super::pipeline::{Prepare, Prepared};

/// The sandbox and builder a grading command uses.
pub struct Environment {
    pub sandbox: Box<dyn Sandbox>,
    pub prepare: Box<dyn Prepare>,
}

/// The sandbox at `tier`, falling back to `basic` (with a warning) when `full` is unavailable here.
pub fn environment(tier: Tier) -> Result<Environment, CliError> {
    let sandbox = match select(tier) {
        Ok(s) => s,
        Err(SandboxError::Unavailable { reason, .. }) if tier == Tier::Full => {
            eprintln!("warning: the full sandbox is not available here ({reason}); using basic");
            select(Tier::Basic).map_err(CliError::internal)?
        }
        Err(e) => return Err(CliError::internal(e)),
    };
    Ok(Environment {
        sandbox,
        prepare: Box::new(Builder),
    })
}

/// Builds through `crate::build` with the suite's recipes and build limits.
struct Builder;

impl Prepare for Builder {
    fn prepare(
        &self,
        sandbox: &dyn Sandbox,
        suite: &Suite,
        submission: &Path,
        scratch: &Path,
    ) -> Prepared {
        let recipes: Vec<Recipe> = suite
            .languages
            .iter()
            .map(|l| Recipe {
                language: l.name.clone(),
                detect: l.detect.clone(),
                build: l.build.clone(),
                run: l.run.clone(),
                address_space: l.address_space,
            })
            .collect();
        match build(sandbox, &recipes, submission, scratch, &suite.build_limits) {
            Ok(BuildOutcome::Built(b)) => Prepared::Ready {
                program: Program {
                    language: b.language,
                    dir: b.dir,
                    command: b.command,
                    address_space: b.address_space,
                },
                log: b.log,
            },
            Ok(BuildOutcome::CompileError { language, log, .. }) => {
                Prepared::CompileError { language, log }
            }
            Ok(BuildOutcome::NoLanguage { looked_for }) => {
                let options: Vec<String> = looked_for
                    .iter()
                    .map(|(language, files)| {
                        format!(
                            "{language} ({})",
                            files
                                .iter()
                                .map(|f| format!("`{f}`"))
                                .collect::<Vec<_>>()
                                .join(" + ")
                        )
                    })
                    .collect();
                Prepared::NoLanguage {
                    message: format!("the suite accepts {}", options.join(", ")),
                }
            }
            Err(e) if !e.is_internal() => Prepared::NoLanguage {
                message: format!("{e}"),
            },
            Err(e) => {
                let mut message = e.to_string();
                let mut source = std::error::Error::source(&e);
                while let Some(s) = source {
                    message.push_str(&format!(": {s}"));
                    source = s.source();
                }
                Prepared::Internal { message }
            }
        }
    }
}
