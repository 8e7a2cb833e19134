//! The class page (`results/<suite>/index.html`): the grade distribution, pass rates per group and
//! per case with the commonest failing verdict, the class tournament's standings and crosstable, and
//! a link to every student's page; and the writing of a suite's pages from its results folder alone.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context as _;

use super::{esc, page, student, url_segment, verdict};
use crate::arena::event::standings::Row;
use crate::arena::game::record::GameRecord;
use crate::judge::Verdict;
use crate::report::points;
use crate::report::result::SubmissionResult;
use crate::report::write_atomic;

/// The most bytes of one `result.json` or `standings.json` read.
const RESULT_CAP: u64 = 64 << 20;
/// The most tournament records read for the crosstable.
const MAX_RECORDS: usize = 5000;
/// The most entrants a crosstable shows (wider tables are unreadable; the standings still show all).
const MAX_CROSS: usize = 40;
/// Where the class tournament leaves its games and standings (`grade::classevent::GAMES_DIR`).
const TOURNAMENT_DIR: &str = "tournament";

/// Every student's result in `dir` (a folder `<student>/result.json` per student), in student order,
/// read as any file on disk is (no link followed, never blocking, capped), with a note for each left
/// out.
#[must_use]
pub fn load_results(dir: &Path) -> (Vec<SubmissionResult>, Vec<String>) {
    let (mut results, mut notes) = (Vec::new(), Vec::new());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (results, notes);
    };
    let mut keys: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|k| std::fs::symlink_metadata(dir.join(k).join("result.json")).is_ok())
        .collect();
    keys.sort();
    for key in keys {
        let rel = Path::new(&key).join("result.json");
        match crate::report::result::read_result(dir, &key) {
            Ok(r) => results.push(r),
            Err(why) => notes.push(format!("cannot read `{}` ({why})", rel.display())),
        }
    }
    if let Some(suite) = results.first().map(|r| r.suite.clone()) {
        for r in results.iter().filter(|r| r.suite != suite) {
            notes.push(format!(
                "`{}/result.json` is a result of `{}`, not `{suite}`",
                r.student, r.suite
            ));
        }
        results.retain(|r| r.suite == suite);
    }
    (results, notes)
}

/// Writes `dir/index.html` and every student's `dir/<student>/report.html` from the results in `dir`
/// alone, and returns how many students the class page lists. Files that cannot be read are named on
/// stderr and left out.
///
/// # Errors
/// No result in `dir`, or the first page that could not be written, named.
pub fn write_suite(dir: &Path) -> anyhow::Result<usize> {
    let (results, notes) = load_results(dir);
    for n in &notes {
        eprintln!("note: {n}; not in the HTML report");
    }
    if results.is_empty() {
        anyhow::bail!(
            "no `result.json` in `{}`\nhint: name a suite's results folder, such as `results/<suite>`",
            dir.display()
        );
    }
    for r in &results {
        let folder = dir.join(&r.student);
        let (games, skipped) = student::load_games(&folder);
        for n in &skipped {
            eprintln!("note: {}: {n}; not replayed on the page", r.student);
        }
        let html = student::page_for(r, &games, &skipped, true);
        let file = folder.join("report.html");
        let rel = Path::new(&r.student).join("report.html");
        crate::report::write_within(dir, &rel, html.as_bytes())
            .with_context(|| format!("cannot write `{}`", file.display()))?;
    }
    let tournament = load_tournament(&dir.join(TOURNAMENT_DIR));
    let file = dir.join("index.html");
    let similar = super::similarity::section(dir);
    write_atomic(
        &file,
        class_page(&results, &tournament, &similar).as_bytes(),
    )
    .with_context(|| format!("cannot write `{}`", file.display()))?;
    Ok(results.len())
}

/// A stage of the class tournament: its standings and its games.
pub struct Stage {
    pub name: String,
    pub rows: Vec<Row>,
    pub records: Vec<GameRecord>,
}

#[derive(serde::Deserialize)]
struct StandingsFile {
    stages: Vec<StageFile>,
}

#[derive(serde::Deserialize)]
struct StageFile {
    stage: String,
    standings: Vec<Row>,
}

/// The stages in `dir/standings.json` with the games saved beside it (`<stage>-NNNN.json`); none when
/// there was no tournament or its files cannot be read.
#[must_use]
pub fn load_tournament(dir: &Path) -> Vec<Stage> {
    let Ok(c) = crate::untrusted::read_output(dir, Path::new("standings.json"), RESULT_CAP) else {
        return Vec::new();
    };
    let Ok(mut file) = serde_json::from_slice::<StandingsFile>(&c.bytes) else {
        eprintln!(
            "note: `{}` is not a tournament's standings; not in the HTML report",
            dir.join("standings.json").display()
        );
        return Vec::new();
    };
    for s in &mut file.stages {
        s.standings
            .retain(|r| r.elo.is_finite() && r.margin.is_finite());
    }
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|e| {
            e.filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut budget = MAX_RECORDS;
    file.stages
        .into_iter()
        .map(|s| {
            let prefix = format!("{}-", s.stage.replace(' ', "-"));
            let mut records = Vec::new();
            for n in names.iter().filter(|n| {
                n.strip_prefix(&prefix)
                    .and_then(|rest| rest.strip_suffix(".json"))
                    .is_some_and(|k| k.parse::<u32>().is_ok())
            }) {
                if budget == 0 {
                    break;
                }
                budget -= 1;
                match crate::arena::game::replay::read(dir, Path::new(n)) {
                    Ok(r) => records.push(r),
                    Err(why) => eprintln!(
                        "note: `{}`: {why}; not in the HTML report",
                        dir.join(n).display()
                    ),
                }
            }
            Stage {
                name: s.stage,
                rows: s.standings,
                records,
            }
        })
        .collect()
}

/// The class page of `results` (in student order), the class tournament's `stages` and the
/// similarity section `similar` (HTML, empty without a `similarity.csv`).
#[must_use]
pub fn class_page(results: &[SubmissionResult], stages: &[Stage], similar: &str) -> String {
    let suite = results.first().map_or("", |r| r.suite.as_str());
    let mut b = format!(
        "<h1>{} <span class=\"mute\">· the class</span></h1>\n",
        esc(suite)
    );
    let shares: Vec<f64> = results
        .iter()
        .filter(|r| r.out_of() > 0.0)
        .filter_map(|r| Some((r.total()? / r.out_of()).clamp(0.0, 1.0)))
        .collect();
    let mean = if shares.is_empty() {
        0.0
    } else {
        shares.iter().sum::<f64>() / shares.len() as f64
    };
    let _ = writeln!(
        b,
        "<p>{} students · mean {}% · <a href=\"grades.csv\">grades.csv</a></p>",
        results.len(),
        points(mean * 100.0)
    );
    histogram(&mut b, &shares);
    groups(&mut b, results);
    cases(&mut b, results);
    for s in stages {
        tournament(&mut b, s);
    }
    b.push_str(similar);
    students(&mut b, results);
    page(&format!("{suite} · the class"), &b)
}

/// Ten bins of the share of the maximum each student scored, as SVG bars with a text alternative.
fn histogram(b: &mut String, shares: &[f64]) {
    let mut bins = [0usize; 10];
    for s in shares {
        bins[((s * 10.0).floor() as usize).min(9)] += 1;
    }
    let tallest = bins.iter().copied().max().unwrap_or(0).max(1);
    let label = |k: usize| format!("{}–{}%", k * 10, k * 10 + 10);
    let alt: Vec<String> = bins
        .iter()
        .enumerate()
        .map(|(k, n)| format!("{}: {n}", label(k)))
        .collect();
    let _ = write!(
        b,
        "<h2>Grades</h2>\n<svg class=\"hist\" role=\"img\" aria-labelledby=\"hist-t\" viewBox=\"0 0 520 170\" width=\"520\" height=\"170\" xmlns=\"http://www.w3.org/2000/svg\"><title id=\"hist-t\">students per share of the maximum: {}</title>",
        alt.join(", ")
    );
    for (k, &n) in bins.iter().enumerate() {
        let h = 120.0 * n as f64 / tallest as f64;
        let x = 10 + k * 50;
        let _ = write!(
            b,
            "<rect x=\"{x}\" y=\"{}\" width=\"44\" height=\"{h}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{n}</text><text x=\"{}\" y=\"160\" text-anchor=\"middle\">{}</text>",
            135.0 - h,
            x + 22,
            130.0 - h,
            x + 22,
            label(k)
        );
    }
    b.push_str("</svg>\n");
}

fn groups(b: &mut String, results: &[SubmissionResult]) {
    let mut by: BTreeMap<&str, (usize, usize, f64, f64)> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for r in results {
        // A `[[manual]]` column has no case to pass: the instructor's marks are not in this table.
        for g in r.groups.iter().filter(|g| g.cases > 0) {
            let e = by.entry(&g.name).or_insert_with(|| {
                order.push(&g.name);
                (0, 0, 0.0, g.max)
            });
            e.0 += usize::from(g.passed == g.cases);
            e.1 += 1;
            e.2 += g.points.unwrap_or(0.0);
        }
    }
    if order.is_empty() {
        return;
    }
    b.push_str("<h2>Groups</h2>\n<table><thead><tr><th>group</th><th class=\"n\">passed every case</th><th class=\"n\">mean points</th><th class=\"n\">of</th></tr></thead><tbody>\n");
    for name in order {
        let (all, of, sum, max) = by[name];
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td class=\"n\">{all} / {of} ({}%)</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(name),
            points(100.0 * all as f64 / of.max(1) as f64),
            points(sum / of.max(1) as f64),
            points(max)
        );
    }
    b.push_str("</tbody></table>\n");
}

/// Each case's pass rate and its commonest failing verdict, the most failed first.
fn cases(b: &mut String, results: &[SubmissionResult]) {
    #[derive(Default)]
    struct Tally {
        passed: usize,
        runs: usize,
        failed: BTreeMap<&'static str, (usize, Verdict)>,
    }
    let mut by: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for c in results.iter().flat_map(|r| &r.cases) {
        let t = by.entry((c.group.clone(), c.name.clone())).or_default();
        t.runs += 1;
        if c.credit >= 1.0 {
            t.passed += 1;
        } else {
            t.failed
                .entry(c.verdict.label())
                .or_insert((0, c.verdict))
                .0 += 1;
        }
    }
    if by.is_empty() {
        return;
    }
    let mut rows: Vec<_> = by.into_iter().collect();
    rows.sort_by_key(|(key, t)| (t.passed * 1000 / t.runs.max(1), key.clone()));
    b.push_str("<h2>Cases</h2>\n<p class=\"mute\">the most failed first</p>\n<table><thead><tr><th>group</th><th>case</th><th class=\"n\">passed</th><th>commonest failure</th></tr></thead><tbody>\n");
    for ((group, name), t) in rows {
        let worst = t
            .failed
            .iter()
            .rev()
            .max_by_key(|(_, (n, _))| *n)
            .map(|(_, (n, v))| format!("{} × {n}", verdict(*v)))
            .unwrap_or_default();
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{} / {} ({}%)</td><td>{worst}</td></tr>",
            esc(&group),
            esc(&name),
            t.passed,
            t.runs,
            points(100.0 * t.passed as f64 / t.runs.max(1) as f64)
        );
    }
    b.push_str("</tbody></table>\n");
}

/// A stage's standings and, for a small enough field, its crosstable: each row's score against each
/// column (a win 1, a draw ½) over the games they played.
fn tournament(b: &mut String, s: &Stage) {
    let _ = writeln!(
        b,
        "<h2>Tournament: {}</h2>\n<table><thead><tr><th class=\"n\">#</th><th>entrant</th><th class=\"n\">points</th><th class=\"n\">games</th><th class=\"n\">won</th><th class=\"n\">drawn</th><th class=\"n\">lost</th><th class=\"n\">faults</th><th class=\"n\">elo</th></tr></thead><tbody>",
        esc(&s.name)
    );
    for (k, r) in s.rows.iter().enumerate() {
        let _ = writeln!(
            b,
            "<tr><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.0} ± {:.0}</td></tr>",
            k + 1,
            esc(&r.name),
            r.points,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.faults,
            r.elo,
            r.margin
        );
    }
    b.push_str("</tbody></table>\n");
    let names: Vec<&str> = s.rows.iter().map(|r| r.name.as_str()).collect();
    if s.records.is_empty() || names.len() > MAX_CROSS {
        return;
    }
    let at = |n: &str| names.iter().position(|&m| m == n);
    let mut score = vec![vec![(0.0f64, 0u32); names.len()]; names.len()];
    for g in &s.records {
        let (Some(a), Some(c)) = (at(&g.players[0]), at(&g.players[1])) else {
            continue;
        };
        let mine = |side| match g.result {
            crate::arena::game::record::GameResult::Win(w) => f64::from(u8::from(w == side)),
            crate::arena::game::record::GameResult::Draw { .. } => 0.5,
            crate::arena::game::record::GameResult::BothLost => 0.0,
        };
        score[a][c].0 += mine(0);
        score[a][c].1 += 1;
        score[c][a].0 += mine(1);
        score[c][a].1 += 1;
    }
    b.push_str("<table class=\"cross\"><caption>crosstable: the row's score against the column (win 1, draw ½) over their games</caption><thead><tr><th></th>");
    for (k, name) in names.iter().enumerate() {
        let _ = write!(b, "<th class=\"n\" title=\"{}\">{}</th>", esc(name), k + 1);
    }
    b.push_str("</tr></thead><tbody>\n");
    for (k, row) in score.iter().enumerate() {
        let _ = write!(b, "<tr><th>{} {}</th>", k + 1, esc(names[k]));
        for (j, &(pts, games)) in row.iter().enumerate() {
            if j == k || games == 0 {
                b.push_str("<td class=\"n mute\">·</td>");
            } else {
                let _ = write!(b, "<td class=\"n\">{} / {games}</td>", points(pts));
            }
        }
        b.push_str("</tr>\n");
    }
    b.push_str("</tbody></table>\n");
}

fn students(b: &mut String, results: &[SubmissionResult]) {
    b.push_str("<h2>Students</h2>\n<table><thead><tr><th>student</th><th class=\"n\">score</th><th class=\"n\">of</th><th>build</th><th class=\"n\">cases failed</th><th class=\"n\">tournament</th></tr></thead><tbody>\n");
    for r in results {
        let place = r
            .tournament
            .as_ref()
            .and_then(|t| t.rank.map(|k| format!("{k} of {}", t.entrants)))
            .unwrap_or_default();
        let _ = writeln!(
            b,
            "<tr><td><a href=\"{}/report.html\">{}</a></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            url_segment(&r.student),
            esc(&r.student),
            if r.needs_review().is_some() {
                "review".to_string()
            } else {
                r.total().map_or("–".into(), points)
            },
            points(r.out_of()),
            esc(r.build.status.as_str()),
            r.failures().count(),
            esc(&place)
        );
    }
    b.push_str("</tbody></table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::result::fixtures;

    #[test]
    fn the_class_page_counts_grades_and_names_the_commonest_failure() {
        let mut a =
            fixtures::submission("a%1B", vec![fixtures::case("g", Verdict::TimeLimit, 0.0)]);
        a.max = 10.0;
        a.score = 9.5;
        let mut b = fixtures::submission("b", vec![fixtures::case("g", Verdict::Accepted, 1.0)]);
        b.max = 10.0;
        b.score = 2.0;
        let html = class_page(&[a, b], &[], "");
        assert!(html.contains("90–100%: 1"), "{html}");
        assert!(html.contains("20–30%: 1"), "{html}");
        assert!(
            html.contains("1 / 2 (50%)</td><td><span class=\"bad\">time limit</span> × 1"),
            "{html}"
        );
        assert!(html.contains("href=\"a%251B/report.html\""), "{html}");
    }
}
