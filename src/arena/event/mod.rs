//! Many games: who meets whom (`schedule`), the tables (`standings`, `elo`), the overall ranking and
//! marks (`ranking`), and a whole tournament played (`tournament`).

pub mod elo;
pub mod ranking;
pub mod schedule;
pub mod standings;
pub mod tournament;
