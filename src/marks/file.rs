//! `manual.toml`: one suite's marks as a person can read and edit them, one table per student.
//!
//! ```toml
//! suite = "iiit-2015-ut3"
//!
//! [students.decent]
//! code = "3f1c…"                     # the code's fingerprint when last marked
//!
//! [students.decent.groups.manual]
//! items = ["minimax", "pruning"]
//! adjust = -2
//! comment = "No depth control in the opening."
//! by = "ta1"
//! at = "2026-11-26T14:02:11Z"
//!
//! [students.decent.review."legal/vs-random"]
//! credit = 1
//! reason = "Asks for row then column; every move legal in the transcript."
//! by = "ta2"
//! at = "2026-11-26T14:05:40Z"
//! ```
//!
//! Read back as untrusted input (a TA's hand edit, a file from another machine): capped, strict (no
//! unknown key), every value checked, each error naming the file and its line. Written atomically.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::{check_name, GroupMark, Marks, Settlement, Stamp, StudentMarks};
use crate::toml_file::{located, parse_toml, TomlError};

/// The most bytes of a marks file read (a class of 2,000 with long comments is well under 8 MiB).
pub const FILE_CAP: u64 = 16 << 20;
/// The most students one file holds.
pub const MAX_STUDENTS: usize = 100_000;
/// The most characters of a comment or a reason.
pub const TEXT_CAP: usize = 8000;
/// The most items one group's mark ticks.
const MAX_ITEMS: usize = 200;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawFile {
    suite: Spanned<String>,
    #[serde(default)]
    students: BTreeMap<String, RawStudent>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawStudent {
    code: Option<Spanned<String>>,
    #[serde(default)]
    groups: BTreeMap<String, RawGroup>,
    #[serde(default)]
    review: BTreeMap<String, RawSettlement>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawGroup {
    #[serde(default)]
    items: Vec<Spanned<String>>,
    adjust: Option<Spanned<f64>>,
    comment: Option<Spanned<String>>,
    points: Option<Spanned<f64>>,
    by: Spanned<String>,
    at: Spanned<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSettlement {
    credit: Spanned<f64>,
    reason: Spanned<String>,
    by: Spanned<String>,
    at: Spanned<String>,
}

/// Reads the marks file at `path`.
///
/// # Errors
/// It cannot be read (a link, not a regular file, over [`FILE_CAP`]), is not UTF-8 or TOML of this
/// form, or a value is out of bounds: each named with the file and line.
pub fn read(path: &Path) -> Result<Marks, TomlError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let name = path.file_name().map(Path::new).unwrap_or(path);
    let read = crate::untrusted::read_output(dir.unwrap_or(Path::new(".")), name, FILE_CAP)
        .map_err(|e| TomlError::Invalid {
            at: path.display().to_string(),
            message: format!("cannot read the marks file: {e}"),
        })?;
    if read.truncated {
        return Err(TomlError::Invalid {
            at: path.display().to_string(),
            message: format!("larger than the {FILE_CAP} bytes a marks file may hold"),
        });
    }
    let text = String::from_utf8(read.bytes).map_err(|_| TomlError::Invalid {
        at: path.display().to_string(),
        message: "not UTF-8 text".into(),
    })?;
    parse(path, &text)
}

/// Reads the marks file at `path`, or an empty one for `suite` when there is none yet.
///
/// # Errors
/// As [`read`]; also a file of another suite.
pub fn read_or_empty(path: &Path, suite: &str) -> Result<Marks, TomlError> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(Marks {
            suite: suite.to_string(),
            ..Marks::default()
        });
    }
    let marks = read(path)?;
    if marks.suite != suite {
        return Err(TomlError::Invalid {
            at: path.display().to_string(),
            message: format!(
                "the marks of suite `{}`, not of `{suite}`\nhint: each suite's results folder has its own manual.toml",
                marks.suite
            ),
        });
    }
    Ok(marks)
}

/// Parses and checks a marks file's `text` (`path` names it in errors).
///
/// # Errors
/// As [`read`].
pub fn parse(path: &Path, text: &str) -> Result<Marks, TomlError> {
    let raw: RawFile = parse_toml(path, text)?;
    let bad =
        |span: std::ops::Range<usize>, message: String| located(path, text, Some(span), &message);
    if raw.students.len() > MAX_STUDENTS {
        return Err(bad(0..0, format!("more than {MAX_STUDENTS} students")));
    }
    let suite = raw.suite.get_ref().clone();
    if !is_key(&suite) {
        return Err(bad(
            raw.suite.span(),
            format!(
                "`suite`: `{}` is not a suite's name",
                crate::untrusted::one_line(&suite, 80)
            ),
        ));
    }
    let mut students = BTreeMap::new();
    // Tables carry no span of their own here: a bad key is pointed at where its name first appears.
    let key_at = |key: &str| text.find(key).map_or(0..0, |at| at..at + key.len());
    for (key, s) in raw.students {
        if !is_key(&key) {
            return Err(bad(
                key_at(&key),
                format!(
                    "`{}` is not a student folder's name",
                    crate::untrusted::one_line(&key, 80)
                ),
            ));
        }
        let code = match s.code {
            Some(c) if is_hex(c.get_ref()) => Some(c.get_ref().clone()),
            Some(c) => {
                return Err(bad(
                    c.span(),
                    format!("`students.{key}.code` is not a fingerprint (64 hexadecimal digits)"),
                ))
            }
            None => None,
        };
        let mut groups = BTreeMap::new();
        for (g, mark) in s.groups {
            let at = format!("students.{key}.groups.{g}");
            if !is_key(&g) {
                return Err(bad(key_at(&g), format!("`{at}`: not a group's name")));
            }
            groups.insert(g, group(mark, &at).map_err(|(s, m)| bad(s, m))?);
        }
        let mut review = BTreeMap::new();
        for (case, settled) in s.review {
            let at = format!("students.{key}.review.\"{case}\"");
            if !is_case(&case) {
                return Err(bad(
                    key_at(&case),
                    format!("`{at}`: not a case (`group/case`)"),
                ));
            }
            review.insert(case, settlement(settled, &at).map_err(|(s, m)| bad(s, m))?);
        }
        students.insert(
            key,
            StudentMarks {
                code,
                groups,
                review,
            },
        );
    }
    Ok(Marks { suite, students })
}

type Located = (std::ops::Range<usize>, String);

fn group(raw: RawGroup, at: &str) -> Result<GroupMark, Located> {
    if raw.items.len() > MAX_ITEMS {
        return Err((
            raw.items[MAX_ITEMS].span(),
            format!("`{at}.items`: more than {MAX_ITEMS} items"),
        ));
    }
    let mut items: Vec<String> = Vec::new();
    for item in &raw.items {
        if !is_key(item.get_ref()) {
            return Err((
                item.span(),
                format!(
                    "`{at}.items`: `{}` is not an item's name",
                    crate::untrusted::one_line(item.get_ref(), 80)
                ),
            ));
        }
        if !items.contains(item.get_ref()) {
            items.push(item.get_ref().clone());
        }
    }
    let adjust = match &raw.adjust {
        Some(a) if !a.get_ref().is_finite() || a.get_ref().abs() > 1e6 => {
            return Err((
                a.span(),
                format!("`{at}.adjust`: `{}` is not a number of points", a.get_ref()),
            ))
        }
        Some(a) => *a.get_ref(),
        None => 0.0,
    };
    let points = match &raw.points {
        Some(p) if !p.get_ref().is_finite() || *p.get_ref() < 0.0 || *p.get_ref() > 1e6 => {
            return Err((
                p.span(),
                format!(
                    "`{at}.points`: `{}` is not a number of points (0 or more)",
                    p.get_ref()
                ),
            ))
        }
        Some(p) => Some(*p.get_ref()),
        None => None,
    };
    Ok(GroupMark {
        items,
        adjust,
        comment: match &raw.comment {
            Some(c) => text(c, &format!("{at}.comment"))?,
            None => String::new(),
        },
        points,
        stamp: stamp(&raw.by, &raw.at, at)?,
    })
}

fn settlement(raw: RawSettlement, at: &str) -> Result<Settlement, Located> {
    let credit = *raw.credit.get_ref();
    if !(0.0..=1.0).contains(&credit) {
        return Err((raw.credit.span(), format!("`{at}.credit`: `{credit}` is not a credit\nhint: from 0 (nothing) to 1 (all of the case)")));
    }
    let reason = text(&raw.reason, &format!("{at}.reason"))?;
    if reason.trim().is_empty() {
        return Err((
            raw.reason.span(),
            format!("`{at}.reason`: a settled case needs its reason"),
        ));
    }
    Ok(Settlement {
        credit,
        reason,
        stamp: stamp(&raw.by, &raw.at, at)?,
    })
}

fn text(raw: &Spanned<String>, at: &str) -> Result<String, Located> {
    let t = raw.get_ref();
    if t.chars().count() > TEXT_CAP {
        return Err((
            raw.span(),
            format!("`{at}`: longer than {TEXT_CAP} characters"),
        ));
    }
    Ok(t.clone())
}

fn stamp(by: &Spanned<String>, at: &Spanned<String>, key: &str) -> Result<Stamp, Located> {
    let name = check_name(by.get_ref()).map_err(|e| (by.span(), format!("`{key}.by`: {e}")))?;
    let when: jiff::Timestamp = at.get_ref().parse().map_err(|e| {
        (at.span(), format!("`{key}.at`: `{}` is not a time ({e})\nhint: RFC 3339, such as `2026-11-26T14:02:11Z`", crate::untrusted::one_line(at.get_ref(), 60)))
    })?;
    Ok(Stamp { by: name, at: when })
}

/// A student folder's, group's or item's name as the grader makes them: one line, no `/`, at most
/// 255 bytes, not `.` or `..`.
fn is_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 255
        && key != "."
        && key != ".."
        && !key.contains('/')
        && !key.chars().any(char::is_control)
}

/// `group/case`.
fn is_case(key: &str) -> bool {
    key.split_once('/')
        .is_some_and(|(g, c)| is_key(g) && is_key(c))
}

fn is_hex(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct OutFile<'a> {
    suite: &'a str,
    students: BTreeMap<&'a str, OutStudent<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct OutStudent<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    groups: BTreeMap<&'a str, OutGroup<'a>>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    review: BTreeMap<&'a str, OutSettlement<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct OutGroup<'a> {
    items: &'a [String],
    adjust: f64,
    comment: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    points: Option<f64>,
    by: &'a str,
    at: String,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct OutSettlement<'a> {
    credit: f64,
    reason: &'a str,
    by: &'a str,
    at: String,
}

/// The file's text: a comment saying what it is, then the marks, students in name order.
#[must_use]
pub fn to_text(marks: &Marks) -> String {
    let out = OutFile {
        suite: &marks.suite,
        students: marks
            .students
            .iter()
            .map(|(k, s)| {
                let student = OutStudent {
                    code: s.code.as_deref(),
                    groups: s
                        .groups
                        .iter()
                        .map(|(g, m)| {
                            (
                                g.as_str(),
                                OutGroup {
                                    items: &m.items,
                                    adjust: m.adjust,
                                    comment: &m.comment,
                                    points: m.points,
                                    by: &m.stamp.by,
                                    at: m.stamp.at.to_string(),
                                },
                            )
                        })
                        .collect(),
                    review: s
                        .review
                        .iter()
                        .map(|(c, r)| {
                            (
                                c.as_str(),
                                OutSettlement {
                                    credit: r.credit,
                                    reason: &r.reason,
                                    by: &r.stamp.by,
                                    at: r.stamp.at.to_string(),
                                },
                            )
                        })
                        .collect(),
                };
                (k.as_str(), student)
            })
            .collect(),
    };
    let body = toml::to_string(&out).unwrap_or_default();
    format!(
        "# The manual marks of `{}`: rubric items ticked and review cases settled, by whom and when\n# (`grader review`, docs/review.md). One table per student; `grader marks merge` joins TAs' files.\n{body}",
        marks.suite
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp() -> Stamp {
        Stamp {
            by: "ta \"one\"".into(),
            at: "2026-11-26T14:02:11Z".parse().unwrap(),
        }
    }

    #[test]
    fn a_file_written_reads_back_the_same() {
        let mut marks = Marks {
            suite: "iiit-2015-ut3".into(),
            ..Marks::default()
        };
        let mut s = StudentMarks {
            code: Some("a".repeat(64)),
            ..StudentMarks::default()
        };
        s.groups.insert(
            "manual".into(),
            GroupMark {
                items: vec!["minimax".into(), "pruning".into()],
                adjust: -2.5,
                comment: "line one\nline \"two\" \u{202e}".into(),
                points: None,
                stamp: stamp(),
            },
        );
        s.review.insert(
            "legal/vs random".into(),
            Settlement {
                credit: 0.5,
                reason: "half".into(),
                stamp: stamp(),
            },
        );
        marks.students.insert("team a".into(), s);
        let text = to_text(&marks);
        let back = parse(Path::new("manual.toml"), &text).unwrap();
        assert_eq!(back, marks, "{text}");
    }

    #[test]
    fn bad_values_are_named_with_the_file_and_line() {
        let head =
            "suite = \"s\"\n[students.a.groups.g]\nby = \"ta\"\nat = \"2026-11-26T14:02:11Z\"\n";
        for (extra, want) in [
            (
                "adjust = inf\n",
                "manual.toml:5:10: `students.a.groups.g.adjust`: `inf` is not a number of points",
            ),
            (
                "points = -1\n",
                "manual.toml:5:10: `students.a.groups.g.points`: `-1` is not a number of points",
            ),
            (
                "items = [\"a/b\"]\n",
                "manual.toml:5:10: `students.a.groups.g.items`: `a/b` is not an item's name",
            ),
            (
                "surprise = 1\n",
                "manual.toml:5:1: unknown field `surprise`",
            ),
        ] {
            let got = parse(Path::new("manual.toml"), &format!("{head}{extra}"))
                .unwrap_err()
                .to_string();
            assert!(got.starts_with(want), "{extra}: {got}");
        }
        let settle = "suite = \"s\"\n[students.a.review.\"g/c\"]\ncredit = 2\nreason = \"x\"\nby = \"ta\"\nat = \"yesterday\"\n";
        let got = parse(Path::new("m.toml"), settle).unwrap_err().to_string();
        assert!(
            got.starts_with("m.toml:3:10: `students.a.review.\"g/c\".credit`: `2` is not a credit"),
            "{got}"
        );
        let got = parse(
            Path::new("m.toml"),
            &settle.replace("credit = 2", "credit = 1"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            got.starts_with(
                "m.toml:6:6: `students.a.review.\"g/c\".at`: `yesterday` is not a time"
            ),
            "{got}"
        );
        let got = parse(
            Path::new("m.toml"),
            "suite = \"s\"\n[students.a]\ncode = \"xyz\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(got.contains("is not a fingerprint"), "{got}");
    }

    #[test]
    fn a_link_a_huge_file_or_another_suites_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.toml");
        std::fs::write(&real, "suite = \"other\"\n").unwrap();
        let link = dir.path().join("manual.toml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(read(&link)
            .unwrap_err()
            .to_string()
            .contains("symbolic link"));
        let got = read_or_empty(&real, "mine").unwrap_err().to_string();
        assert!(
            got.contains("the marks of suite `other`, not of `mine`"),
            "{got}"
        );
        assert!(read_or_empty(&dir.path().join("none.toml"), "mine")
            .unwrap()
            .students
            .is_empty());
        let big = dir.path().join("big.toml");
        std::fs::write(&big, vec![b'#'; usize::try_from(FILE_CAP).unwrap() + 1]).unwrap();
        assert!(read(&big).unwrap_err().to_string().contains("larger than"));
    }
}
