//! Standings: points under a suite's scoring rule, W/D/L, and Elo, from game records alone.

use crate::arena::event::elo;
use crate::arena::game::record::{GameRecord, GameResult};

/// Points per result. A draw the seed's tie-break favours may score differently (UT3: 2 to the side
/// with more blocks, then more corners, 1 to the other; otherwise 1 each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
    /// `(favoured, other)` points for a draw with a tie-break edge; `None` scores it as a plain draw.
    pub edge: Option<(u32, u32)>,
}

impl Scoring {
    /// Win 2, draw 1, loss 0: chess scoring in half points, so the table stays in whole numbers.
    pub const STANDARD: Scoring = Scoring {
        win: 2,
        draw: 1,
        loss: 0,
        edge: None,
    };
    /// The UT3 handout (002): win 4; a draw 2–1 by blocks then corners, else 1 each.
    pub const UT3: Scoring = Scoring {
        win: 4,
        draw: 1,
        loss: 0,
        edge: Some((2, 1)),
    };

    /// Points for each side of one game, in colour order.
    #[must_use]
    pub fn points(&self, result: GameResult) -> [u32; 2] {
        match result {
            GameResult::Win(0) => [self.win, self.loss],
            GameResult::Win(_) => [self.loss, self.win],
            GameResult::Draw { edge: Some(s) } if self.edge.is_some() => {
                let (fav, other) = self.edge.unwrap_or((self.draw, self.draw));
                if s == 0 {
                    [fav, other]
                } else {
                    [other, fav]
                }
            }
            GameResult::Draw { .. } => [self.draw, self.draw],
            GameResult::BothLost => [self.loss, self.loss],
        }
    }
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Row {
    pub name: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games lost to a fault (timeout, crash, illegal move...).
    pub faults: u32,
    pub points: u32,
    pub elo: f64,
    pub margin: f64,
}

impl Row {
    /// `points, games, won, drawn, lost, faults` as the table and `tournament.csv` write them.
    #[must_use]
    pub fn counts(&self) -> [String; 6] {
        [
            self.points,
            self.games,
            self.wins,
            self.draws,
            self.losses,
            self.faults,
        ]
        .map(|n| n.to_string())
    }
}

/// Standings for `names` from records whose `players` use those names. Sorted by points, then wins,
/// then Elo, then name, so ties break the same way every run.
#[must_use]
pub fn standings(names: &[String], records: &[GameRecord], scoring: &Scoring) -> Vec<Row> {
    let index = |name: &str| names.iter().position(|n| n == name);
    let mut rows: Vec<Row> = names
        .iter()
        .map(|n| Row {
            name: n.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            faults: 0,
            points: 0,
            elo: 1500.0,
            margin: 0.0,
        })
        .collect();
    let mut games = Vec::new();
    for r in records {
        let (Some(a), Some(b)) = (index(&r.players[0]), index(&r.players[1])) else {
            continue;
        };
        // A game the grader could not follow has no result: no one's points, no one's loss.
        if r.ending == crate::arena::game::record::Ending::Review {
            continue;
        }
        let points = scoring.points(r.result);
        for (side, who) in [a, b].into_iter().enumerate() {
            let row = &mut rows[who];
            row.games += 1;
            row.points += points[side];
            match r.result {
                GameResult::Win(s) if s == side => row.wins += 1,
                GameResult::Win(_) | GameResult::BothLost => {
                    row.losses += 1;
                    if r.ending == crate::arena::game::record::Ending::Fault {
                        row.faults += 1;
                    }
                }
                GameResult::Draw { .. } => row.draws += 1,
            }
        }
        let score = match r.result {
            GameResult::Win(0) => 1.0,
            GameResult::Win(_) => 0.0,
            GameResult::Draw { .. } => 0.5,
            // Nothing was played: the game says nothing about relative strength.
            GameResult::BothLost => continue,
        };
        games.push(elo::Game { a, b, score });
    }
    for (row, e) in rows.iter_mut().zip(elo::fit(names.len(), &games)) {
        row.elo = e.elo;
        row.margin = e.margin;
    }
    rows.sort_by(|x, y| {
        y.points
            .cmp(&x.points)
            .then(y.wins.cmp(&x.wins))
            .then(y.elo.total_cmp(&x.elo))
            .then(x.name.cmp(&y.name))
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ut3_scoring_follows_the_handout() {
        let s = Scoring::UT3;
        assert_eq!(s.points(GameResult::Win(1)), [0, 4]);
        assert_eq!(s.points(GameResult::Draw { edge: Some(1) }), [1, 2]);
        assert_eq!(s.points(GameResult::Draw { edge: None }), [1, 1]);
        let std = Scoring::STANDARD;
        assert_eq!(std.points(GameResult::Draw { edge: Some(1) }), [1, 1]);
    }

    #[test]
    fn a_double_fault_is_a_loss_and_a_fault_for_both() {
        use crate::arena::game::record::{Ending, GameRecord};
        assert_eq!(Scoring::UT3.points(GameResult::BothLost), [0, 0]);
        let game = |result, ending| GameRecord {
            game: "ut3".into(),
            players: ["a".into(), "b".into()],
            colours: ["x".into(), "o".into()],
            seed: 1,
            initial: String::new(),
            moves: Vec::new(),
            final_state: String::new(),
            result,
            ending,
            reason: "both failed to start".into(),
            notes: Vec::new(),
            stderr: Vec::new(),
            facts: Vec::new(),
            transcripts: Vec::new(),
        };
        let names = ["a".to_string(), "b".to_string()];
        let records = [
            game(GameResult::BothLost, Ending::Fault),
            game(GameResult::BothLost, Ending::Fault),
            // A game the grader could not follow counts for no one.
            game(GameResult::BothLost, Ending::Review),
        ];
        let rows = standings(&names, &records, &Scoring::UT3);
        for row in &rows {
            assert_eq!(
                (row.games, row.wins, row.draws, row.losses, row.faults, row.points),
                (2, 0, 0, 2, 2, 0),
                "{row:?}"
            );
            assert!((row.elo - 1500.0).abs() < 1e-9, "{row:?}");
        }
    }
}
