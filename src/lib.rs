//! `grader`: an autograder and test harness for game-playing AI assignments.
//!
//! Data flows one way: suite + submission → build → sandboxed runs → judge/arena → results → grade →
//! reports. Game rules live in the `reference` crate and never touch processes; the sandbox knows nothing
//! of games; reports read only results.

pub mod arena;
pub mod author;
pub mod beneath;
pub mod build;
pub mod bundle;
pub mod cmd;
pub mod config;
pub mod course;
pub mod doctor;
pub mod error;
pub mod grade;
pub mod import;
pub mod judge;
pub mod marks;
pub mod position;
pub mod report;
pub mod review;
pub mod sandbox;
pub mod suite;
pub mod toml_file;
pub mod toolchain;
pub mod units;
pub mod untrusted;
