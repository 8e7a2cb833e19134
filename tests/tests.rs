//! The one integration test binary: exercises the `grader` CLI end to end.

mod arena;
mod build;
mod sandbox;
mod solve;
mod util;
