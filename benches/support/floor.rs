//! The time a class cannot be graded under, from its own `result.json` files: the CPU its programs
//! used spread over the cores, or the longest submission, if that is longer.
//!
//! A program's CPU is every run the results record: a build's (`build.cpu-ms`, where the grader wrote
//! it), each case's (both runs of a case run twice), each play case's games, once (a case on games an
//! earlier case played records none of their CPU, `grade::play`), and its class tournament's games
//! (`tournament.cpu-ms`). What results do not record (an integrity check's second run, a tournament
//! entrant's second build) is left out, so the floor is if anything low and the ratio against it high.
//!
//! A submission takes at least its build, then the cases only its own worker makes, one after another
//! (play and position cases: no `cpu-limit`), or all its cases spread over every core (helpers make its
//! run cases ahead, `grade::ahead`), whichever is longer.

use std::path::Path;

use serde_json::Value;

/// What a class's results say it needed.
#[derive(Clone, Debug, Default)]
pub struct Floor {
    pub submissions: usize,
    /// The cases their results hold.
    pub cases: usize,
    /// Every program's CPU, seconds.
    pub cpu: f64,
    /// The longest submission's least time, seconds, and whose it is.
    pub longest: f64,
    pub longest_name: String,
}

impl Floor {
    /// The floor on `cores`: the CPU spread over them, or the longest submission.
    #[must_use]
    pub fn seconds(&self, cores: usize) -> f64 {
        (self.cpu / cores.max(1) as f64).max(self.longest)
    }
}

/// Reads every `result.json` under `results` (a run's `--out` folder, suites inside, or one suite's).
#[must_use]
pub fn of_results(results: &Path, cores: usize) -> Floor {
    let mut floor = Floor::default();
    for path in super::files(results) {
        if path.file_name().is_some_and(|n| n == "result.json") {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let Ok(result) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            floor.add(&result, cores);
        }
    }
    floor
}

fn ms(v: &Value, key: &str) -> f64 {
    v.get(key).and_then(Value::as_f64).unwrap_or(0.0) / 1000.0
}

impl Floor {
    fn add(&mut self, result: &Value, cores: usize) {
        self.submissions += 1;
        let build = &result["build"];
        let mut cpu = ms(build, "cpu-ms");
        let mut own = 0.0;
        let mut spread = 0.0;
        for case in result["cases"].as_array().into_iter().flatten() {
            self.cases += 1;
            let runs = match case.get("rerun") {
                Some(r) if r.is_object() => ms(r, "first-cpu-ms") + ms(r, "second-cpu-ms"),
                _ => ms(case, "cpu-ms"),
            };
            cpu += runs;
            if case.get("cpu-limit").is_some_and(Value::is_object) {
                spread += ms(case, "wall-ms").max(runs);
            } else {
                own += ms(case, "wall-ms");
            }
        }
        // The class tournament is played once the class is graded, beside other classes' grading: its
        // games are the class's CPU, never one submission's least time.
        self.cpu += cpu + ms(&result["tournament"], "cpu-ms");
        // Its worker's own cases one after another, or all its cases over every core, after its build.
        let least = ms(build, "wall-ms") + own.max((own + spread) / cores.max(1) as f64);
        if least > self.longest {
            self.longest = least;
            self.longest_name = format!(
                "{}/{}",
                result["suite"].as_str().unwrap_or("?"),
                result["student"].as_str().unwrap_or("?")
            );
        }
    }
}
