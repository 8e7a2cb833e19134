//! `grader play`: games between two players (submission folders or bot names), one after another with
//! colours alternating, each board shown with `--show`.

use std::path::PathBuf;

use reference::rng::Rng;

use super::common::{emit, Arena, RunFlags};
use super::exit::{CliError, CmdResult, Exit};
use crate::arena::event::schedule::SeatMaker;
use crate::arena::game::record::seconds;
use crate::arena::game::record::{GameRecord, GameResult};
use crate::arena::game::registry::{dispatch, MakeBot, Visitor};
use crate::arena::game::ArenaGame;
use crate::arena::referee::{play, Match};
use crate::arena::seat::players::Maker;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A game (`tictactoe`, `tmmorris`, `sttt`, `ut3`, `oska`, `oska:5`, `rules:PROGRAM`), an arena
    /// TOML file, or a suite folder with an `[arena]` table. With `--replay`, the suite of a game whose
    /// rules are a program (docs/rules-programs.md).
    #[arg(required_unless_present = "replay")]
    pub game: Option<String>,
    /// The first player: a bot spec (`random`, `minimax:3`, ...) or a submission folder.
    #[arg(required_unless_present = "replay")]
    pub a: Option<String>,
    /// The second player.
    #[arg(required_unless_present = "replay")]
    pub b: Option<String>,
    /// Show a saved game record move by move instead of playing.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["games", "show", "records"])]
    pub replay: Option<PathBuf>,
    /// With `--replay`: write the game as a self-contained HTML page (board, move list, steps) to OUT
    /// instead of printing it.
    #[arg(long, value_name = "OUT", requires = "replay")]
    pub html: Option<PathBuf>,
    /// Games to play (at least 1); colours alternate, `A` moving first in the first game.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed for the bots and the record; the same seed replays the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the board after every move.
    #[arg(long)]
    pub show: bool,
    /// Per-move limit for submissions, overriding the game's or suite's (`500ms`, `2s`, `none`).
    #[arg(long, value_name = "DURATION")]
    pub move_limit: Option<String>,
    /// Save each game's record as JSON in this folder.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    #[command(flatten)]
    pub flags: RunFlags,
}

pub fn run(args: Args) -> CmdResult {
    if let Some(file) = &args.replay {
        // A record of a rules-program game replays only under the suite a person names, which lets
        // its rules program run (a record alone is untrusted and names no program to run).
        if let Some(game) = &args.game {
            crate::arena::setup::event(game).map_err(CliError::usage)?;
        }
        let record = crate::arena::game::replay::load(file).map_err(CliError::usage)?;
        let game = record.game.clone();
        let text = dispatch(
            &game,
            crate::arena::game::replay::Replay {
                record: record.clone(),
            },
        )
        .map_err(CliError::usage)?
        .map_err(|e| CliError::usage(e.context(format!("cannot replay `{}`", file.display()))))?;
        if let Some(out) = &args.html {
            let html = crate::report::html::replay::game_page(&record, file);
            crate::report::write_atomic(out, html.as_bytes())
                .map_err(|e| {
                    anyhow::Error::new(e).context(format!("cannot write `{}`", out.display()))
                })
                .map_err(CliError::usage)?;
            println!("{}", out.display());
            return Ok(Exit::Success);
        }
        emit(&text);
        return Ok(Exit::Success);
    }
    let words = [
        args.a.clone().unwrap_or_default(),
        args.b.clone().unwrap_or_default(),
    ];
    let game = args.game.clone().unwrap_or_default();
    Arena::load(&game, args.move_limit.as_deref(), &words, &args.flags)?.dispatch(args)
}

impl Visitor for Arena<Args> {
    type Out = CmdResult;

    fn visit<G: ArenaGame>(self, initial: G, bots: MakeBot<G>) -> CmdResult {
        let words = [
            self.args.a.clone().unwrap_or_default(),
            self.args.b.clone().unwrap_or_default(),
        ];
        let game = self.args.game.clone().unwrap_or_default();
        let (entrants, _event) =
            self.entrants::<G>(&game, &words, bots, self.args.flags.allow_missing)?;
        let Arena {
            args,
            config,
            sandbox,
            ..
        } = self;
        let names = [entrants[0].name.clone(), entrants[1].name.clone()];
        let maker = Maker {
            entrants,
            bots,
            config: config.clone(),
            sandbox,
        };
        let root = Rng::new(args.seed);
        let mut records: Vec<GameRecord> = Vec::new();
        let mut tally = [0u32; 2];
        let mut draws = 0u32;
        for k in 0..args.games {
            let seed = root.fork(u64::from(k)).next_u64();
            let order = if k % 2 == 0 { [0, 1] } else { [1, 0] };
            let mut first = maker.seat(order[0], seed);
            let mut second = maker.seat(order[1], seed.rotate_left(32));
            let who = Match {
                players: [names[order[0]].clone(), names[order[1]].clone()],
                seed,
            };
            emit(&format!(
                "game {}: {} {} vs {} {} (seed {seed})\n",
                k + 1,
                G::side_name(reference::Player::First),
                who.players[0],
                G::side_name(reference::Player::Second),
                who.players[1],
            ));
            if args.show {
                emit(&format!("{}\n\n", initial.render()));
            }
            let show = args.show;
            let record = play(
                initial.clone(),
                [first.as_mut(), second.as_mut()],
                &who,
                &config.policy,
                &mut |state: &G, m| {
                    if show {
                        let side = G::side_name(if m.side == 0 {
                            reference::Player::First
                        } else {
                            reference::Player::Second
                        });
                        let note = m
                            .forfeited
                            .as_ref()
                            .map(|w| format!(" (forfeited: {w})"))
                            .unwrap_or_default();
                        emit(&format!(
                            "{side} plays {}{note} in {}\n{}\n\n",
                            m.applied,
                            seconds(std::time::Duration::from_micros(m.micros)),
                            state.render()
                        ));
                    }
                },
            );
            emit(&format!("{}\n", record.summary()));
            match record.result {
                GameResult::Win(s) => tally[order[s]] += 1,
                GameResult::Draw { .. } => draws += 1,
                GameResult::BothLost => {}
            }
            records.push(record);
        }
        emit(&format!(
            "{}: {} won, {}: {} won, {draws} drawn\n",
            names[0], tally[0], names[1], tally[1]
        ));
        if let Some(dir) = &args.records {
            crate::report::tournament::save(dir, "game-", &records).map_err(CliError::internal)?;
        }
        Ok(Exit::Success)
    }
}
