//! A manual group's points from its mark, under its rubric (pure): positive scoring starts from 0,
//! negative from the group's points; each item ticked adds its points (a negative item takes them
//! off), then the adjustment; the result is kept between 0 and the group's points, as Gradescope's
//! rubrics keep a score within their floor and ceiling by default.

use super::{GroupMark, ManualGrade, StudentMarks};
use crate::suite::{Manual, Scoring};

/// One group's grade for a student: not marked, marked (with the items' text and points), or marked
/// in a way that cannot count (an item the rubric no longer has, points over the maximum).
/// `current_code` is the fingerprint of the code now graded, when known: a mark given to other code
/// is `stale`.
#[must_use]
pub fn grade(
    group: &Manual,
    marks: Option<&StudentMarks>,
    current_code: Option<&str>,
) -> ManualGrade {
    let mut g = ManualGrade {
        name: group.name.clone(),
        max: group.points,
        ..ManualGrade::default()
    };
    let Some(mark) = marks.and_then(|m| m.groups.get(&group.name)) else {
        g.missing = Some("not marked".into());
        return g;
    };
    g.adjust = mark.adjust;
    g.comment = mark.comment.clone();
    g.by = Some(mark.stamp.by.clone());
    g.at = Some(mark.stamp.at.to_string());
    match points(group, mark) {
        Ok((points, items)) => {
            g.points = Some(points);
            g.items = items;
        }
        Err(why) => g.missing = Some(why),
    }
    let marked = marks.and_then(|m| m.code.as_deref());
    if let (Some(then), Some(now)) = (marked, current_code) {
        if then != now {
            g.stale = Some(format!(
                "the code changed since {} marked it ({})",
                mark.stamp.by, mark.stamp.at
            ));
        }
    }
    g
}

/// The points and the items ticked (text, points), or why the mark cannot count.
fn points(group: &Manual, mark: &GroupMark) -> Result<(f64, Vec<(String, f64)>), String> {
    let round = |x: f64| (x * 100.0).round() / 100.0;
    if let Some(p) = mark.points {
        if p > group.points + 1e-9 {
            return Err(format!(
                "{} points given, over the group's {}",
                crate::units::points(p),
                crate::units::points(group.points)
            ));
        }
        return Ok((round(p), Vec::new()));
    }
    let mut items = Vec::new();
    for name in &mark.items {
        let Some(item) = group.items.iter().find(|i| &i.name == name) else {
            return Err(format!(
                "item `{name}` is not in the rubric (any more): mark the group again"
            ));
        };
        items.push((item.text.clone(), item.points));
    }
    let start = match group.scoring {
        Scoring::Positive => 0.0,
        Scoring::Negative => group.points,
    };
    let sum: f64 = items.iter().map(|(_, p)| p).sum::<f64>() + mark.adjust;
    Ok((round((start + sum).clamp(0.0, group.points)), items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marks::Stamp;
    use crate::suite::RubricItem;

    fn ut3() -> Manual {
        let item = |name: &str, points| RubricItem {
            name: name.into(),
            text: format!("{name} text"),
            points,
        };
        Manual {
            name: "manual".into(),
            title: String::new(),
            points: 60.0,
            scoring: Scoring::Positive,
            items: vec![
                item("minimax", 30.0),
                item("pruning", 10.0),
                item("forbidden", -30.0),
            ],
        }
    }

    fn marked(items: &[&str], adjust: f64, points: Option<f64>) -> StudentMarks {
        let mut s = StudentMarks {
            code: Some("a".repeat(64)),
            ..StudentMarks::default()
        };
        s.groups.insert(
            "manual".into(),
            GroupMark {
                items: items.iter().map(ToString::to_string).collect(),
                adjust,
                comment: String::new(),
                points,
                stamp: Stamp {
                    by: "ta1".into(),
                    at: "2026-11-26T14:00:00Z".parse().unwrap(),
                },
            },
        );
        s
    }

    #[test]
    fn items_add_up_within_zero_and_the_groups_points() {
        let g = ut3();
        let got = |s: &StudentMarks| grade(&g, Some(s), None);
        assert_eq!(got(&marked(&["minimax"], 0.0, None)).points, Some(30.0));
        assert_eq!(
            got(&marked(&["minimax", "pruning"], 2.5, None)).points,
            Some(42.5)
        );
        // A deduction cannot take the group below 0, nor an adjustment above its points.
        assert_eq!(got(&marked(&["forbidden"], 0.0, None)).points, Some(0.0));
        assert_eq!(
            got(&marked(&["minimax", "pruning"], 50.0, None)).points,
            Some(60.0)
        );
        assert_eq!(got(&marked(&[], 0.0, Some(45.0))).points, Some(45.0));
        let over = got(&marked(&[], 0.0, Some(61.0)));
        assert_eq!(over.points, None);
        assert_eq!(
            over.missing.as_deref(),
            Some("61 points given, over the group's 60")
        );
        let gone = got(&marked(&["alpha-beta"], 0.0, None));
        assert!(gone
            .missing
            .unwrap()
            .starts_with("item `alpha-beta` is not in the rubric"));
        let none = grade(&g, None, None);
        assert_eq!(
            (none.points, none.missing.as_deref()),
            (None, Some("not marked"))
        );
        // Negative scoring: from 60 down.
        let mut neg = ut3();
        neg.scoring = Scoring::Negative;
        assert_eq!(
            grade(&neg, Some(&marked(&["forbidden"], 0.0, None)), None).points,
            Some(30.0)
        );
        assert_eq!(
            grade(&neg, Some(&marked(&[], 0.0, None)), None).points,
            Some(60.0)
        );
    }

    #[test]
    fn a_mark_given_to_other_code_is_stale() {
        let g = ut3();
        let s = marked(&["minimax"], 0.0, None);
        assert!(grade(&g, Some(&s), Some(&"a".repeat(64))).stale.is_none());
        let stale = grade(&g, Some(&s), Some(&"b".repeat(64)));
        assert_eq!(stale.points, Some(30.0));
        assert_eq!(
            stale.stale.as_deref(),
            Some("the code changed since ta1 marked it (2026-11-26T14:00:00Z)")
        );
    }
}
