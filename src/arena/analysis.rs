//! What a finished game's record says about one side's play: the move where the game turned against
//! it (with the moves that would have held), and the wins in one it missed or let through. Read from
//! the record alone, its moves replayed from the start under the rules, so it works on any record.

use reference::analysis::{self, Basis};
use reference::bots::Playable;
use reference::games::tictactoe::TicTacToe;
use reference::games::tmmorris::Morris;
use reference::games::{Oska, Sttt, Ut3};
use reference::Player;
use serde::{Deserialize, Serialize};

use crate::arena::game::record::{GameRecord, Side};
use crate::arena::game::rules::{self, External};
use crate::arena::game::ArenaGame;

/// One side's play in one game, for `result.json` and feedback.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct GameAnalysis {
    /// The game's number in its case, from 1 (its record is `games/<case>-<game>.json`).
    pub game: usize,
    /// The side analysed, in the game's words (`x`, `white`).
    pub side: String,
    /// The moves (numbered from 1 over both sides, as in the record) on which it could have won at
    /// once and did not.
    pub missed_wins: Vec<usize>,
    /// The moves after which the opponent could win at once, when another move would have stopped
    /// it and none won outright.
    pub missed_blocks: Vec<usize>,
    /// Its first move that made its position worse, when it made one (looked for in games it did
    /// not win and that ended by the rules).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turning_point: Option<TurningPoint>,
}

/// The first move that changed a game's value against the side that made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct TurningPoint {
    /// The move's number in the game, from 1, over both sides' moves.
    pub ply: usize,
    /// The move as the record writes it (`applied`).
    pub played: String,
    /// What the position was worth to the side before the move: `won`, `drawn` or (an estimate only)
    /// `unclear`; and after it: `drawn`, `lost` or `unclear`.
    pub before: String,
    pub after: String,
    /// The moves that kept `before`, in the game's notation and move order.
    pub better: Vec<String>,
    /// `exact` (the game's perfect solver) or `estimate` (a bounded search that proves wins and
    /// losses only).
    pub basis: String,
    /// For an estimate: how far it looked (`4 plies deep, at most 20000 positions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
}

/// Analyses `side`'s play in `record` (game `game` of its case, from 1); the turning point is looked
/// for only when `turning`. `None` when the record cannot be replayed under the rules (an unknown
/// game, a start other than the game's, a move that does not lead to the state recorded).
#[must_use]
pub fn analyse(
    record: &GameRecord,
    game: usize,
    side: Side,
    turning: bool,
) -> Option<GameAnalysis> {
    memo::recall_or(record, side, turning, || {
        analyse_afresh(record, side, turning)
    })
    .map(|mut a| {
        a.game = game;
        a
    })
}

/// [`analyse`] with no memo (and game number 0, set by the caller).
fn analyse_afresh(record: &GameRecord, side: Side, turning: bool) -> Option<GameAnalysis> {
    let game = 0;
    let (base, param) = record
        .game
        .split_once(':')
        .unwrap_or((record.game.as_str(), ""));
    let mut job = Job {
        record,
        game,
        side,
        turning,
    };
    if record.game.starts_with(rules::PREFIX) {
        // Tactics only: a turning point needs the game's value, which only a solver or an
        // evaluation gives, and a rules program gives neither.
        job.turning = false;
        return External::new(&record.game).ok().and_then(|g| job.on(g));
    }
    match base {
        "tictactoe" => job.on(TicTacToe::new()),
        "tmmorris" => job.on(Morris::new()),
        "sttt" => job.on(Sttt::new()),
        "ut3" => job.on(Ut3::new()),
        "oska" => {
            let n = if param.is_empty() {
                4
            } else {
                param.parse().ok()?
            };
            (4..=reference::games::oska::MAX_N)
                .contains(&n)
                .then(|| job.on(Oska::new(n)))?
        }
        _ => None,
    }
}

struct Job<'a> {
    record: &'a GameRecord,
    game: usize,
    side: Side,
    turning: bool,
}

impl Job<'_> {
    fn on<G: ArenaGame + Playable>(&self, start: G) -> Option<GameAnalysis> {
        if start.encode() != self.record.initial {
            return None;
        }
        let mut g = start.clone();
        let mut moves = Vec::with_capacity(self.record.moves.len());
        for m in &self.record.moves {
            let mv = g.parse_move(&m.applied).ok()?;
            g.apply(mv);
            if g.encode() != m.state {
                return None;
            }
            moves.push(mv);
        }
        let player = if self.side == 0 {
            Player::First
        } else {
            Player::Second
        };
        let t = analysis::tactics(&start, &moves, player);
        let turning_point = if self.turning {
            analysis::turning_point(&start, &moves, player).map(|turn| {
                let at = self.record.moves[..turn.ply]
                    .iter()
                    .fold(start.clone(), |g, m| {
                        let mv = g.parse_move(&m.applied).expect("replayed above");
                        g.after(mv)
                    });
                TurningPoint {
                    ply: turn.ply + 1,
                    played: self.record.moves[turn.ply].applied.clone(),
                    before: turn.before.word().to_string(),
                    after: turn.after.word().to_string(),
                    better: turn.better.iter().map(|&m| at.format_move(m)).collect(),
                    basis: match turn.basis {
                        Basis::Exact => "exact".into(),
                        Basis::Estimate { .. } => "estimate".into(),
                    },
                    search: match turn.basis {
                        Basis::Exact => None,
                        Basis::Estimate { plies, nodes } => {
                            Some(format!("{plies} plies deep, at most {nodes} positions"))
                        }
                    },
                }
            })
        } else {
            None
        };
        let numbered = |plies: Vec<usize>| plies.into_iter().map(|p| p + 1).collect();
        Some(GameAnalysis {
            game: self.game,
            side: self.record.colours[self.side].clone(),
            missed_wins: numbered(t.missed_wins),
            missed_blocks: numbered(t.missed_blocks),
            turning_point,
        })
    }
}

/// The analyses already made in this process, by what they read of a record. The same game is
/// analysed again and again otherwise: every case measuring a submission's games analyses all of
/// them, and the cases of a suite share their games (a dialogue suite's eight cases, three sets of
/// games); programs that play alike (every correct minimax against the perfect bot) play the very
/// same games. An analysis is a function of the record's game, start, moves (as applied, with the
/// states after them), the side and whether the turning point is looked for, so a remembered one is
/// the one a fresh analysis would give: the results do not change, whichever worker made it first.
mod memo {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};

    use sha2::{Digest, Sha256};

    use super::{GameAnalysis, GameRecord, Side};

    /// Analyses kept at most (each a few hundred bytes); past that, new ones are made and not kept.
    const KEPT: usize = 50_000;

    type Key = [u8; 32];

    fn kept() -> &'static Mutex<HashMap<Key, Option<GameAnalysis>>> {
        static KEPT_ANALYSES: OnceLock<Mutex<HashMap<Key, Option<GameAnalysis>>>> = OnceLock::new();
        KEPT_ANALYSES.get_or_init(|| Mutex::new(HashMap::new()))
    }

    /// Everything the analysis reads, each field length-prefixed so no two records share a key.
    fn key(record: &GameRecord, side: Side, turning: bool) -> Key {
        let mut h = Sha256::new();
        let mut field = |bytes: &[u8]| {
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(bytes);
        };
        field(record.game.as_bytes());
        field(record.initial.as_bytes());
        for m in &record.moves {
            field(m.applied.as_bytes());
            field(m.state.as_bytes());
        }
        field(record.colours.get(side).map_or(&b""[..], |c| c.as_bytes()));
        field(&(side as u64).to_le_bytes());
        field(&[u8::from(turning)]);
        h.finalize().into()
    }

    /// The remembered analysis of `record` from `side`, or `fresh()`'s, remembered.
    pub(super) fn recall_or(
        record: &GameRecord,
        side: Side,
        turning: bool,
        fresh: impl FnOnce() -> Option<GameAnalysis>,
    ) -> Option<GameAnalysis> {
        let key = key(record, side, turning);
        let lock = || kept().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = lock().get(&key) {
            return known.clone();
        }
        // Made outside the lock: two workers may both make one, and they are the same.
        let made = fresh();
        let mut kept = lock();
        if kept.len() < KEPT {
            kept.insert(key, made.clone());
        }
        made
    }
}

/// At most this many better moves are named; the rest are counted.
const NAMED: usize = 3;

/// "`0` or `2`", "`0`, `2`, `6` or 2 other moves".
fn alternatives(moves: &[String]) -> String {
    let quoted: Vec<String> = moves.iter().take(NAMED).map(|m| format!("`{m}`")).collect();
    let rest = moves.len().saturating_sub(NAMED);
    match (quoted.as_slice(), rest) {
        ([], _) => "no move".to_string(),
        ([one], 0) => one.clone(),
        (all, 0) => format!(
            "{} or {}",
            all[..all.len() - 1].join(", "),
            all[all.len() - 1]
        ),
        (all, 1) => format!("{}, or 1 other move", all.join(", ")),
        (all, n) => format!("{}, or {n} other moves", all.join(", ")),
    }
}

impl TurningPoint {
    /// "move 4: `1` lost a drawn position; `4` held the draw" (the caller puts the game first).
    #[must_use]
    pub fn sentence(&self) -> String {
        let played = format!("`{}`", self.played);
        let better = alternatives(&self.better);
        let what = match (self.before.as_str(), self.after.as_str()) {
            ("drawn", _) => format!("{played} lost a drawn position; {better} held the draw"),
            ("won", "drawn") => {
                format!("{played} let a won position slip to a draw; {better} kept the win")
            }
            ("won", "lost") => {
                format!("{played} turned a won position into a lost one; {better} kept the win")
            }
            ("won", _) => format!("{played} missed a forced win; {better} forced it"),
            _ => format!("{played} let the opponent force a win; {better} did not"),
        };
        let how = match &self.search {
            Some(s) => format!(" (an estimate: a search of {s})"),
            None => String::new(),
        };
        format!("move {}: {what}{how}", self.ply)
    }
}

impl GameAnalysis {
    /// The feedback lines for this game: the turning point, then the missed tactics; none when
    /// there is nothing to say.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(t) = &self.turning_point {
            out.push(format!("game {}, {}", self.game, t.sentence()));
        }
        let moves = |v: &[usize]| {
            let words: Vec<String> = v.iter().map(usize::to_string).collect();
            let s = if v.len() == 1 { "" } else { "s" };
            format!("move{s} {}", words.join(", "))
        };
        let mut missed = Vec::new();
        if !self.missed_wins.is_empty() {
            missed.push(format!(
                "a win in one not taken on {}",
                moves(&self.missed_wins)
            ));
        }
        if !self.missed_blocks.is_empty() {
            missed.push(format!(
                "the opponent's win in one not blocked on {}",
                moves(&self.missed_blocks)
            ));
        }
        if !missed.is_empty() {
            out.push(format!("game {}: {}", self.game, missed.join("; ")));
        }
        out
    }

    /// Whether it took every win in one and blocked every win in one it could.
    #[must_use]
    pub fn tactically_clean(&self) -> bool {
        self.missed_wins.is_empty() && self.missed_blocks.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::record::{Ending, GameResult, MoveRecord};
    use reference::rng::Rng;
    use reference::Notation;

    /// A record of `start` with `moves` played (each chosen by `pick` from the legal moves).
    fn record<G: ArenaGame>(
        start: G,
        mut pick: impl FnMut(&G, Vec<G::Move>) -> G::Move,
    ) -> GameRecord {
        let mut g = start.clone();
        let mut moves = Vec::new();
        while g.outcome().is_none() && moves.len() < 200 {
            let mv = pick(&g, g.moves());
            let applied = g.format_move(mv);
            g.apply(mv);
            moves.push(MoveRecord {
                side: moves.len() % 2,
                sent: applied.clone(),
                applied,
                micros: 0,
                state: g.encode(),
                forfeited: None,
            });
        }
        GameRecord {
            game: start.name(),
            players: ["a".into(), "b".into()],
            colours: [
                G::side_name(Player::First).into(),
                G::side_name(Player::Second).into(),
            ],
            seed: 1,
            initial: start.encode(),
            moves,
            final_state: g.encode(),
            result: GameResult::Draw { edge: None },
            ending: Ending::Rules,
            reason: String::new(),
            notes: Vec::new(),
            stderr: Vec::new(),
            facts: Vec::new(),
            transcripts: Vec::new(),
        }
    }

    fn scripted(cells: &[&str]) -> GameRecord {
        let mut script = cells.iter();
        record(TicTacToe::new(), |g, _| {
            g.parse_move(script.next().expect("the script ends the game"))
                .unwrap()
        })
    }

    #[test]
    fn an_edge_answer_to_a_corner_is_named_with_the_move_that_held() {
        let r = scripted(&["0", "1", "4", "8", "6", "3", "2"]);
        let a = analyse(&r, 2, 1, true).unwrap();
        let t = a.turning_point.as_ref().unwrap();
        assert_eq!(
            (
                t.ply,
                t.played.as_str(),
                t.before.as_str(),
                t.after.as_str()
            ),
            (2, "1", "drawn", "lost")
        );
        assert_eq!(t.better, ["4"]);
        assert_eq!((t.basis.as_str(), t.search.as_deref()), ("exact", None));
        // o blocked 8; on move 6 x had two threats, so no move could have stopped it.
        assert!(a.tactically_clean(), "{a:?}");
        assert_eq!(
            a.lines(),
            ["game 2, move 2: `1` lost a drawn position; `4` held the draw"]
        );
        // x never made its position worse, and the turning point is not looked for when not asked.
        let x = analyse(&r, 2, 0, true).unwrap();
        assert_eq!(x.turning_point, None);
        assert_eq!(analyse(&r, 2, 1, false).unwrap().turning_point, None);
    }

    #[test]
    fn a_remembered_analysis_is_the_fresh_one_numbered_as_asked() {
        let r = scripted(&["0", "1", "4", "8", "6", "3", "2"]);
        for side in 0..2 {
            for turning in [false, true] {
                let fresh = analyse_afresh(&r, side, turning).map(|mut a| {
                    a.game = 5;
                    a
                });
                assert!(fresh.is_some());
                // Made, then remembered: the same both times, and numbered as each caller asks.
                assert_eq!(analyse(&r, 5, side, turning), fresh);
                assert_eq!(analyse(&r, 5, side, turning), fresh);
                assert_eq!(
                    analyse(&r, 9, side, turning).map(|a| a.game),
                    fresh.map(|_| 9)
                );
            }
        }
        // The side's name is read from the record: a record that differs only there is its own.
        let mut renamed = r.clone();
        renamed.colours[1] = "nought".into();
        assert_eq!(analyse(&renamed, 1, 1, true).unwrap().side, "nought");
        assert_eq!(analyse(&r, 1, 1, true).unwrap().side, "o");
    }

    #[test]
    fn missed_tactics_are_numbered_as_the_record_numbers_moves() {
        // x: 0, 1 (threat at 2); o: 3, then 6 (no block); x: 5 (no win); o: 4 (no block); x: 2 wins.
        let r = scripted(&["0", "3", "1", "6", "5", "4", "2"]);
        let o = analyse(&r, 1, 1, false).unwrap();
        assert_eq!(
            (o.missed_wins.clone(), o.missed_blocks.clone()),
            (vec![], vec![4, 6])
        );
        let x = analyse(&r, 1, 0, false).unwrap();
        assert_eq!(
            (x.missed_wins.clone(), x.missed_blocks.clone()),
            (vec![5], vec![])
        );
        assert_eq!(
            o.lines(),
            ["game 1: the opponent's win in one not blocked on moves 4, 6"]
        );
        assert_eq!(x.lines(), ["game 1: a win in one not taken on move 5"]);
    }

    #[test]
    fn every_game_replays_and_a_tampered_record_is_not_analysed() {
        let mut rng = Rng::new(7);
        let mut random = |_: &_, moves: Vec<_>| moves[rng.below(moves.len())];
        let records = [
            record(Morris::new(), &mut random),
            record(Ut3::new(), |_: &Ut3, m: Vec<_>| m[m.len() / 2]),
            record(Sttt::new(), |_: &Sttt, m: Vec<_>| m[m.len() / 3]),
            record(Oska::new(5), |_: &Oska, m: Vec<_>| m[0]),
            record(Oska::new(4), |_: &Oska, m: Vec<_>| m[m.len() - 1]),
        ];
        for r in &records {
            for side in 0..2 {
                let a = analyse(r, 1, side, true);
                assert!(a.is_some(), "{} does not replay", r.game);
                if let Some(t) = a.and_then(|a| a.turning_point) {
                    let exact = r.game == "tmmorris" || r.game == "oska";
                    assert_eq!(
                        t.basis,
                        if exact { "exact" } else { "estimate" },
                        "{}",
                        r.game
                    );
                    assert!(!t.better.is_empty(), "{t:?}");
                }
            }
            let mut bad = r.clone();
            bad.moves[1].state = bad.moves[0].state.clone();
            assert_eq!(analyse(&bad, 1, 0, true), None, "{}", r.game);
        }
        let mut unknown = records[0].clone();
        unknown.game = "chess".into();
        assert_eq!(analyse(&unknown, 1, 0, true), None);
    }

    #[test]
    fn an_estimate_says_so_and_how_far_it_looked() {
        let t = TurningPoint {
            ply: 31,
            played: "4 4".into(),
            before: "unclear".into(),
            after: "lost".into(),
            better: ["0 0", "1 1", "2 2", "3 3", "5 5"]
                .map(String::from)
                .to_vec(),
            basis: "estimate".into(),
            search: Some("4 plies deep, at most 20000 positions".into()),
        };
        assert_eq!(
            t.sentence(),
            "move 31: `4 4` let the opponent force a win; `0 0`, `1 1`, `2 2`, or 2 other moves did \
             not (an estimate: a search of 4 plies deep, at most 20000 positions)"
        );
    }
}
