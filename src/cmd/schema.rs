//! `grader schema`: prints the JSON Schema of `suite.toml`, `course.toml` or `grader.toml` (generated
//! from the types that read them), or every key of one as Markdown (`--markdown`, the book's key
//! pages), or writes all three schemas into a folder for editors (`--write DIR`).

use std::path::PathBuf;

use anyhow::Context;

use super::exit::{CliError, CmdResult, Exit};
use crate::author::schema::{text, FileKind};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file whose schema to print.
    #[arg(value_enum, default_value = "suite", conflicts_with = "write")]
    pub file: Which,
    /// Write `suite.schema.json`, `course.schema.json` and `grader.schema.json` into this folder
    /// (created if needed), for `#:schema` lines and editor settings.
    #[arg(long, value_name = "DIR")]
    pub write: Option<PathBuf>,
    /// Print every key of the file as Markdown instead (table, key, type, default, description), as
    /// the book's `docs/keys-suite.md`, `docs/keys-course.md` and `docs/keys-grader.md` hold it.
    #[arg(long, conflicts_with = "write")]
    pub markdown: bool,
}

/// The files with a schema, as the command line names them.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Which {
    Suite,
    Course,
    Grader,
}

impl From<Which> for FileKind {
    fn from(w: Which) -> FileKind {
        match w {
            Which::Suite => FileKind::Suite,
            Which::Course => FileKind::Course,
            Which::Grader => FileKind::Grader,
        }
    }
}

/// `grader schema [--markdown] [suite|course|grader]` or `grader schema --write DIR`.
pub fn run(args: Args) -> CmdResult {
    let Some(dir) = args.write else {
        if args.markdown {
            print!("{}", crate::author::keys::markdown(args.file.into()));
        } else {
            print!("{}", text(args.file.into()));
        }
        return Ok(Exit::Success);
    };
    let written = crate::author::schema::write_all(&dir)
        .with_context(|| format!("cannot write the schemas into `{}`", dir.display()))
        .map_err(CliError::internal)?;
    for file in written {
        eprintln!("wrote {}", file.display());
    }
    Ok(Exit::Success)
}
