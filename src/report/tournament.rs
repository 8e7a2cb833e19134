//! A tournament's files: every game's record (what `grader play --replay` shows), each stage's
//! standings, and the overall ranking with marks (`tournament.csv`).

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::csv::{text, Sheet};
use super::grid::{Column, Grid};
use super::write_atomic;
use crate::arena::event::ranking::{LeftOut, Placed};
use crate::arena::event::schedule::Results;
use crate::arena::event::standings::Row;
use crate::arena::game::record::GameRecord;

/// Writes each record as pretty JSON into `dir`, named `{prefix}{index:04}.json`.
///
/// # Errors
/// The folder cannot be created or a file written.
pub fn save(dir: &Path, prefix: &str, records: &[GameRecord]) -> anyhow::Result<()> {
    for (i, r) in records.iter().enumerate() {
        let file = dir.join(format!("{prefix}{:04}.json", i + 1));
        let mut json = serde_json::to_string_pretty(r)?;
        json.push('\n');
        crate::arena::game::replay::vouch(json.as_bytes());
        write_atomic(&file, json.as_bytes())
            .with_context(|| format!("cannot write `{}`", file.display()))?;
    }
    Ok(())
}
/// Saves every game of `results` in `dir` (`stage-1-group-2-0001.json`, `final-0001.json`,
/// `round-robin-0001.json`: records `grader play --replay` shows) and `standings.json`, each stage's
/// table.
///
/// # Errors
/// A folder or file that cannot be written, named.
pub fn save_records(dir: &Path, game: &str, seed: u64, results: &Results) -> anyhow::Result<()> {
    for stage in &results.stages {
        let prefix = format!("{}-", stage.name.replace(' ', "-"));
        save(dir, &prefix, &stage.records)?;
    }
    let tables: Vec<serde_json::Value> = results
        .stages
        .iter()
        .map(|s| serde_json::json!({ "stage": s.name, "standings": s.rows }))
        .collect();
    let file = dir.join("standings.json");
    let json = serde_json::json!({ "game": game, "seed": seed, "stages": tables });
    write_atomic(&file, format!("{json:#}\n").as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", file.display()))
}

/// Writes `dir/tournament.csv` ([`ranking_csv`]) and returns its path.
///
/// # Errors
/// The folder or file cannot be written, named.
pub fn write_ranking(
    dir: &Path,
    placed: &[Placed],
    left_out: &[LeftOut],
    not_graded: &[(String, String)],
) -> anyhow::Result<PathBuf> {
    let file = dir.join("tournament.csv");
    std::fs::create_dir_all(dir)
        .and_then(|()| write_atomic(&file, ranking_csv(placed, left_out, not_graded).as_bytes()))
        .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", file.display()))?;
    Ok(file)
}

/// `rank,student,stage,points,games,won,drawn,lost,faults,marks` (marks blank without a table); then
/// each submission left out by the gate (`left_out`: stage `left out: why`, its marks, every number
/// blank); then each the machine could not build (`not_graded`: stage `not-graded: why`, every
/// number and the marks blank: never a zero).
#[must_use]
pub fn ranking_csv(
    placed: &[Placed],
    left_out: &[LeftOut],
    not_graded: &[(String, String)],
) -> String {
    let mut sheet = Sheet::new();
    sheet.row([
        "rank", "student", "stage", "points", "games", "won", "drawn", "lost", "faults", "marks",
    ]);
    let marks = |m: Option<f64>| m.map(|m| format!("{m}")).unwrap_or_default();
    for p in placed {
        let named = [p.rank.to_string(), text(&p.row.name), text(&p.stage)];
        sheet.row(
            named
                .into_iter()
                .chain(p.row.counts())
                .chain([marks(p.marks)]),
        );
    }
    let blank = || std::iter::repeat_n(String::new(), 6);
    for l in left_out {
        let named = [
            String::new(),
            text(&l.name),
            text(&format!("left out: {}", l.why)),
        ];
        sheet.row(named.into_iter().chain(blank()).chain([marks(l.marks)]));
    }
    for (name, why) in not_graded {
        let named = [
            String::new(),
            text(name),
            text(&format!("not-graded: {why}")),
        ];
        sheet.row(named.into_iter().chain(blank()).chain([String::new()]));
    }
    sheet.finish()
}

/// The ranking as the terminal shows it after the stage tables.
#[must_use]
pub fn ranking_table(placed: &[Placed]) -> String {
    let mut grid = Grid::new(&[
        Column::right("rank"),
        Column::left("student"),
        Column::right("marks"),
        Column::left("reached"),
    ]);
    for p in placed {
        let marks = p
            .marks
            .map(|m| format!("{m}"))
            .unwrap_or_else(|| "-".into());
        let note = if p.all_faults {
            "  (lost every game by fault)"
        } else {
            ""
        };
        grid.row([
            p.rank.to_string(),
            p.row.name.clone(),
            marks,
            format!("{}{note}", p.stage),
        ]);
    }
    format!("overall ranking\n{}", grid.render(true))
}

/// The table as text, one player a line (the `elo ± margin` cell keeps its own padding, trailing
/// spaces and all, as it always printed).
#[must_use]
pub fn standings_table(rows: &[Row]) -> String {
    let mut grid = Grid::new(&[
        Column::right("rank"),
        Column::left("player"),
        Column::right("points"),
        Column::right("games"),
        Column::right("won").min(4),
        Column::right("drawn"),
        Column::right("lost"),
        Column::right("faults"),
        Column::right("elo").min(11),
    ]);
    for (i, r) in rows.iter().enumerate() {
        let named = [(i + 1).to_string(), r.name.clone()];
        let elo = format!("{:>5.0} ± {:<3.0}", r.elo, r.margin);
        grid.row(named.into_iter().chain(r.counts()).chain([elo]));
    }
    grid.render(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::event::ranking::fixtures::{row, stage};
    use crate::arena::event::ranking::overall;

    #[test]
    fn an_entrant_named_like_a_formula_stays_text_in_the_csv() {
        let results = Results {
            stages: vec![stage(
                "final",
                1,
                vec![
                    row("=HYPERLINK(\"evil.example\",\"x\")", 2, 2, 0),
                    row("-1", 0, 2, 0),
                ],
            )],
            champion: None,
        };
        let text = ranking_csv(
            &overall(&results, None),
            &[LeftOut {
                name: "@late".into(),
                why: "failed `legal`".into(),
                marks: Some(0.0),
            }],
            &[("=cmd".into(), "`python2` not found".into())],
        );
        assert!(
            text.contains("\n,'@late,left out: failed `legal`,,,,,,,0\n"),
            "{text}"
        );
        assert!(
            text.contains("\n1,\"'=HYPERLINK(\"\"evil.example\"\",\"\"x\"\")\",final,"),
            "{text}"
        );
        assert!(text.contains("\n2,'-1,final,"), "{text}");
        assert!(
            text.ends_with("\n,'=cmd,not-graded: `python2` not found,,,,,,,\n"),
            "{text}"
        );
    }

    #[test]
    fn a_wide_name_keeps_the_table_aligned() {
        use unicode_width::UnicodeWidthStr;
        let row = |name: &str| Row {
            name: name.into(),
            games: 2,
            wins: 1,
            draws: 0,
            losses: 1,
            faults: 0,
            points: 3,
            elo: 1500.0,
            margin: 40.0,
        };
        let text = standings_table(&[row("王小明"), row("bob🤖"), row("alice")]);
        let widths: Vec<usize> = text.lines().map(UnicodeWidthStr::width).collect();
        assert!(widths.iter().all(|w| *w == widths[0]), "{text}");
        assert!(text.contains("   1  王小明       3"), "{text}");
    }
}
