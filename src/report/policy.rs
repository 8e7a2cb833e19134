//! The course (`crate::course`) applied to a graded class: for each result, who it is for (roster,
//! else what the LMS said), its track, section and team, its due date (track, extension), how late it
//! was (`submissions.toml`), and so its [`Grade`]. What `grader run` and `grader merge` do once every
//! result (and the tournament) is in. It lives among the reports, not in `course`, because it reads
//! results: `course` stays below `report` (a course file knows nothing of results).

use jiff::Timestamp;

use crate::course::grade::{
    grade, Grade, GroupPoints, Timing, TournamentPoints, Unattempted, Work,
};
use crate::course::roster::{Identity, Student};
use crate::course::submissions::{Entry, Submissions};
use crate::course::{time, Course, Extension};
use crate::report::result::SubmissionResult;

/// What the course knows about one class: its file (if any) and its submissions file (if any).
#[derive(Clone, Copy, Default)]
pub struct Policy<'a> {
    pub course: Option<&'a Course>,
    pub submissions: Option<&'a Submissions>,
    /// Each group of the suite and its points.
    pub groups: &'a [(String, f64)],
    /// A person's marks (`manual.toml`) with the rubric; without them, a manual group is not marked.
    pub marks: Option<&'a crate::marks::ClassMarks>,
}

impl Policy<'_> {
    /// The roster students whose work is in `folder`.
    fn members(&self, folder: &str) -> Vec<&Student> {
        self.course
            .and_then(|c| c.roster.as_ref())
            .map(|r| r.students.iter().filter(|s| s.folder == folder).collect())
            .unwrap_or_default()
    }

    /// The hand-in's entry kind (`submissions.toml`, default both).
    #[must_use]
    pub fn entry(&self, folder: &str) -> Entry {
        self.submissions
            .and_then(|s| s.get(folder))
            .map(|r| r.entry)
            .unwrap_or_default()
    }

    /// When `folder` was handed in, if known.
    #[must_use]
    pub fn submitted(&self, folder: &str) -> Option<Timestamp> {
        let record = self.submissions?.get(folder)?;
        let text = record.submitted.as_ref()?.to_string();
        time::parse_text(&text, &jiff::tz::TimeZone::UTC, true).ok()
    }

    /// The section of `folder`'s students (the first that has one).
    #[must_use]
    pub fn section(&self, folder: &str) -> Option<String> {
        self.members(folder).iter().find_map(|s| s.section.clone())
    }

    /// The due date for `folder`: its students' latest extension, else its track's date, else the
    /// course's.
    fn due(&self, folder: &str, track: Option<&crate::course::Track>) -> Option<Timestamp> {
        let course = self.course?;
        let usual = track.and_then(|t| t.due).or(course.due);
        let keys: Vec<String> = std::iter::once(folder.to_string())
            .chain(self.members(folder).iter().flat_map(|s| {
                [s.login.clone(), s.id.clone(), s.email.clone()]
                    .into_iter()
                    .flatten()
            }))
            .collect();
        let extended = course
            .extensions
            .iter()
            .filter(|(who, _)| keys.contains(who))
            .filter_map(|(_, e)| match e {
                Extension::Until(t) => Some(*t),
                Extension::By(d) => usual.and_then(|u| u.checked_add(*d).ok()),
            })
            .max();
        extended.or(usual)
    }

    /// `r`'s manual groups as the marks give them; with no marks, each of the result's manual groups
    /// not marked.
    fn manual_grades(&self, r: &SubmissionResult) -> Vec<crate::marks::ManualGrade> {
        if let Some(m) = self.marks {
            return m.grades(&r.student);
        }
        r.groups
            .iter()
            .filter(|g| g.credit_rule == crate::suite::CreditRule::Manual)
            .map(|g| crate::marks::ManualGrade {
                name: g.name.clone(),
                max: g.max,
                missing: Some("not marked".into()),
                ..crate::marks::ManualGrade::default()
            })
            .collect()
    }

    /// `r`'s grade under the course (with no course file: every group counts, nobody is late).
    #[must_use]
    pub fn grade(&self, r: &SubmissionResult) -> Grade {
        let folder = r.student.as_str();
        let members = self.members(folder);
        let course = self.course;
        let track_name = members
            .iter()
            .find_map(|s| s.track.clone())
            .or_else(|| course.and_then(|c| c.default_track.clone()));
        let track = track_name
            .as_deref()
            .and_then(|t| course.and_then(|c| c.track(t)));
        let due = self.due(folder, track);
        let record = self.submissions.and_then(|s| s.get(folder));
        let submitted = self.submitted(folder);
        let timing = match (due, submitted, record) {
            (Some(d), Some(s), _) => Timing::After(s.duration_since(d).as_secs()),
            (Some(_), None, Some(rec)) if rec.late => Timing::LateUnknown {
                source: self
                    .submissions
                    .map_or("the LMS".into(), |s| lms_name(&s.source)),
            },
            _ => Timing::Unknown,
        };
        let groups: Vec<GroupPoints> = r
            .groups
            .iter()
            .filter(|g| g.credit_rule != crate::suite::CreditRule::Manual)
            .map(|g| GroupPoints {
                name: g.name.clone(),
                points: g.points,
                max: g.max,
            })
            .collect();
        let not_attempted: Vec<Unattempted> = r
            .not_attempted
            .iter()
            .map(|n| Unattempted {
                group: n.group.clone(),
                reason: n.reason.clone(),
            })
            .collect();
        let tournament = r.tournament.as_ref().map(|t| TournamentPoints {
            marks: t.marks,
            max: t.max,
            bonus: t.bonus,
            reason: t.reason.clone(),
        });
        let no_track = (course.is_some_and(|c| !c.tracks.is_empty()) && track.is_none()).then(|| {
            format!(
                "no track: `{folder}` is not in the roster with a `track`, and the course sets no `default-track`"
            )
        });
        let manual = self.manual_grades(r);
        let work = Work {
            groups: &groups,
            not_attempted: &not_attempted,
            tournament: tournament.as_ref(),
            suite_groups: self.groups,
            machine_fault: crate::report::export::unscored(r),
            course_blank: no_track,
            manual: &manual,
        };
        let late = course.map(|c| c.late.clone()).unwrap_or_default();
        let mut g = grade(&work, track, &timing, &late);
        g.members = self.identities(&members, record);
        g.section = self.section(folder);
        g.team = members.iter().find_map(|s| s.team.clone());
        g.submitted = submitted.map(time::show);
        g.due = due.map(time::show);
        g
    }

    /// Who a row is for: the roster's students of its folder, then each student the LMS named as a
    /// submitter (a group submission's other members), as the roster has them when it does.
    fn identities(
        &self,
        members: &[&Student],
        record: Option<&crate::course::submissions::Record>,
    ) -> Vec<Identity> {
        let roster = self.course.and_then(|c| c.roster.as_ref());
        let mut out: Vec<Identity> = members.iter().map(|s| Identity::of(s)).collect();
        for m in record.map(|r| r.members.as_slice()).unwrap_or_default() {
            let who = roster
                .and_then(|r| r.find(m))
                .map_or_else(|| m.clone(), Identity::of);
            if !out.contains(&who) {
                out.push(who);
            }
        }
        out
    }

    /// Sets every result's `course` grade, its `review` cases settled as the marks say first.
    pub fn apply(&self, results: &mut [SubmissionResult]) {
        for r in results {
            if let Some(m) = self.marks {
                r.settle(&m.settlements(&r.student));
            }
            r.course = Some(self.grade(r));
        }
    }
}

/// `Canvas`, `Moodle`: the LMS as people write it.
fn lms_name(source: &str) -> String {
    match source {
        "canvas" => "Canvas".into(),
        "moodle" => "Moodle".into(),
        "gradescope" => "Gradescope".into(),
        "blackboard" => "Blackboard".into(),
        "github-classroom" => "GitHub Classroom".into(),
        "" => "the LMS".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::submissions::Record;
    use crate::report::result::{fixtures, GroupScore};
    use crate::suite::CreditRule;

    #[test]
    fn a_team_gets_its_members_the_latest_extension_and_its_lateness() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("course.toml"),
            "timezone = \"UTC\"\ndue = 2021-03-30T12:00:00\nroster = \"roster.csv\"\n\
             [late]\nrule = \"cap\"\nper-day = 25\n[extensions]\nb = \"1d\"\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("roster.csv"),
            "login,team,section\na,red,1\nb,red,1\nc,,2\n",
        )
        .unwrap();
        let groups = vec![("g".to_string(), 10.0)];
        let course = Course::for_suite(dir.path(), &groups).unwrap().unwrap();
        let mut subs = Submissions::default();
        let at = |s: &str| Record {
            submitted: Some(s.parse().unwrap()),
            ..Record::default()
        };
        subs.submissions
            .insert("red".into(), at("2021-04-01T13:00:00Z"));
        subs.submissions
            .insert("c".into(), at("2021-03-30T13:00:00Z"));
        let policy = Policy {
            course: Some(&course),
            submissions: Some(&subs),
            groups: &groups,
            marks: None,
        };
        let result = |who: &str| {
            let mut r = fixtures::submission(who, Vec::new());
            r.groups = vec![GroupScore {
                name: "g".into(),
                credit_rule: CreditRule::Proportional,
                points: Some(10.0),
                max: 10.0,
                passed: 1,
                cases: 1,
            }];
            r
        };
        // The team: due a day later for b's extension, handed in 25 hours after that: capped at 5.
        let red = policy.grade(&result("red"));
        assert_eq!(red.members.len(), 2);
        assert_eq!(
            (red.team.as_deref(), red.section.as_deref()),
            (Some("red"), Some("1"))
        );
        assert_eq!(red.due.as_deref(), Some("2021-03-31T12:00:00Z"));
        assert_eq!((red.total, red.late.as_ref().unwrap().days), (Some(5.0), 2));
        let c = policy.grade(&result("c"));
        assert_eq!(
            (c.total, c.late.as_ref().unwrap().hours()),
            (Some(7.5), 1.0)
        );
        // No course: every group counts, nobody is late.
        let none = Policy {
            groups: &groups,
            ..Policy::default()
        };
        assert_eq!(none.grade(&result("c")).total, Some(10.0));
        // A case the grader could not follow: no total until a person reads it (never a zero).
        let mut unfollowed = result("c");
        unfollowed.cases = vec![fixtures::case("g", crate::judge::Verdict::Review, 0.0)];
        let g = none.grade(&unfollowed);
        assert_eq!(g.total, None);
        assert!(g.blank.unwrap().starts_with("needs review: g/c"));
    }
}
