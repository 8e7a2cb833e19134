//! JUnit XML: one `testsuite` per student, one `testcase` per case, as GitLab's unit test reports
//! (<https://docs.gitlab.com/ci/testing/unit_test_reports>, `artifacts:reports:junit`) and GitHub's
//! JUnit report actions read it. Written by hand: three elements and one escape function, where an
//! XML crate would add a dependency for less code than it saves.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::{feedback, unscored, Class, Export};
use crate::judge::Verdict;
use crate::report::result::SubmissionResult;

/// The one file for the class. A case short of full credit is a `failure` (its summary the message,
/// its feedback the text); one the machine failed (`not-graded`, an internal error) is an `error`,
/// never a failure of the student's; a group not attempted is a `skipped` case. Each `testcase`'s
/// `classname` is `<student>.<group>`, so no two students' cases merge (GitLab keys on it and `name`).
#[must_use]
pub fn export(class: &Class) -> Export {
    let mut out = Export {
        notes: class.roster_notes(false),
        ..Export::default()
    };
    let mut suites = String::new();
    let (mut tests, mut failures, mut errors, mut skipped, mut ms) = (0, 0, 0, 0, 0);
    for r in &class.results {
        if let Some(why) = unscored(r) {
            out.not_graded.push((r.student.clone(), why));
        }
        let who = class.student(&r.student).and_then(|s| {
            let ids = [&s.login, &s.id, &s.email];
            ids.into_iter().flatten().next().cloned()
        });
        let total = if unscored(r).is_some() {
            None
        } else {
            super::exported_total(class, r, &mut out)
        };
        let suite = testsuite(r, who.as_deref().unwrap_or(&r.student), total);
        tests += suite.tests;
        failures += suite.failures;
        errors += suite.errors;
        skipped += suite.skipped;
        ms += suite.ms;
        suites.push_str(&suite.xml);
    }
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{}\">\n{suites}</testsuites>\n",
        escape(&class.suite),
        seconds(ms)
    );
    out.files.push((PathBuf::new(), xml.into_bytes()));
    out
}

struct Suite {
    xml: String,
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
    ms: u64,
}

/// One student's `testsuite`; its `properties` carry the course's `total` (when it has one) and `max`.
fn testsuite(r: &SubmissionResult, who: &str, total: Option<f64>) -> Suite {
    let mut body = properties(total, r.out_of());
    let (mut failures, mut errors) = (0, 0);
    let mut ms = 0;
    let case = |body: &mut String, group: &str, name: &str, wall_ms: u64, inner: &str| {
        let _ = write!(
            body,
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{}\"",
            escape(&format!("{who}.{group}")),
            escape(name),
            seconds(wall_ms)
        );
        if inner.is_empty() {
            body.push_str("/>\n");
        } else {
            let _ = write!(body, ">\n      {inner}\n    </testcase>\n");
        }
    };
    let mut tests = 0;
    for c in &r.cases {
        ms += c.wall_ms;
        tests += 1;
        let message = crate::untrusted::one_line(&c.summary, 500);
        let inner = if matches!(c.verdict, Verdict::InternalError | Verdict::NotGraded)
            || c.waits_for_review()
        {
            errors += 1;
            element("error", &message, c.verdict.label(), &feedback(c))
        } else if c.credit < 1.0 {
            failures += 1;
            element("failure", &message, c.verdict.label(), &feedback(c))
        } else {
            String::new()
        };
        case(&mut body, &c.group, &c.name, c.wall_ms, &inner);
    }
    // A build the machine could not do, with no case to carry it.
    if r.cases.is_empty() {
        if let Some(why) = unscored(r) {
            tests += 1;
            errors += 1;
            let inner = element("error", &why, "not graded", "");
            case(&mut body, "build", "build", r.build.wall_ms, &inner);
        }
    }
    // A person's marks: a case per manual group, skipped while not given.
    let mut skipped = r.not_attempted.len();
    for (name, points, max, text) in super::manual_lines(r) {
        tests += 1;
        skipped += usize::from(points.is_none());
        let inner = manual_inner(points, max, &text);
        case(&mut body, "manual", &name, 0, &inner);
    }
    for n in &r.not_attempted {
        tests += 1;
        let reason = crate::untrusted::one_line(&format!("not attempted: {}", n.reason), 500);
        let inner = format!("<skipped message=\"{}\"/>", escape(&reason));
        case(&mut body, &n.group, &n.program, 0, &inner);
    }
    let xml = format!(
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{}\">\n{body}  </testsuite>\n",
        escape(who),
        seconds(ms)
    );
    Suite {
        xml,
        tests,
        failures,
        errors,
        skipped,
        ms,
    }
}

/// The `<properties>` of a student's testsuite: the course's total (none while blank) and maximum.
fn properties(total: Option<f64>, max: f64) -> String {
    let mut body = String::new();
    let _ = writeln!(body, "    <properties>");
    if let Some(t) = total {
        let _ = writeln!(
            body,
            "      <property name=\"total\" value=\"{}\"/>",
            crate::report::points(t)
        );
    }
    let _ = writeln!(
        body,
        "      <property name=\"max\" value=\"{}\"/>\n    </properties>",
        crate::report::points(max)
    );
    body
}

/// A manual group's testcase body: the points given and what was ticked, or skipped while not given.
fn manual_inner(points: Option<f64>, max: f64, text: &str) -> String {
    match points {
        Some(p) => format!(
            "<system-out>{}</system-out>",
            escape(&format!(
                "{} of {}\n{text}",
                crate::report::points(p),
                crate::report::points(max)
            ))
        ),
        None => format!(
            "<skipped message=\"{}\"/>",
            escape(&crate::untrusted::one_line(text, 500))
        ),
    }
}

/// `<failure message="…" type="…">text</failure>` (or `error`), escaped.
fn element(tag: &str, message: &str, kind: &str, text: &str) -> String {
    format!(
        "<{tag} message=\"{}\" type=\"{}\">{}</{tag}>",
        escape(message),
        escape(kind),
        escape(text)
    )
}

fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// Text made safe for XML 1.0, in an attribute or an element: the five markup characters as entities,
/// every character XML cannot hold even escaped (C0 controls but tab and newlines, lone surrogates'
/// stand-ins, U+FFFE and U+FFFF) as U+FFFD. Carriage returns and tabs in attributes stay as
/// character references so a parser keeps them.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\r' => out.push_str("&#13;"),
            '\t' | '\n' => out.push(c),
            c if u32::from(c) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_characters_xml_cannot_hold_are_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>\r\n\t\x1b\u{0}\u{ffff}é"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;&#13;\n\t\u{fffd}\u{fffd}\u{fffd}é"
        );
    }
}
