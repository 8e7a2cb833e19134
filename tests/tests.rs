//! The one integration test binary: exercises the `grader` CLI end to end.

mod build;
mod hostile;
mod sandbox;
mod solve;
mod util;
