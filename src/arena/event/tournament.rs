//! A tournament: round robin or the seeds' staged formats, standings with the suite's scoring rule and
//! Elo, `jobs` games at once, records saved for replays. The same seed gives the same results for any
//! `jobs`.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::sandbox::pace::Cores;
use crate::sandbox::{Sandbox, Usage};

use crate::arena::config::ArenaConfig;
use crate::arena::event::schedule::{self, Fixture, Plan, Results, Stage, StageResult};
use crate::arena::event::standings::standings;
use crate::arena::game::record::GameRecord;
use crate::arena::game::registry::MakeBot;
use crate::arena::game::ArenaGame;
use crate::arena::seat::players::{Entrant, Maker};

/// How a tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Everyone plays everyone, with both colours.
    RoundRobin,
    /// The suite's stages (pools → groups → final), or pools of four with the top two advancing.
    Staged,
    /// Single elimination (after the suite's stages, if any): best seed against worst.
    Knockout,
}

/// What `grader tournament`'s flags choose, and `grader run` for its class tournament.
pub struct Knobs {
    /// Default: staged when the config has stages, else round robin.
    pub format: Option<Format>,
    /// Games a pairing plays with each colour (default: the config's).
    pub games: Option<u32>,
    pub seed: u64,
    pub jobs: usize,
    /// Each entrant's section (aligned with the entrants), for a stage played by section.
    pub sections: Option<Vec<String>>,
    /// The run's cores, when games share them with grading (`grader run`); each game holds one.
    pub slots: Option<Arc<Cores>>,
}

/// What [`play`] played.
pub struct Played {
    pub results: Results,
    /// It ended in a knockout.
    pub knockout: bool,
    /// The CPU each entrant's program used over its games (aligned with the entrants; zero for a bot):
    /// a class's own cost, which its results record (`grade::tournament`) beside its cases'.
    pub cpu: Vec<Duration>,
}

/// Plays the event among `entrants` (built already) in the format `knobs` chooses, `knobs.jobs` games
/// at once, a line on stderr every 50 games: the results, whether it ended in a knockout, and what
/// each entrant's program used. The one way both `grader tournament` and `grader run` play: the same
/// seed, the same games.
pub fn play<G: ArenaGame>(
    initial: &G,
    bots: MakeBot<G>,
    entrants: Vec<Entrant>,
    config: &ArenaConfig,
    sandbox: Option<Arc<dyn Sandbox>>,
    knobs: &Knobs,
) -> Played
where
    G::Move: Send + Sync,
{
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let format = knobs.format.unwrap_or(if config.stages.is_empty() {
        Format::RoundRobin
    } else {
        Format::Staged
    });
    let stages: Vec<Stage> = match format {
        Format::RoundRobin => Vec::new(),
        Format::Knockout => config.stages.clone(),
        Format::Staged if !config.stages.is_empty() => config.stages.clone(),
        Format::Staged => vec![Stage {
            groups: u32::try_from(names.len().div_ceil(4)).unwrap_or(1),
            advance: 2,
            sections: false,
        }],
    };
    let plan = Plan {
        names: &names,
        games: knobs.games.unwrap_or(config.games).max(1),
        seed: knobs.seed,
        jobs: knobs.jobs.max(1),
        stages: &stages,
        knockout: format == Format::Knockout || (format == Format::Staged && config.knockout),
        scoring: config.scoring,
        policy: &config.policy,
        sections: knobs.sections.as_deref(),
        slots: knobs.slots.as_ref(),
    };
    let maker = Maker {
        entrants,
        bots,
        config: config.clone(),
        sandbox,
    };
    let finished = AtomicUsize::new(0);
    let micros: Vec<AtomicU64> = names.iter().map(|_| AtomicU64::new(0)).collect();
    let progress = |_: usize, f: &Fixture, _: &GameRecord, used: &[Option<Usage>; 2]| {
        for (who, used) in [f.first, f.second].into_iter().zip(used) {
            if let (Some(total), Some(u)) = (micros.get(who), used) {
                let us = u64::try_from(u.cpu.as_micros()).unwrap_or(u64::MAX);
                total.fetch_add(us, Ordering::Relaxed);
            }
        }
        let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
        if n % 50 == 0 {
            eprintln!("{n} games played");
        }
    };
    let results = schedule::run(initial, &plan, &maker, &progress);
    Played {
        results,
        knockout: plan.knockout,
        cpu: micros
            .iter()
            .map(|m| Duration::from_micros(m.load(Ordering::Relaxed)))
            .collect(),
    }
}

/// A round robin's every game, in the order one run plays and numbers them (`round-robin-0001.json`
/// is the first): the schedule [`play`] makes for `n` entrants when `knobs` choose a round robin.
///
/// # Errors
/// The format `knobs` and `config` choose is not a round robin: a staged or knockout tournament's
/// later games depend on earlier results, so they cannot be shared out up front.
pub fn round_robin_schedule(
    n: usize,
    config: &ArenaConfig,
    knobs: &Knobs,
) -> Result<Vec<Fixture>, String> {
    let format = knobs.format.unwrap_or(if config.stages.is_empty() {
        Format::RoundRobin
    } else {
        Format::Staged
    });
    if format != Format::RoundRobin {
        return Err(
            "only a round robin's games can be shared out: a staged or knockout tournament's later games depend on earlier results\nhint: add `--format round-robin`, or play the event on one machine".into(),
        );
    }
    let everyone: Vec<usize> = (0..n).collect();
    let games = knobs.games.unwrap_or(config.games).max(1);
    // As `schedule::run` seeds its last (here: only) round robin.
    let seed = reference::rng::Rng::new(knobs.seed).fork(0).next_u64();
    Ok(schedule::round_robin(&everyone, games, seed))
}

/// Plays the games of a round robin whose index `i` (0-based) has `i % count == index - 1`: one
/// shard's share of [`round_robin_schedule`]. Returns the schedule's length and each game played
/// with its index.
///
/// # Errors
/// As [`round_robin_schedule`].
pub fn play_share<G: ArenaGame>(
    initial: &G,
    bots: MakeBot<G>,
    entrants: Vec<Entrant>,
    config: &ArenaConfig,
    sandbox: Option<Arc<dyn Sandbox>>,
    knobs: &Knobs,
    (index, count): (u32, u32),
) -> Result<(usize, Vec<(usize, GameRecord)>), String>
where
    G::Move: Send + Sync,
{
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let all = round_robin_schedule(names.len(), config, knobs)?;
    let mine: Vec<usize> = (0..all.len())
        .filter(|i| i % count.max(1) as usize == index.saturating_sub(1) as usize)
        .collect();
    let fixtures: Vec<Fixture> = mine.iter().map(|&i| all[i]).collect();
    let maker = Maker {
        entrants,
        bots,
        config: config.clone(),
        sandbox,
    };
    let records = schedule::run_fixtures(
        initial,
        &names,
        &fixtures,
        &maker,
        &config.policy,
        (knobs.jobs.max(1), knobs.slots.as_ref()),
        &|_, _, _, _| {},
    );
    Ok((all.len(), mine.into_iter().zip(records).collect()))
}

/// The results of a round robin among `names` from all its games' `records` (in schedule order),
/// exactly as [`play`] gives them when it plays the games itself.
#[must_use]
pub fn round_robin_results(
    names: &[String],
    records: Vec<GameRecord>,
    config: &ArenaConfig,
) -> Results {
    let rows = standings(names, &records, &config.scoring);
    let champion = rows.first().map(|r| r.name.clone());
    Results {
        stages: vec![StageResult {
            name: "round robin".into(),
            level: 1,
            rows,
            records,
        }],
        champion,
    }
}
