//! Per-game knowledge for the bots ([`super::Playable`]): evaluators, "own lines", fast playouts,
//! solvers for the small games.

mod morris;
mod nested;
mod oska;
mod oska_search;
pub mod oska_solve;
mod sttt;
mod sttt_steps;
mod tictactoe;
mod ut3;
