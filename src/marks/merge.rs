//! Several TAs' marks files joined into one: a mark only one file has is taken; marks that say the
//! same are one (the later stamp kept); marks that differ are a conflict, named with both values, and
//! taken from neither: the student stays incomplete until a person decides (in `grader review`, or by
//! making the files agree). What the destination already held is never overwritten by a conflict.

use super::{GroupMark, Marks, Settlement, StudentMarks};

/// Two different marks for one student's group or case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub student: String,
    /// The group, or `review group/case`.
    pub what: String,
    /// Each value with the file it came from.
    pub values: Vec<String>,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` {}: {}",
            self.student,
            self.what,
            self.values.join(" / ")
        )
    }
}

/// A mark of one kind with the file it came from.
trait Mark: Clone {
    fn same(&self, other: &Self) -> bool;
    fn describe(&self) -> String;
    fn later(&self, other: &Self) -> bool;
}

impl Mark for GroupMark {
    fn same(&self, other: &Self) -> bool {
        GroupMark::same(self, other)
    }
    fn describe(&self) -> String {
        GroupMark::describe(self)
    }
    fn later(&self, other: &Self) -> bool {
        self.stamp.at > other.stamp.at
    }
}

impl Mark for Settlement {
    fn same(&self, other: &Self) -> bool {
        self.credit == other.credit && self.reason.trim() == other.reason.trim()
    }
    fn describe(&self) -> String {
        Settlement::describe(self)
    }
    fn later(&self, other: &Self) -> bool {
        self.stamp.at > other.stamp.at
    }
}

/// Joins `inputs` (each with its name, for conflicts) into `into`. Returns the conflicts: among the
/// inputs (none of their values is taken) and with `into` (its value stays).
#[must_use]
pub fn merge(into: &mut Marks, inputs: &[(String, Marks)]) -> Vec<Conflict> {
    let mut conflicts = Vec::new();
    // The inputs joined first, so that a conflict among them leaves the destination as it was.
    let mut joined: std::collections::BTreeMap<String, StudentMarks> = Default::default();
    let mut disputed: Vec<(String, String)> = Vec::new();
    let mut seen: std::collections::BTreeMap<(String, String), Vec<String>> = Default::default();
    for (name, marks) in inputs {
        for (student, s) in &marks.students {
            let to = joined.entry(student.clone()).or_default();
            // The code each file's marks were given to: a later file's where both say.
            if s.code.is_some() {
                to.code.clone_from(&s.code);
            }
            for (g, m) in &s.groups {
                let key = (student.clone(), g.clone());
                seen.entry(key.clone())
                    .or_default()
                    .push(format!("{} ({name})", m.describe()));
                join(&mut to.groups, g, m, &key, &mut disputed);
            }
            for (c, m) in &s.review {
                let key = (student.clone(), format!("review {c}"));
                seen.entry(key.clone())
                    .or_default()
                    .push(format!("{} ({name})", m.describe()));
                join(&mut to.review, c, m, &key, &mut disputed);
            }
        }
    }
    disputed.sort();
    disputed.dedup();
    for (student, what) in &disputed {
        conflicts.push(Conflict {
            student: student.clone(),
            what: what.clone(),
            values: seen
                .get(&(student.clone(), what.clone()))
                .cloned()
                .unwrap_or_default(),
        });
        if let Some(s) = joined.get_mut(student) {
            match what.strip_prefix("review ") {
                Some(case) => drop(s.review.remove(case)),
                None => drop(s.groups.remove(what)),
            }
        }
    }
    for (student, s) in joined {
        let to = into.students.entry(student.clone()).or_default();
        let mut took = false;
        for (g, m) in s.groups {
            took |= keep(&mut to.groups, &g, m, &student, &g, &mut conflicts);
        }
        for (c, m) in s.review {
            took |= keep(
                &mut to.review,
                &c,
                m,
                &student,
                &format!("review {c}"),
                &mut conflicts,
            );
        }
        if took && s.code.is_some() {
            to.code = s.code;
        }
    }
    into.students
        .retain(|_, s| !s.groups.is_empty() || !s.review.is_empty() || s.code.is_some());
    conflicts
}

/// Joins one input mark into the inputs joined so far, noting a dispute.
fn join<M: Mark>(
    to: &mut std::collections::BTreeMap<String, M>,
    key: &str,
    m: &M,
    at: &(String, String),
    disputed: &mut Vec<(String, String)>,
) {
    match to.get(key) {
        None => {
            to.insert(key.to_string(), m.clone());
        }
        Some(old) if old.same(m) => {
            if m.later(old) {
                to.insert(key.to_string(), m.clone());
            }
        }
        Some(_) => disputed.push(at.clone()),
    }
}

/// Puts a joined mark into the destination unless it holds another value (a conflict, its own kept).
/// Whether it was taken.
fn keep<M: Mark>(
    to: &mut std::collections::BTreeMap<String, M>,
    key: &str,
    m: M,
    student: &str,
    what: &str,
    conflicts: &mut Vec<Conflict>,
) -> bool {
    match to.get(key) {
        Some(old) if !old.same(&m) => {
            conflicts.push(Conflict {
                student: student.to_string(),
                what: what.to_string(),
                values: vec![
                    format!("{} (kept: already in the destination)", old.describe()),
                    format!("{} (not merged)", m.describe()),
                ],
            });
            false
        }
        Some(old) if !m.later(old) => false,
        _ => {
            to.insert(key.to_string(), m);
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marks::Stamp;

    fn mark(items: &[&str], by: &str, at: &str) -> GroupMark {
        GroupMark {
            items: items.iter().map(ToString::to_string).collect(),
            adjust: 0.0,
            comment: String::new(),
            points: None,
            stamp: Stamp {
                by: by.into(),
                at: at.parse().unwrap(),
            },
        }
    }

    fn file(entries: &[(&str, &str, GroupMark)]) -> Marks {
        let mut m = Marks {
            suite: "s".into(),
            ..Marks::default()
        };
        for (student, group, g) in entries {
            m.students
                .entry((*student).into())
                .or_default()
                .groups
                .insert((*group).into(), g.clone());
        }
        m
    }

    #[test]
    fn two_tas_files_merge_and_a_conflict_names_both_values_and_takes_neither() {
        let t1 = "2026-11-26T10:00:00Z";
        let t2 = "2026-11-26T11:00:00Z";
        let ta1 = file(&[
            ("ann", "structure", mark(&["minimax"], "ta1", t1)),
            ("bo", "structure", mark(&["minimax", "moves"], "ta1", t1)),
            ("cy", "docs", mark(&["overview"], "ta1", t1)),
        ]);
        let ta2 = file(&[
            ("ann", "docs", mark(&["overview"], "ta2", t2)),
            ("bo", "structure", mark(&["minimax"], "ta2", t2)),
            ("cy", "docs", mark(&["overview"], "ta2", t2)),
        ]);
        let mut into = Marks {
            suite: "s".into(),
            ..Marks::default()
        };
        let conflicts = merge(
            &mut into,
            &[("ta1.toml".into(), ta1), ("ta2.toml".into(), ta2)],
        );
        assert_eq!(conflicts.len(), 1, "{conflicts:?}");
        let c = conflicts[0].to_string();
        assert!(c.starts_with("`bo` structure: items minimax, moves by ta1 at 2026-11-26T10:00:00Z (ta1.toml) / items minimax by ta2 at 2026-11-26T11:00:00Z (ta2.toml)"), "{c}");
        assert!(!into
            .students
            .get("bo")
            .is_some_and(|s| s.groups.contains_key("structure")));
        assert_eq!(into.students["ann"].groups.len(), 2);
        // The same mark twice is one, the later stamp kept.
        assert_eq!(into.students["cy"].groups["docs"].stamp.by, "ta2");
        // Merging a differing mark into a file that has one keeps the file's and names both.
        let again = file(&[("ann", "docs", mark(&[], "ta3", t2))]);
        let conflicts = merge(&mut into, &[("ta3.toml".into(), again)]);
        assert_eq!(conflicts.len(), 1);
        assert!(conflicts[0].values[0].contains("(kept: already in the destination)"));
        assert_eq!(into.students["ann"].groups["docs"].items, ["overview"]);
    }
}
