//! The arena: player protocols, the referee, matches and tournaments.
pub mod play;
pub mod tournament;
