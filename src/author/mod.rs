//! Writing suites: the JSON Schemas of the files an instructor writes (`schema`) and the check of a
//! file against one, every problem at once (`check`).

pub mod check;
pub mod schema;
