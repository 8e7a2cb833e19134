//! Grading: runs a suite's cases on submissions, judges them, applies the rubric.

pub mod ahead;
pub mod case;
pub mod cases;
pub mod class;
pub mod classevent;
pub mod dialogue;
pub mod entrants;
pub mod fingerprint;
pub mod integrity;
pub mod names;
pub mod pipeline;
pub mod play;
pub mod position;
pub mod rooms;
pub mod samefault;
pub mod score;
pub mod sets;
pub mod shard;
pub mod spread;
pub mod tournament;
pub mod wire;

#[cfg(test)]
mod tests;
