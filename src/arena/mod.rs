//! The arena: games between programs and bots. `game/` is what the arena needs of a game (the trait,
//! the seed games, records and replays, the registry of names); `seat/` the protocols a player is
//! talked to through (persistent, per-move, dialogue) and who plays; `referee.rs` one game under a
//! policy; `analysis.rs` what a finished game says about a side's play; `event/` many games (schedules, standings, Elo, ranking, tournaments); `config.rs` the
//! `[arena]` table. It knows nothing of suites or grades.

pub mod analysis;
pub mod config;
pub mod event;
pub mod game;
pub mod referee;
pub mod seat;
pub mod setup;

#[cfg(test)]
pub(crate) mod tests;
