//! Writing suites: the JSON Schemas of the files an instructor writes (`schema`), the check of a
//! file against one, every problem at once (`check`), the key reference rendered from them (`keys`),
//! the starting points `grader new` writes (`new`) and the expected grades of a suite's samples
//! (`verify`).

pub mod check;
pub mod keys;
pub mod new;
pub mod schema;
pub mod verify;
