//! `grader review`: a TA's walk through a graded class in the browser. For each student the code
//! (highlighted, read-only), the automatic feedback, the game replays, the cases the grader could not
//! follow (`review`) with their transcript to settle, and the rubric items to tick. Every change is
//! saved at once into the class's `manual.toml` (atomically, re-read first so nothing another save
//! wrote is lost), and the student's result.json, report.html and the class's grades.csv follow.
//!
//! This module is the class and what each request does ([`Class::handle`], no sockets: testable on
//! its own); [`server`] is the one door to it, bound to 127.0.0.1 behind a random token.

pub mod code;
pub mod highlight;
pub mod page;
pub mod server;

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use serde::Deserialize;

use crate::error::Error;
use crate::marks::{file, ClassMarks, GroupMark, Marks, Settlement, Stamp, MANUAL_FILE};
use crate::report::result::SubmissionResult;
use crate::report::rubric::ClassRubric;

/// The most bytes of a request body read.
pub const BODY_CAP: usize = 64 << 10;

/// One student of the class under review.
pub struct Student {
    pub key: String,
    /// The hand-in's folder, when the submissions are known.
    pub folder: Option<PathBuf>,
    /// The result as it now stands (the marks applied).
    pub result: SubmissionResult,
}

/// A graded class open for review.
pub struct Class {
    /// `results/<suite>`.
    pub dir: PathBuf,
    pub rubric: ClassRubric,
    pub students: Vec<Student>,
    /// Who is marking (`--by`).
    pub by: String,
    /// Notes for the terminal (results left out, marks for students with no result).
    pub notes: Vec<String>,
}

/// A request as the server hands it over: its method, its path below the token (still
/// percent-encoded), its body.
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub body: &'a [u8],
}

/// What to answer.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    /// A redirect's target (below the token).
    pub location: Option<String>,
}

impl Response {
    fn text(status: u16, body: &str) -> Response {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: body.as_bytes().to_vec(),
            location: None,
        }
    }

    /// Nothing here: the same answer for every path outside the class, whatever it names.
    #[must_use]
    pub fn not_found() -> Response {
        Response::text(404, "not found\n")
    }

    fn json(value: &serde_json::Value) -> Response {
        Response {
            status: 200,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
            location: None,
        }
    }
}

/// A rubric group's mark as the page sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkBody {
    group: String,
    #[serde(default)]
    items: Vec<String>,
    #[serde(default)]
    adjust: f64,
    #[serde(default)]
    comment: String,
}

/// A review case settled (or its settlement taken back) as the page sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SettleBody {
    case: String,
    #[serde(default)]
    credit: Option<f64>,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    clear: bool,
}

impl Class {
    /// Opens the results folder `dir` for review by `by`, the code read from `submissions` (else
    /// the folder `grader run` recorded in `review.json`, when it is still there).
    ///
    /// # Errors
    /// No result in `dir`, or its rubric or marks cannot be read (named).
    pub fn open(dir: &Path, submissions: Option<&Path>, by: String) -> Result<Class, Error> {
        let (mut results, mut notes) = crate::report::html::class::load_results(dir);
        if results.is_empty() {
            return Err(Error::input(anyhow!(
                "no `result.json` in `{}`\nhint: name a suite's results folder, such as `results/<suite>`",
                dir.display()
            )));
        }
        let rubric = crate::report::manual::rubric(dir, &results)?;
        notes.extend(crate::report::manual::load_and_apply(dir, &mut results)?);
        let code_dir = submissions
            .map(Path::to_path_buf)
            .or_else(|| rubric.submissions.clone().filter(|d| d.is_dir()));
        if code_dir.is_none() {
            notes.push(
                "the submissions folder is not known (give it as SUBMISSIONS): no code is shown"
                    .into(),
            );
        }
        let folders: Vec<(String, PathBuf)> = match &code_dir {
            Some(d) => crate::grade::class::students(d).map_err(Error::input)?,
            None => Vec::new(),
        };
        let students = results
            .into_iter()
            .map(|r| Student {
                key: r.student.clone(),
                folder: folders
                    .iter()
                    .find(|(k, _)| *k == r.student)
                    .map(|(_, p)| p.clone()),
                result: r,
            })
            .collect();
        Ok(Class {
            dir: dir.to_path_buf(),
            rubric,
            students,
            by,
            notes,
        })
    }

    /// The index of the student `key` (a path segment, percent-decoded here).
    fn find(&self, segment: &str) -> Option<usize> {
        let key = percent_decode(segment)?;
        self.students.iter().position(|s| s.key == key)
    }

    /// Answers one request. Only the class's pages and its two kinds of save exist; anything else is
    /// not found.
    pub fn handle(&mut self, req: &Request<'_>, nonce: &str) -> Response {
        let parts: Vec<&str> = req.path.split('/').collect();
        match (req.method, parts.as_slice()) {
            ("GET", [""]) => match self.students.first() {
                Some(s) => Response {
                    location: Some(format!("s/{}", crate::report::html::url_segment(&s.key))),
                    ..Response::text(303, "")
                },
                None => Response::not_found(),
            },
            ("GET", ["s", key]) => match self.find(key) {
                Some(k) => Response {
                    status: 200,
                    content_type: "text/html; charset=utf-8",
                    body: page::student(self, k, nonce).into_bytes(),
                    location: None,
                },
                None => Response::not_found(),
            },
            ("POST", ["s", key, action @ ("mark" | "settle")]) => {
                let Some(k) = self.find(key) else {
                    return Response::not_found();
                };
                let saved = if *action == "mark" {
                    serde_json::from_slice(req.body)
                        .map_err(|e| e.to_string())
                        .and_then(|b| self.mark(k, b))
                } else {
                    serde_json::from_slice(req.body)
                        .map_err(|e| e.to_string())
                        .and_then(|b| self.settle(k, b))
                };
                match saved {
                    Ok(v) => Response::json(&v),
                    Err(why) => Response::text(400, &format!("not saved: {why}\n")),
                }
            }
            _ => Response::not_found(),
        }
    }

    /// Saves a rubric group's mark for student `k`.
    fn mark(&mut self, k: usize, body: MarkBody) -> Result<serde_json::Value, String> {
        let group = self
            .rubric
            .group(&body.group)
            .ok_or_else(|| {
                format!(
                    "no manual group `{}`",
                    crate::untrusted::one_line(&body.group, 60)
                )
            })?
            .clone();
        for item in &body.items {
            if !group.items.iter().any(|i| &i.name == item) {
                return Err(format!(
                    "no item `{}` in `{}`",
                    crate::untrusted::one_line(item, 60),
                    group.name
                ));
            }
        }
        if !body.adjust.is_finite() || body.adjust.abs() > 1e6 {
            return Err("the adjustment is not a number of points".into());
        }
        if body.comment.chars().count() > file::TEXT_CAP {
            return Err(format!(
                "the comment is longer than {} characters",
                file::TEXT_CAP
            ));
        }
        let stamp = self.stamp();
        let key = self.students[k].key.clone();
        let group_name = group.name.clone();
        self.save(k, move |marks| {
            let s = marks.students.entry(key).or_default();
            // Nothing ticked, adjusted or said is no mark (Gradescope's ungraded), never a 0.
            if body.items.is_empty() && body.adjust == 0.0 && body.comment.trim().is_empty() {
                s.groups.remove(&group_name);
            } else {
                let mut items = body.items;
                items.dedup();
                s.groups.insert(
                    group_name,
                    GroupMark {
                        items,
                        adjust: body.adjust,
                        comment: body.comment,
                        points: None,
                        stamp,
                    },
                );
            }
        })
    }

    /// Settles (or unsettles) a `review` case of student `k`.
    fn settle(&mut self, k: usize, body: SettleBody) -> Result<serde_json::Value, String> {
        let r = &self.students[k].result;
        if !r.cases.iter().any(|c| {
            c.verdict == crate::judge::Verdict::Review
                && format!("{}/{}", c.group, c.name) == body.case
        }) {
            return Err(format!(
                "`{}` is no case waiting for review",
                crate::untrusted::one_line(&body.case, 80)
            ));
        }
        let settlement = if body.clear {
            None
        } else {
            let credit = body
                .credit
                .filter(|c| (0.0..=1.0).contains(c))
                .ok_or("a credit from 0 to 1 (0% to 100%)")?;
            if body.reason.trim().is_empty() {
                return Err("a settled case needs its reason".into());
            }
            if body.reason.chars().count() > file::TEXT_CAP {
                return Err(format!(
                    "the reason is longer than {} characters",
                    file::TEXT_CAP
                ));
            }
            Some(Settlement {
                credit,
                reason: body.reason,
                stamp: self.stamp(),
            })
        };
        let key = self.students[k].key.clone();
        self.save(k, move |marks| {
            let s = marks.students.entry(key).or_default();
            match settlement {
                Some(set) => s.review.insert(body.case, set),
                None => s.review.remove(&body.case),
            };
        })
    }

    fn stamp(&self) -> Stamp {
        Stamp {
            by: self.by.clone(),
            at: jiff::Timestamp::now()
                .round(jiff::Unit::Second)
                .unwrap_or_else(|_| jiff::Timestamp::now()),
        }
    }

    /// Re-reads `manual.toml`, changes it with `change`, stamps the student's code, writes it
    /// atomically, then re-totals student `k` and writes its result, page and the gradebook. The
    /// answer says the student's state as the page shows it.
    fn save(
        &mut self,
        k: usize,
        change: impl FnOnce(&mut Marks),
    ) -> Result<serde_json::Value, String> {
        let path = self.dir.join(MANUAL_FILE);
        let mut marks =
            file::read_or_empty(&path, &self.rubric.suite).map_err(|e| e.to_string())?;
        change(&mut marks);
        let key = self.students[k].key.clone();
        let code = crate::report::manual::stored_code(&self.dir, &key);
        if let Some(s) = marks.students.get_mut(&key) {
            if code.is_some() {
                s.code = code;
            }
        }
        marks
            .students
            .retain(|_, s| !s.groups.is_empty() || !s.review.is_empty());
        crate::report::write_atomic(&path, file::to_text(&marks).as_bytes())
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
        let keys: Vec<&str> = self.students.iter().map(|s| s.key.as_str()).collect();
        let class_marks = ClassMarks {
            code: keys
                .iter()
                .filter_map(|k| {
                    Some((
                        (*k).to_string(),
                        crate::report::manual::stored_code(&self.dir, k)?,
                    ))
                })
                .collect(),
            marks,
            rubric: self.rubric.manual.clone(),
        };
        let r = &mut self.students[k].result;
        crate::report::manual::apply(std::slice::from_mut(r), &class_marks);
        self.write(k).map_err(|e| e.to_string())?;
        Ok(page::state(&self.students[k].result))
    }

    /// Writes student `k`'s result.json and report.html, and the class's grades.csv.
    fn write(&self, k: usize) -> std::io::Result<()> {
        let r = &self.students[k].result;
        let folder = self.dir.join(&r.student);
        // Each student's folder opened below the results with no link followed (`write_within`).
        let within = |name: &str, bytes: &[u8]| {
            crate::report::write_within(
                &self.dir,
                &std::path::Path::new(&r.student).join(name),
                bytes,
            )
        };
        within("result.json", r.to_json().as_bytes())?;
        let (games, skipped) = crate::report::html::student::load_games(&folder);
        let html = crate::report::html::student::page_for(r, &games, &skipped, true);
        within("report.html", html.as_bytes())?;
        let results: Vec<&SubmissionResult> = self.students.iter().map(|s| &s.result).collect();
        let columns = self
            .rubric
            .columns
            .clone()
            .unwrap_or_else(|| crate::report::manual::columns_of(results.iter().copied()));
        crate::report::write_atomic(
            &self.dir.join("grades.csv"),
            crate::report::csv::gradebook(&columns, results.iter().copied()).as_bytes(),
        )
    }
}

/// A percent-encoded path segment decoded (the page links each student by `url_segment`); `None`
/// for bytes that are not UTF-8 or a bad escape.
fn percent_decode(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_decode_as_the_page_encodes_them() {
        for key in ["ann", "a b%1B/\"<", "é"] {
            assert_eq!(
                percent_decode(&crate::report::html::url_segment(key)).as_deref(),
                Some(key)
            );
        }
        assert_eq!(percent_decode("%zz"), None);
        assert_eq!(percent_decode("%ff"), None);
    }
}
