//! The measures of a dialogue program's conduct (WPI's rubric beyond the result): whether it opened the
//! game as the script expects, rejected every invalid input, and announced the real result. Each reads
//! only the facts the dialogue seat recorded in the game record.

use crate::arena::config::{ArenaConfig, Protocol};
use crate::arena::game::record::{Ending, Fact, GameRecord, ProbeOutcome, Side};
use crate::suite::Measure;

/// A measure that reads dialogue facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conduct {
    /// Asked what the opening expects, then moved first exactly when it had the first side.
    Opening,
    /// Asked again after every invalid input typed at it, and went on to finish the game.
    Rejects,
    /// Printed an end-of-game message naming the real result.
    Announces,
}

/// The conduct a dialogue measure reads; `None` for the measures that read results.
#[must_use]
pub fn conduct(measure: Measure) -> Option<Conduct> {
    match measure {
        Measure::Opening => Some(Conduct::Opening),
        Measure::Rejects => Some(Conduct::Rejects),
        Measure::Announces => Some(Conduct::Announces),
        _ => None,
    }
}

/// How many invalid inputs a game under `arena` types (0 outside the dialogue protocol), so that games
/// with probes are never mistaken for the same games without.
#[must_use]
pub fn probes(arena: &ArenaConfig) -> usize {
    match &arena.protocol {
        Protocol::Dialogue(script) => script.probes.len(),
        _ => 0,
    }
}

/// How one game counts (1 or 0) for `me`, and, when it does not count, why, in the student's terms.
#[must_use]
pub fn judge(conduct: Conduct, record: &GameRecord, me: Side) -> (f64, Option<String>) {
    let mine = || record.facts.iter().filter(move |f| f.side() == me);
    let faulted = record.ending == Ending::Fault && record.lost(me);
    let no = |why: String| (0.0, Some(why));
    match conduct {
        Conduct::Opening => match mine().find(|f| matches!(f, Fact::Opening { .. })) {
            Some(Fact::Opening { ok: true, .. }) => (1.0, None),
            Some(Fact::Opening { detail, .. }) => no(detail.clone()),
            _ => no(format!(
                "the game never reached your first move: {}",
                record.reason
            )),
        },
        Conduct::Rejects => {
            let mut probes = 0;
            for f in mine() {
                if let Fact::Probe {
                    outcome, detail, ..
                } = f
                {
                    probes += 1;
                    if *outcome != ProbeOutcome::Rejected {
                        return no(detail.clone());
                    }
                }
            }
            if probes == 0 {
                no(format!(
                    "no invalid input was typed: the game ended first ({})",
                    record.reason
                ))
            } else if faulted {
                no(format!(
                    "you asked again after each invalid input, but then: {}",
                    record.reason
                ))
            } else {
                (1.0, None)
            }
        }
        Conduct::Announces => match mine().find(|f| matches!(f, Fact::End { .. })) {
            Some(Fact::End { right: true, .. }) => (1.0, None),
            Some(Fact::End { detail, .. }) => no(detail.clone()),
            _ if faulted => no(format!(
                "the game ended by a fault, not by the rules: {}",
                record.reason
            )),
            _ => no("no end-of-game message was checked".to_string()),
        },
    }
}

/// How the grader understood a dialogue program that follows conventions of its own (`understood:
/// first/second asked as yes/no; moves as 1-9 row-major`), from the last game that says so; `side(k)`
/// is the program's side in game `k`.
#[must_use]
pub fn understood(records: &[GameRecord], side: impl Fn(usize) -> Side) -> Option<String> {
    records.iter().enumerate().rev().find_map(|(k, r)| {
        r.facts.iter().find_map(|f| match f {
            Fact::Understood { side: s, detail } if *s == side(k) => Some(detail.clone()),
            _ => None,
        })
    })
}

/// Game numbers (from 1) said once: `game 3`, `games 1, 3 and 5`, `games 1–10` for a run.
#[must_use]
pub fn game_numbers(games: &[usize]) -> String {
    match games {
        [] => String::new(),
        [one] => format!("game {one}"),
        [first, .., last] if last - first + 1 == games.len() && games.len() > 2 => {
            format!("games {first}–{last}")
        }
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(ToString::to_string).collect();
            format!("games {} and {last}", rest.join(", "))
        }
    }
}

/// The case summary's opening words: `asked again after every invalid input in 3 of 4 games`.
#[must_use]
pub fn words(conduct: Conduct, total: f64, games: usize) -> String {
    match conduct {
        Conduct::Opening => {
            format!("asked for the mark and then moved in turn in {total} of {games} games")
        }
        Conduct::Rejects => {
            format!("asked again after every invalid input in {total} of {games} games")
        }
        Conduct::Announces => {
            format!("announced the right result in {total} of {games} games")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::record::fixtures::tictactoe;
    use crate::arena::game::record::GameResult;

    fn record(result: GameResult, ending: Ending, facts: Vec<Fact>) -> GameRecord {
        let reason = "o crashed (exit status 1) on move 4";
        GameRecord {
            facts,
            ..tictactoe(result, ending, reason)
        }
    }

    fn probe(side: Side, outcome: ProbeOutcome) -> Fact {
        Fact::Probe {
            side,
            sent: "hello".into(),
            about: "not a move".into(),
            outcome,
            detail: format!("{outcome:?} `hello`"),
        }
    }

    #[test]
    fn rejects_needs_every_probe_rejected_and_a_clean_finish() {
        let won = GameResult::Win(0);
        let ok = record(won, Ending::Rules, vec![probe(0, ProbeOutcome::Rejected)]);
        assert_eq!(judge(Conduct::Rejects, &ok, 0), (1.0, None));
        // The other side's probes say nothing about this player.
        assert_eq!(judge(Conduct::Rejects, &ok, 1).0, 0.0);
        let accepted = record(
            GameResult::Win(1),
            Ending::Fault,
            vec![
                probe(0, ProbeOutcome::Rejected),
                probe(0, ProbeOutcome::Accepted),
            ],
        );
        let (v, why) = judge(Conduct::Rejects, &accepted, 0);
        assert_eq!(v, 0.0);
        assert_eq!(why.as_deref(), Some("Accepted `hello`"));
        let later = record(
            GameResult::Win(1),
            Ending::Fault,
            vec![probe(0, ProbeOutcome::Rejected)],
        );
        let (v, why) = judge(Conduct::Rejects, &later, 0);
        assert_eq!(v, 0.0);
        assert!(why.unwrap().contains("but then: o crashed"));
        let none = record(won, Ending::Rules, Vec::new());
        assert!(judge(Conduct::Rejects, &none, 0)
            .1
            .unwrap()
            .contains("no invalid input"));
    }

    #[test]
    fn opening_and_announces_read_their_facts() {
        let opening = |ok| Fact::Opening {
            side: 1,
            ok,
            detail: "asked first".into(),
        };
        let end = |right| Fact::End {
            side: 1,
            said: Some("X wins".into()),
            claim: Some(GameResult::Win(0)),
            right,
            detail: "announced `X wins`".into(),
        };
        let draw = GameResult::Draw { edge: None };
        let r = record(draw, Ending::Rules, vec![opening(true), end(true)]);
        assert_eq!(judge(Conduct::Opening, &r, 1), (1.0, None));
        assert_eq!(judge(Conduct::Announces, &r, 1), (1.0, None));
        let r = record(draw, Ending::Rules, vec![opening(false), end(false)]);
        assert_eq!(
            judge(Conduct::Opening, &r, 1),
            (0.0, Some("asked first".into()))
        );
        assert_eq!(
            judge(Conduct::Announces, &r, 1),
            (0.0, Some("announced `X wins`".into()))
        );
        let r = record(GameResult::Win(0), Ending::Fault, Vec::new());
        assert!(judge(Conduct::Announces, &r, 1)
            .1
            .unwrap()
            .contains("ended by a fault"));
        assert!(judge(Conduct::Opening, &r, 1)
            .1
            .unwrap()
            .contains("never reached your first move"));
    }
}
