//! `grader tournament`: round robin or the seeds' staged formats, standings with the suite's scoring
//! rule and Elo, `--jobs` games at once, records saved for replays. The same seed gives the same
//! results for any `--jobs`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::exit::{CliError, CmdResult, Exit};
use crate::sandbox::Sandbox;

use super::config::ArenaConfig;
use super::game::ArenaGame;
use super::players::{Entrant, Maker};
use super::ranking::{csv, LeftOut, Placed};
use super::registry::{dispatch, MakeBot, Visitor};
use super::schedule::{self, Plan, Results, Stage};
use super::standings::table;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Everyone plays everyone, with both colours.
    RoundRobin,
    /// The suite's stages (pools → groups → final), or pools of four with the top two advancing.
    Staged,
    /// Single elimination (after the suite's stages, if any): best seed against worst.
    Knockout,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A game (`tictactoe`, `tmmorris`, `sttt`, `ut3`, `oska`, `oska:5`), an arena TOML file, or a
    /// suite folder with an `[arena]` table.
    pub game: String,
    /// Bot specs and submission folders; at least two.
    #[arg(required = true, num_args = 2..)]
    pub players: Vec<String>,
    /// Games a pairing plays with each colour (default: the config's, else 1).
    #[arg(long)]
    pub games: Option<u32>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// round-robin, staged (the suite's stages and final), or knockout. Default: staged when the config
    /// has stages, else round-robin.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Per-move limit for submissions, overriding the game's or suite's (`500ms`, `2s`, `none`).
    #[arg(long, value_name = "DURATION")]
    pub move_limit: Option<String>,
    /// Save every game's record as JSON in this folder.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// With a suite: where `<suite>/tournament.csv` (the overall ranking and marks) is written.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: PathBuf,
    /// The sandbox tier for submissions: `full`, `basic` or `none` (default: `grader.toml`'s
    /// `run.sandbox`).
    #[arg(long, value_name = "TIER")]
    pub sandbox: Option<String>,
    /// A `grader.toml` over the built-in defaults (default: `./grader.toml` when present).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Play even when a toolchain the suite needs is missing: submissions that need it take no part
    /// and are `not-graded` (exit 3).
    #[arg(long)]
    pub allow_missing: bool,
}

pub fn run(args: Args) -> CmdResult {
    let mut config = super::setup::event(&args.game).map_err(CliError::usage)?;
    if let Some(text) = &args.move_limit {
        config.policy.limit = super::setup::limit(text).map_err(CliError::usage)?;
    }
    let (settings, sandbox) = super::setup::sandbox(
        &args.players,
        args.sandbox.as_deref(),
        args.config.as_deref(),
    )?;
    let game = config.game.clone();
    dispatch(
        &game,
        Event {
            args,
            config,
            settings,
            sandbox,
        },
    )
    .map_err(CliError::usage)?
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
    let progress = |_: usize, _: &super::record::GameRecord| {
        let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
        if n % 50 == 0 {
            eprintln!("{n} games played");
        }
    };
    let results = schedule::run(initial, &plan, &maker, &progress);
    (results, plan.knockout)
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
        super::setup::save(dir, &prefix, &stage.records)?;
    }
    let tables: Vec<serde_json::Value> = results
        .stages
        .iter()
        .map(|s| serde_json::json!({ "stage": s.name, "standings": s.rows }))
        .collect();
    let file = dir.join("standings.json");
    let json = serde_json::json!({ "game": game, "seed": seed, "stages": tables });
    std::fs::write(&file, format!("{json:#}\n"))
        .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", file.display()))
}

/// Writes `dir/tournament.csv` ([`super::ranking::csv`]) and returns its path.
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
        .and_then(|()| {
            crate::report::write_atomic(&file, csv(placed, left_out, not_graded).as_bytes())
        })
        .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", file.display()))?;
    Ok(file)
}

struct Event {
    args: Args,
    config: ArenaConfig,
    settings: crate::config::Config,
    sandbox: Option<Arc<dyn Sandbox>>,
}

impl Visitor for Event {
    type Out = CmdResult;

    fn visit<G: ArenaGame>(self, initial: G, bots: MakeBot<G>) -> CmdResult {
        let Event {
            args,
            config,
            settings,
            sandbox,
        } = self;
        let (entrants, event) = super::suitebuild::entrants::<G>(
            &args.game,
            &args.players,
            &config,
            bots,
            sandbox.as_deref(),
            &settings,
            args.allow_missing,
        )?;
        let knobs = Knobs {
            format: args.format,
            games: args.games,
            seed: args.seed,
            jobs: args.jobs,
        };
        let (results, knockout) = play(&initial, bots, entrants, &config, sandbox, &knobs);
        // Records first: whatever happens to stdout, the games are kept.
        if let Some(dir) = &args.records {
            save_records(dir, &initial.name(), args.seed, &results).map_err(CliError::internal)?;
        }
        // The ranking and marks are written before anything is printed, like the records.
        let placed = event
            .suite
            .as_ref()
            .map(|_| super::ranking::overall(&results, config.marks.as_ref()));
        if let (Some(suite), Some(placed)) = (&event.suite, &placed) {
            let file = write_ranking(&args.out.join(suite), placed, &[], &event.not_graded)
                .map_err(CliError::internal)?;
            eprintln!("wrote {}", file.display());
        }
        for stage in &results.stages {
            if results.stages.len() > 1 {
                super::setup::emit(&format!("{}\n", stage.name));
            }
            super::setup::emit(&table(&stage.rows));
            let faults: Vec<&super::record::GameRecord> = stage
                .records
                .iter()
                .filter(|r| r.ending == super::record::Ending::Fault)
                .collect();
            for r in faults.iter().take(5) {
                super::setup::emit(&format!("  fault: {}\n", r.summary()));
            }
            if faults.len() > 5 {
                super::setup::emit(&format!("  ... and {} more faults\n", faults.len() - 5));
            }
            super::setup::emit("\n");
        }
        if let (Some(champion), true) = (&results.champion, knockout) {
            super::setup::emit(&format!("champion: {champion}\n"));
        }
        if let Some(placed) = &placed {
            super::setup::emit(&super::ranking::table(placed));
        }
        if !event.not_graded.is_empty() {
            eprintln!(
                "error: {} submission(s) not graded: this machine lacks a toolchain they need\nhint: run `grader doctor --install`, then play again",
                event.not_graded.len()
            );
            return Ok(Exit::Internal);
        }
        Ok(Exit::Success)
    }
}
