//! The arena: player protocols, the referee, game records, matches and tournaments.

pub mod classevent;
pub mod config;
pub mod convention;
pub mod dialogue;
pub mod elo;
pub mod game;
pub mod games;
pub mod permove;
pub mod persistent;
pub mod play;
pub mod players;
pub mod ranking;
pub mod record;
pub mod referee;
pub mod registry;
pub mod replay;
pub mod schedule;
pub mod scratch;
pub mod seat;
pub mod setup;
pub mod standings;
pub mod suitebuild;
pub mod tournament;

#[cfg(test)]
mod dialoguetests;
#[cfg(test)]
mod gametests;
#[cfg(test)]
mod proctests;
#[cfg(test)]
mod testgame;
#[cfg(test)]
mod tests;
