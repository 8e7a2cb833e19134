//! `grader.toml`: the built-in defaults layered under a user's file (limits, jobs, sandbox tier).
