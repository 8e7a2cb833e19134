//! Pure game code for `grader`: rules, evaluators, search with visited-node traces, and bots.
//!
//! Nothing in this crate performs I/O. Every function is deterministic given its inputs (bots take an
//! explicit seed), so golden outputs and tournaments are reproducible byte for byte.

pub mod adelaide;
pub mod analysis;
pub mod bots;
pub mod game;
pub mod games;
pub mod rng;
pub mod search;

pub use game::{Game, Notation, Outcome, Player};
