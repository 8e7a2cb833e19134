//! Game-tree search over any `Game`: minimax, alpha-beta, depth-limited, with visited-node traces.
//!
//! Rules, evaluation and search stay apart: a search takes a `Game`, an [`Evaluator`] that values the
//! leaves, and options. Children are searched in the game's move order and ties go to the earliest
//! move, so every search is deterministic and its trace reproducible byte for byte.

pub mod alphabeta;
pub mod minimax;
pub mod retrograde;
pub mod trace;

use crate::game::{Game, Outcome};
pub use alphabeta::{alphabeta, AlphaBeta, Cut, RootWindow, Values};
pub use minimax::{minimax, Minimax};
pub use retrograde::{Solved, Table};
pub use trace::{Trace, Visit};

/// Values the leaves of a search, from Max's (`First`'s) point of view: larger is better for Max.
pub trait Evaluator<G: Game> {
    /// The value of a finished game reached `depth` moves below the root.
    fn terminal(&self, state: &G, outcome: Outcome, depth: u32) -> i32;
    /// The value of an unfinished position at the ply limit (or one with no legal move).
    fn horizon(&self, state: &G) -> i32;
}

/// The true utility of finished games (1, 0, -1) and nothing else: for searches without a ply limit.
#[derive(Clone, Copy, Debug, Default)]
pub struct Utility;

impl<G: Game> Evaluator<G> for Utility {
    fn terminal(&self, _: &G, outcome: Outcome, _: u32) -> i32 {
        outcome.utility()
    }
    fn horizon(&self, _: &G) -> i32 {
        0
    }
}

/// What a search found: the chosen move (the earliest of the best), the root's value, and the trace.
#[derive(Clone, Debug)]
pub struct Searched<G: Game> {
    /// `None` when the root is finished or has no legal move.
    pub best: Option<G::Move>,
    pub value: i32,
    /// Every visited node, the root included, in pre-order (empty when tracing was off).
    pub trace: Trace<G>,
    /// False when the node budget ran out: the search stopped early and its results mean nothing.
    pub complete: bool,
}

/// A value below every real value and one above, so that `-INF`/`INF` never collide with a leaf value.
pub const INF: i32 = i32::MAX;

/// The parts both searches share: the trace being recorded, the current path (for repetition), and one
/// reusable move buffer per depth so the hot loop does not allocate.
pub(crate) struct Walker<G: Game> {
    pub trace: Option<Vec<Visit<G>>>,
    pub path: Vec<G>,
    pub repetition: bool,
    buffers: Vec<Vec<G::Move>>,
    visited: u64,
    budget: u64,
    pub aborted: bool,
}

impl<G: Game + PartialEq> Walker<G> {
    pub fn new(
        record: bool,
        repetition: bool,
        max_nodes: Option<u64>,
        capacity: usize,
    ) -> Walker<G> {
        Walker {
            trace: record.then(|| Vec::with_capacity(capacity)),
            path: Vec::new(),
            repetition,
            buffers: Vec::new(),
            visited: 0,
            budget: max_nodes.unwrap_or(u64::MAX),
            aborted: false,
        }
    }

    /// Records a node on entry (pre-order); its value is filled in by `leave`.
    pub fn enter(&mut self, state: &G, depth: u32) -> usize {
        self.visited += 1;
        if self.visited > self.budget {
            // Past the budget every node is a leaf, so the search unwinds at once.
            self.aborted = true;
            return usize::MAX;
        }
        match &mut self.trace {
            Some(t) => {
                t.push(Visit {
                    state: state.clone(),
                    value: 0,
                    depth,
                });
                t.len() - 1
            }
            None => 0,
        }
    }

    pub fn leave(&mut self, index: usize, value: i32) -> i32 {
        if let Some(t) = &mut self.trace {
            if let Some(v) = t.get_mut(index) {
                v.value = value;
            }
        }
        value
    }

    /// The value of `state` if it is a leaf: a repetition of a position on the current path (a draw,
    /// 0), a finished game, a position at the ply limit, or one with no legal move.
    pub fn leaf<E: Evaluator<G>>(
        &self,
        state: &G,
        depth: u32,
        ply: Option<u32>,
        eval: &E,
    ) -> Option<i32> {
        if self.aborted {
            return Some(0);
        }
        if self.repetition && self.path.iter().any(|p| p == state) {
            return Some(0);
        }
        if let Some(outcome) = state.outcome() {
            return Some(eval.terminal(state, outcome, depth));
        }
        if ply == Some(depth) {
            return Some(eval.horizon(state));
        }
        None
    }

    /// The legal moves of `state`, in a buffer owned by `depth` (hand it back with `put_moves`).
    pub fn take_moves(&mut self, state: &G, depth: u32) -> Vec<G::Move> {
        let d = depth as usize;
        if self.buffers.len() <= d {
            self.buffers.resize_with(d + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[d]);
        moves.clear();
        state.legal_moves(&mut moves);
        moves
    }

    pub fn put_moves(&mut self, depth: u32, moves: Vec<G::Move>) {
        self.buffers[depth as usize] = moves;
    }

    pub fn finish(self) -> Trace<G> {
        Trace {
            visits: self.trace.unwrap_or_default(),
        }
    }
}
