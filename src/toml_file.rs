//! The strict-TOML layer every file format shares (`grader.toml`, `suite.toml`, `calibration.toml`,
//! arena files): raw serde structs with `deny_unknown_fields` are parsed here, each error located as
//! `path:line:col`; each format then checks its values into domain types (durations and sizes through
//! `units`).

use std::path::{Path, PathBuf};

/// A TOML file that could not be read or understood, located as precisely as possible.
#[derive(Debug, thiserror::Error)]
pub enum TomlError {
    #[error("cannot read `{path}`")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `at` is `path:line:col` (or just the path when the parser gave no position).
    #[error("{at}: {message}")]
    Invalid { at: String, message: String },
}

/// Where a byte offset falls in `text`, as 1-based `line:col` (columns count characters).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    (line, col)
}

/// Where a span of a file's text starts, as `path:line:col`.
#[must_use]
pub fn location(path: &Path, text: &str, span: std::ops::Range<usize>) -> String {
    let (line, col) = line_col(text, span.start);
    format!("{}:{line}:{col}", path.display())
}

/// Builds a located error from a span in a file's text.
pub fn located(
    path: &Path,
    text: &str,
    span: Option<std::ops::Range<usize>>,
    message: &str,
) -> TomlError {
    let at = match span {
        Some(span) => location(path, text, span),
        None => path.display().to_string(),
    };
    TomlError::Invalid {
        at,
        message: message.trim().to_string(),
    }
}

/// Parses `text` strictly into `T`, with `path:line:col` in the error.
pub fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, TomlError> {
    toml::from_str(text).map_err(|e| located(path, text, e.span(), e.message()))
}

/// Reads `path` and parses it strictly into `T`; returns the text too, for locating later errors.
///
/// # Errors
/// The file cannot be read, or is not valid TOML for `T` (located).
pub fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<(T, String), TomlError> {
    let text = std::fs::read_to_string(path).map_err(|source| TomlError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let value = parse_toml(path, &text)?;
    Ok((value, text))
}
