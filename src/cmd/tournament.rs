//! `grader tournament GAME PLAYERS...`: plays an event, prints standings (and a suite's ranking and
//! marks), saves the records.

use std::path::PathBuf;
use std::sync::Arc;

use super::common::{emit, Arena, RunFlags};
use super::exit::{CliError, CmdResult, Exit};
use crate::arena::config::ArenaConfig;
use crate::arena::event::ranking::Placed;
use crate::arena::event::schedule::Results;
use crate::arena::event::sprt::{adjacent, Sprt};
use crate::arena::event::tournament::{play, play_share, Format, Knobs};
use crate::arena::game::registry::{MakeBot, Visitor};
use crate::arena::game::ArenaGame;
use crate::arena::seat::players::Entrant;
use crate::grade::entrants::Event;
use crate::grade::shard::Shard;
use crate::report::shard::{save_share, TournamentManifest};
use crate::report::tournament::standings_table as table;
use crate::report::tournament::{save_records, write_ranking};
use crate::sandbox::Sandbox;

/// The `--format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Everyone plays everyone, with both colours.
    RoundRobin,
    /// The suite's stages (pools → groups → final), or pools of four with the top two advancing.
    Staged,
    /// Single elimination (after the suite's stages, if any): best seed against worst.
    Knockout,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::RoundRobin => Format::RoundRobin,
            FormatArg::Staged => Format::Staged,
            FormatArg::Knockout => Format::Knockout,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A game (`tictactoe`, `tmmorris`, `sttt`, `ut3`, `oska`, `oska:5`), an arena TOML file, or a
    /// suite folder with an `[arena]` table.
    pub game: String,
    /// Bot specs and submission folders; at least two.
    #[arg(required = true, num_args = 2..)]
    pub players: Vec<String>,
    /// Games a pairing plays with each colour (default: the config's, else 1), or `auto`: 1, 2, 4, ...
    /// until the SPRT decides every pair of entrants next to each other in the last table, or
    /// `--max-games`.
    #[arg(long, value_parser = parse_games)]
    pub games: Option<Games>,
    /// With `--games auto`: the most games a pairing plays with each colour.
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub max_games: u32,
    /// The SPRT between entrants next to each other in a table: `ELO0,ELO1[,ALPHA,BETA]` (H0: the
    /// higher is ELO0 Elo stronger; H1: ELO1 stronger; error rates 0.05 unless given).
    #[arg(long, default_value = "0,100", value_parser = Sprt::parse, value_name = "ELO0,ELO1")]
    pub sprt: Sprt,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// round-robin, staged (the suite's stages and final), or knockout. Default: staged when the config
    /// has stages, else round-robin.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Per-move limit for submissions, overriding the game's or suite's (`500ms`, `2s`, `none`).
    #[arg(long, value_name = "DURATION")]
    pub move_limit: Option<String>,
    /// Save every game's record as JSON in this folder.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// With a suite: where `<suite>/tournament.csv` (the overall ranking and marks) is written.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub out: PathBuf,
    /// Play only shard K of N of a round robin's games (game i when i mod N = K-1), into `--records`
    /// with `tournament-shard.json`; `grader merge --out DIR` of the N folders ranks the event.
    #[arg(long, value_name = "K/N", requires = "records")]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub flags: RunFlags,
}

/// How many games a pairing plays with each colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Games {
    Fixed(u32),
    Auto,
}

fn parse_games(text: &str) -> Result<Games, String> {
    if text == "auto" {
        return Ok(Games::Auto);
    }
    match text.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(Games::Fixed(n)),
        _ => Err(format!("`{text}` is not a whole number ≥ 1 or `auto`")),
    }
}

/// `grader tournament GAME PLAYERS...`.
pub fn run(args: Args) -> CmdResult {
    Arena::load(
        &args.game,
        args.move_limit.as_deref(),
        &args.players,
        &args.flags,
    )?
    .dispatch(args)
}

impl Visitor for Arena<Args> {
    type Out = CmdResult;

    fn visit<G: ArenaGame>(self, initial: G, bots: MakeBot<G>) -> CmdResult {
        let (entrants, event) = self.entrants::<G>(
            &self.args.game,
            &self.args.players,
            bots,
            self.args.flags.allow_missing,
        )?;
        let Arena {
            args,
            config,
            sandbox,
            ..
        } = self;
        let mut knobs = Knobs {
            format: args.format.map(Format::from),
            games: match args.games {
                Some(Games::Fixed(n)) => Some(n),
                Some(Games::Auto) => Some(1),
                None => None,
            },
            seed: args.seed,
            jobs: args.jobs,
            sections: None,
            slots: None,
        };
        if let Some(shard) = args.shard {
            if args.games == Some(Games::Auto) {
                return Err(CliError::usage(anyhow::anyhow!(
                    "`--games auto` cannot be sharded: how many games a shard plays depends on the others' results\nhint: give `--games N`"
                )));
            }
            let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
            let (scheduled, played) = play_share(
                &initial,
                bots,
                entrants,
                &config,
                sandbox,
                &knobs,
                (shard.index, shard.count),
            )
            .map_err(|m| CliError::usage(anyhow::anyhow!("{m}")))?;
            let manifest = manifest(
                &args,
                initial.name(),
                &event,
                &knobs,
                names,
                scheduled,
                shard,
            );
            let dir = args.records.as_deref().unwrap_or(std::path::Path::new("."));
            save_share(dir, &manifest, &played).map_err(CliError::internal)?;
            eprintln!(
                "shard {shard}: played {} of the round robin's {scheduled} games into `{}`; `grader merge --out DIR` of every shard's folder ranks the event",
                played.len(),
                dir.display()
            );
            return Ok(Exit::Success);
        }
        let (results, knockout) = play_until_settled(
            &initial,
            bots,
            &entrants,
            &config,
            sandbox.as_ref(),
            &mut knobs,
            &args,
        );
        // Records first: whatever happens to stdout, the games are kept.
        if let Some(dir) = &args.records {
            save_records(dir, &initial.name(), args.seed, &results).map_err(CliError::internal)?;
        }
        // The ranking and marks are written before anything is printed, like the records.
        let placed = event
            .suite
            .as_ref()
            .map(|_| crate::arena::event::ranking::overall(&results, config.marks.as_ref()));
        if let (Some(suite), Some(placed)) = (&event.suite, &placed) {
            let file = write_ranking(&args.out.join(suite), placed, &[], &event.not_graded)
                .map_err(CliError::internal)?;
            eprintln!("wrote {}", file.display());
        }
        Ok(print_event(
            &results,
            knockout,
            placed.as_deref(),
            &event.not_graded,
            Some(&args.sprt),
        ))
    }
}

/// The event with `--games`' count; with `auto`, the whole event again with twice the games (the same
/// seed, so the same games for the same count) until the last table's neighbours are all decided or
/// `--max-games`. Returns the last event's results and whether it ended in a knockout.
fn play_until_settled<G: ArenaGame>(
    initial: &G,
    bots: MakeBot<G>,
    entrants: &[Entrant],
    config: &ArenaConfig,
    sandbox: Option<&Arc<dyn Sandbox>>,
    knobs: &mut Knobs,
    args: &Args,
) -> (Results, bool)
where
    G::Move: Send + Sync,
{
    loop {
        let played = play(
            initial,
            bots,
            entrants.to_vec(),
            config,
            sandbox.cloned(),
            knobs,
        );
        let played = (played.results, played.knockout);
        let games = knobs.games.unwrap_or(1);
        let settled = played
            .0
            .stages
            .last()
            .is_none_or(|st| adjacent(&args.sprt, &st.rows, &st.records).1);
        if args.games != Some(Games::Auto) || settled || games >= args.max_games {
            if args.games == Some(Games::Auto) {
                eprintln!(
                    "games: {games} a pairing with each colour ({})",
                    if settled {
                        "every neighbour decided"
                    } else {
                        "the cap, some neighbours undecided"
                    }
                );
            }
            return played;
        }
        knobs.games = Some((games * 2).min(args.max_games));
    }
}

/// The manifest a shard's records are saved with: what `grader merge` checks the shards agree on.
fn manifest(
    args: &Args,
    game_name: String,
    event: &Event,
    knobs: &Knobs,
    players: Vec<String>,
    scheduled: usize,
    shard: Shard,
) -> TournamentManifest {
    let game = match std::path::absolute(&args.game) {
        Ok(p) if p.exists() => p.display().to_string(),
        _ => args.game.clone(),
    };
    TournamentManifest {
        game,
        game_name,
        seed: args.seed,
        games_per_pairing: knobs.games,
        players,
        suite: event.suite.clone(),
        not_graded: event.not_graded.clone(),
        scheduled,
        shard: shard.index,
        shards: shard.count,
        grader: env!("CARGO_PKG_VERSION").to_string(),
    }
}

/// Prints an event's stages, champion and ranking on stdout, and says how it went: exit 3 when an
/// entrant could not be built.
pub(super) fn print_event(
    results: &Results,
    knockout: bool,
    placed: Option<&[Placed]>,
    not_graded: &[(String, String)],
    sprt: Option<&Sprt>,
) -> Exit {
    for stage in &results.stages {
        if results.stages.len() > 1 {
            emit(&format!("{}\n", stage.name));
        }
        emit(&table(&stage.rows));
        if let Some(sprt) = sprt {
            for line in adjacent(sprt, &stage.rows, &stage.records).0 {
                emit(&format!("  {line}\n"));
            }
        }
        let faults: Vec<&crate::arena::game::record::GameRecord> = stage
            .records
            .iter()
            .filter(|r| r.ending == crate::arena::game::record::Ending::Fault)
            .collect();
        for r in faults.iter().take(5) {
            emit(&format!("  fault: {}\n", r.summary()));
        }
        if faults.len() > 5 {
            emit(&format!("  ... and {} more faults\n", faults.len() - 5));
        }
        emit("\n");
    }
    if let (Some(champion), true) = (&results.champion, knockout) {
        emit(&format!("champion: {champion}\n"));
    }
    if let Some(placed) = placed {
        emit(&crate::report::tournament::ranking_table(placed));
    }
    if !not_graded.is_empty() {
        eprintln!(
        "error: {} submission(s) not graded: this machine lacks a toolchain they need\nhint: run `grader doctor --install`, then play again",
        not_graded.len()
        );
        return Exit::Internal;
    }
    Exit::Success
}
