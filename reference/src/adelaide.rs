//! The Adelaide 2021 A1 solvers behind `grader solve`: exact stdout and visited-node traces.
