//! Late work, as courses write their rules: pure arithmetic on a hand-in's time, its due date (with any
//! extension) and the row's maximum, no I/O. Adelaide: "the maximum mark you can obtain will be reduced
//! by 25% per day (or part thereof) past the due date or any extension you are granted" (003:161).

use serde::{Deserialize, Serialize};

/// Seconds in the day a rule counts by.
const DAY: i64 = 86_400;

/// How lateness changes a mark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Rule {
    /// The maximum one can obtain falls by `percent` of it per day or part of a day; the mark is the
    /// lesser of what was earned and that cap (Adelaide, 003:161).
    Cap { percent: f64 },
    /// `percent` of the maximum is taken off the mark per day or part of a day, never below 0.
    Subtract { percent: f64 },
    /// Lateness changes nothing (only a cut-off, if any, applies).
    None,
}

/// A course's late policy: the rule, a grace period before anything counts as late, and a hard
/// cut-off after which a hand-in earns nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Policy {
    pub rule: Rule,
    /// Seconds after the due date that still count as on time.
    #[serde(default)]
    pub grace_s: i64,
    /// Seconds after the due date past which the mark is 0 (a hard cut-off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_off_s: Option<i64>,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            rule: Rule::None,
            grace_s: 0,
            cut_off_s: None,
        }
    }
}

/// What lateness did to one row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Outcome {
    /// Seconds after the due date (with any extension), before the grace period is taken into account.
    pub seconds: i64,
    /// Days counted: each started day counts whole ("or part thereof"); 0 within the grace period.
    pub days: u32,
    /// The marks taken off (what was earned less what is kept), never negative.
    pub deduction: f64,
    /// The cap the rule put on the maximum, for a capping rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<f64>,
    /// One sentence for the student: how late, and what it did.
    pub why: String,
}

impl Outcome {
    /// Hours late, to the hundredth, as grades.csv shows them.
    #[must_use]
    pub fn hours(&self) -> f64 {
        (self.seconds as f64 / 36.0).round() / 100.0
    }
}

/// Hours as people say them: `25 hours`, `1 hour`, `30 minutes`.
fn how_late(seconds: i64) -> String {
    if seconds < 3600 {
        let m = (seconds + 59) / 60;
        return format!("{m} minute{}", if m == 1 { "" } else { "s" });
    }
    let h = seconds as f64 / 3600.0;
    let text = crate::units::points(h);
    format!("{text} hour{}", if text == "1" { "" } else { "s" })
}

/// Applies `policy` to a row that earned `earned` of `max`, handed in `seconds` after its due date
/// (negative: early). `None` when it was on time (or within the grace period and no cut-off hit).
#[must_use]
pub fn apply(policy: &Policy, seconds: i64, earned: f64, max: f64) -> Option<Outcome> {
    if seconds <= 0 {
        return None;
    }
    let round = |x: f64| (x * 100.0).round() / 100.0;
    let late = how_late(seconds);
    if let Some(cut) = policy.cut_off_s.filter(|&c| seconds > c) {
        return Some(Outcome {
            seconds,
            days: days(seconds),
            deduction: round(earned.max(0.0)),
            cap: Some(0.0),
            why: format!(
                "handed in {late} late, after the cut-off ({} after the due date): no marks",
                how_late(cut)
            ),
        });
    }
    if seconds <= policy.grace_s {
        return None;
    }
    let days = days(seconds);
    let day_word = if days == 1 { "day" } else { "days" };
    Some(match policy.rule {
        Rule::Cap { percent } => {
            let cap = round((max * (1.0 - percent * f64::from(days) / 100.0)).max(0.0));
            let kept = earned.min(cap);
            Outcome {
                seconds,
                days,
                deduction: round((earned - kept).max(0.0)),
                cap: Some(cap),
                why: format!(
                    "handed in {late} late ({days} {day_word} or part): the maximum is capped at {} of {} ({}% per day)",
                    crate::units::points(cap),
                    crate::units::points(max),
                    crate::units::points(percent)
                ),
            }
        }
        Rule::Subtract { percent } => {
            let off = round(max * percent * f64::from(days) / 100.0);
            let kept = (earned - off).max(0.0);
            Outcome {
                seconds,
                days,
                deduction: round(earned - kept),
                cap: None,
                why: format!(
                    "handed in {late} late ({days} {day_word} or part): {} taken off ({}% of {} per day)",
                    crate::units::points(off),
                    crate::units::points(percent),
                    crate::units::points(max)
                ),
            }
        }
        Rule::None => Outcome {
            seconds,
            days,
            deduction: 0.0,
            cap: None,
            why: format!("handed in {late} late; the course takes nothing off"),
        },
    })
}

/// Days late, each started day counted whole.
fn days(seconds: i64) -> u32 {
    u32::try_from((seconds + DAY - 1) / DAY).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = 3600;

    fn adelaide() -> Policy {
        Policy {
            rule: Rule::Cap { percent: 25.0 },
            ..Policy::default()
        }
    }

    #[test]
    fn adelaide_caps_the_maximum_by_a_quarter_per_day_or_part() {
        // 25 hours is two days or part: the cap is half of 15.
        let o = apply(&adelaide(), 25 * H, 15.0, 15.0).unwrap();
        assert_eq!((o.days, o.cap, o.deduction), (2, Some(7.5), 7.5));
        assert_eq!(o.hours(), 25.0);
        assert!(
            o.why.starts_with(
                "handed in 25 hours late (2 days or part): the maximum is capped at 7.5 of 15"
            ),
            "{}",
            o.why
        );
        // A mark already under the cap keeps it all.
        let o = apply(&adelaide(), 25 * H, 6.0, 15.0).unwrap();
        assert_eq!(o.deduction, 0.0);
        // One second late is a day; exactly a day is one; four days leave nothing.
        assert_eq!(apply(&adelaide(), 1, 15.0, 15.0).unwrap().cap, Some(11.25));
        assert_eq!(apply(&adelaide(), 24 * H, 15.0, 15.0).unwrap().days, 1);
        assert_eq!(
            apply(&adelaide(), 73 * H, 15.0, 15.0).unwrap().cap,
            Some(0.0)
        );
        assert_eq!(
            apply(&adelaide(), 200 * H, 15.0, 15.0).unwrap().cap,
            Some(0.0)
        );
        // On time, or early: nothing.
        assert_eq!(apply(&adelaide(), 0, 15.0, 15.0), None);
        assert_eq!(apply(&adelaide(), -5, 15.0, 15.0), None);
    }

    #[test]
    fn subtracting_per_day_grace_and_a_hard_cut_off() {
        let policy = Policy {
            rule: Rule::Subtract { percent: 10.0 },
            grace_s: 15 * 60,
            cut_off_s: Some(72 * H),
        };
        // Within the grace period: on time.
        assert_eq!(apply(&policy, 10 * 60, 40.0, 50.0), None);
        // 30 hours: two days, 10% of 50 each.
        let o = apply(&policy, 30 * H, 40.0, 50.0).unwrap();
        assert_eq!((o.days, o.deduction), (2, 10.0));
        assert!(
            o.why.contains("10 taken off (10% of 50 per day)"),
            "{}",
            o.why
        );
        // Never below zero.
        assert_eq!(apply(&policy, 30 * H, 4.0, 50.0).unwrap().deduction, 4.0);
        // Past the cut-off: everything.
        let o = apply(&policy, 73 * H, 40.0, 50.0).unwrap();
        assert_eq!((o.deduction, o.cap), (40.0, Some(0.0)));
        assert!(
            o.why
                .contains("after the cut-off (72 hours after the due date)"),
            "{}",
            o.why
        );
        assert_eq!(how_late(90), "2 minutes");
        assert_eq!(how_late(3600), "1 hour");
    }
}
