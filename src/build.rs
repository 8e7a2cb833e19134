//! Builds a submission in a scratch copy from the suite's language recipes, through the sandbox.
