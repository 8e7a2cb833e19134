//! The class tournament `grader run` plays after a suite's cases when the suite has `[arena.marks]`:
//! the students the suite's gate lets in, built and played exactly as `grader tournament SUITE
//! FOLDERS... --seed <the suite's seed>` builds and plays them, ranked and marked, and written as
//! `tournament.csv`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::error::Error;
use crate::sandbox::pace::{Cores, Pacer};
use crate::sandbox::Sandbox;
use crate::suite::Suite;

use crate::arena::event::ranking::{overall, LeftOut, Placed};
use crate::arena::event::tournament::{play, Knobs};
use crate::arena::game::registry::{dispatch, MakeBot, Visitor};
use crate::arena::game::ArenaGame;
use crate::report::tournament::{save_records, write_ranking};

/// The folder of `results/<suite>/` holding the class tournament's game records and standings.
pub const GAMES_DIR: &str = "tournament";

/// One class's tournament.
pub struct ClassEvent<'a> {
    pub suite: &'a Suite,
    /// `(key, folder)` of each student who enters, in student order.
    pub entrants: &'a [(String, PathBuf)],
    /// Students the gate kept out; they are listed in `tournament.csv` with their marks.
    pub left_out: &'a [LeftOut],
    pub sandbox: Arc<dyn Sandbox>,
    /// Games played at once.
    pub jobs: usize,
    /// The run's cores when the tournament shares them with grading: each game holds one, and the
    /// entrants are built holding one.
    pub slots: Option<Arc<Cores>>,
    /// `results/<suite>/`, where `tournament.csv` goes.
    pub dir: &'a Path,
    /// Each entrant's section by key (the roster's), for a stage played by section; empty when none.
    pub sections: &'a [(String, String)],
}

/// What the class tournament decided.
#[derive(Debug)]
pub struct Outcome {
    /// Everyone who played, by overall rank, with the suite's marks.
    pub placed: Vec<Placed>,
    /// Entrants the machine could not build (a missing toolchain), with why: no mark, never a zero.
    pub not_graded: Vec<(String, String)>,
    /// Why no game was played, when fewer than two could enter.
    pub unplayed: Option<String>,
    /// `tournament.csv` (the games saved beside it in [`GAMES_DIR`]), or why either could not be
    /// written (the marks above stand regardless).
    pub file: anyhow::Result<PathBuf>,
    /// The CPU each entrant's program used over its games, by name.
    pub cpu: Vec<(String, Duration)>,
}

/// Builds the entrants, plays the suite's event among them, ranks them, and writes `tournament.csv`.
/// With fewer than two entrants nothing is played: the one who entered (if any) has no rank, and
/// [`Outcome::unplayed`] says why.
///
/// # Errors
/// A suite without `[arena]`, or a build the grader itself could not make (internal). A
/// `tournament.csv` that cannot be written is [`Outcome::file`]'s error: the marks are kept.
pub fn play_class(event: &ClassEvent<'_>) -> Result<Outcome, Error> {
    let config = event.suite.arena.as_ref().ok_or_else(|| {
        Error::machine(anyhow::anyhow!(
            "suite `{}` has no `[arena]` to play a tournament with",
            event.suite.name
        ))
    })?;
    if event.entrants.len() < 2 {
        let unplayed = format!(
            "no tournament: {} submission(s) could enter, and a game needs two",
            event.entrants.len()
        );
        let mut rows = event.left_out.to_vec();
        rows.extend(event.entrants.iter().map(|(name, _)| LeftOut {
            name: name.clone(),
            why: "no opponent".into(),
            marks: None,
        }));
        // No games: an earlier run's must not pass for this one's.
        let cleared = crate::sandbox::scratch::remove_tree(&event.dir.join(GAMES_DIR))
            .map_err(anyhow::Error::new);
        let file = write_ranking(event.dir, &[], &rows, &[]).and_then(|f| cleared.map(|()| f));
        return Ok(Outcome {
            placed: Vec::new(),
            not_graded: Vec::new(),
            unplayed: Some(unplayed),
            file,
            cpu: Vec::new(),
        });
    }
    dispatch(&config.game, event).map_err(|e| Error::machine(anyhow::Error::new(e)))?
}

impl Visitor for &ClassEvent<'_> {
    type Out = Result<Outcome, Error>;

    fn visit<G: ArenaGame>(self, initial: G, bots: MakeBot<G>) -> Self::Out
    where
        G::Move: Send + Sync,
    {
        let Some(config) = self.suite.arena.as_deref() else {
            return Err(Error::machine(anyhow::anyhow!("no `[arena]`")));
        };
        let (entrants, built) = {
            let _slot = self.slots.as_ref().map(Pacer::enter);
            super::entrants::class_entrants(self.suite, self.entrants, &*self.sandbox)?
        };
        eprintln!(
            "tournament `{}`: {} entrants, seed {}, {} games at once",
            self.suite.name,
            entrants.len(),
            self.suite.seed,
            self.jobs.max(1)
        );
        let knobs = Knobs {
            format: None,
            games: None,
            seed: self.suite.seed,
            jobs: self.jobs,
            slots: self.slots.clone(),
            sections: (!self.sections.is_empty()).then(|| {
                let of = |name: &str| {
                    self.sections
                        .iter()
                        .find(|(k, _)| k == name)
                        .map_or("-".to_string(), |(_, s)| s.clone())
                };
                entrants.iter().map(|e| of(&e.name)).collect()
            }),
        };
        let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
        let played = play(
            &initial,
            bots,
            entrants,
            config,
            Some(self.sandbox.clone()),
            &knobs,
        );
        let results = played.results;
        let cpu = names.into_iter().zip(played.cpu).collect();
        let placed = overall(&results, config.marks.as_ref());
        // The games go beside the ranking, replacing an earlier run's, for `grader play --replay`.
        let games = self.dir.join(GAMES_DIR);
        let saved = crate::sandbox::scratch::remove_tree(&games)
            .map_err(anyhow::Error::new)
            .and_then(|()| save_records(&games, &initial.name(), self.suite.seed, &results));
        let file = write_ranking(self.dir, &placed, self.left_out, &built.not_graded)
            .and_then(|file| saved.map(|()| file));
        Ok(Outcome {
            placed,
            not_graded: built.not_graded,
            unplayed: None,
            file,
            cpu,
        })
    }
}
