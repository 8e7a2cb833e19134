//! A student's page (`<student>/report.html`): the score, every case with its verdict, credit and
//! feedback, a trace's first divergence side by side, and a replay of every game the cases played.

use std::fmt::Write as _;
use std::path::Path;

use super::{esc, page, replay, verdict};
use crate::arena::analysis::TurningPoint;
use crate::arena::game::record::GameRecord;
use crate::report::result::{BuildStatus, CaseResult, SubmissionResult};
use crate::report::{group_cell, points};

/// The most game records one page replays (a suite plays a few per case).
pub const MAX_GAMES: usize = 200;

/// A student's game records from `dir/games/` (`<case>-<k>.json`), in case order then game number,
/// read as any file a run left (no link followed, never blocking, capped) and checked against the
/// game's rules, with a note for each left out (unreadable, too large, not a valid record, past
/// [`MAX_GAMES`]).
#[must_use]
pub fn load_games(dir: &Path) -> (Vec<(String, GameRecord)>, Vec<String>) {
    let mut names: Vec<String> = match std::fs::read_dir(dir.join("games")) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.ends_with(".json"))
            .collect(),
        Err(_) => return (Vec::new(), Vec::new()),
    };
    names.sort_by_key(|n| order(n));
    let (mut games, mut notes) = (Vec::new(), Vec::new());
    for name in names {
        if games.len() == MAX_GAMES {
            notes.push(format!("`games/{name}` and later: past {MAX_GAMES} games"));
            break;
        }
        let rel = Path::new("games").join(&name);
        match crate::arena::game::replay::read(dir, &rel) {
            Ok(r) => games.push((name.trim_end_matches(".json").to_string(), r)),
            Err(why) => notes.push(format!("`games/{name}`: {why}")),
        }
    }
    (games, notes)
}

/// The turning point `result.json` gives for the game saved as `games/<case>-<game>.json`.
fn turning_point<'r>(r: &'r SubmissionResult, name: &str) -> Option<&'r TurningPoint> {
    let (case, game) = name.rsplit_once('-')?;
    let game: usize = game.parse().ok()?;
    r.cases
        .iter()
        .filter(|c| c.name == case)
        .flat_map(|c| &c.games)
        .find(|a| a.game == game)?
        .turning_point
        .as_ref()
}

/// `vs-random-10.json` after `vs-random-9.json`: the stem, then the game number.
#[must_use]
pub fn order(name: &str) -> (String, u64, String) {
    let stem = name.trim_end_matches(".json");
    match stem.rsplit_once('-') {
        Some((case, k)) if k.parse::<u64>().is_ok() => {
            (case.to_string(), k.parse().unwrap_or(0), name.to_string())
        }
        _ => (stem.to_string(), 0, name.to_string()),
    }
}

/// The student's page. `class` links back to the class page when the page sits in a class's results.
#[must_use]
pub fn page_for(
    r: &SubmissionResult,
    games: &[(String, GameRecord)],
    notes: &[String],
    class: bool,
) -> String {
    let mut b = String::new();
    if class {
        b.push_str("<p><a href=\"../index.html\">← the class</a></p>\n");
    }
    b.push_str(&body_for(r, games, notes));
    page(&format!("{} · {}", r.student, r.suite), &b)
}

/// The page's content: the score, the course's word, the manual marks, the groups, every case with
/// its feedback, the tournament, and a replay of every game (what `grader review` shows too).
#[must_use]
pub fn body_for(r: &SubmissionResult, games: &[(String, GameRecord)], notes: &[String]) -> String {
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<h1>{} <span class=\"mute\">· {}</span></h1>\n<p><strong>{} / {}</strong> points · build {}{} · sandbox {}</p>",
        esc(&r.student),
        esc(&r.suite),
        r.total().map_or("–".into(), points),
        points(r.out_of()),
        esc(r.build.status.as_str()),
        r.build
            .language
            .as_ref()
            .map(|l| format!(" ({})", esc(l)))
            .unwrap_or_default(),
        esc(&r.sandbox.to_string())
    );
    if let Some(line) = crate::report::feedback::python2_line(&r.build) {
        let _ = writeln!(b, "<p>{}</p>", esc(&line));
    }
    if r.build.status != BuildStatus::Built && !r.build.log.is_empty() {
        let _ = writeln!(b, "<h2>Build</h2>\n<pre>{}</pre>", esc(&r.build.log));
    }
    course(&mut b, r);
    manual(&mut b, r);
    groups(&mut b, r);
    cases(&mut b, r);
    for (k, c) in r.cases.iter().enumerate() {
        feedback(&mut b, k, c);
    }
    extras(&mut b, r);
    if !games.is_empty() || !notes.is_empty() {
        let _ = writeln!(b, "<h2 id=\"games\">Games ({})</h2>", games.len());
    }
    for (k, (name, record)) in games.iter().enumerate() {
        let heading = format!("{name}: {}", record.summary());
        b.push_str(&replay::marked(
            record,
            &format!("game-{}", k + 1),
            &heading,
            turning_point(r, name),
        ));
    }
    for n in notes {
        let _ = writeln!(b, "<p class=\"bad\">not shown: {}</p>", esc(n));
    }
    b
}

fn groups(b: &mut String, r: &SubmissionResult) {
    if r.groups.is_empty() {
        return;
    }
    b.push_str("<h2>Groups</h2>\n<table><thead><tr><th>group</th><th class=\"n\">points</th><th class=\"n\">of</th><th class=\"n\">cases passed</th></tr></thead><tbody>\n");
    for g in &r.groups {
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{} / {}</td></tr>",
            esc(&g.name),
            esc(&group_cell(r, g)),
            points(g.max),
            g.passed,
            g.cases
        );
    }
    b.push_str("</tbody></table>\n");
    for n in &r.not_attempted {
        let _ = writeln!(
            b,
            "<p class=\"mute\">not attempted: {} ({})</p>",
            esc(&n.group),
            esc(&n.reason)
        );
    }
}

fn cases(b: &mut String, r: &SubmissionResult) {
    if r.cases.is_empty() {
        return;
    }
    b.push_str("<h2>Cases</h2>\n<table><thead><tr><th>group</th><th>case</th><th>verdict</th><th class=\"n\">credit</th><th>what happened</th></tr></thead><tbody>\n");
    for (k, c) in r.cases.iter().enumerate() {
        let row = if c.credit >= 1.0 { "pass" } else { "fail" };
        let _ = writeln!(
            b,
            "<tr class=\"{row}\"><td>{}</td><td><a href=\"#case-{}\">{}</a></td><td class=\"v\">{}</td><td class=\"n\">{}%</td><td>{}</td></tr>",
            esc(&c.group),
            k + 1,
            esc(&c.name),
            verdict(c.verdict),
            points(c.credit.clamp(0.0, 1.0) * 100.0),
            super::code_spans(&esc(&crate::untrusted::one_line(&c.summary, 300)))
        );
    }
    b.push_str("</tbody></table>\n");
}

/// One case's feedback: its summary, the variant it matched, and its details (a trace's divergence as
/// a side-by-side table).
fn feedback(b: &mut String, k: usize, c: &CaseResult) {
    let _ = writeln!(
        b,
        "<section id=\"case-{}\"><h3>{} / {} · {}</h3>\n<p>{}</p>",
        k + 1,
        esc(&c.group),
        esc(&c.name),
        verdict(c.verdict),
        super::code_spans(&esc(&c.summary))
    );
    if let Some(v) = &c.variant {
        let _ = writeln!(
            b,
            "<p>matched the reference variant <code>{}</code></p>",
            esc(v)
        );
    }
    let (trace, rest) = divergence(&c.details);
    if !trace.is_empty() {
        b.push_str("<table class=\"trace\"><caption>the first divergence, with the lines before it</caption><thead><tr><th class=\"n\">line</th><th>expected</th><th>got</th></tr></thead><tbody>\n");
        for t in &trace {
            let class = if t.agrees { "" } else { " class=\"diff\"" };
            let _ = writeln!(
                b,
                "<tr{class}><td class=\"n\">{}</td><td class=\"e\">{}</td><td class=\"g\">{}</td></tr>",
                esc(&t.line),
                esc(&t.expected),
                esc(&t.got)
            );
        }
        b.push_str("</tbody></table>\n");
    }
    if !rest.is_empty() {
        let _ = writeln!(
            b,
            "<pre>{}</pre>",
            esc(&rest
                .iter()
                .map(|d| d.as_str())
                .collect::<Vec<_>>()
                .join("\n"))
        );
    }
    if let Some(s) = &c.settled {
        let _ = writeln!(
            b,
            "<p class=\"settled\">settled by {} at {}: credit {}% · {}</p>",
            esc(&s.by),
            esc(&s.at),
            points(s.credit.clamp(0.0, 1.0) * 100.0),
            esc(&s.reason)
        );
    }
    if let Some(t) = &c.transcript {
        // The whole dialogue, as the program printed it and the grader typed it: a person decides.
        let _ = writeln!(
            b,
            "<details open><summary>the dialogue the grader could not follow (what the program printed; lines the grader typed start with <code>→</code>)</summary><pre class=\"transcript\">{}</pre></details>",
            super::entities(&crate::untrusted::block(t, crate::report::result::TRANSCRIPT_CAP))
        );
    }
    let limit = c
        .cpu_limit
        .as_ref()
        .map(|l| format!(" of {} ms ({})", l.ms, esc(&l.from)))
        .unwrap_or_default();
    if c.cpu_ms == 0 && c.wall_ms == 0 {
        // A play case whose games an earlier case played: nothing ran for it alone.
        b.push_str(
            "<p class=\"mute\">no time of its own: nothing ran for this case alone</p></section>\n",
        );
        return;
    }
    let _ = writeln!(
        b,
        "<p class=\"mute\">cpu <span class=\"t\">{}</span> ms{limit} · wall <span class=\"t\">{}</span> ms</p></section>",
        c.cpu_ms, c.wall_ms
    );
}

/// A row of a trace's divergence table.
struct TraceRow {
    line: String,
    expected: String,
    got: String,
    agrees: bool,
}

/// The trace comparator's details (`line N: `…` (agrees)`, `line N: expected …`, `line N: got …`)
/// as table rows, and the other details left as they are.
fn divergence(details: &[String]) -> (Vec<TraceRow>, Vec<&String>) {
    let mut rows: Vec<TraceRow> = Vec::new();
    let mut rest = Vec::new();
    for d in details {
        let Some((line, what)) = d
            .strip_prefix("line ")
            .and_then(|t| t.split_once(": "))
            .filter(|(n, _)| n.parse::<u64>().is_ok())
        else {
            rest.push(d);
            continue;
        };
        if let Some(text) = what.strip_suffix(" (agrees)") {
            let text = unquote(text);
            rows.push(TraceRow {
                line: line.into(),
                expected: text.clone(),
                got: text,
                agrees: true,
            });
        } else if let Some(text) = what.strip_prefix("expected ") {
            rows.push(TraceRow {
                line: line.into(),
                expected: unquote(text),
                got: String::new(),
                agrees: false,
            });
        } else if let Some(text) = what.strip_prefix("got ") {
            match rows.last_mut() {
                Some(row) if !row.agrees && row.line == line => {
                    row.got = unquote(text.trim_start())
                }
                _ => rest.push(d),
            }
        } else {
            rest.push(d);
        }
    }
    (rows, rest)
}

fn unquote(text: &str) -> String {
    text.strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .unwrap_or(text)
        .to_string()
}

/// The integrity notes and the class tournament's mark.
fn extras(b: &mut String, r: &SubmissionResult) {
    if let Some(t) = &r.tournament {
        let marks = t.marks.map_or_else(|| "no mark".to_string(), points);
        let rank = t
            .rank
            .map(|k| format!("placed {k} of {}", t.entrants))
            .unwrap_or_default();
        let _ = writeln!(
            b,
            "<h2>Class tournament</h2>\n<p>{marks} / {}{} {} · {}</p>",
            points(t.max),
            if t.bonus { " (bonus)" } else { "" },
            esc(&rank),
            esc(&t.reason)
        );
    }
    if !r.integrity.is_empty() {
        b.push_str("<h2>Integrity notes</h2>\n<ul>\n");
        for n in &r.integrity {
            let _ = writeln!(
                b,
                "<li><code>{}</code>: {}</li>",
                esc(&n.case),
                esc(&n.what)
            );
        }
        b.push_str("</ul>\n");
    }
}

/// A person's marks: each manual group's points, the rubric items ticked, the comment, by whom and
/// when; or that they are still to give.
fn manual(b: &mut String, r: &SubmissionResult) {
    let Some(g) = r.course.as_ref().filter(|g| !g.manual.is_empty()) else {
        return;
    };
    b.push_str("<h2 id=\"manual\">Manual marks</h2>\n<table class=\"manual\"><thead><tr><th>group</th><th class=\"n\">points</th><th class=\"n\">of</th><th>marked</th></tr></thead><tbody>\n");
    for m in &g.manual {
        let who = match (&m.by, &m.at) {
            (Some(by), Some(at)) => format!("by {} at {}", esc(by), esc(at)),
            _ => String::new(),
        };
        let state = match (&m.missing, &m.stale) {
            (Some(why), _) => format!(" <span class=\"bad\">{}</span>", esc(why)),
            (None, Some(why)) => format!(" <span class=\"bad\">{}</span>", esc(why)),
            (None, None) => String::new(),
        };
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{who}{state}</td></tr>",
            esc(&m.name),
            m.points.map_or("–".into(), points),
            points(m.max)
        );
        if !m.items.is_empty() || m.adjust != 0.0 || !m.comment.trim().is_empty() {
            let mut lines: Vec<String> = m
                .items
                .iter()
                .map(|(text, p)| {
                    format!(
                        "<li>{} <span class=\"mute\">({}{})</span></li>",
                        esc(text),
                        if *p > 0.0 { "+" } else { "" },
                        points(*p)
                    )
                })
                .collect();
            if m.adjust != 0.0 {
                lines.push(format!(
                    "<li>adjusted {}{}</li>",
                    if m.adjust > 0.0 { "+" } else { "" },
                    points(m.adjust)
                ));
            }
            if !m.comment.trim().is_empty() {
                lines.push(format!("<li class=\"comment\">{}</li>", esc(&m.comment)));
            }
            let _ = writeln!(
                b,
                "<tr><td></td><td colspan=\"3\"><ul>{}</ul></td></tr>",
                lines.concat()
            );
        }
    }
    b.push_str("</tbody></table>\n");
}

/// The course's word on the grade: the track and its parts, lateness, why a total is blank.
fn course(b: &mut String, r: &SubmissionResult) {
    let Some(g) = &r.course else {
        return;
    };
    let mut lines: Vec<String> = Vec::new();
    if let Some(t) = &g.track {
        let parts: Vec<String> = g
            .parts
            .iter()
            .map(|p| format!("{} {} / {}", esc(&p.name), points(p.points), points(p.max)))
            .collect();
        lines.push(format!("track {}: {}", esc(t), parts.join(", ")));
    }
    if let Some(l) = &g.late {
        lines.push(format!("late: {} (−{})", esc(&l.why), points(l.deduction)));
    }
    if let Some(why) = &g.blank {
        lines.push(format!(
            "no total yet: {}",
            esc(why.lines().next().unwrap_or_default())
        ));
    }
    lines.extend(g.notes.iter().map(|n| esc(n)));
    if !g.members.is_empty() {
        let names: Vec<String> = g.members.iter().map(|m| esc(&m.label())).collect();
        lines.push(format!("for {}", names.join(", ")));
    }
    if lines.is_empty() {
        return;
    }
    b.push_str("<h2>Course</h2>\n<ul>\n");
    for l in lines {
        let _ = writeln!(b, "<li>{l}</li>");
    }
    b.push_str("</ul>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Verdict;
    use crate::report::result::fixtures;

    #[test]
    fn a_trace_divergence_reads_side_by_side() {
        let details: Vec<String> = [
            "line 1: `a 1` (agrees)",
            "line 2: expected `b <2>`",
            "line 2: got      the end of the file",
            "expected 3 lines (nodes), got 1",
        ]
        .map(String::from)
        .to_vec();
        let (rows, rest) = divergence(&details);
        assert_eq!(rows.len(), 2);
        assert!(rows[0].agrees && rows[0].got == "a 1");
        assert_eq!(
            (rows[1].expected.as_str(), rows[1].got.as_str()),
            ("b <2>", "the end of the file")
        );
        assert_eq!(rest, vec![&details[3]]);
    }

    #[test]
    fn a_page_escapes_what_a_program_printed_and_links_every_case() {
        let case = CaseResult {
            summary: "printed <img src=x onerror=alert(1)>".into(),
            details: vec![
                "line 4: expected `x`".into(),
                "line 4: got      `<y>`".into(),
            ],
            ..fixtures::case("trace", Verdict::WrongAnswer, 0.0)
        };
        let r = fixtures::submission("ann", vec![case]);
        let html = page_for(&r, &[], &[], true);
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("<td class=\"g\">&lt;y&gt;</td>"), "{html}");
        assert!(html.contains("href=\"#case-1\""), "{html}");
        assert!(html.contains("href=\"../index.html\""), "{html}");
    }

    #[test]
    fn games_sort_by_case_then_number() {
        let mut names = vec!["b-1.json", "a-10.json", "a-9.json"];
        names.sort_by_key(|n| order(n));
        assert_eq!(names, ["a-9.json", "a-10.json", "b-1.json"]);
    }
}
