//! The overall ranking of a tournament (who went furthest, then how each placed there) and the marks a
//! suite gives by rank (002: "marks will be awarded based on the overall ranking"), written as
//! `tournament.csv`.

use crate::arena::config::Marks;
use crate::arena::event::schedule::Results;
use crate::arena::event::standings::Row;

/// One entrant's place in the whole event.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    /// 1-based.
    pub rank: usize,
    /// The furthest stage the entrant played (`final`, `stage 1 group 3`, `knockout final`).
    pub stage: String,
    /// Its line of that stage's table.
    pub row: Row,
    /// Every game it played was lost by its own fault (it never really played).
    pub all_faults: bool,
    pub marks: Option<f64>,
}

/// Ranks everyone: the furthest stage reached first, then the place in that stage's table (a group
/// winner before a runner-up of another group), then points, wins and name. A knockout's champion is
/// first whatever its points.
#[must_use]
pub fn overall(results: &Results, marks: Option<&Marks>) -> Vec<Placed> {
    // (level, place in its table, row, stage name), keeping each entrant's furthest stage.
    let mut best: Vec<(u32, usize, Row, String)> = Vec::new();
    let mut played: Vec<(String, u32, u32)> = Vec::new();
    for stage in &results.stages {
        for (place, row) in stage.rows.iter().enumerate() {
            match played.iter_mut().find(|(n, _, _)| *n == row.name) {
                Some(p) => {
                    p.1 += row.games;
                    p.2 += row.faults;
                }
                None => played.push((row.name.clone(), row.games, row.faults)),
            }
            match best.iter_mut().find(|b| b.2.name == row.name) {
                Some(b) if b.0 >= stage.level => {}
                Some(b) => *b = (stage.level, place, row.clone(), stage.name.clone()),
                None => best.push((stage.level, place, row.clone(), stage.name.clone())),
            }
        }
    }
    best.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(a.1.cmp(&b.1))
            .then(b.2.points.cmp(&a.2.points))
            .then(b.2.wins.cmp(&a.2.wins))
            .then(a.2.name.cmp(&b.2.name))
    });
    if let Some(champion) = &results.champion {
        if let Some(i) = best.iter().position(|b| b.2.name == *champion) {
            let c = best.remove(i);
            best.insert(0, c);
        }
    }
    // The first stage's level: an entrant whose furthest stage is later advanced from it.
    let first = results.stages.iter().map(|s| s.level).min().unwrap_or(1);
    let staged = results.stages.iter().any(|s| s.level > first);
    best.into_iter()
        .enumerate()
        .map(|(i, (level, _, row, stage))| {
            let advanced = staged && level > first;
            let all_faults = played
                .iter()
                .find(|p| p.0 == row.name)
                .is_some_and(|p| p.1 > 0 && p.2 == p.1);
            Placed {
                rank: i + 1,
                marks: marks.map(|m| m.for_rank(i, all_faults, advanced)),
                stage,
                row,
                all_faults,
            }
        })
        .collect()
}

/// A submission `grader run` kept out of the class tournament (it failed the suite's gate): it plays no
/// game and gets the suite's `all-faults` marks.
#[derive(Clone, Debug, PartialEq)]
pub struct LeftOut {
    pub name: String,
    /// Why, for its row: `failed \`plays-legally\``.
    pub why: String,
    pub marks: Option<f64>,
}

/// Standings made up by hand, for the tests here and in `report::tournament`.
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::arena::event::schedule::StageResult;
    use crate::arena::event::standings::Row;

    /// A row of `points` from wins alone (4 a win), the rest lost.
    pub fn row(name: &str, points: u32, games: u32, faults: u32) -> Row {
        Row {
            name: name.into(),
            games,
            wins: points / 4,
            draws: 0,
            losses: games - points / 4,
            faults,
            points,
            elo: 1500.0,
            margin: 0.0,
        }
    }

    pub fn stage(name: &str, level: u32, rows: Vec<Row>) -> StageResult {
        StageResult {
            name: name.into(),
            level,
            rows,
            records: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{row, stage};
    use super::*;

    #[test]
    fn the_furthest_stage_ranks_first_then_the_place_in_its_group() {
        let results = Results {
            stages: vec![
                stage(
                    "stage 1 group 1",
                    1,
                    vec![row("a", 8, 4, 0), row("b", 4, 4, 0), row("c", 0, 4, 4)],
                ),
                stage(
                    "stage 1 group 2",
                    1,
                    vec![row("d", 8, 4, 0), row("e", 6, 4, 0), row("f", 2, 4, 0)],
                ),
                stage("final", 2, vec![row("d", 8, 6, 0), row("a", 4, 6, 0)]),
            ],
            champion: Some("d".into()),
        };
        let marks = Marks {
            by_rank: vec![40.0, 36.0, 33.0],
            rest: 20.0,
            all_faults: Some(0.0),
            gate: None,
            bonus: false,
            qualified: None,
        };
        let placed = overall(&results, Some(&marks));
        let order: Vec<&str> = placed.iter().map(|p| p.row.name.as_str()).collect();
        // b and e were both second in their groups: e has more points. f and c third: f has points.
        assert_eq!(order, ["d", "a", "e", "b", "f", "c"]);
        let got: Vec<f64> = placed.iter().filter_map(|p| p.marks).collect();
        assert_eq!(got, [40.0, 36.0, 33.0, 20.0, 20.0, 0.0]);
        assert!(placed[5].all_faults);
        assert_eq!(placed[1].stage, "final");
        assert_eq!(placed[2].stage, "stage 1 group 2");
        let text = crate::report::tournament::ranking_csv(&placed, &[], &[]);
        assert!(
            text.starts_with("rank,student,stage,points,games,won,drawn,lost,faults,marks\n1,d,final,8,6,2,0,4,0,40\n"),
            "{text}"
        );
        assert!(
            text.ends_with("6,c,stage 1 group 1,0,4,0,0,4,4,0\n"),
            "{text}"
        );
    }
}
