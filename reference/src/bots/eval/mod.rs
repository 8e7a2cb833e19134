//! Per-game knowledge for the bots ([`super::Playable`]): evaluators, "own lines", fast playouts.

mod nested;
mod oska;
mod sttt;
mod ut3;
