//! Tournament formats: round robin and staged (pools → top k → groups → top k → final), with every game
//! scheduled up front and seeded from the tournament seed and its index, so results do not depend on how
//! many run at once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use reference::rng::Rng;

use crate::arena::event::standings::{standings, Row, Scoring};
use crate::arena::game::record::GameRecord;
use crate::arena::game::ArenaGame;
use crate::arena::referee::{play_measured, Match, Policy};
use crate::arena::seat::Seat;
use crate::sandbox::pace::{Cores, Pacer};
use crate::sandbox::Usage;

/// Told of each game as it ends: its index among the fixtures played, the fixture, its record, and
/// what each seat's program used (in colour order; `None` for a seat that runs none).
pub type Done<'a> = dyn Fn(usize, &Fixture, &GameRecord, &[Option<Usage>; 2]) + Sync + 'a;

/// Makes a fresh seat for entrant `who` for one game (a bot seeded with `seed`, or a process).
pub trait SeatMaker<G: ArenaGame>: Sync {
    fn seat(&self, who: usize, seed: u64) -> Box<dyn Seat<G>>;
}

/// One scheduled game: `first` moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    pub first: usize,
    pub second: usize,
    pub seed: u64,
}

/// Every pair meets `games` times with each colour.
#[must_use]
pub fn round_robin(entrants: &[usize], games: u32, seed: u64) -> Vec<Fixture> {
    let rng = Rng::new(seed);
    let mut out = Vec::new();
    for (k, &a) in entrants.iter().enumerate() {
        for &b in &entrants[k + 1..] {
            for _ in 0..games {
                for (first, second) in [(a, b), (b, a)] {
                    let seed = rng.fork(out.len() as u64).next_u64();
                    out.push(Fixture {
                        first,
                        second,
                        seed,
                    });
                }
            }
        }
    }
    out
}

/// One stage of a staged tournament: split into `groups`, round robin in each, the top `advance` of
/// each group go on. The last stage is always one round robin of everyone left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    pub groups: u32,
    pub advance: u32,
    /// One group per section ([`Plan::sections`]), always played.
    pub sections: bool,
}

/// Plays `fixtures` on `jobs` threads, each game holding one of `slots` when given (a class
/// tournament played while other classes grade shares their cores, `sandbox::pace`); records come
/// back in fixture order.
pub fn run_fixtures<G: ArenaGame>(
    initial: &G,
    names: &[String],
    fixtures: &[Fixture],
    maker: &dyn SeatMaker<G>,
    policy: &Policy,
    (jobs, slots): (usize, Option<&Arc<Cores>>),
    done: &Done<'_>,
) -> Vec<GameRecord> {
    let next = AtomicUsize::new(0);
    // Each worker keeps its own results and they are merged once at the end: no lock per game.
    let worker = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(f) = fixtures.get(i) else { break };
            let _slot = slots.map(Pacer::enter);
            let mut a = maker.seat(f.first, f.seed);
            let mut b = maker.seat(f.second, f.seed.rotate_left(32));
            let who = Match {
                players: [names[f.first].clone(), names[f.second].clone()],
                seed: f.seed,
            };
            let (record, used) = play_measured(
                initial.clone(),
                [a.as_mut(), b.as_mut()],
                &who,
                policy,
                &mut |_, _| {},
            );
            done(i, f, &record, &used);
            mine.push((i, record));
        }
        mine
    };
    let mut all: Vec<(usize, GameRecord)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs.max(1)).map(|_| s.spawn(worker)).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

/// What a whole tournament produced.
#[derive(Clone, Debug)]
pub struct Results {
    /// Each stage's name, its standings, and its records.
    pub stages: Vec<StageResult>,
    /// The knockout's winner (a round robin's is the top of its last table).
    pub champion: Option<String>,
}

#[derive(Clone, Debug)]
pub struct StageResult {
    pub name: String,
    /// How far into the event: 1 for the first stage, rising through the final and knockout rounds.
    /// Groups of one stage share it.
    pub level: u32,
    pub rows: Vec<Row>,
    pub records: Vec<GameRecord>,
}

/// The knobs of one tournament.
pub struct Plan<'a> {
    pub names: &'a [String],
    pub games: u32,
    pub seed: u64,
    pub jobs: usize,
    pub stages: &'a [Stage],
    /// End with a single-elimination bracket instead of a final round robin (000's semi-finals and
    /// final).
    pub knockout: bool,
    pub scoring: Scoring,
    pub policy: &'a Policy,
    /// Each entrant's section (aligned with `names`), for a stage played by section.
    pub sections: Option<&'a [String]>,
    /// The run's cores, each game holding one while it plays; `None`: `jobs` games at once, freely.
    pub slots: Option<&'a Arc<Cores>>,
}

/// Runs `plan.stages`, then a final round robin or a knockout of everyone left. With neither stages nor
/// knockout this is a plain round robin. A stage with no more players than it advances is skipped.
pub fn run<G: ArenaGame>(
    initial: &G,
    plan: &Plan<'_>,
    maker: &dyn SeatMaker<G>,
    done: &Done<'_>,
) -> Results {
    let mut alive: Vec<usize> = (0..plan.names.len()).collect();
    let root = Rng::new(plan.seed);
    let mut stages = Vec::new();
    for (k, stage) in plan.stages.iter().enumerate() {
        let by_section = stage.sections && plan.sections.is_some();
        // A stage that could eliminate no one is skipped: the seed's numbers (002: 10 pools → top 3,
        // groups of 6 → top 2) fit its class, and a class of 10 goes straight to the final round robin.
        // A qualifier by section is always played (000:23: its top four earn marks).
        if !by_section && alive.len() <= stage.groups.max(1) as usize * stage.advance as usize {
            continue;
        }
        let mut rng = root.fork(1000 + k as u64);
        shuffle(&mut alive, &mut rng);
        let mut next = Vec::new();
        for (g, (name, members)) in split(plan, stage, k, &alive).into_iter().enumerate() {
            let seed = rng.fork(g as u64).next_u64();
            let fixtures = round_robin(&members, plan.games, seed);
            let (rows, records) = play_among(initial, plan, maker, done, &members, &fixtures);
            for (rank, row) in rows.iter().take(stage.advance as usize).enumerate() {
                if let Some(i) = plan.names.iter().position(|n| *n == row.name) {
                    next.push((rank, g, i));
                }
            }
            stages.push(StageResult {
                name,
                level: k as u32 + 1,
                rows,
                records,
            });
        }
        // Seeded for what follows: group winners first, then runners-up, ...
        next.sort_unstable();
        alive = next.into_iter().map(|(_, _, i)| i).collect();
    }
    if plan.knockout {
        let champion = knockout(initial, plan, maker, done, alive, &root, &mut stages);
        return Results { stages, champion };
    }
    let fixtures = round_robin(&alive, plan.games, root.fork(0).next_u64());
    let (rows, records) = play_among(initial, plan, maker, done, &alive, &fixtures);
    stages.push(StageResult {
        name: if plan.stages.is_empty() {
            "round robin".into()
        } else {
            "final".into()
        },
        level: plan.stages.len() as u32 + 1,
        rows,
        records,
    });
    let champion = stages
        .last()
        .and_then(|s| s.rows.first())
        .map(|r| r.name.clone());
    Results { stages, champion }
}

/// The groups of stage `k` among `alive` (shuffled): one per section (by name) when the stage is played
/// by section, else `stage.groups` dealt round.
fn split(plan: &Plan<'_>, stage: &Stage, k: usize, alive: &[usize]) -> Vec<(String, Vec<usize>)> {
    if let (true, Some(sections)) = (stage.sections, plan.sections) {
        let mut names: Vec<&String> = alive.iter().map(|&i| &sections[i]).collect();
        names.sort();
        names.dedup();
        return names
            .into_iter()
            .map(|s| {
                let members = alive
                    .iter()
                    .copied()
                    .filter(|&i| &sections[i] == s)
                    .collect();
                (format!("section {s}"), members)
            })
            .collect();
    }
    let groups = (stage.groups.max(1) as usize).min(alive.len().max(1));
    (0..groups)
        .map(|g| {
            let members = alive.iter().copied().skip(g).step_by(groups).collect();
            (format!("stage {} group {}", k + 1, g + 1), members)
        })
        .collect()
}

/// Plays `fixtures` among `members` (indices into `plan.names`): their standings, and the records.
fn play_among<G: ArenaGame>(
    initial: &G,
    plan: &Plan<'_>,
    maker: &dyn SeatMaker<G>,
    done: &Done<'_>,
    members: &[usize],
    fixtures: &[Fixture],
) -> (Vec<Row>, Vec<GameRecord>) {
    let records = run_fixtures(
        initial,
        plan.names,
        fixtures,
        maker,
        plan.policy,
        (plan.jobs, plan.slots),
        done,
    );
    let names: Vec<String> = members.iter().map(|&m| plan.names[m].clone()).collect();
    let rows = standings(&names, &records, &plan.scoring);
    (rows, records)
}

/// Single elimination: the best seed meets the worst; when the field is not a power of two, the top
/// seeds have byes into the next round, which then is one (six players: the top two wait, four play
/// for the semi-finals, 000:23's "semi-finalists (top FOUR)");
/// each pairing plays `games` with each colour; more points (then more wins) advances, and a tie goes
/// to the better seed.
fn knockout<G: ArenaGame>(
    initial: &G,
    plan: &Plan<'_>,
    maker: &dyn SeatMaker<G>,
    done: &Done<'_>,
    mut field: Vec<usize>,
    root: &Rng,
    stages: &mut Vec<StageResult>,
) -> Option<String> {
    let mut round = 1u64;
    while field.len() > 1 {
        let byes = field.len().next_power_of_two() - field.len();
        let rest = &field[byes..];
        let pairs: Vec<(usize, usize)> = (0..rest.len() / 2)
            .map(|i| (rest[i], rest[rest.len() - 1 - i]))
            .collect();
        let rng = root.fork(2000 + round);
        let mut fixtures = Vec::new();
        for (k, &(a, b)) in pairs.iter().enumerate() {
            fixtures.extend(round_robin(
                &[a, b],
                plan.games,
                rng.fork(k as u64).next_u64(),
            ));
        }
        let (rows, records) = play_among(initial, plan, maker, done, &field, &fixtures);
        let mut next: Vec<usize> = field[..byes].to_vec();
        for &(a, b) in &pairs {
            let (na, nb) = (&plan.names[a], &plan.names[b]);
            let theirs: Vec<GameRecord> = records
                .iter()
                .filter(|r| r.players.contains(na) && r.players.contains(nb))
                .cloned()
                .collect();
            let rows = standings(&[na.clone(), nb.clone()], &theirs, &plan.scoring);
            let (x, y) = (&rows[0], &rows[1]);
            let tied = x.points == y.points && x.wins == y.wins;
            let winner = if tied || x.name == *na { a } else { b };
            next.push(winner);
        }
        next.sort_by_key(|w| field.iter().position(|f| f == w));
        let name = if field.len() == 2 {
            "knockout final".to_string()
        } else {
            format!("knockout round {round}")
        };
        stages.push(StageResult {
            name,
            level: plan.stages.len() as u32 + round as u32,
            rows,
            records,
        });
        field = next;
        round += 1;
    }
    field.first().map(|&c| plan.names[c].clone())
}

/// Fisher–Yates with the arena's RNG.
fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_meets_every_pair_with_both_colours() {
        let f = round_robin(&[0, 1, 2], 2, 9);
        assert_eq!(f.len(), 3 * 2 * 2);
        for (a, b) in [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)] {
            let n = f.iter().filter(|x| x.first == a && x.second == b).count();
            assert_eq!(n, 2, "{a} vs {b}");
        }
        let seeds: std::collections::BTreeSet<u64> = f.iter().map(|x| x.seed).collect();
        assert_eq!(seeds.len(), f.len(), "every game has its own seed");
        assert_eq!(f, round_robin(&[0, 1, 2], 2, 9));
        assert_ne!(f, round_robin(&[0, 1, 2], 2, 10));
    }
}
