//! Search efficiency in words: a trace case's nodes visited against the reference's, per case and
//! summed per mode for a student, read from `result.json`'s `search` field alone.

use super::result::CaseResult;
use crate::judge::thousands;
use crate::judge::trace::SearchCount;

/// The modes in the order the handout introduces them.
const MODES: [&str; 3] = ["plain", "prune", "prune+ply"];

fn mode(s: &SearchCount) -> String {
    match s.ply {
        Some(ply) => format!("prune {ply}"),
        None => s.mode.clone(),
    }
}

/// `prune: you visited 340 nodes, the reference 212: your pruning cuts less`.
#[must_use]
pub fn case_line(s: &SearchCount) -> String {
    let counts = format!(
        "{}: you visited {} nodes, the reference {}",
        mode(s),
        thousands(s.visited),
        thousands(s.reference_visited)
    );
    let more = s.visited > s.reference_visited;
    let why = match (s.mode.as_str(), s.visited == s.reference_visited, more) {
        (_, true, _) => return counts,
        ("plain", _, true) => "more than the whole game tree below this board",
        ("plain", _, false) => "plain minimax visits every node, so your search skips some",
        ("prune", _, true) => "your pruning cuts less",
        ("prune", _, false) => "your pruning cuts more",
        (_, _, true) => "your search cuts less or goes deeper",
        (_, _, false) => "your search cuts more or stops shallower",
    };
    format!("{counts}: {why}")
}

/// One line for a student: each mode's nodes summed over its cases, yours against the reference's;
/// `None` when no case counted any.
#[must_use]
pub fn summary_line(cases: &[CaseResult]) -> Option<String> {
    let parts: Vec<String> = MODES
        .iter()
        .filter_map(|&m| {
            let counts: Vec<&SearchCount> = cases
                .iter()
                .filter_map(|c| c.search.as_ref())
                .filter(|s| s.mode == m)
                .collect();
            if counts.is_empty() {
                return None;
            }
            let yours: u64 = counts.iter().map(|s| s.visited).sum();
            let theirs: u64 = counts.iter().map(|s| s.reference_visited).sum();
            Some(format!(
                "{m} {} / {} ({} {})",
                thousands(yours),
                thousands(theirs),
                counts.len(),
                if counts.len() == 1 { "case" } else { "cases" }
            ))
        })
        .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "nodes visited, yours / the reference's: {}",
            parts.join("; ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Verdict;
    use crate::report::export::{feedback, summary};
    use crate::report::result::fixtures::{case, submission};

    fn count(mode: &str, ply: Option<u32>, visited: u64, reference_visited: u64) -> SearchCount {
        SearchCount {
            mode: mode.to_string(),
            ply,
            visited,
            reference_visited,
        }
    }

    #[test]
    fn each_mode_says_which_way_the_count_is_off() {
        assert_eq!(
            case_line(&count("prune", None, 212, 212)),
            "prune: you visited 212 nodes, the reference 212"
        );
        assert_eq!(
            case_line(&count("prune", None, 146_119, 18_296)),
            "prune: you visited 146,119 nodes, the reference 18,296: your pruning cuts less"
        );
        assert_eq!(
            case_line(&count("prune", None, 10, 60)),
            "prune: you visited 10 nodes, the reference 60: your pruning cuts more"
        );
        assert_eq!(
            case_line(&count("prune+ply", Some(2), 162, 35)),
            "prune 2: you visited 162 nodes, the reference 35: your search cuts less or goes deeper"
        );
        assert_eq!(
            case_line(&count("plain", None, 100, 189)),
            "plain: you visited 100 nodes, the reference 189: plain minimax visits every node, so your search skips some"
        );
    }

    #[test]
    fn a_student_line_sums_each_mode() {
        let mut cases = vec![
            case("plain", Verdict::Accepted, 1.0),
            case("prune", Verdict::WrongAnswer, 0.0),
            case("prune", Verdict::Accepted, 1.0),
            case("no-move", Verdict::Accepted, 1.0),
        ];
        assert_eq!(summary_line(&cases), None);
        cases[0].search = Some(count("plain", None, 189, 189));
        cases[1].search = Some(count("prune", None, 175, 60));
        cases[2].search = Some(count("prune", None, 1_000, 1_000));
        assert_eq!(
            summary_line(&cases).unwrap(),
            "nodes visited, yours / the reference's: plain 189 / 189 (1 case); prune 1,175 / 1,060 (2 cases)"
        );
    }

    #[test]
    fn autograder_platforms_show_the_counts_too() {
        let mut c = case("prune", Verdict::Accepted, 1.0);
        c.summary = "accepted".into();
        c.details.clear();
        assert_eq!(feedback(&c), "accepted");
        c.search = Some(count("prune", None, 60, 60));
        assert_eq!(
            feedback(&c),
            "accepted\nprune: you visited 60 nodes, the reference 60"
        );
        let out = summary(&submission("s", vec![c]));
        assert!(
            out.ends_with("nodes visited, yours / the reference's: prune 60 / 60 (1 case)"),
            "{out}"
        );
    }
}
