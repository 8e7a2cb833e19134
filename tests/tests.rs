//! The one integration test binary: exercises the `grader` CLI end to end.

mod suite;
mod util;
