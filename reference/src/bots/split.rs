//! Bots for games whose turn is several steps (Super-TTT: two placements), searching one step at a
//! time: a step game branches 81 then 80 ways where whole turns branch 3,240 ways, and alpha-beta
//! prunes at every step.
//!
//! A game opts in with [`SplitTurn`] (its step view) and [`Playable::own_bot`]; [`Split`] plays a
//! turn by asking a step bot (MCTS) for each step in turn, [`TurnSearch`] searches the whole turn at
//! once with alpha-beta over steps.

use super::minimax::{negamax, terminal_value};
use super::{Bot, Playable, WIN};
use crate::game::{Game, Outcome};
use crate::rng::Rng;

/// A game whose turn is a sequence of steps, with a view in which each step is a move.
pub trait SplitTurn: Playable {
    /// The same game one step a move: the side to move changes only when its turn is over.
    type Steps: Playable;

    /// This position, at the start of the side to move's turn, in the step view.
    fn steps(&self) -> Self::Steps;

    /// The turn made of `steps` (the side to move's steps until its turn ended), as
    /// [`Game::legal_moves`] lists it.
    fn turn(&self, steps: &[<Self::Steps as Game>::Move]) -> Self::Move;
}

/// Plays each step of a turn with a step-level bot (a fresh search for every step).
pub struct Split<G: SplitTurn> {
    inner: Box<dyn Bot<G::Steps>>,
}

impl<G: SplitTurn> Split<G> {
    #[must_use]
    pub fn new(inner: Box<dyn Bot<G::Steps>>) -> Split<G> {
        Split { inner }
    }
}

/// The steps of one turn, each chosen by `pick` in the position it is made in.
fn play_turn<S: Playable>(mut s: S, mut pick: impl FnMut(&S) -> S::Move) -> Vec<S::Move> {
    let me = s.to_move();
    let mut steps = Vec::new();
    while s.outcome().is_none() && s.to_move() == me {
        let m = pick(&s);
        steps.push(m);
        s.apply(m);
    }
    steps
}

impl<G: SplitTurn> Bot<G> for Split<G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    /// A step that wins at once is taken without asking the step bot (MCTS with few playouts may
    /// not even try it among 81).
    fn choose(&mut self, state: &G) -> G::Move {
        let steps = play_turn(state.steps(), |s| {
            let me = s.to_move();
            s.moves()
                .into_iter()
                .find(|&m| s.after(m).outcome() == Some(Outcome::Win(me)))
                .unwrap_or_else(|| self.inner.choose(s))
        });
        state.turn(&steps)
    }
}

/// `minimax:D` over steps: alpha-beta (negamax) to D steps from the start of the turn, and at least
/// through the rest of the turn, with the step game's move ordering; picks all the turn's steps in one
/// search. Moves are shuffled by the seed before ordering, so equal-valued turns vary between games.
pub struct TurnSearch<G: SplitTurn> {
    depth: u32,
    rng: Rng,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: SplitTurn> TurnSearch<G> {
    #[must_use]
    pub fn new(depth: u32, seed: u64) -> TurnSearch<G> {
        TurnSearch {
            depth,
            rng: Rng::new(seed),
            _game: std::marker::PhantomData,
        }
    }
}

/// The best value `me` (to move in `s`) can reach with the rest of its turn, and the steps that reach
/// it. Same-side children stay in this function (their window is `me`'s); the opponent's are
/// searched by [`negamax`].
fn best_steps<S: Playable>(
    s: &S,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: u32,
    rng: &mut Rng,
) -> (i32, Vec<S::Move>) {
    let me = s.to_move();
    let mut moves = s.search_moves();
    for i in (1..moves.len()).rev() {
        let j = rng.below(i + 1);
        moves.swap(i, j);
    }
    s.order_moves(&mut moves);
    let mut best = (-WIN - 1, Vec::new());
    for m in moves {
        let child = s.after(m);
        let (v, rest) = match child.outcome() {
            Some(o) => (terminal_value(o, me, ply + 1), Vec::new()),
            None if child.to_move() == me => {
                best_steps(&child, depth.saturating_sub(1), alpha, beta, ply + 1, rng)
            }
            None => (
                -negamax(&child, depth.saturating_sub(1), -beta, -alpha, ply + 1),
                Vec::new(),
            ),
        };
        if v > best.0 {
            let mut line = vec![m];
            line.extend(rest);
            best = (v, line);
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

impl<G: SplitTurn> Bot<G> for TurnSearch<G> {
    fn name(&self) -> String {
        format!("minimax:{}", self.depth)
    }

    fn choose(&mut self, state: &G) -> G::Move {
        let (_, steps) = best_steps(
            &state.steps(),
            self.depth,
            -WIN - 1,
            WIN + 1,
            0,
            &mut self.rng,
        );
        state.turn(&steps)
    }
}
