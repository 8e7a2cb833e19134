//! Benchmark bots, one ladder per game: random, offensive, defensive, minimax, mcts, perfect.
//!
//! A bot is built from a spec string with [`bot`] and a seed; given the same seed and the same positions
//! it makes the same moves (except `mcts:<N>ms`, whose time budget depends on the machine). What a bot
//! needs to know about a game beyond its rules (evaluation, "own lines", a solver) is the [`Playable`]
//! trait, implemented per game in `eval/`.

mod duel;
pub mod eval;
mod greedy;
mod mcts;
mod minimax;
mod perfect;
mod random;
pub mod solve;
mod split;

use std::time::Duration;

pub use duel::{duel, Duel, EndReason};
pub use greedy::{Defensive, Offensive};
pub use mcts::{Mcts, MctsBudget};
pub use minimax::Minimax;
pub use perfect::Perfect;
pub use random::RandomBot;
pub use split::{Split, SplitTurn, TurnSearch};

use crate::game::{Game, Notation, Outcome, Player};
use crate::rng::Rng;

/// A player that picks a move in a position. Called only when the game is not over.
pub trait Bot<G: Game>: Send {
    /// The spec it was built from (`minimax:3`), for records and standings.
    fn name(&self) -> String;
    /// A legal move for the side to move in `state`.
    fn choose(&mut self, state: &G) -> G::Move;
}

/// Scores bots compare: a win is worth more than any evaluation, and a faster win more than a slower one.
pub const WIN: i32 = 1_000_000;

/// What bots need to know about a game beyond its rules.
pub trait Playable: Game + Notation + Send + Sync + 'static {
    /// The game's name in messages (`ut3`).
    const NAME: &'static str;
    /// A duel still running after this many plies is adjudicated a draw (only reachable in games that can
    /// cycle, like Three Men's Morris; for the others it is above the longest possible game).
    const MAX_PLIES: usize;
    /// How long MCTS playouts run before they are scored a draw: `MAX_PLIES` except in games that can
    /// cycle, where a random playout may wander for the whole cap.
    const PLAYOUT_PLIES: usize = Self::MAX_PLIES;
    /// How much more the `defensive` bot weighs spoiling the opponent's prospects than building its own
    /// (tuned per game with `examples/ladder.rs`).
    const DEFENCE: i32 = 2;
    /// UCT's exploration constant for `mcts:N` where the searching side moves: √2 suits rewards in
    /// [0, 1]; a game whose playouts are informative enough may explore less.
    const EXPLORATION: f64 = std::f64::consts::SQRT_2;
    /// MCTS's exploration constant where the opponent of the searching side moves
    /// ([`Playable::EXPLORATION`] unless a game says otherwise). Larger values average over more of
    /// the opponent's replies instead of assuming its best one: in a game won for the other side from
    /// the start (Oska n = 4), that steers towards the moves where a fallible opponent goes wrong
    /// most often.
    const EXPLORE_REPLIES: f64 = Self::EXPLORATION;
    /// Whether [`Playable::solve`] answers for some positions of the game (and so whether there can be
    /// a `perfect` bot); [`Playable::solvable`] says which.
    const SOLVABLE: bool = false;

    /// How good `side`'s own prospects look, ignoring the opponent's threats: open lines and how full
    /// they are, or how far pieces have advanced. What the `offensive` bot maximises.
    fn own_score(&self, side: Player) -> i32;

    /// What the `offensive` bot maximises after its move: [`Playable::own_score`], except in games
    /// where the move also decides where the opponent plays next (UT3), where handing the opponent a
    /// block it completes at once is no way to build one's own lines.
    fn offence(&self, side: Player) -> i32 {
        self.own_score(side)
    }

    /// How good the side to move's prospects are: what the `defensive` bot minimises after its move.
    /// [`Playable::own_score`] of the side to move, except in games where one more move changes them
    /// a lot (UT3: the blocks it was sent to), where it is the best it reaches with its next move.
    fn threat(&self) -> i32 {
        self.own_score(self.to_move())
    }

    /// A static evaluation from `First`'s point of view for a position that is not over; it must stay
    /// well inside `±WIN / 2`.
    fn evaluate(&self) -> i32 {
        self.own_score(Player::First) - self.own_score(Player::Second)
    }

    /// Plays uniformly random legal moves (or something as cheap and as fair) until the game ends or
    /// `max_plies` more plies have been played; the outcome, `None` when capped. Games override this
    /// with an allocation-free version because MCTS spends its time here.
    fn playout(&mut self, rng: &mut Rng, max_plies: usize) -> Option<Outcome> {
        let mut moves = Vec::new();
        for _ in 0..max_plies {
            if let Some(o) = self.outcome() {
                return Some(o);
            }
            moves.clear();
            self.legal_moves(&mut moves);
            let m = moves[rng.below(moves.len())];
            self.apply(m);
        }
        self.outcome()
    }

    /// The exact value of this position for the side to move under perfect play: positive a win
    /// (larger = sooner), 0 a draw, negative a loss (more negative = sooner). `None` when the game has no
    /// solver (then there is no `perfect` bot for it).
    fn solve(&self) -> Option<i32> {
        None
    }

    /// Whether [`Playable::solve`] answers for this position and every one reachable from it:
    /// [`Playable::SOLVABLE`], except where it depends on the board (Oska: n = 4 only).
    fn solvable(&self) -> bool {
        Self::SOLVABLE
    }

    /// Can the side to move win with its very next move? The `defensive` bot asks this of every reply;
    /// games with many moves a turn override it with something faster than trying them all.
    fn can_win_now(&self) -> bool {
        let me = self.to_move();
        self.moves()
            .into_iter()
            .any(|m| self.after(m).outcome() == Some(Outcome::Win(me)))
    }

    /// The moves a search tries: the legal moves, less any that only reach a position another of
    /// them reaches too (Super-TTT: the same two placements in the other order).
    fn search_moves(&self) -> Vec<Self::Move> {
        self.moves()
    }

    /// Puts the moves most likely to be best first, so alpha-beta prunes more (the search's result
    /// does not depend on it). Called on the legal moves of inner search nodes; the default keeps the
    /// game's order.
    fn order_moves(&self, _moves: &mut [Self::Move]) {}

    /// `Some(k)` when the side to move surely wins within `k` more plies whatever the opponent does
    /// (searches then stop there); the default never knows.
    fn won_within(&self) -> Option<u32> {
        None
    }

    /// The game's own bot for `spec` (already checked by [`bot`]), when it plays a bot kind its own
    /// way (Super-TTT searches one placement at a time; Oska's `minimax:D` deepens iteratively with a
    /// transposition table); `None` builds the generic one.
    fn own_bot(_spec: &str, _seed: u64) -> Option<Box<dyn Bot<Self>>> {
        None
    }
}

/// A bot spec that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotSpecError {
    #[error("unknown bot `{spec}`\nhint: valid bots are `random`, `offensive`, `defensive`, `minimax:<depth>`, `mcts:<playouts>`, `mcts:<millis>ms`, `perfect`")]
    Unknown { spec: String },
    #[error("bad parameter in bot `{spec}`: {reason}")]
    BadParameter { spec: String, reason: String },
    #[error("bot `{spec}` is not available for {game}\nhint: `perfect` exists only for games small enough to solve (tic-tac-toe, Three Men's Morris, Oska with n = 4)")]
    Unavailable { spec: String, game: &'static str },
}

/// Builds the bot `spec` names for game `G`, seeded with `seed`.
///
/// Specs: `random`; `offensive`; `defensive`; `minimax:D` (alpha-beta to depth D, 1..=12);
/// `mcts:N` (UCT, N playouts, 1..=10_000_000); `mcts:Tms` (UCT for T milliseconds a move: NOT
/// reproducible, since how many playouts fit depends on the machine); `perfect` (games with a solver;
/// for a game whose solver covers only some boards, build it with [`bot_for`]).
///
/// # Errors
/// An unknown name, a bad parameter, or `perfect` for a game without a solver.
pub fn bot<G: Playable>(spec: &str, seed: u64) -> Result<Box<dyn Bot<G>>, BotSpecError> {
    let generic = generic_bot::<G>(spec, seed)?;
    Ok(G::own_bot(spec, seed).unwrap_or(generic))
}

/// [`bot`] as every game plays it, unless [`Playable::own_bot`] says otherwise; also checks the spec.
fn generic_bot<G: Playable>(spec: &str, seed: u64) -> Result<Box<dyn Bot<G>>, BotSpecError> {
    let bad = |reason: &str| BotSpecError::BadParameter {
        spec: spec.to_owned(),
        reason: reason.to_owned(),
    };
    let (name, param) = match spec.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (spec, None),
    };
    let no_param = |b: Box<dyn Bot<G>>| match param {
        None => Ok(b),
        Some(_) => Err(bad("this bot takes no parameter")),
    };
    match name {
        "random" => no_param(Box::new(RandomBot::new(seed))),
        "offensive" => no_param(Box::new(Offensive::new(seed))),
        "defensive" => no_param(Box::new(Defensive::new(seed))),
        "perfect" => {
            if !G::SOLVABLE {
                return Err(BotSpecError::Unavailable {
                    spec: spec.to_owned(),
                    game: G::NAME,
                });
            }
            no_param(Box::new(Perfect::new(seed)))
        }
        "minimax" => {
            let p = param.ok_or_else(|| bad("write the depth, as in `minimax:3`"))?;
            let d: u32 = p
                .parse()
                .ok()
                .filter(|d| (1..=12).contains(d))
                .ok_or_else(|| bad(&format!("depth `{p}` is not a whole number in 1..=12")))?;
            Ok(Box::new(Minimax::new(d, seed)))
        }
        "mcts" => {
            let p = param.ok_or_else(|| {
                bad("write the playouts, as in `mcts:1000`, or a time, as in `mcts:200ms`")
            })?;
            let budget = if let Some(ms) = p.strip_suffix("ms") {
                let ms: u64 = ms
                    .parse()
                    .ok()
                    .filter(|m| (1..=600_000).contains(m))
                    .ok_or_else(|| bad(&format!("time `{p}` is not 1ms..=600000ms")))?;
                MctsBudget::Time(Duration::from_millis(ms))
            } else {
                let n: u32 = p
                    .parse()
                    .ok()
                    .filter(|n| (1..=10_000_000).contains(n))
                    .ok_or_else(|| {
                        bad(&format!(
                            "playouts `{p}` is not a whole number in 1..=10000000"
                        ))
                    })?;
                MctsBudget::Playouts(n)
            };
            Ok(Box::new(Mcts::new(budget, seed, spec.to_owned())))
        }
        _ => Err(BotSpecError::Unknown {
            spec: spec.to_owned(),
        }),
    }
}

/// [`bot`] for games played from `start`: also refuses `perfect` when the solver does not cover that
/// board (Oska is solved for n = 4 only).
///
/// # Errors
/// As [`bot`], and `perfect` when `start` is not [`Playable::solvable`].
pub fn bot_for<G: Playable>(
    spec: &str,
    seed: u64,
    start: &G,
) -> Result<Box<dyn Bot<G>>, BotSpecError> {
    if spec == "perfect" && !start.solvable() {
        return Err(BotSpecError::Unavailable {
            spec: spec.to_owned(),
            game: G::NAME,
        });
    }
    bot(spec, seed)
}

/// Picks uniformly among the moves with the highest score (ties broken by the seeded generator, so
/// games between deterministic bots still vary from seed to seed).
pub(crate) fn best_by<M: Copy>(moves: &[M], rng: &mut Rng, mut score: impl FnMut(M) -> i64) -> M {
    let mut best = i64::MIN;
    let mut ties: Vec<M> = Vec::new();
    for &m in moves {
        let s = score(m);
        if s > best {
            best = s;
            ties.clear();
        }
        if s == best {
            ties.push(m);
        }
    }
    ties[rng.below(ties.len())]
}
