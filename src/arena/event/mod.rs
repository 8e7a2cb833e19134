//! Many games: who meets whom (`schedule`), the tables (`standings`, `elo`), the overall ranking and
//! marks (`ranking`), whether two entrants' games settle who is stronger (`sprt`), and a whole tournament
//! played (`tournament`).

pub mod elo;
pub mod ranking;
pub mod schedule;
pub mod sprt;
pub mod standings;
pub mod tournament;
