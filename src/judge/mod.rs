//! The judge: verdicts and comparators (exact, tokens, numeric, trace) with explanations for students.
