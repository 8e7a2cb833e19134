//! The strict-TOML layer every file format shares (`grader.toml`, `suite.toml`, `calibration.toml`,
//! arena files): raw serde structs with `deny_unknown_fields` are parsed here, each error located as
//! `path:line:col` with the file's own line and a caret under the value; each format then checks its
//! values into domain types (durations and sizes through `units`) and reports through [`located`].

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde::Deserialize;

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

/// A value with the byte range it was read from: `toml::Spanned`, wrapped so that a file's JSON
/// Schema (`schemars`, `crate::author::schema`) describes the value alone. Compared, ordered and
/// hashed by value, as `toml::Spanned` is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(transparent)]
pub struct Spanned<T>(toml::Spanned<T>);

impl<T> Spanned<T> {
    /// The byte range of the value in its file.
    #[must_use]
    pub fn span(&self) -> std::ops::Range<usize> {
        self.0.span()
    }

    #[must_use]
    pub fn get_ref(&self) -> &T {
        self.0.get_ref()
    }

    #[must_use]
    pub fn into_inner(self) -> T {
        self.0.into_inner()
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for Spanned<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// Types that exist only to describe a value's form in a file's JSON Schema (`#[schemars(with =
/// "...")]` on a raw field that is read as a string and checked later): each has a `title` the
/// schema check names the value by, and a `description` it gives as the hint.
pub mod form {
    use std::borrow::Cow;

    use schemars::{json_schema, Schema, SchemaGenerator};

    macro_rules! form {
        ($(#[$doc:meta])* $ty:ident, $name:literal, $schema:tt) => {
            $(#[$doc])*
            pub struct $ty;

            impl schemars::JsonSchema for $ty {
                fn schema_name() -> Cow<'static, str> {
                    $name.into()
                }

                fn json_schema(_: &mut SchemaGenerator) -> Schema {
                    json_schema!($schema)
                }
            }
        };
    }

    form!(
        /// `"500ms"`, `"2s"`, `"1.5m"` (`units::parse_duration`).
        Duration, "Duration",
        {
            "type": "string",
            "title": "a duration",
            "description": "a positive number with a unit: `500ms`, `2s`, `1m`",
            "pattern": "^ *([0-9]+[.]?[0-9]*|[.][0-9]+) *(ms|s|m|min) *$"
        }
    );

    form!(
        /// A duration, or `"none"` for no limit.
        DurationOrNone, "DurationOrNone",
        {
            "type": "string",
            "title": "a duration or `none`",
            "description": "a positive number with a unit (`500ms`, `2s`, `1m`), or `none` for no limit",
            "pattern": "^ *(none|([0-9]+[.]?[0-9]*|[.][0-9]+) *(ms|s|m|min)) *$"
        }
    );

    form!(
        /// `"512M"`, `"64K"`, `"1000"` (`units::parse_size`).
        Size, "Size",
        {
            "type": "string",
            "title": "a size",
            "description": "a positive whole number of bytes, or with K, M or G (binary): `512M`",
            "pattern": "^ *[0-9]+ *[KkMmGg]? *$"
        }
    );

    form!(
        /// A Python version a recipe accepts.
        PythonVersion, "PythonVersion",
        { "type": "string", "enum": ["2", "3"] }
    );

    form!(
        /// A built-in game, as `[arena] game` names it.
        Game, "Game",
        {
            "type": "string",
            "title": "a game",
            "description": "`tictactoe`, `tmmorris`, `sttt`, `ut3`, `oska`, or `oska:N` for N pieces a side",
            "pattern": "^ *(tictactoe|tmmorris|sttt|ut3|oska(:[0-9]+)?) *$"
        }
    );

    form!(
        /// A group, case, language or column name.
        Name, "Name",
        {
            "type": "string",
            "title": "a name",
            "description": "lowercase letters, digits and `-`",
            "pattern": "^[a-z0-9_-]+$"
        }
    );

    form!(
        /// A length of time in `course.toml` (`course::time::parse_span`): `"48h"`, `"2d"`.
        Span, "Span",
        {
            "type": "string",
            "title": "a length of time",
            "description": "a whole number with a unit: `30m`, `48h`, `2d`",
            "pattern": "^ *[0-9]+ *(s|m|min|h|d) *$"
        }
    );

    form!(
        /// A date and time in `course.toml`: a TOML date-time, or the same in a string.
        When, "When",
        {
            "type": "string",
            "title": "a date and time",
            "description": "a TOML date-time such as `2021-03-30T23:59:00` (in the course's `timezone`), or one with an offset"
        }
    );

    form!(
        /// An extension: a date and time, or more time (`"48h"`, `"2d"`).
        Extension, "Extension",
        {
            "type": "string",
            "title": "a date and time, or more time",
            "description": "a date-time (`2021-04-02T23:59:00`) or more time after the due date (`48h`, `2d`)"
        }
    );
}

/// `offset`, or the start of the character it falls inside (a span from elsewhere must never split
/// one).
fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Where a byte offset falls in `text`, as 1-based `line:col` (columns count characters).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_boundary(text, offset);
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
    let start = floor_boundary(text, span.start);
    let (line, col) = line_col(text, start);
    let from = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let to = text[from..].find('\n').map_or(text.len(), |i| from + i);
    // Tabs and other control characters would shift the caret: each shown as one space.
    let shown: String = text[from..to]
        .trim_end_matches('\r')
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut end = span.end.clamp(start, to);
    while !text.is_char_boundary(end) {
        end += 1;
    }
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
/// wrong type is named by its key (`` `games`: invalid type: string "three", expected u32 ``), and an
/// unknown key gets the nearest known one (`did you mean `points`?`).
pub fn parse_toml<T: serde::de::DeserializeOwned>(path: &Path, text: &str) -> Result<T, TomlError> {
    toml::from_str(text).map_err(|e| {
        let message = e.message().trim();
        let named = match (&e.span(), message.starts_with("invalid ")) {
            (Some(span), true) => key_at(text, span).map(|k| format!("`{k}`: {message}")),
            _ => unknown_key_hint(message),
        };
        located(path, text, e.span(), named.as_deref().unwrap_or(message))
    })
}

/// serde's `unknown field `pionts`, expected one of `name`, `points`` with a `hint:` line naming the
/// nearest expected key, when one is near.
fn unknown_key_hint(message: &str) -> Option<String> {
    let rest = message
        .strip_prefix("unknown field `")
        .or_else(|| message.strip_prefix("unknown variant `"))?;
    let (word, expected) = rest.split_once('`')?;
    let candidates: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    let near = suggest(word, candidates.iter().copied())?;
    Some(format!("{message}\nhint: did you mean `{near}`?"))
}

/// The candidate nearest to `word` when it is near enough to be a slip of the keyboard or of memory
/// (`pionts` → `points`, `move-limt` → `move-limit`, `langauges` → `languages`), else `None`.
#[must_use]
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase().replace('_', "-");
    candidates
        .into_iter()
        .map(|c| (c, strsim::damerau_levenshtein(&lower, c)))
        // A third of the word's length, at least one edit: `pionts` (2) is near `points`, `x` is
        // near nothing.
        .filter(|(c, d)| *d <= (c.chars().count().max(word.chars().count()) / 3).max(1))
        .min_by_key(|(_, d)| *d)
        .map(|(c, _)| c)
}

/// Reads a file's text; bytes that are not UTF-8 are an error located at the first of them, saying
/// what they most likely are (another encoding, UTF-16, a cut-off file).
///
/// # Errors
/// The file cannot be read, or is not UTF-8.
pub fn read_text(path: &Path) -> Result<String, TomlError> {
    let bytes = std::fs::read(path).map_err(|source| TomlError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    decode(path, bytes)
}

/// `bytes` as UTF-8 text, or the located error [`read_text`] describes.
///
/// # Errors
/// The bytes are not UTF-8.
pub fn decode(path: &Path, bytes: Vec<u8>) -> Result<String, TomlError> {
    let e = match String::from_utf8(bytes) {
        Ok(text) => return Ok(text),
        Err(e) => e,
    };
    let at = e.utf8_error().valid_up_to();
    let len = e.utf8_error().error_len();
    let bytes = e.as_bytes();
    let bad = &bytes[at..at + len.unwrap_or(bytes.len() - at).min(4)];
    let hex: Vec<String> = bad.iter().map(|b| format!("0x{b:02X}")).collect();
    let cause = if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        "the file is UTF-16 (it starts with a UTF-16 byte-order mark)".to_string()
    } else if len.is_none() {
        format!(
            "the file ends inside a character ({}): it may have been cut off",
            hex.join(" ")
        )
    } else {
        match legacy_char(bad[0]) {
            Some(c) => format!("byte {} is not UTF-8; in Latin-1 or Windows-1252 it is `{c}`, so the file was most likely saved in one of those", hex[0]),
            None => format!("byte {} does not start a UTF-8 character", hex[0]),
        }
    };
    let lossy = String::from_utf8_lossy(bytes);
    Err(located(
        path,
        &lossy,
        Some(at..at + char::REPLACEMENT_CHARACTER.len_utf8()),
        &format!("invalid UTF-8: {cause}\nhint: save the file as UTF-8 (most editors: \"Save with encoding\" or \"Reopen with encoding\", then UTF-8)"),
    ))
}

/// What a byte means in Windows-1252 (Latin-1 above 0x9F), for the characters a UTF-8 error usually
/// is: accented letters and the quotes and dashes word processors put in.
fn legacy_char(b: u8) -> Option<char> {
    const WINDOWS_1252: [(u8, char); 9] = [
        (0x80, '€'),
        (0x85, '…'),
        (0x91, '‘'),
        (0x92, '’'),
        (0x93, '“'),
        (0x94, '”'),
        (0x96, '–'),
        (0x97, '—'),
        (0x99, '™'),
    ];
    match b {
        0xA0..=0xFF => Some(char::from(b)),
        _ => WINDOWS_1252.iter().find(|(x, _)| *x == b).map(|(_, c)| *c),
    }
}

/// Reads `path` and parses it strictly into `T`; returns the text too, for locating later errors.
///
/// # Errors
/// The file cannot be read, is not UTF-8, or is not valid TOML for `T` (located).
pub fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<(T, String), TomlError> {
    let text = read_text(path)?;
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
    fn an_unknown_key_names_the_nearest_known_one() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Raw {
            name: Option<String>,
            points: Option<f64>,
        }
        let e = parse_toml::<Raw>(Path::new("a.toml"), "pionts = 3\n").unwrap_err();
        assert!(
            e.to_string().ends_with("hint: did you mean `points`?"),
            "{e}"
        );
        let e = parse_toml::<Raw>(Path::new("a.toml"), "colour = 3\n").unwrap_err();
        assert!(!e.to_string().contains("did you mean"), "{e}");
    }

    #[test]
    fn suggestions_are_near_misses_only() {
        let keys = ["points", "name", "languages", "move-limit"];
        assert_eq!(suggest("pionts", keys), Some("points"));
        assert_eq!(suggest("langauges", keys), Some("languages"));
        assert_eq!(suggest("move_limit", keys), Some("move-limit"));
        assert_eq!(suggest("nmae", keys), Some("name"));
        assert_eq!(suggest("seed", keys), None);
        assert_eq!(suggest("x", keys), None);
    }

    #[test]
    fn text_that_is_not_utf8_is_located_with_its_likely_cause() {
        let e = decode(Path::new("s.toml"), b"title = \"caf\xe9\"\n".to_vec()).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("s.toml:1:13: invalid UTF-8: byte 0xE9 is not UTF-8; in Latin-1 or Windows-1252 it is `\u{e9}`"), "{text}");
        assert!(text.contains("hint: save the file as UTF-8"), "{text}");
        let e = decode(Path::new("s.toml"), b"a = 1\nb = \"\x93q\x94\"".to_vec()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("s.toml:2:6: invalid UTF-8: byte 0x93"),
            "{e}"
        );
        assert!(e.to_string().contains('\u{201c}'), "{e}");
        let e = decode(Path::new("s.toml"), vec![0xFF, 0xFE, b'a', 0]).unwrap_err();
        assert!(e.to_string().contains("UTF-16"), "{e}");
        let e = decode(Path::new("s.toml"), b"a = \"\xc3".to_vec()).unwrap_err();
        assert!(e.to_string().contains("cut off"), "{e}");
        assert_eq!(decode(Path::new("s"), b"ok".to_vec()).unwrap(), "ok");
    }

    #[test]
    fn a_wide_character_before_the_value_keeps_the_caret_under_it() {
        let text = "name = \"ü\" # x\nq = 1\n";
        let at = text.find('#').unwrap();
        let s = snippet(text, at..at + 1);
        assert_eq!(s, "  |\n1 | name = \"ü\" # x\n  |            ^");
    }
}
