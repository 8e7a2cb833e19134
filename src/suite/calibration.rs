//! A suite's `calibration.toml`: per-language CPU limits measured on the grading machine by
//! `grader calibrate`, loaded strictly when present (a missing file changes nothing).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::toml_file::Spanned;
use serde::Deserialize;

use crate::toml_file::{located, parse_toml, TomlError};
use crate::units::{parse_duration, LIMIT};

/// The file `grader calibrate` writes beside `suite.toml`.
pub const CALIBRATION_FILE: &str = "calibration.toml";

/// A language's limit is this many times its reference's CPU on the heaviest case. Contest systems
/// derive limits the same way, as a multiple of the judges' own solutions: the Kattis problem package
/// format's `time_multiplier` (5 by default in its legacy version; its 2023 version takes 2 × the
/// slowest accepted solution). Our reference is the tuned one, not the slowest correct one, and a
/// student's correct but plainer program is often 3-4 times slower (`python-slow`): hence 5.
pub const FACTOR: f64 = 5.0;

/// The raw file, strict.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCalibration {
    machine: String,
    date: String,
    factor: Spanned<f64>,
    samples: Spanned<u32>,
    suite_cpu: Spanned<String>,
    #[serde(default)]
    languages: BTreeMap<Spanned<String>, RawLanguage>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLanguage {
    reference: String,
    heaviest_case: String,
    measured_cpu: Spanned<String>,
    cpu: Spanned<String>,
}

/// A checked calibration.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// Host name, cores, CPU model and kernel of the machine that measured.
    pub machine: String,
    /// When, in UTC (`2026-11-24T18:02:11Z`).
    pub date: String,
    pub factor: f64,
    /// Runs of each of the heaviest cases; their median is the measurement.
    pub samples: u32,
    /// The suite's own CPU limit when measured: the floor of every derived limit.
    pub suite_cpu: Duration,
    pub languages: Vec<LanguageLimit>,
}

/// One language's measurement and the limit derived from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanguageLimit {
    pub name: String,
    /// The reference hand-in measured, as given (relative to the suite folder, or absolute).
    pub reference: String,
    /// `group/case` of the heaviest case.
    pub heaviest_case: String,
    /// Median CPU of the reference on that case.
    pub measured_cpu: Duration,
    /// max(suite limit, factor × measured), rounded up to 100 ms.
    pub cpu: Duration,
}

impl Calibration {
    /// The calibrated CPU limit for `language`, if it was measured.
    #[must_use]
    pub fn cpu_for(&self, language: &str) -> Option<Duration> {
        self.languages
            .iter()
            .find(|l| l.name == language)
            .map(|l| l.cpu)
    }

    /// Loads `dir/calibration.toml` when it exists; `languages` are the suite's language names.
    pub fn load(dir: &Path, languages: &[&str]) -> Result<Option<Calibration>, TomlError> {
        let path = dir.join(CALIBRATION_FILE);
        if !path.exists() {
            return Ok(None);
        }
        let text = crate::toml_file::read_text(&path)?;
        let raw: RawCalibration = parse_toml(&path, &text)?;
        check(&path, &text, raw, languages).map(Some)
    }

    /// The file's text, commented for the instructor who opens it.
    #[must_use]
    pub fn to_toml(&self) -> String {
        let mut out = String::new();
        out.push_str("# Written by `grader calibrate`: CPU limits per language, measured on the grading machine.\n");
        out.push_str("# A language's limit is max(the suite's limit, factor × its reference's median CPU on the\n");
        out.push_str("# heaviest case), rounded up to 100 ms. Delete this file to grade with the suite's limits.\n");
        let _ = writeln!(out, "machine = {}", quote(&self.machine));
        let _ = writeln!(out, "date = {}", quote(&self.date));
        let _ = writeln!(out, "factor = {:?}", self.factor);
        let _ = writeln!(out, "samples = {}", self.samples);
        let _ = writeln!(out, "suite-cpu = {}", quote(&seconds(self.suite_cpu)));
        for l in &self.languages {
            let _ = writeln!(out, "\n[languages.{}]", l.name);
            let _ = writeln!(out, "reference = {}", quote(&l.reference));
            let _ = writeln!(out, "heaviest-case = {}", quote(&l.heaviest_case));
            let _ = writeln!(out, "measured-cpu = {}", quote(&seconds(l.measured_cpu)));
            let _ = writeln!(out, "cpu = {}", quote(&seconds(l.cpu)));
        }
        out
    }
}

/// max(floor, factor × measured), rounded up to a tenth of a second.
#[must_use]
pub fn derive_limit(floor: Duration, factor: f64, measured: Duration) -> Duration {
    let scaled = measured.as_secs_f64() * factor;
    let tenths = (scaled * 10.0).ceil() as u64;
    floor.max(Duration::from_millis(tenths * 100))
}

/// `6.93s`: what `parse_duration` reads back exactly (to the millisecond).
#[must_use]
pub fn seconds(d: Duration) -> String {
    format!("{}.{:03}s", d.as_secs(), d.subsec_millis())
}

fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

fn check(
    path: &Path,
    text: &str,
    raw: RawCalibration,
    languages: &[&str],
) -> Result<Calibration, TomlError> {
    let err =
        |span: std::ops::Range<usize>, message: String| located(path, text, Some(span), &message);
    let duration =
        |s: &Spanned<String>| parse_duration(s.get_ref(), LIMIT).map_err(|m| err(s.span(), m));
    let factor = *raw.factor.get_ref();
    if !(factor.is_finite() && factor >= 1.0) {
        return Err(err(
            raw.factor.span(),
            format!("`factor` is {factor}, but a limit is at least the reference's own time\nhint: write a number of 1 or more, e.g. `factor = 3.0`"),
        ));
    }
    if *raw.samples.get_ref() == 0 {
        return Err(err(
            raw.samples.span(),
            "`samples` is 0\nhint: at least one run was measured".to_string(),
        ));
    }
    let suite_cpu = duration(&raw.suite_cpu)?;
    let mut out = Vec::new();
    for (name, l) in raw.languages {
        if !languages.contains(&name.get_ref().as_str()) {
            return Err(err(
                name.span(),
                format!(
                    "calibrated language `{}` is not one of the suite's languages\nhint: the suite has {}; rerun `grader calibrate` after renaming a language",
                    name.get_ref(),
                    languages.join(", ")
                ),
            ));
        }
        let cpu = duration(&l.cpu)?;
        let measured_cpu = duration(&l.measured_cpu)?;
        if cpu < suite_cpu {
            return Err(err(
                l.cpu.span(),
                format!(
                    "`cpu` of `{}` is {}, below the suite's limit {} at calibration: a calibration only ever raises a limit\nhint: rerun `grader calibrate`",
                    name.get_ref(),
                    l.cpu.get_ref(),
                    raw.suite_cpu.get_ref()
                ),
            ));
        }
        out.push(LanguageLimit {
            name: name.into_inner(),
            reference: l.reference,
            heaviest_case: l.heaviest_case,
            measured_cpu,
            cpu,
        });
    }
    Ok(Calibration {
        machine: raw.machine,
        date: raw.date,
        factor,
        samples: *raw.samples.get_ref(),
        suite_cpu,
        languages: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Calibration {
        Calibration {
            machine: "host, 2 cores".into(),
            date: "2026-11-24T18:00:00Z".into(),
            factor: FACTOR,
            samples: 3,
            suite_cpu: Duration::from_secs(5),
            languages: vec![LanguageLimit {
                name: "python".into(),
                reference: "../../examples/x".into(),
                heaviest_case: "plain/blank-board".into(),
                measured_cpu: Duration::from_millis(2310),
                cpu: Duration::from_millis(7000),
            }],
        }
    }

    #[test]
    fn a_written_calibration_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CALIBRATION_FILE), sample().to_toml()).unwrap();
        let read = Calibration::load(dir.path(), &["c", "python"]).unwrap();
        assert_eq!(read, Some(sample()));
        assert_eq!(
            read.unwrap().cpu_for("python"),
            Some(Duration::from_secs(7))
        );
    }

    #[test]
    fn no_file_is_no_calibration() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Calibration::load(dir.path(), &["c"]).unwrap(), None);
    }

    #[test]
    fn the_limit_never_falls_below_the_suite_and_rounds_up() {
        let five = Duration::from_secs(5);
        assert_eq!(derive_limit(five, 3.0, Duration::from_millis(80)), five);
        assert_eq!(
            derive_limit(five, 3.0, Duration::from_millis(2310)),
            Duration::from_millis(7000)
        );
        assert_eq!(
            derive_limit(five, 3.0, Duration::from_millis(2345)),
            Duration::from_millis(7100)
        );
    }

    #[test]
    fn an_unknown_language_is_located() {
        let dir = tempfile::tempdir().unwrap();
        let text = sample()
            .to_toml()
            .replace("[languages.python]", "[languages.pyhton]");
        std::fs::write(dir.path().join(CALIBRATION_FILE), text).unwrap();
        let e = Calibration::load(dir.path(), &["c", "python"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("calibration.toml:"), "{e}");
        assert!(e.contains("`pyhton` is not one of"), "{e}");
    }
}
