//! Who plays: turning command-line words into entrants (a bot spec, or a submission folder run through
//! the suite's protocol) and entrants into fresh seats for each game.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::sandbox::{Limits, Sandbox, Spec, Stdin};

use crate::arena::config::{ArenaConfig, Protocol};
use crate::arena::event::schedule::SeatMaker;
use crate::arena::game::registry::MakeBot;
use crate::arena::game::ArenaGame;
use crate::arena::seat::dialogue::DialogueSeat;
use crate::arena::seat::permove::PerMoveSeat;
use crate::arena::seat::persistent::PersistentSeat;
use crate::arena::seat::{FnSeat, Reply, ScriptSeat, Seat};

/// One player of a match or tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Unique within the event: the bot spec or the folder's name (with `#2`... for repeats).
    pub name: String,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Bot(String),
    /// A submission the build step compiled from the suite's recipes: it runs its `command` from its
    /// built copy (read-only) in a fresh working folder; per-move argument templates come from the
    /// arena config's `args`.
    Built(crate::build::Built),
    /// A submission folder's scratch copy (never the student's own folder) and the command that runs
    /// its player from there.
    Program {
        dir: PathBuf,
        command: Vec<String>,
    },
    /// A submission that could not be built: it loses every game by fault, with this reason.
    Failed(String),
}

/// A word that names no player.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    #[error("bot `{spec}`: {reason}")]
    Bot { spec: String, reason: String },
    #[error("`{}` has no player program\nhint: a submission to a suite is built and run as the suite says: give the suite folder instead of the game (`grader play suites/iiit-2015-ut3 {} random`); a player of its own is an executable `player` or a `player.py`", .0.display(), .0.display())]
    NoProgram(PathBuf),
    #[error("cannot copy `{}` to a scratch folder", path.display())]
    Copy {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot build `{}`", path.display())]
    Build {
        path: PathBuf,
        #[source]
        source: anyhow::Error,
    },
}

/// The command a folder's player runs with when the config gives none: `./player`, else
/// `python3 player.py`.
fn default_command(dir: &Path) -> Option<Vec<String>> {
    use std::os::unix::fs::PermissionsExt;
    let exe = dir.join("player");
    if exe
        .metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    {
        return Some(vec!["./player".into()]);
    }
    dir.join("player.py")
        .is_file()
        .then(|| vec!["python3".into(), "player.py".into()])
}

/// Resolves each word: an existing folder is a submission, copied into its own folder under `scratch`
/// (it plays from the copy, never from the student's folder), anything else a bot spec (checked now, so
/// a typo fails before any game starts).
///
/// # Errors
/// A bot spec the game does not offer, a folder without a player, or a copy the grader cannot make.
pub fn resolve<G: ArenaGame>(
    words: &[String],
    config: &ArenaConfig,
    bots: MakeBot<G>,
    scratch: &Path,
) -> Result<Vec<Entrant>, PlayerError> {
    let mut k = 0;
    resolve_with(words, bots, &mut |path, name| {
        k += 1;
        let copy = scratch.join(format!("copy-{k}"));
        let skipped = crate::arena::seat::scratch::copy_folder(path, &copy).map_err(|source| {
            PlayerError::Copy {
                path: path.to_path_buf(),
                source,
            }
        })?;
        for (file, why) in skipped.iter().take(5) {
            eprintln!(
                "note: `{name}`: `{}` is left out of the copy it plays from ({why})",
                crate::untrusted::one_line(&file.to_string_lossy(), NAME_CAP)
            );
        }
        if skipped.len() > 5 {
            eprintln!("note: `{name}`: and {} more left out", skipped.len() - 5);
        }
        let command = match &config.command {
            Some(c) => c.clone(),
            None => default_command(&copy).ok_or_else(|| PlayerError::NoProgram(path.into()))?,
        };
        Ok(Some(Kind::Program { dir: copy, command }))
    })
}

/// How a submission folder (path, entrant name) plays, or `None` when it takes no part.
pub type FolderKind<'a> = dyn FnMut(&Path, &str) -> Result<Option<Kind>, PlayerError> + 'a;

/// [`resolve`] with the caller deciding how a folder plays (`folder(path, name)`; a suite builds it).
/// A folder for which `folder` gives `None` takes no part (the caller says why: the machine cannot
/// build it).
///
/// # Errors
/// A bot spec the game does not offer, or whatever `folder` returns.
pub fn resolve_with<G: ArenaGame>(
    words: &[String],
    bots: MakeBot<G>,
    folder: &mut FolderKind<'_>,
) -> Result<Vec<Entrant>, PlayerError> {
    let mut out: Vec<Entrant> = Vec::new();
    for word in words {
        let path = Path::new(word);
        let (base, kind) = if path.is_dir() {
            let name = path
                .canonicalize()
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_else(|| word.clone());
            // A folder's name is the student's to choose: shown everywhere, so made printable here.
            let name = crate::untrusted::one_line(&name, NAME_CAP);
            let Some(kind) = folder(path, &name)? else {
                continue;
            };
            (name, kind)
        } else {
            let _checked = bots(word, 0).map_err(|reason| PlayerError::Bot {
                spec: word.clone(),
                reason,
            })?;
            (word.clone(), Kind::Bot(word.clone()))
        };
        let mut name = base.clone();
        let mut k = 2;
        while out.iter().any(|e| e.name == name) {
            name = format!("{base}#{k}");
            k += 1;
        }
        out.push(Entrant { name, kind });
    }
    Ok(out)
}

/// Characters of a folder's name kept as an entrant's name.
const NAME_CAP: usize = 80;

/// An entrant that cannot play (its build failed): it fails to start every game, so it loses each one
/// by fault before any move, whoever plays first.
struct FailedSeat(String);

impl<G: ArenaGame> Seat<G> for FailedSeat {
    fn start(&mut self, _start: &crate::arena::seat::Start) -> Result<(), Reply> {
        Err(Reply::Broken(self.0.clone()))
    }

    fn request(&mut self, _state: &G, _last: Option<&str>, _deadline: Option<Duration>) -> Reply {
        Reply::Broken(self.0.clone())
    }
}

/// Limits for one player process over a whole game: the referee's clock is the real per-move limit;
/// these only stop a runaway.
#[must_use]
pub fn game_limits(config: &ArenaConfig) -> Limits {
    let per_move = config.policy.deadline().unwrap_or(Duration::from_secs(60));
    let moves = config.policy.move_cap.unwrap_or(500);
    let whole = (per_move * moves).min(Duration::from_secs(6 * 3600)) + Duration::from_secs(30);
    Limits {
        cpu: whole,
        wall: whole,
        memory: 1 << 30,
        output: 64 << 20,
        file_size: 64 << 20,
        processes: 64,
        open_files: 256,
        stack: 8 << 20,
        address_space: None,
        idle: None,
    }
}

/// Makes seats for the CLI's entrants.
pub struct Maker<G: ArenaGame> {
    pub entrants: Vec<Entrant>,
    pub bots: MakeBot<G>,
    pub config: ArenaConfig,
    pub sandbox: Option<Arc<dyn Sandbox>>,
}

impl<G: ArenaGame> Maker<G> {
    /// A bare folder's player, as a `grader run` case runs a program: its copy read-only, a fresh
    /// working folder, the same (empty) environment.
    fn program(&self, dir: &Path, command: &[String], work: &Path) -> Box<dyn Seat<G>> {
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let (program, args) = crate::arena::seat::scratch::anchor(&dir, command);
        let spec = Spec {
            program,
            args,
            workdir: work.to_path_buf(),
            env: Vec::new(),
            stdin: Stdin::Null,
            limits: game_limits(&self.config),
            read_only: vec![dir],
        };
        self.protocol_seat(spec)
    }

    /// Whether the games from now on start alike in any order: no seat still learns from the games
    /// before (a dialogue program's, until the grader has learned how to play it:
    /// [`DialogueSeat::learned`]).
    #[must_use]
    pub fn learned(&self) -> bool {
        let Protocol::Dialogue(_) = &self.config.protocol else {
            return true;
        };
        self.entrants.iter().all(|e| match &e.kind {
            Kind::Built(built) => {
                let args = self.config.args.clone().unwrap_or_default();
                let spec = built.spec(
                    &args,
                    Path::new("/"),
                    Stdin::Piped,
                    &game_limits(&self.config),
                );
                DialogueSeat::learned(&spec)
            }
            Kind::Program { .. } => false,
            Kind::Bot(_) | Kind::Failed(_) => true,
        })
    }

    /// A built submission: its built copy read-only, a fresh working folder (never the copy itself, so
    /// no game can change the program another game runs).
    fn built(&self, built: &crate::build::Built, work: &Path) -> Box<dyn Seat<G>> {
        let args = self.config.args.clone().unwrap_or_default();
        let spec = built.spec(&args, work, Stdin::Piped, &game_limits(&self.config));
        self.protocol_seat(spec)
    }

    /// `make` run in a working folder of its own, which lives as long as the seat.
    fn in_work(&self, make: impl FnOnce(&Path) -> Box<dyn Seat<G>>) -> Box<dyn Seat<G>> {
        match crate::arena::seat::scratch::work_dir() {
            Ok(work) => {
                let seat = make(work.path());
                Box::new(crate::arena::seat::scratch::InWork { seat, work })
            }
            Err(e) => Box::new(ScriptSeat::new(vec![Reply::Broken(format!(
                "the grader could not make a working folder: {e}"
            ))])),
        }
    }

    fn protocol_seat(&self, spec: Spec) -> Box<dyn Seat<G>> {
        let Some(sandbox) = self.sandbox.clone() else {
            return Box::new(ScriptSeat::new(vec![Reply::Broken(
                "no sandbox is available to run submissions".into(),
            )]));
        };
        match &self.config.protocol {
            Protocol::Persistent { startup } => {
                Box::new(PersistentSeat::new(sandbox, spec, *startup))
            }
            Protocol::PerMove => Box::new(PerMoveSeat::new(sandbox, spec)),
            Protocol::Dialogue(script) => {
                Box::new(DialogueSeat::new(sandbox, spec, script.clone()))
            }
        }
    }
}

impl<G: ArenaGame> SeatMaker<G> for Maker<G> {
    fn seat(&self, who: usize, seed: u64) -> Box<dyn Seat<G>> {
        match &self.entrants[who].kind {
            Kind::Bot(spec) => match (self.bots)(spec, seed) {
                Ok(pick) => Box::new(FnSeat::from_pick(pick)),
                Err(why) => Box::new(ScriptSeat::new(vec![Reply::Broken(why)])),
            },
            Kind::Program { dir, command } => self.in_work(|w| self.program(dir, command, w)),
            Kind::Built(built) => self.in_work(|w| self.built(built, w)),
            Kind::Failed(why) => Box::new(FailedSeat(why.clone())),
        }
    }
}
