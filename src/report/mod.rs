//! Reports: result.json per submission, grades.csv per suite, terminal tables and student feedback.
