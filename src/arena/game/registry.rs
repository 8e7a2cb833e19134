//! The games the CLI can name, and the bots each offers: one place that turns `ut3` or `oska:5` into a
//! concrete `ArenaGame` type, so `play` and `tournament` stay generic.

use std::cell::RefCell;
use std::collections::HashMap;

use reference::games::oska::MAX_N as MAX_OSKA;
use reference::games::tictactoe::TicTacToe;
use reference::games::tmmorris::Morris;
use reference::games::{Oska, Sttt, Ut3};

use crate::arena::config::GAMES;
use crate::arena::game::rules::{self, External};
use crate::arena::game::seeds::{ladder, ladder_oska_unsolved};
use crate::arena::game::ArenaGame;
use crate::arena::seat::Pick;

thread_local! {
    /// The first position of each rules program started on this thread while a [`KeepRules`] lives.
    static KEPT: RefCell<Option<HashMap<String, External>>> = const { RefCell::new(None) };
}

/// While it lives, [`dispatch`] on this thread starts each rules program once and hands every later
/// visitor a copy of its first position: a suite's load asks a rules game its name, sides and bots
/// several times, and each start is an interpreter's (a JVM's half second). Only for visitors that
/// play no game of their own: the copies share one program, which answers one question at a time.
#[must_use = "rules programs are kept started only while it lives"]
pub struct KeepRules {
    /// Whether this one installed the keeping (an inner one leaves it to the outer).
    outer: bool,
}

/// Keeps rules programs started on this thread until the returned guard is dropped.
pub fn keep_rules() -> KeepRules {
    let outer = KEPT.with(|k| {
        let mut k = k.borrow_mut();
        let outer = k.is_none();
        if outer {
            *k = Some(HashMap::new());
        }
        outer
    });
    KeepRules { outer }
}

impl Drop for KeepRules {
    fn drop(&mut self) {
        if self.outer {
            // Taken out first: the programs stop as the positions drop, with no borrow held.
            let kept = KEPT.with(|k| k.borrow_mut().take());
            drop(kept);
        }
    }
}

/// The first position of rules program `name`: a kept one's copy, else started now (and kept when a
/// [`KeepRules`] lives). A program that would not start is not kept: the next visitor tries again.
fn kept_or_started(name: &str) -> Result<External, String> {
    let kept = KEPT.with(|k| k.borrow().as_ref().map(|m| m.get(name).cloned()));
    match kept {
        Some(Some(initial)) => Ok(initial),
        Some(None) => {
            let initial = External::new(name)?;
            KEPT.with(|k| {
                if let Some(m) = k.borrow_mut().as_mut() {
                    m.insert(name.to_string(), initial.clone());
                }
            });
            Ok(initial)
        }
        None => External::new(name),
    }
}

/// Builds a bot's move picker from its spec and a seed, or says why it cannot.
pub type MakeBot<G> = fn(spec: &str, seed: u64) -> Result<Pick<G>, String>;

/// Something to do with a game once its type is known.
pub trait Visitor {
    type Out;
    fn visit<G: ArenaGame>(self, initial: G, bots: MakeBot<G>) -> Self::Out
    where
        G::Move: Send + Sync;
}

/// A game name the arena cannot run.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("unknown game `{0}`\nhint: games are `{list}`, and `oska:N` for N ≥ 4 pieces", list = GAMES.join("`, `"))]
    Unknown(String),
    #[error("bad oska size in `{0}`\nhint: write `oska:N` with 4 ≤ N ≤ {MAX_OSKA}")]
    OskaSize(String),
    /// A suite's rules program that would not start or answer: the suite's fault, not a player's.
    #[error("{0}\nhint: the rules program is the suite's (docs/rules-programs.md); try it by hand: `printf 'rules\\t1\\nstart\\n' | python3 RULES.py`")]
    Rules(String),
}

/// Calls `v` with the game `name` names: a built-in game, or `rules:PATH`, a suite's rules program
/// (started here, unless a [`KeepRules`] of this thread keeps it started, and stopped when the last
/// position of its games is dropped).
///
/// # Errors
/// An unknown name or a bad parameter.
pub fn dispatch<V: Visitor>(name: &str, v: V) -> Result<V::Out, GameError> {
    if name.starts_with(rules::PREFIX) {
        let initial = kept_or_started(name).map_err(GameError::Rules)?;
        return Ok(v.visit(initial, rules::bots));
    }
    let (base, param) = name.split_once(':').unwrap_or((name, ""));
    if !GAMES.contains(&base) {
        return Err(GameError::Unknown(name.to_string()));
    }
    let mut n = 4;
    if base == "oska" && !param.is_empty() {
        match param.parse::<usize>() {
            Ok(k) if (4..=MAX_OSKA).contains(&k) => n = k,
            _ => return Err(GameError::OskaSize(name.to_string())),
        }
    } else if !param.is_empty() {
        return Err(GameError::Unknown(name.to_string()));
    }
    match base {
        "tictactoe" => Ok(v.visit(TicTacToe::new(), ladder::<TicTacToe>)),
        "tmmorris" => Ok(v.visit(Morris::new(), ladder::<Morris>)),
        "sttt" => Ok(v.visit(Sttt::new(), ladder::<Sttt>)),
        "ut3" => Ok(v.visit(Ut3::new(), ladder::<Ut3>)),
        "oska" if n == 4 => Ok(v.visit(Oska::new(n), ladder::<Oska>)),
        // Only n = 4 is solved, so the larger boards have no `perfect`.
        "oska" => Ok(v.visit(Oska::new(n), ladder_oska_unsolved)),
        _ => Err(GameError::Unknown(name.to_string())),
    }
}
