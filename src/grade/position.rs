//! Position cases: the built program is asked for one move at a given state through the suite's
//! protocol, and the move is judged with the game's rules (`legal`, `win`, `block`, `pass`).

use std::path::Path;
use std::sync::Arc;

use crate::arena::config::Protocol;
use crate::arena::game::registry::{dispatch, MakeBot, Visitor};
use crate::arena::game::ArenaGame;
use crate::arena::seat::permove::PerMoveSeat;
use crate::arena::seat::persistent::PersistentSeat;
use crate::arena::seat::Seat;
use crate::build::Built;
use crate::judge::Verdict;
use crate::position::ask::{ask, Asked, FileCheck};
use crate::position::read;
use crate::report::result::CaseResult;
use crate::sandbox::{Sandbox, Spec, Stdin};
use crate::suite::{Case, Group, Position, Suite};

/// Runs and judges one position case. `scratch` is a fresh folder the case may use: the program runs
/// in `scratch/work`, where it writes its files.
pub fn run_position(
    sandbox: &Arc<dyn Sandbox>,
    suite: &Suite,
    group: &Group,
    case: &Case,
    position: &Position,
    built: &Built,
    scratch: &Path,
) -> CaseResult {
    let mut result = super::case::blank(group, case);
    let work = scratch.join("work");
    if let Err(e) = std::fs::create_dir_all(&work) {
        result.summary = format!("the grader could not make a work folder: {e}");
        return result;
    }
    let limits = case.limits.clone();
    let args: Vec<String> = position.arena.args.iter().flatten().cloned().collect();
    let spec = built.spec(&args, &work, Stdin::Null, &limits);
    let asking = Asking {
        sandbox,
        position,
        spec,
        seed: suite.seed,
        work: &work,
    };
    match dispatch(&position.arena.game, asking) {
        Ok(Ok(asked)) => {
            result.verdict = asked.verdict;
            result.credit = asked.credit;
            result.summary = asked.summary;
            result.details = asked.details;
            result.wall_ms = crate::units::nearest_ms(asked.took);
            if let Some(used) = asked.used {
                result.cpu_ms = crate::units::nearest_ms(used.cpu);
                result.peak_memory = used.peak_memory;
            }
        }
        Ok(Err(why)) => result.summary = why,
        Err(e) => result.summary = e.to_string(),
    }
    result
}

struct Asking<'a> {
    sandbox: &'a Arc<dyn Sandbox>,
    position: &'a Position,
    spec: Spec,
    seed: u64,
    work: &'a Path,
}

impl Visitor for Asking<'_> {
    type Out = Result<Asked, String>;

    fn visit<G: ArenaGame>(self, initial: G, _bots: MakeBot<G>) -> Self::Out
    where
        G::Move: Send + Sync,
    {
        let p = self.position;
        // The suite checked the state when it loaded; failing here is the grader's fault.
        let state = read(&initial, &p.state, &p.side).map_err(|e| e.to_string())?;
        let mut files = Vec::new();
        for (name, word) in &p.files {
            let check = FileCheck::parse(word)
                .ok_or_else(|| format!("unknown file check `{word}` for `{name}`"))?;
            files.push((name.clone(), check));
        }
        let lent = self.sandbox.clone();
        let mut seat: Box<dyn Seat<G> + '_> = match &p.arena.protocol {
            Protocol::PerMove => Box::new(PerMoveSeat::new(lent, self.spec)),
            Protocol::Persistent { startup } => {
                Box::new(PersistentSeat::new(lent, self.spec, *startup))
            }
            Protocol::Dialogue(_) => {
                return Err("position cases cannot use the dialogue protocol".to_string())
            }
        };
        let asked = ask(
            &mut *seat,
            &state,
            p.expect,
            &p.arena.policy,
            self.seed,
            self.work,
            &files,
        );
        if asked.verdict == Verdict::InternalError {
            return Err(asked.summary);
        }
        Ok(asked)
    }
}
