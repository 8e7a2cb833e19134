//! A tournament: round robin or the seeds' staged formats, standings with the suite's scoring rule and
//! Elo, `jobs` games at once, records saved for replays. The same seed gives the same results for any
//! `jobs`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::sandbox::Sandbox;

use crate::arena::config::ArenaConfig;
use crate::arena::event::schedule::{self, Plan, Results, Stage};
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
}

/// Plays the event among `entrants` (built already) in the format `knobs` chooses, `knobs.jobs` games
/// at once, a line on stderr every 50 games. Returns the results and whether it ended in a knockout.
/// The one way both `grader tournament` and `grader run` play: the same seed, the same games.
pub fn play<G: ArenaGame>(
    initial: &G,
    bots: MakeBot<G>,
    entrants: Vec<Entrant>,
    config: &ArenaConfig,
    sandbox: Option<Arc<dyn Sandbox>>,
    knobs: &Knobs,
) -> (Results, bool)
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
    };
    let maker = Maker {
        entrants,
        bots,
        config: config.clone(),
        sandbox,
    };
    let finished = AtomicUsize::new(0);
    let progress = |_: usize, _: &crate::arena::game::record::GameRecord| {
        let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
        if n % 50 == 0 {
            eprintln!("{n} games played");
        }
    };
    let results = schedule::run(initial, &plan, &maker, &progress);
    (results, plan.knockout)
}
