//! The one integration test binary: exercises the `grader` CLI end to end.

mod arena;
mod build;
mod calibrate;
mod check;
mod contain_arena;
mod contain_output;
mod docs;
mod examples;
mod hostile;
mod hostile_class;
mod html;
mod morris;
mod oska;
mod oska_examples;
mod play;
mod position;
mod run;
mod sandbox;
mod solve;
mod sttt;
mod suite;
mod ut3;
mod util;
mod wpi;
