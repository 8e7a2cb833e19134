//! Plain minimax: every child of every node searched, optionally to a ply limit.

use super::{Evaluator, Searched, Walker, INF};
use crate::game::{Game, Player};

/// Options for plain minimax.
#[derive(Clone, Copy, Debug, Default)]
pub struct Minimax {
    /// Nodes this many moves below the root are leaves valued by `Evaluator::horizon`.
    pub ply: Option<u32>,
    /// A position repeated on the current search path is a leaf worth 0 (a draw).
    pub repetition: bool,
    /// Record the visited-node trace.
    pub trace: bool,
    /// Stop (with `Searched::complete` false) after visiting this many nodes.
    pub max_nodes: Option<u64>,
    /// Trace entries to reserve up front: an overestimate costs only address space (untouched pages are
    /// never faulted in), while growing a half-million-entry trace copies it several times.
    pub capacity: usize,
}

/// Searches the whole tree below `root` (to the ply limit) and returns the earliest best move.
pub fn minimax<G, E>(root: &G, eval: &E, opts: Minimax) -> Searched<G>
where
    G: Game + PartialEq,
    E: Evaluator<G>,
{
    let mut s = Search {
        walker: Walker::new(opts.trace, opts.repetition, opts.max_nodes, opts.capacity),
        eval,
        ply: opts.ply,
        best: None,
    };
    let value = s.value(root, 0);
    Searched {
        best: s.best,
        value,
        complete: !s.walker.aborted,
        trace: s.walker.finish(),
    }
}

struct Search<'e, G: Game, E> {
    walker: Walker<G>,
    eval: &'e E,
    ply: Option<u32>,
    best: Option<G::Move>,
}

impl<G: Game + PartialEq, E: Evaluator<G>> Search<'_, G, E> {
    fn value(&mut self, state: &G, depth: u32) -> i32 {
        let index = self.walker.enter(state, depth);
        if let Some(v) = self.walker.leaf(state, depth, self.ply, self.eval) {
            return self.walker.leave(index, v);
        }
        let moves = self.walker.take_moves(state, depth);
        if moves.is_empty() {
            self.walker.put_moves(depth, moves);
            let v = self.eval.horizon(state);
            return self.walker.leave(index, v);
        }
        let max = state.to_move() == Player::First;
        let mut v = if max { -INF } else { INF };
        if self.walker.repetition {
            self.walker.path.push(state.clone());
        }
        for &mv in &moves {
            let cv = self.value(&state.after(mv), depth + 1);
            if (max && cv > v) || (!max && cv < v) {
                v = cv;
                if depth == 0 {
                    self.best = Some(mv);
                }
            }
        }
        if self.walker.repetition {
            self.walker.path.pop();
        }
        self.walker.put_moves(depth, moves);
        self.walker.leave(index, v)
    }
}
