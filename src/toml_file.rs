//! The strict-TOML layer every file format shares (`grader.toml`, `suite.toml`, `calibration.toml`,
//! arena files): raw serde structs with `deny_unknown_fields` are parsed here, each error located as
//! `path:line:col` with the file's own line and a caret under the value; each format then checks its
//! values into domain types (durations and sizes through `units`) and reports through [`located`].

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

/// The line of `text` a span starts on, with a caret under the span (to the end of that line), as
/// rustc and cargo show it:
///
/// ```text
///   |
/// 5 | cpu = "2 seconds"
///   |       ^^^^^^^^^^^
/// ```
#[must_use]
pub fn snippet(text: &str, span: std::ops::Range<usize>) -> String {
    let start = span.start.min(text.len());
    let (line, col) = line_col(text, start);
    let from = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let to = text[from..].find('\n').map_or(text.len(), |i| from + i);
    // Tabs and other control characters would shift the caret: each shown as one space.
    let shown: String = text[from..to]
        .trim_end_matches('\r')
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let end = span.end.clamp(start, to);
    let width = text[start..end].chars().count().max(1);
    let gutter = " ".repeat(line.to_string().len());
    format!(
        "{gutter} |\n{line} | {shown}\n{gutter} | {}{}",
        " ".repeat(col - 1),
        "^".repeat(width)
    )
}

/// Builds a located error from a span in a file's text: `path:line:col: message`, then the line with
/// a caret under the span, then any `hint:` lines of `message`.
pub fn located(
    path: &Path,
    text: &str,
    span: Option<std::ops::Range<usize>>,
    message: &str,
) -> TomlError {
    let message = message.trim();
    let Some(span) = span else {
        return TomlError::Invalid {
            at: path.display().to_string(),
            message: message.to_string(),
        };
    };
    if span == (0..0) {
        // The file as a whole (nothing to point at).
        return TomlError::Invalid {
            at: location(path, text, span),
            message: message.to_string(),
        };
    }
    let (first, rest) = message.split_once('\n').unwrap_or((message, ""));
    let mut message = format!("{first}\n{}", snippet(text, span.clone()));
    if !rest.is_empty() {
        message.push('\n');
        message.push_str(rest);
    }
    TomlError::Invalid {
        at: location(path, text, span),
        message,
    }
}

/// The key a value's span belongs to (`cpu` in `cpu = "2 seconds"`), for errors that name only the
/// value's type.
fn key_at(text: &str, span: &std::ops::Range<usize>) -> Option<String> {
    let start = span.start.min(text.len());
    let from = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let (key, _) = text[from..start].split_once('=')?;
    let key = key.trim().trim_matches('"');
    (!key.is_empty() && !key.contains(['[', '{', ','])).then(|| key.to_string())
}

/// Parses `text` strictly into `T`, with `path:line:col` and the line in the error; a value of the
/// wrong type is named by its key (`` `games`: invalid type: string "three", expected u32 ``).
pub fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, TomlError> {
    toml::from_str(text).map_err(|e| {
        let message = e.message().trim();
        let named = match (&e.span(), message.starts_with("invalid ")) {
            (Some(span), true) => key_at(text, span).map(|k| format!("`{k}`: {message}")),
            _ => None,
        };
        located(path, text, e.span(), named.as_deref().unwrap_or(message))
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_value_shows_its_line_with_a_caret_under_it() {
        let text = "[limits]\ncpu = \"2 seconds\"\n";
        let start = text.find('"').unwrap();
        let e = located(
            Path::new("suite.toml"),
            text,
            Some(start..start + 11),
            "bad duration `2 seconds`\nhint: write `2s`",
        );
        assert_eq!(
            e.to_string(),
            "suite.toml:2:7: bad duration `2 seconds`\n  |\n2 | cpu = \"2 seconds\"\n  |       ^^^^^^^^^^^\nhint: write `2s`"
        );
    }

    #[test]
    fn a_value_of_the_wrong_type_is_named_by_its_key() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Raw {
            games: u32,
        }
        let e = parse_toml::<Raw>(Path::new("a.toml"), "games = \"three\"\n").unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("a.toml:1:9: `games`: invalid type: string \"three\", expected u32\n"),
            "{text}"
        );
        assert!(
            text.ends_with("1 | games = \"three\"\n  |         ^^^^^^^"),
            "{text}"
        );
    }

    #[test]
    fn a_wide_character_before_the_value_keeps_the_caret_under_it() {
        let text = "name = \"ü\" # x\nq = 1\n";
        let at = text.find('#').unwrap();
        let s = snippet(text, at..at + 1);
        assert_eq!(s, "  |\n1 | name = \"ü\" # x\n  |            ^");
    }
}
