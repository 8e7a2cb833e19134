//! Reports: result.json per submission, grades.csv per suite, terminal tables and student feedback.
//! Reports read only results (`result::SubmissionResult`); they never run or judge anything.

pub mod class;
pub mod classroom;
pub mod csv;
pub mod dolos;
pub mod events;
pub mod export;
pub mod feedback;
pub mod grid;
pub mod html;
pub mod manual;
pub mod policy;
pub mod result;
pub mod rubric;
pub mod search;
pub mod shard;
pub mod similarity;
pub mod table;
pub mod tournament;

use std::path::Path;

/// Writes `bytes` to `path` atomically: a fresh temporary file in the same folder, then a rename, so a
/// reader (or an interrupted run) never sees half a file; a link planted at the file's name (or its
/// temporary name) is replaced, never written through (`beneath::write_file`).
///
/// # Errors
/// The folder cannot be made, or the file written.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::beneath::write_file(path, bytes)
}

/// [`write_atomic`] of `root/rel`, where `root` is a results folder: every folder of `rel` made and
/// opened below it with no link followed (an `export/` or a student's folder planted as a link is
/// refused, never written through).
///
/// # Errors
/// A part of `rel` is a link, or the file cannot be written.
pub fn write_within(root: &Path, rel: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::beneath::write_in(root, rel, bytes)
}

/// The columns of a class's gradebook and table, fixed by the suite before any student is graded.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Columns {
    /// Each group and its points.
    pub groups: Vec<(String, f64)>,
    /// Each `[[manual]]` column and its points (blank, for the instructor; never in the total).
    pub manual: Vec<(String, f64)>,
    /// The class tournament's column when `grader run` plays one: its most marks, and whether they
    /// are a bonus (in the total, not in the maximum).
    pub tournament: Option<(f64, bool)>,
    /// A course file (`course.toml`) applies: each row has its own maximum (its track's), and the
    /// gradebook shows it with the late deduction.
    #[serde(default)]
    pub course: bool,
}

impl Columns {
    /// The most a student can score: the groups' points and the tournament's marks (unless a bonus).
    #[must_use]
    pub fn max(&self) -> f64 {
        let tournament = match self.tournament {
            Some((most, false)) => most,
            _ => 0.0,
        };
        self.groups.iter().map(|(_, p)| p).sum::<f64>() + tournament
    }
}

/// A group's cell in the gradebook and the class table. A group worth points shows them; a group worth
/// 0 (a check that carries no marks, such as UT3's `plays-legally`) would read `0/0`, so it shows
/// `pass` or `fail` when all-or-nothing, else the share of its cases' credit earned (`75%`).
#[must_use]
pub fn group_cell(r: &result::SubmissionResult, g: &result::GroupScore) -> String {
    if g.max > 0.0 {
        return points(g.points.unwrap_or(0.0));
    }
    if g.credit_rule == crate::suite::CreditRule::AllOrNothing {
        return if g.passed == g.cases { "pass" } else { "fail" }.into();
    }
    let credits: Vec<f64> = r
        .cases
        .iter()
        .filter(|c| c.group == g.name)
        .map(|c| c.credit.clamp(0.0, 1.0))
        .collect();
    if credits.is_empty() {
        return String::new();
    }
    let share = credits.iter().sum::<f64>() / credits.len() as f64;
    format!("{}%", points(share * 100.0))
}

/// Each case's share of its group's points, in case order: `(earned, most)` in hundredths, as the
/// exports to grading platforms give them. A group's
/// points are split evenly among the cases it ran, rounded so that the shares of a group add up to
/// exactly its points (as `grade::score` rounds them); an all-or-nothing group gives its cases their
/// shares only when every one of them passed.
#[must_use]
pub fn case_points(r: &result::SubmissionResult) -> Vec<(f64, f64)> {
    let round = |p: f64| (p * 100.0).round() / 100.0;
    // Per group: cases seen so far, and the credit they earned.
    let mut seen: std::collections::HashMap<&str, (usize, f64)> = std::collections::HashMap::new();
    r.cases
        .iter()
        .map(|c| {
            let Some(g) = r.groups.iter().find(|g| g.name == c.group) else {
                return (0.0, 0.0);
            };
            let n = g.cases.max(1) as f64;
            let credit = match g.credit_rule {
                crate::suite::CreditRule::Proportional => c.credit.clamp(0.0, 1.0),
                crate::suite::CreditRule::AllOrNothing if g.passed == g.cases => 1.0,
                _ => 0.0,
            };
            let (before, earned_before) = seen.get(c.group.as_str()).copied().unwrap_or_default();
            let (after, earned_after) = (before + 1, earned_before + credit);
            seen.insert(&c.group, (after, earned_after));
            let share = |k: f64| round(g.max * k / n);
            (
                round(share(earned_after) - share(earned_before)),
                round(share(after as f64) - share(before as f64)),
            )
        })
        .collect()
}

/// Points as people write them (`15`, `7.5`, `3.33`): kept in `units`, below both the reports and
/// the course policy that word their sentences with it.
pub use crate::units::points;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_drop_useless_decimals() {
        assert_eq!(points(15.0), "15");
        assert_eq!(points(7.5), "7.5");
        assert_eq!(points(10.0 / 3.0), "3.33");
        assert_eq!(points(0.0), "0");
    }

    #[test]
    fn groups_worth_nothing_show_pass_fail_or_a_share_never_a_fraction_of_zero() {
        use crate::judge::Verdict;
        use crate::suite::CreditRule;
        let case =
            |group: &str, credit: f64| result::fixtures::case(group, Verdict::Accepted, credit);
        let group = |name: &str, rule, max: f64, passed| result::GroupScore {
            name: name.into(),
            credit_rule: rule,
            points: Some(max / 2.0),
            max,
            passed,
            cases: 2,
        };
        let r = result::fixtures::submission(
            "a",
            vec![
                case("gate", 1.0),
                case("gate", 0.0),
                case("bench", 1.0),
                case("bench", 0.5),
            ],
        );
        let cell = |g| group_cell(&r, &g);
        assert_eq!(
            cell(group("gate", CreditRule::AllOrNothing, 0.0, 1)),
            "fail"
        );
        assert_eq!(
            cell(group("gate", CreditRule::AllOrNothing, 0.0, 2)),
            "pass"
        );
        assert_eq!(
            cell(group("bench", CreditRule::Proportional, 0.0, 1)),
            "75%"
        );
        assert_eq!(
            cell(group("bench", CreditRule::Proportional, 15.0, 1)),
            "7.5"
        );
    }

    #[test]
    fn case_shares_add_up_to_the_groups_points_exactly() {
        use crate::judge::Verdict;
        use crate::suite::CreditRule;
        // Six cases sharing 5 points (5/6 each, which rounds to 0.83): two failed, one half right.
        let credits = [1.0, 0.0, 1.0, 0.5, 1.0, 0.0];
        let cases = credits
            .iter()
            .map(|&c| result::fixtures::case("g", Verdict::Accepted, c))
            .collect();
        let mut r = result::fixtures::submission("a", cases);
        r.groups = vec![result::GroupScore {
            name: "g".into(),
            credit_rule: CreditRule::Proportional,
            points: Some(2.92),
            max: 5.0,
            passed: 3,
            cases: 6,
        }];
        let shares = case_points(&r);
        let earned: f64 = shares.iter().map(|s| s.0).sum();
        let most: f64 = shares.iter().map(|s| s.1).sum();
        assert_eq!((earned * 100.0).round() / 100.0, 2.92, "{shares:?}");
        assert_eq!((most * 100.0).round() / 100.0, 5.0, "{shares:?}");
        assert_eq!(shares[1].0, 0.0);
        assert!(
            shares.iter().all(|s| s.1 == 0.83 || s.1 == 0.84),
            "{shares:?}"
        );
        // All or nothing: a failed case takes the group's points from every case.
        r.groups[0].credit_rule = CreditRule::AllOrNothing;
        assert!(case_points(&r).iter().all(|s| s.0 == 0.0));
    }

    #[test]
    fn atomic_writes_replace_whole_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/result.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(std::fs::read_dir(dir.path().join("a")).unwrap().count(), 1);
    }
}
