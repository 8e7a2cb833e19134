//! The rules of every seed game, one module each.

pub mod decode;
pub mod oska;
mod oska_why;
pub mod raster;
mod sexpr;
pub mod sttt;
pub mod sttt_steps;
pub mod tictactoe;
pub mod tmmorris;
pub(crate) mod tri;
pub mod ut3;

pub use decode::DecodeError;
pub use oska::{Oska, OskaMove};
pub use sttt::{Sttt, Turn};
pub use sttt_steps::SttSteps;
pub use ut3::{Ut3, Ut3Move};
