//! Pure game code for `grader`: rules, evaluators, search with visited-node traces, and bots.
//!
//! Nothing in this crate performs I/O. Every function is deterministic given its inputs (bots take an
//! explicit seed), so golden outputs and tournaments are reproducible byte for byte.
//!
//! The `student` feature builds the crate for the grader students install: the rules, the bots and
//! the variant names stay; the search with traces, the Adelaide solvers and the handout's E(s) (the
//! assignment's answer) are left out.

pub mod adelaide;
pub mod analysis;
pub mod bots;
pub mod divergence;
pub mod game;
pub mod games;
pub mod rng;
#[cfg(not(feature = "student"))]
pub mod search;

pub use game::{Game, Notation, Outcome, Player};
