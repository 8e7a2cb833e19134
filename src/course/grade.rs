//! A row's grade under the course's policy: the one place that decides each row's maximum and total
//! (reports read [`Grade`], never add points up themselves). Pure: the groups' points, the tournament's
//! marks, the student's track and how late the hand-in was go in; the maximum, the total (or why it is
//! blank) and a sentence for every choice come out. A person's marks (`[[manual]]` groups, given in
//! `grader review`) join the work's in [`total`]; the row keeps what its total was made from
//! ([`Basis`]) so marks given later re-total it from result.json alone ([`with_manual`]).

use serde::{Deserialize, Serialize};

use super::late;
use super::roster::Identity;
use super::Track;
use crate::marks::ManualGrade;

/// A row's grade, as result.json keeps it (`course`) and every report shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Grade {
    /// The track the row was graded on (`course.toml`'s `[tracks]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<String>,
    /// Each part of the track: its groups' points scaled to the part's weight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
    /// The most this row can get (its track's points, and the tournament's unless a bonus).
    pub max: f64,
    /// What the work earned before any late rule; null when it cannot be said (`blank`).
    pub earned: Option<f64>,
    /// What lateness did, when the hand-in was late.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late: Option<late::Outcome>,
    /// The grade: `earned` less the late deduction; null when a person must decide (`blank` says why).
    pub total: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blank: Option<String>,
    /// Why the numbers are what they are, one sentence each (scaling, groups not counted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Who the row is for: each student of the team or the one student (from the roster, else the LMS).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Identity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// When it was handed in (RFC 3339), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted: Option<String>,
    /// When it was due for this row (its track's date, or its extension), RFC 3339.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<String>,
    /// Each `[[manual]]` group: the points a person gave (or not yet), the items, by whom.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub manual: Vec<ManualGrade>,
    /// Set when the only thing the total waits for is a person's marks: `incomplete: 60 manual marks
    /// not given` (also in `blank`). Never exported as complete unless asked (`--allow-incomplete`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
    /// With `incomplete`: the total counting the marks not given as 0 (and marks given to older code
    /// as they are), for `--allow-incomplete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<f64>,
    /// What the total is made from before a person's marks and lateness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
}

/// What a row's total is made from before a person's marks and lateness: kept in result.json so that
/// marks given later re-total the row ([`with_manual`]) without the course file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Basis {
    /// The work's maximum (track parts, groups, tournament).
    pub max: f64,
    /// What the work earned (shown only when nothing leaves the total blank).
    pub earned: Option<f64>,
    /// Why the machine, or a case waiting for a person, leaves the row without a total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
    /// Why the course leaves the total to a person (a tournament not held, no track, no time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blank: Option<String>,
    /// Seconds after the due date, and the late rule that applies to them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub late: Option<(i64, late::Policy)>,
    /// Each group's points as graded, and what one of its points is worth in the row (1 with no
    /// track; a part's scaling; 0 outside the track): a case settled later moves `earned` by it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<(String, Option<f64>, f64)>,
}

/// One weighted part of a track.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Part {
    pub name: String,
    /// Points earned in the part, after scaling.
    pub points: f64,
    /// The part's weight.
    pub max: f64,
}

/// One scored group of a result (a manual column, which the total leaves out, is not one).
#[derive(Clone, Debug, PartialEq)]
pub struct GroupPoints {
    pub name: String,
    pub points: Option<f64>,
    pub max: f64,
}

/// A group the submission did not attempt (no program for it), and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Unattempted {
    pub group: String,
    pub reason: String,
}

/// The class tournament's marks for a result.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentPoints {
    pub marks: Option<f64>,
    pub max: f64,
    pub bonus: bool,
    /// Why these marks (or none).
    pub reason: String,
}

/// What a result says about its work (the groups and the tournament), for [`grade`].
pub struct Work<'a> {
    pub groups: &'a [GroupPoints],
    pub not_attempted: &'a [Unattempted],
    pub tournament: Option<&'a TournamentPoints>,
    /// Each group of the suite and its points (for groups a submission did not attempt).
    pub suite_groups: &'a [(String, f64)],
    /// Why the row cannot have a total whatever its work and marks: the machine could not grade it,
    /// or a person must read a case (`review`).
    pub machine_fault: Option<String>,
    /// Why the course cannot total the row (no track).
    pub course_blank: Option<String>,
    /// The suite's `[[manual]]` groups as the marks give them (none: the suite has none).
    pub manual: &'a [ManualGrade],
}

/// When the hand-in came, against its due date.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Timing {
    /// No due date, or no way to know (no time recorded and no LMS late mark): not late.
    #[default]
    Unknown,
    /// Seconds after the due date (negative: before it).
    After(i64),
    /// The LMS marked it late without saying when (a Canvas download's `LATE`).
    LateUnknown { source: String },
}

/// The grade of one row.
#[must_use]
pub fn grade(
    work: &Work<'_>,
    track: Option<&Track>,
    timing: &Timing,
    policy: &late::Policy,
) -> Grade {
    let mut g = base(work, track);
    if let Some(why) = &work.course_blank {
        g.blank = Some(why.clone());
    }
    let mut basis = Basis {
        max: g.max,
        earned: g.earned,
        fault: work.machine_fault.clone(),
        blank: g.blank.clone(),
        late: None,
        groups: work
            .groups
            .iter()
            .map(|s| (s.name.clone(), s.points, worth(track, work, &s.name)))
            .collect(),
    };
    match timing {
        Timing::Unknown => {}
        Timing::After(seconds) => basis.late = Some((*seconds, policy.clone())),
        Timing::LateUnknown { source } => {
            basis.blank.get_or_insert_with(|| format!(
                "{source} marked it late but gives no time, so the late rule cannot be applied\nhint: set its `submitted` time in submissions.toml (from the LMS's grading view) and run again with --resume"
            ));
        }
    }
    g.basis = Some(basis);
    total(&mut g, work.manual);
    g
}

/// What one point of group `name` is worth in the row: 1 with no track; the part's points over its
/// groups' under a track; 0 for a group outside the track.
fn worth(track: Option<&Track>, work: &Work<'_>, name: &str) -> f64 {
    let Some(t) = track else {
        return 1.0;
    };
    let Some(part) = t.parts.iter().find(|p| p.groups.iter().any(|g| g == name)) else {
        return 0.0;
    };
    let of: f64 = part
        .groups
        .iter()
        .filter_map(|n| work.suite_groups.iter().find(|(g, _)| g == n))
        .map(|(_, p)| p)
        .sum();
    if of > 0.0 {
        part.points / of
    } else {
        0.0
    }
}

/// `g` with its work's points as they are now: `groups` (a `review` case settled since, or
/// unsettled), and `fault` (why the row still has no total, if it has not). The earned points move by
/// each group's change at its worth ([`Basis::groups`]).
#[must_use]
pub fn with_work(g: &Grade, groups: &[GroupPoints], fault: Option<String>) -> Grade {
    let mut g = g.clone();
    let mut b = g.basis.clone().unwrap_or_default();
    let mut earned = b.earned.unwrap_or(0.0);
    for (name, then, worth) in &mut b.groups {
        if let Some(now) = groups.iter().find(|s| &s.name == name) {
            earned += *worth * (now.points.unwrap_or(0.0) - then.unwrap_or(0.0));
            *then = now.points;
        }
    }
    b.earned = Some(round(earned));
    b.fault = fault;
    g.basis = Some(b);
    let manual = g.manual.clone();
    total(&mut g, &manual);
    g
}

/// `g` re-totalled with the manual groups as `manual` gives them now (marks given or changed since
/// the row was graded). A row graded before rows kept their [`Basis`] is re-totalled from its maximum
/// and what it earned; if lateness changed it, it cannot be, and says so.
#[must_use]
pub fn with_manual(g: &Grade, manual: &[ManualGrade]) -> Grade {
    let mut g = g.clone();
    if g.basis.is_none() {
        let own: f64 = g.manual.iter().map(|m| m.max).sum();
        let given: f64 = g.manual.iter().filter_map(|m| m.points).sum();
        g.basis = Some(Basis {
            max: g.max - own,
            earned: g.earned.map(|e| e - given),
            blank: g.late.as_ref().map(|_| {
                "graded before manual marks joined a late hand-in's total\nhint: run `grader run --resume` again".to_string()
            }).or_else(|| g.blank.clone()),
            ..Basis::default()
        });
    }
    total(&mut g, manual);
    g
}

/// A row's grade where no course policy was applied (results of an older grader): `max`, what it
/// `earned`, or why it has no total.
#[must_use]
pub fn plain(max: f64, earned: Option<f64>, fault: Option<String>) -> Grade {
    let mut g = Grade {
        max,
        earned,
        basis: Some(Basis {
            max,
            earned,
            fault,
            ..Basis::default()
        }),
        ..Grade::default()
    };
    total(&mut g, &[]);
    g
}

/// The maximum, what was earned, lateness and the total from the row's [`Basis`] and a person's
/// `manual` marks. The marks count toward the maximum always; a group not given (or given to code
/// that has changed since) leaves the row incomplete: no total, `partial` what it would be with them
/// as they stand.
fn total(g: &mut Grade, manual: &[ManualGrade]) {
    let b = g.basis.clone().unwrap_or_default();
    g.manual = manual.to_vec();
    let counted = |m: &&ManualGrade| m.max > 0.0;
    let given: f64 = manual.iter().filter_map(|m| m.points).sum();
    g.max = round(b.max + manual.iter().map(|m| m.max).sum::<f64>());
    g.blank = b.fault.clone().or_else(|| b.blank.clone());
    g.earned = b
        .earned
        .map(|e| round(e + given))
        .filter(|_| g.blank.is_none());
    (g.late, g.total, g.incomplete, g.partial) = (None, None, None, None);
    let Some(earned) = g.earned else {
        return;
    };
    g.late = b
        .late
        .as_ref()
        .and_then(|(seconds, policy)| late::apply(policy, *seconds, earned, g.max));
    let total = round(earned - g.late.as_ref().map_or(0.0, |l| l.deduction));
    let missing: Vec<&ManualGrade> = manual
        .iter()
        .filter(counted)
        .filter(|m| m.points.is_none())
        .collect();
    let stale: Vec<&ManualGrade> = manual
        .iter()
        .filter(counted)
        .filter(|m| m.points.is_some() && m.stale.is_some())
        .collect();
    if missing.is_empty() && stale.is_empty() {
        g.total = Some(total);
        return;
    }
    let mut why = Vec::new();
    if !missing.is_empty() {
        let most: f64 = missing.iter().map(|m| m.max).sum();
        let names = if missing.len() == manual.iter().filter(counted).count() {
            String::new()
        } else {
            format!(
                " ({})",
                missing
                    .iter()
                    .map(|m| m.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        why.push(format!(
            "{} manual marks not given{names}",
            crate::units::points(most)
        ));
    }
    for m in stale {
        why.push(format!(
            "`{}`: {}; check the marks again",
            m.name,
            m.stale.as_deref().unwrap_or_default()
        ));
    }
    let text = format!("incomplete: {}", why.join("; "));
    g.incomplete = Some(text.clone());
    g.blank = Some(text);
    g.partial = Some(total);
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The maximum and what the work earned before lateness: the groups (by the track's parts, or all of
/// them), then the tournament's marks.
fn base(work: &Work<'_>, track: Option<&Track>) -> Grade {
    let mut g = match track {
        Some(t) => by_parts(work, t),
        None => by_groups(work),
    };
    if let Some(t) = work.tournament {
        if !t.bonus {
            g.max += t.max;
        }
        match t.marks {
            Some(m) => g.earned = g.earned.map(|e| e + m),
            // A bonus never held takes nothing from the row; a counted one leaves it to a person.
            None if t.bonus => g.notes.push(format!("no tournament bonus: {}", t.reason)),
            None => {
                g.blank.get_or_insert_with(|| {
                    format!(
                        "no tournament mark yet ({}): the total waits for it",
                        t.reason
                    )
                });
            }
        }
    }
    g.max = round(g.max);
    g.earned = g.earned.map(round);
    g
}

/// Every scored group counts at its points; a group the submission did not attempt is left out of the
/// maximum (what `grade::score` has always done).
fn by_groups(work: &Work<'_>) -> Grade {
    let counted = work.groups.iter();
    let (earned, max) = counted.fold((0.0, 0.0), |(e, m), s| {
        (e + s.points.unwrap_or(0.0), m + s.max)
    });
    Grade {
        max,
        earned: Some(earned),
        ..Grade::default()
    }
}

/// Each part of the track is its groups' points scaled to the part's weight; a group of a part that the
/// submission did not attempt earns 0 (the part is compulsory on this track); a group in no part of
/// the track does not count, and is named when it earned something.
fn by_parts(work: &Work<'_>, track: &Track) -> Grade {
    let mut g = Grade {
        track: Some(track.name.clone()),
        earned: Some(0.0),
        ..Grade::default()
    };
    let most = |name: &str| {
        work.suite_groups
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0.0, |(_, p)| *p)
    };
    for part in &track.parts {
        let of: f64 = part.groups.iter().map(|n| most(n)).sum();
        let got: f64 = part
            .groups
            .iter()
            .filter_map(|n| work.groups.iter().find(|s| &s.name == n))
            .filter_map(|s| s.points)
            .sum();
        let missing: Vec<&str> = part
            .groups
            .iter()
            .filter(|n| work.not_attempted.iter().any(|a| &a.group == *n))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            let why = work
                .not_attempted
                .iter()
                .find(|a| a.group == missing[0])
                .map(|a| a.reason.clone());
            g.notes.push(format!(
                "{}: not attempted ({}), which the {} track requires: 0 of {}",
                missing.join(", "),
                why.unwrap_or_default(),
                track.name,
                crate::units::points(part.points)
            ));
        }
        let points = if of > 0.0 {
            round(got / of * part.points)
        } else {
            0.0
        };
        if of > 0.0 && (of - part.points).abs() > 1e-9 {
            g.notes.push(format!(
                "{}: {} of {} scaled to {} of {}",
                part.name,
                crate::units::points(got),
                crate::units::points(of),
                crate::units::points(points),
                crate::units::points(part.points)
            ));
        }
        g.max += part.points;
        g.earned = g.earned.map(|e| e + points);
        g.parts.push(Part {
            name: part.name.clone(),
            points,
            max: part.points,
        });
    }
    let outside: Vec<&str> = work
        .groups
        .iter()
        .filter(|s| s.points.unwrap_or(0.0) > 0.0)
        .filter(|s| !track.parts.iter().any(|p| p.groups.contains(&s.name)))
        .map(|s| s.name.as_str())
        .collect();
    if !outside.is_empty() {
        g.notes.push(format!(
            "{}: not part of the {} track, not counted",
            outside.join(", "),
            track.name
        ));
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::TrackPart;

    const TTT: [&str; 4] = ["plain", "prune", "ply", "no-move"];
    const MORRIS: [&str; 4] = [
        "morris-moves",
        "morris-no-move",
        "morris-tactics",
        "morris-play",
    ];
    const POINTS: [f64; 8] = [5.0, 5.0, 3.0, 2.0, 1.0, 0.5, 1.0, 0.5];

    fn suite_groups() -> Vec<(String, f64)> {
        TTT.iter()
            .chain(&MORRIS)
            .zip(POINTS)
            .map(|(n, p)| ((*n).to_string(), p))
            .collect()
    }

    /// Every group at `share` of its points; Morris attempted or not.
    fn groups(share: f64, morris: bool) -> (Vec<GroupPoints>, Vec<Unattempted>) {
        let mut scored = Vec::new();
        let mut missing = Vec::new();
        for (name, points) in suite_groups() {
            if !morris && name.starts_with("morris") {
                missing.push(Unattempted {
                    group: name,
                    reason: "no `tmmorris.py`".into(),
                });
                continue;
            }
            scored.push(GroupPoints {
                name,
                points: Some(points * share),
                max: points,
            });
        }
        (scored, missing)
    }

    fn adelaide(name: &str) -> Track {
        let part = |name: &str, groups: &[&str], points| TrackPart {
            name: name.into(),
            groups: groups.iter().map(ToString::to_string).collect(),
            points,
        };
        Track {
            name: name.into(),
            due: None,
            parts: if name == "undergraduate" {
                vec![part("tic-tac-toe", &TTT, 15.0)]
            } else {
                vec![
                    part("tic-tac-toe", &TTT, 12.0),
                    part("morris", &MORRIS, 3.0),
                ]
            },
        }
    }

    fn graded(track: &str, share: f64, morris: bool, timing: Timing) -> Grade {
        let (scored, missing) = groups(share, morris);
        let all = suite_groups();
        let work = Work {
            groups: &scored,
            not_attempted: &missing,
            tournament: None,
            suite_groups: &all,
            machine_fault: None,
            course_blank: None,
            manual: &[],
        };
        let policy = late::Policy {
            rule: late::Rule::Cap { percent: 25.0 },
            ..late::Policy::default()
        };
        grade(&work, Some(&adelaide(track)), &timing, &policy)
    }

    #[test]
    fn adelaide_both_tracks_are_out_of_fifteen() {
        let ug = graded("undergraduate", 1.0, false, Timing::Unknown);
        assert_eq!((ug.total, ug.max), (Some(15.0), 15.0));
        assert!(ug.notes.is_empty(), "{:?}", ug.notes);
        // An undergraduate's Morris is not part of the track.
        let extra = graded("undergraduate", 1.0, true, Timing::Unknown);
        assert_eq!((extra.total, extra.max), (Some(15.0), 15.0));
        assert!(
            extra.notes[0].ends_with("not part of the undergraduate track, not counted"),
            "{:?}",
            extra.notes
        );
        let pg = graded("postgraduate", 1.0, true, Timing::Unknown);
        assert_eq!((pg.total, pg.max), (Some(15.0), 15.0));
        assert_eq!(
            pg.parts.iter().map(|p| p.points).collect::<Vec<_>>(),
            [12.0, 3.0]
        );
        // A postgraduate's tic-tac-toe alone: 12, Morris (compulsory) 0.
        let ttt = graded("postgraduate", 1.0, false, Timing::Unknown);
        assert_eq!((ttt.total, ttt.max), (Some(12.0), 15.0));
        assert!(
            ttt.notes
                .iter()
                .any(|n| n.contains("which the postgraduate track requires: 0 of 3")),
            "{:?}",
            ttt.notes
        );
        assert!(
            ttt.notes
                .iter()
                .any(|n| n == "tic-tac-toe: 15 of 15 scaled to 12 of 12"),
            "{:?}",
            ttt.notes
        );
    }

    #[test]
    fn a_hand_in_25_hours_late_is_capped_at_half_and_an_unknown_time_is_blank() {
        let late = graded("undergraduate", 1.0, false, Timing::After(25 * 3600));
        assert_eq!(
            (late.earned, late.total, late.max),
            (Some(15.0), Some(7.5), 15.0)
        );
        assert_eq!(late.late.as_ref().unwrap().deduction, 7.5);
        let canvas = graded(
            "undergraduate",
            1.0,
            false,
            Timing::LateUnknown {
                source: "Canvas".into(),
            },
        );
        assert_eq!(canvas.total, None);
        assert!(canvas
            .blank
            .unwrap()
            .starts_with("Canvas marked it late but gives no time"));
    }

    #[test]
    fn a_tournament_not_held_leaves_the_total_blank_unless_a_bonus() {
        let mark = |marks: Option<f64>, bonus| TournamentPoints {
            marks,
            max: 40.0,
            bonus,
            reason: "no tournament: 1 submission(s) could enter".into(),
        };
        let none: Vec<(String, f64)> = Vec::new();
        let work = |t| Work {
            groups: &[],
            not_attempted: &[],
            tournament: Some(t),
            suite_groups: &none,
            machine_fault: None,
            course_blank: None,
            manual: &[],
        };
        let policy = late::Policy::default();
        let held = mark(Some(38.0), false);
        let g = grade(&work(&held), None, &Timing::Unknown, &policy);
        assert_eq!((g.total, g.max), (Some(38.0), 40.0));
        let unheld = mark(None, false);
        let g = grade(&work(&unheld), None, &Timing::Unknown, &policy);
        assert_eq!((g.total, g.max), (None, 40.0));
        assert!(g
            .blank
            .unwrap()
            .starts_with("no tournament mark yet (no tournament"));
        let bonus = mark(None, true);
        let g = grade(&work(&bonus), None, &Timing::Unknown, &policy);
        assert_eq!((g.total, g.max), (Some(0.0), 0.0));
        let broken = Work {
            machine_fault: Some("not graded: no guile".into()),
            ..work(&held)
        };
        assert_eq!(
            grade(&broken, None, &Timing::After(9), &policy)
                .blank
                .as_deref(),
            Some("not graded: no guile")
        );
    }

    #[test]
    fn manual_marks_join_the_total_and_a_row_waits_for_them() {
        let tournament = TournamentPoints {
            marks: Some(38.0),
            max: 40.0,
            bonus: false,
            reason: "placed 2".into(),
        };
        let manual = |points: Option<f64>, stale: bool| ManualGrade {
            name: "manual".into(),
            max: 60.0,
            points,
            missing: points.is_none().then(|| "not marked".to_string()),
            stale: stale.then(|| "the code changed since ta1 marked it".to_string()),
            ..ManualGrade::default()
        };
        let none: Vec<(String, f64)> = Vec::new();
        let policy = late::Policy::default();
        let graded = |m: &[ManualGrade], timing: Timing, policy: &late::Policy| {
            let work = Work {
                groups: &[],
                not_attempted: &[],
                tournament: Some(&tournament),
                suite_groups: &none,
                machine_fault: None,
                course_blank: None,
                manual: m,
            };
            grade(&work, None, &timing, policy)
        };
        // UT3: the 40 tournament marks and the 60 manual ones, out of 100.
        let g = graded(&[manual(Some(45.0), false)], Timing::Unknown, &policy);
        assert_eq!((g.total, g.max), (Some(83.0), 100.0));
        let waiting = graded(&[manual(None, false)], Timing::Unknown, &policy);
        assert_eq!(
            (waiting.total, waiting.max, waiting.partial),
            (None, 100.0, Some(38.0))
        );
        assert_eq!(
            waiting.incomplete.as_deref(),
            Some("incomplete: 60 manual marks not given")
        );
        assert_eq!(waiting.blank, waiting.incomplete);
        let stale = graded(&[manual(Some(45.0), true)], Timing::Unknown, &policy);
        assert_eq!((stale.total, stale.partial), (None, Some(83.0)));
        assert!(stale
            .incomplete
            .unwrap()
            .contains("the code changed since ta1 marked it; check the marks again"));
        // Marks given later re-total the stored row, lateness included (a cap of the whole maximum).
        let capped = late::Policy {
            rule: late::Rule::Cap { percent: 25.0 },
            ..late::Policy::default()
        };
        let late = graded(&[manual(None, false)], Timing::After(3600), &capped);
        assert_eq!(late.total, None);
        let marked = with_manual(&late, &[manual(Some(60.0), false)]);
        assert_eq!((marked.earned, marked.total), (Some(98.0), Some(75.0)));
        assert!(marked.incomplete.is_none() && marked.blank.is_none());
        // A machine's fault stays the reason, whatever the marks.
        let mut broken = graded(&[manual(Some(45.0), false)], Timing::Unknown, &policy);
        broken.basis.as_mut().unwrap().fault = Some("not graded: no python".into());
        let again = with_manual(&broken, &[manual(Some(45.0), false)]);
        assert_eq!(
            (again.total, again.blank.as_deref(), again.partial),
            (None, Some("not graded: no python"), None)
        );
    }
}
