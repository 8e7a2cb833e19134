//! Suites: strict `suite.toml` loading (raw serde structs, then checked domain types) and validation.
pub mod validate;
