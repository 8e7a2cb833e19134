//! The one integration test binary: exercises the `grader` CLI end to end.

mod solve;
mod util;
