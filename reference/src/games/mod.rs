//! The rules of every seed game, one module each.

pub mod oska;
pub mod raster;
pub mod sttt;
pub mod tictactoe;
pub mod tmmorris;
pub mod ut3;
