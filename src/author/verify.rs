//! What a suite is expected to give each of its sample submissions (`<sample>.expected.toml`, beside
//! the sample's folder), and what moved when it gives something else: the data of `grader verify`.
//! Nothing here grades or prints; `cmd::verify` does.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::judge::Verdict;
use crate::report::result::SubmissionResult;

/// The file beside a sample folder `NAME` that pins its outcome: `NAME.expected.toml`.
#[must_use]
pub fn file_for(sample: &Path) -> PathBuf {
    let name = sample.file_name().unwrap_or_default().to_string_lossy();
    sample.with_file_name(format!("{name}.expected.toml"))
}

/// Points are pinned to two decimals: a total shown as `7.67` is the same as one of `7.6666…`.
const TOLERANCE: f64 = 0.005 + 1e-9;

/// An expectation file: each level present is pinned, a level left out is not checked (a course may
/// pin only the total of a sample whose verdicts are its own business).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Expected {
    /// The suite's score (the course's policy is not applied: samples have no dates or tracks), without
    /// the marks of a class tournament (`grader run`'s, which depend on the class, not on the sample).
    pub total: Option<f64>,
    /// Each group's points, by name.
    pub groups: Option<BTreeMap<String, f64>>,
    /// Each case's verdict, by `group/case`.
    pub cases: Option<BTreeMap<String, Verdict>>,
}

impl Expected {
    /// Every level of what `result` gave: a sample's own result (`grader verify`), or a student's of a
    /// `grader run`, whose class tournament marks are taken out of the total. A case the grader could
    /// not follow (`review`) leaves its group and the total with no number, as every report does:
    /// they wait for a person, never a zero.
    #[must_use]
    pub fn of(result: &SubmissionResult) -> Expected {
        let waits = |group: &str| {
            result
                .cases
                .iter()
                .any(|c| c.group == group && c.waits_for_review())
        };
        let groups = result
            .groups
            .iter()
            .filter(|g| !waits(&g.name))
            .filter_map(|g| Some((g.name.clone(), round(g.points?))))
            .collect();
        let cases = result
            .cases
            .iter()
            .map(|c| (format!("{}/{}", c.group, c.name), c.verdict))
            .collect();
        let tournament = result
            .tournament
            .as_ref()
            .and_then(|t| t.marks)
            .unwrap_or(0.0);
        Expected {
            total: result
                .needs_review()
                .is_none()
                .then(|| round(result.score - tournament)),
            groups: Some(groups),
            cases: Some(cases),
        }
    }

    /// Whether no level is pinned (an empty file).
    #[must_use]
    pub fn pins_nothing(&self) -> bool {
        self.total.is_none() && self.groups.is_none() && self.cases.is_none()
    }

    /// `self` with only the levels `like` pins (all of them when `like` pins none).
    #[must_use]
    pub fn shaped_like(mut self, like: &Expected) -> Expected {
        if like.pins_nothing() {
            return self;
        }
        if like.total.is_none() {
            self.total = None;
        }
        if like.groups.is_none() {
            self.groups = None;
        }
        if like.cases.is_none() {
            self.cases = None;
        }
        self
    }

    /// Reads an expectation file.
    ///
    /// # Errors
    /// The file cannot be read, or is not an expectation (the message names the file, line and column).
    pub fn read(file: &Path) -> anyhow::Result<Expected> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| anyhow::anyhow!("cannot read `{}`: {e}", file.display()))?;
        toml::from_str(&text).map_err(|e| {
            let at = e
                .span()
                .map(|s| {
                    let line = text[..s.start].matches('\n').count() + 1;
                    let col = s.start - text[..s.start].rfind('\n').map_or(0, |n| n + 1) + 1;
                    format!(":{line}:{col}")
                })
                .unwrap_or_default();
            anyhow::anyhow!(
                "{}{at}: {}\nhint: an expectation has `total`, `[groups]` and `[cases]`; `grader verify --accept` writes one",
                file.display(),
                e.message()
            )
        })
    }

    /// The file's text: a comment saying what it is, then each level pinned, groups and cases in the
    /// suite's order (`order`: `group` and `group/case` names as results list them).
    #[must_use]
    pub fn render(&self, order: &[String]) -> String {
        let mut out = String::from(
            "# What `grader verify` expects the suite to give this sample. `grader verify --accept` rewrites\n\
             # it; delete a level (total, [groups], [cases]) to stop pinning it.\n",
        );
        match self.total {
            Some(total) => {
                let _ = writeln!(out, "total = {}", points(total));
            }
            None if self
                .cases
                .iter()
                .flatten()
                .any(|(_, v)| *v == Verdict::Review) =>
            {
                out.push_str("# No total: it waits for a person to settle the `review` cases.\n");
            }
            None => {}
        }
        let rank = |k: &String| order.iter().position(|o| o == k).unwrap_or(usize::MAX);
        if let Some(groups) = &self.groups {
            out.push_str("\n[groups]\n");
            let mut keys: Vec<&String> = groups.keys().collect();
            keys.sort_by_key(|k| (rank(k), (*k).clone()));
            for k in keys {
                let _ = writeln!(out, "{} = {}", key(k), points(groups[k]));
            }
        }
        if let Some(cases) = &self.cases {
            out.push_str("\n[cases]\n");
            let mut keys: Vec<&String> = cases.keys().collect();
            keys.sort_by_key(|k| (rank(k), (*k).clone()));
            for k in keys {
                let _ = writeln!(out, "{} = \"{}\"", key(k), verdict(cases[k]));
            }
        }
        out
    }
}

/// The names results list, groups then `group/case`, in the suite's order (what `render` sorts by).
#[must_use]
pub fn order(result: &SubmissionResult) -> Vec<String> {
    let groups = result.groups.iter().map(|g| g.name.clone());
    let cases = result
        .cases
        .iter()
        .map(|c| format!("{}/{}", c.group, c.name));
    groups.chain(cases).collect()
}

/// One thing that moved: what the file pins, and what the suite gave (`None`: not there).
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    Total(f64, Option<f64>),
    Group(String, Option<f64>, Option<f64>),
    Case(String, Option<Verdict>, Option<Verdict>),
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let or_none = |s: Option<String>| s.unwrap_or_else(|| "(none)".into());
        match self {
            Change::Total(was, now) => {
                write!(f, "total {} → {}", points(*was), or_none(now.map(points)))
            }
            Change::Group(name, was, now) => write!(
                f,
                "group `{name}` {} → {}",
                or_none(was.map(points)),
                or_none(now.map(points))
            ),
            Change::Case(name, was, now) => write!(
                f,
                "case `{name}` {} → {}",
                or_none(was.map(|v| verdict(v).to_string())),
                or_none(now.map(|v| verdict(v).to_string()))
            ),
        }
    }
}

/// What moved from `expected` to `actual`, level by level, for the levels `expected` pins: the total,
/// then groups and cases in name order.
#[must_use]
pub fn changes(expected: &Expected, actual: &Expected) -> Vec<Change> {
    let mut moved = Vec::new();
    // A total that is gone (the sample now waits for a person's review) has moved too.
    if let Some(was) = expected.total {
        if actual.total.is_none_or(|now| (was - now).abs() > TOLERANCE) {
            moved.push(Change::Total(was, actual.total));
        }
    }
    if let (Some(was), Some(now)) = (&expected.groups, &actual.groups) {
        for (name, was, now) in pairs(was, now) {
            let same = matches!((was, now), (Some(a), Some(b)) if (a - b).abs() <= TOLERANCE);
            if !same {
                moved.push(Change::Group(name, was, now));
            }
        }
    }
    if let (Some(was), Some(now)) = (&expected.cases, &actual.cases) {
        for (name, was, now) in pairs(was, now) {
            if was != now {
                moved.push(Change::Case(name, was, now));
            }
        }
    }
    moved
}

/// Every key of either map, with each side's value.
fn pairs<V: Copy>(
    a: &BTreeMap<String, V>,
    b: &BTreeMap<String, V>,
) -> Vec<(String, Option<V>, Option<V>)> {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|k| (k.clone(), a.get(k).copied(), b.get(k).copied()))
        .collect()
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Points as the file writes them: at most two decimals, always a TOML float (`5.0`, `7.67`).
fn points(x: f64) -> String {
    let text = format!("{:.2}", round(x));
    let text = text.trim_end_matches('0');
    if text.ends_with('.') {
        format!("{text}0")
    } else {
        text.to_string()
    }
}

/// A verdict as the file writes it (`wrong-answer`): its serde name.
fn verdict(v: Verdict) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|j| j.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// A TOML key: bare when it can be, quoted otherwise (`"play/vs-random"`).
fn key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        k.to_string()
    } else {
        toml_edit::Value::from(k).to_string().trim().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::result::fixtures::{case, submission};

    #[test]
    fn a_result_round_trips_through_its_file_and_a_move_is_named() {
        let mut result = submission("s", vec![case("basics", Verdict::Accepted, 1.0)]);
        result.score = 20.0 / 3.0;
        let expected = Expected::of(&result);
        let text = expected.render(&order(&result));
        let back: Expected = toml::from_str(&text).unwrap();
        assert_eq!(changes(&back, &expected), []);
        assert!(text.contains("total = 6.67\n"), "{text}");

        let mut worse = result.clone();
        worse.score = 6.0;
        worse.cases[0].verdict = Verdict::WrongAnswer;
        let moved = changes(&back, &Expected::of(&worse));
        let words: Vec<String> = moved.iter().map(ToString::to_string).collect();
        assert!(words.contains(&"total 6.67 → 6.0".to_string()), "{words:?}");
        assert!(
            words.iter().any(|w| w.ends_with("accepted → wrong-answer")),
            "{words:?}"
        );
    }

    #[test]
    fn only_the_levels_a_file_pins_are_checked_and_kept() {
        let result = submission("s", vec![case("basics", Verdict::Accepted, 1.0)]);
        let pinned = Expected {
            total: Some(result.score),
            ..Expected::default()
        };
        let mut other = result.clone();
        other.cases[0].verdict = Verdict::TimeLimit;
        assert_eq!(changes(&pinned, &Expected::of(&other)), []);
        let kept = Expected::of(&other).shaped_like(&pinned);
        assert!(kept.cases.is_none() && kept.groups.is_none() && kept.total.is_some());
        assert!(Expected::of(&other)
            .shaped_like(&Expected::default())
            .cases
            .is_some());
    }

    #[test]
    fn a_class_tournament_is_no_part_of_a_samples_total() {
        let mut result = submission("s", vec![case("basics", Verdict::Accepted, 1.0)]);
        let alone = Expected::of(&result).total.unwrap();
        result.score += 40.0;
        result.tournament = Some(crate::report::result::TournamentMark {
            marks: Some(40.0),
            max: 40.0,
            bonus: true,
            rank: Some(1),
            entrants: 5,
            standing: None,
            reason: "first".into(),
            cpu_ms: 0,
        });
        assert_eq!(Expected::of(&result).total, Some(alone));
    }

    #[test]
    fn a_sample_waiting_for_review_has_no_total_and_a_pinned_one_moves() {
        let scored = submission("s", vec![case("play", Verdict::Accepted, 1.0)]);
        let pinned = Expected::of(&scored);
        let mut waiting = scored.clone();
        waiting.cases[0].verdict = Verdict::Review;
        waiting.score = 0.0;
        let now = Expected::of(&waiting);
        assert_eq!(now.total, None);
        assert!(now.groups.as_ref().unwrap().is_empty(), "{now:?}");
        let text = now.render(&order(&waiting));
        assert!(text.contains("# No total: it waits for a person"), "{text}");
        let moved: Vec<String> = changes(&pinned, &now)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(
            moved
                .iter()
                .any(|m| m.starts_with("total ") && m.ends_with("→ (none)")),
            "{moved:?}"
        );
    }

    #[test]
    fn a_bad_file_is_named_with_its_place() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.expected.toml");
        std::fs::write(&file, "total = 1.0\n[cases]\n\"g/c\" = \"acepted\"\n").unwrap();
        let e = Expected::read(&file).unwrap_err().to_string();
        assert!(e.contains("a.expected.toml:3:"), "{e}");
        assert_eq!(file_for(&dir.path().join("a")), file);
    }
}
