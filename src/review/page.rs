//! The review page of one student: where the class stands (a list to jump to anyone, previous and
//! next), the student's state, the rubric to tick, the `review` cases to settle with their
//! transcripts, the code, then the student's report (feedback and game replays) as `grader report`
//! writes it. One self-contained page; its scripts carry the response's nonce (the server's CSP
//! allows no other), and every string a submission wrote passes through one escape.

use std::fmt::Write as _;

use super::Class;
use crate::judge::Verdict;
use crate::report::html::{esc, url_segment};
use crate::report::points;
use crate::report::result::SubmissionResult;

/// The student's state in a few words, for the list and the page: its total, or why there is none.
#[must_use]
pub fn status(r: &SubmissionResult) -> (String, &'static str) {
    let g = r.course.as_ref();
    let out_of = points(r.out_of());
    if let Some(t) = r.total() {
        return (format!("{} / {out_of}", points(t)), "done");
    }
    if r.needs_review().is_some() {
        return ("needs review".into(), "todo");
    }
    if let Some(why) = g.and_then(|g| g.incomplete.as_deref()) {
        return (why.to_string(), "todo");
    }
    let why = g.and_then(|g| g.blank.as_deref()).unwrap_or("no total");
    (why.lines().next().unwrap_or_default().to_string(), "none")
}

/// What a save answers: the student's state and each manual group's points, for the page to show.
#[must_use]
pub fn state(r: &SubmissionResult) -> serde_json::Value {
    let (text, kind) = status(r);
    let groups: serde_json::Map<String, serde_json::Value> = r
        .course
        .iter()
        .flat_map(|g| &g.manual)
        .map(|m| {
            let shown = match (m.points, &m.missing) {
                (Some(p), None) => format!("{} / {}", points(p), points(m.max)),
                (_, Some(why)) => format!("– / {} ({why})", points(m.max)),
                (None, None) => format!("– / {}", points(m.max)),
            };
            (m.name.clone(), serde_json::Value::String(shown))
        })
        .collect();
    serde_json::json!({ "status": text, "kind": kind, "groups": groups })
}

/// The whole page for student `k` of `class`.
#[must_use]
pub fn student(class: &Class, k: usize, nonce: &str) -> String {
    let s = &class.students[k];
    let r = &s.result;
    let mut b = String::new();
    nav(&mut b, class, k);
    let (text, kind) = status(r);
    let _ = writeln!(
        b,
        "<h1>{} <span class=\"mute\">· {}</span></h1>\n<p id=\"status\" class=\"{kind}\" aria-live=\"polite\">{}</p>\n<p class=\"mute keys\">keys: <kbd>1</kbd>–<kbd>9</kbd> tick an item · <kbd>n</kbd> next · <kbd>p</kbd> previous · <kbd>c</kbd> comment · <kbd>Esc</kbd> leave a field · saved as you go <span id=\"saved\" aria-live=\"polite\"></span></p>",
        esc(&r.student),
        esc(&class.rubric.title),
        esc(&text)
    );
    rubric(&mut b, class, r);
    review_cases(&mut b, r);
    b.push_str("<h2 id=\"code\">Code</h2>\n");
    match &s.folder {
        Some(dir) => b.push_str(&super::code::html(&super::code::files(dir))),
        None => b.push_str("<p class=\"mute\">the hand-in's folder is not known here (give SUBMISSIONS to `grader review`)</p>\n"),
    }
    b.push_str("<h2 id=\"report\">Automatic feedback</h2>\n");
    let (games, skipped) = crate::report::html::student::load_games(&class.dir.join(&r.student));
    b.push_str(&crate::report::html::student::body_for(r, &games, &skipped));
    wrap(&format!("review · {} · {}", r.student, r.suite), &b, nonce)
}

/// The class bar: previous, a list of every student with its state, next.
fn nav(b: &mut String, class: &Class, k: usize) {
    let link = |i: usize| url_segment(&class.students[i].key);
    b.push_str("<nav class=\"class\">");
    if k > 0 {
        let _ = write!(b, "<a id=\"prev\" href=\"{}\">← previous</a> ", link(k - 1));
    }
    let _ = write!(b, "<select id=\"jump\" aria-label=\"student\">");
    for (i, s) in class.students.iter().enumerate() {
        let (text, _) = status(&s.result);
        let _ = write!(
            b,
            "<option value=\"{}\"{}>{} — {}</option>",
            link(i),
            if i == k { " selected" } else { "" },
            esc(&s.key),
            esc(&crate::untrusted::one_line(&text, 60))
        );
    }
    let _ = write!(
        b,
        "</select> <span class=\"mute\">{} of {}</span>",
        k + 1,
        class.students.len()
    );
    if k + 1 < class.students.len() {
        let _ = write!(b, " <a id=\"next\" href=\"{}\">next →</a>", link(k + 1));
    }
    b.push_str("</nav>\n");
}

/// Each manual group: its items to tick (numbered across groups, 1–9 by key), the adjustment, the
/// comment, and who marked it.
fn rubric(b: &mut String, class: &Class, r: &SubmissionResult) {
    if class.rubric.manual.is_empty() {
        return;
    }
    b.push_str("<h2 id=\"rubric\">Rubric</h2>\n");
    let grades = r
        .course
        .as_ref()
        .map(|g| g.manual.as_slice())
        .unwrap_or_default();
    let mut number = 0;
    for g in &class.rubric.manual {
        let given = grades.iter().find(|m| m.name == g.name);
        let ticked: Vec<&str> = given
            .map(|m| m.items.iter().map(|(t, _)| t.as_str()).collect())
            .unwrap_or_default();
        let shown = state(r)["groups"][&g.name]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let _ = writeln!(
            b,
            "<fieldset class=\"group\" data-group=\"{}\"><legend>{} <span class=\"mute\">{}</span> · <span class=\"points\">{}</span></legend>",
            esc(&g.name),
            esc(&g.name),
            esc(&g.title),
            esc(&shown)
        );
        for item in &g.items {
            number += 1;
            let key = if number <= 9 {
                format!("<kbd>{number}</kbd> ")
            } else {
                String::new()
            };
            let checked = if ticked.contains(&item.text.as_str()) {
                " checked"
            } else {
                ""
            };
            let _ = writeln!(
                b,
                "<label class=\"item\"><input type=\"checkbox\" data-item=\"{}\" data-key=\"{number}\"{checked}> {key}<span class=\"{}\">{}{}</span> {}</label>",
                esc(&item.name),
                if item.points < 0.0 { "bad" } else { "ok" },
                if item.points > 0.0 { "+" } else { "" },
                points(item.points),
                esc(&item.text)
            );
        }
        let adjust = given.map_or(0.0, |m| m.adjust);
        let comment = given.map(|m| m.comment.as_str()).unwrap_or_default();
        let who = given
            .and_then(|m| {
                Some(format!(
                    "marked by {} at {}",
                    m.by.as_ref()?,
                    m.at.as_deref().unwrap_or_default()
                ))
            })
            .unwrap_or_else(|| "not marked".into());
        let stale = given
            .and_then(|m| m.stale.as_deref())
            .map(|s| format!(" <span class=\"bad\">{}</span>", esc(s)))
            .unwrap_or_default();
        let _ = writeln!(
            b,
            "<label>adjust <input type=\"number\" step=\"0.5\" data-adjust value=\"{}\"></label>\n<label class=\"comment\">comment<textarea data-comment rows=\"2\">{}</textarea></label>\n<p class=\"mute who\">{}{stale}</p></fieldset>",
            points(adjust),
            esc(comment),
            esc(&who)
        );
    }
}

/// Each case the grader could not follow: what happened, its transcript, and the form to settle it.
fn review_cases(b: &mut String, r: &SubmissionResult) {
    let cases: Vec<_> = r
        .cases
        .iter()
        .filter(|c| c.verdict == Verdict::Review)
        .collect();
    if cases.is_empty() {
        return;
    }
    let _ = writeln!(
        b,
        "<h2 id=\"review\">Cases to review ({})</h2>",
        cases.len()
    );
    for c in cases {
        let key = format!("{}/{}", c.group, c.name);
        let (credit, reason, who) = match &c.settled {
            Some(s) => (
                points(s.credit * 100.0),
                s.reason.as_str(),
                format!("settled by {} at {}", s.by, s.at),
            ),
            None => (String::new(), "", "waiting for a person".to_string()),
        };
        let _ = writeln!(
            b,
            "<section class=\"settle\" data-case=\"{}\"><h3>{}</h3><p>{}</p>",
            esc(&key),
            esc(&key),
            esc(&c.summary)
        );
        if let Some(t) = &c.transcript {
            let _ = writeln!(
                b,
                "<pre class=\"transcript\">{}</pre>",
                crate::report::html::entities(&crate::untrusted::block(
                    t,
                    crate::report::result::TRANSCRIPT_CAP
                ))
            );
        }
        let _ = writeln!(
            b,
            "<label>credit % <input type=\"number\" min=\"0\" max=\"100\" step=\"1\" data-credit value=\"{credit}\"></label> <label class=\"reason\">reason <input type=\"text\" data-reason value=\"{}\"></label> <button type=\"button\" data-settle>settle</button> <button type=\"button\" data-unsettle>take back</button>\n<p class=\"mute who\">{}</p></section>",
            esc(reason),
            esc(&who)
        );
    }
}

/// The page around `body`: the report's stylesheet and the review's, the replay script and the
/// review's, each script with `nonce`.
fn wrap(title: &str, body: &str, nonce: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"referrer\" content=\"no-referrer\">\n<title>{}</title>\n<style nonce=\"{nonce}\">\n{}{}</style>\n</head>\n<body>\n{body}<script nonce=\"{nonce}\">\n{}</script>\n<script nonce=\"{nonce}\">\n{}</script>\n</body>\n</html>\n",
        esc(title),
        include_str!("../report/html/page.css"),
        include_str!("review.css"),
        include_str!("../report/html/page.js"),
        include_str!("review.js")
    )
}
