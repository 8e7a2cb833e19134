use std::collections::BTreeSet;

use super::*;
use crate::adelaide::{self, Variant};

/// The golden visited file from `root` in `mode`, as a suite's golden file holds it.
fn trace(root: &str, mode: Mode) -> String {
    adelaide::tictactoe_answer(root, mode, Variant::Golden)
        .unwrap()
        .trace_text()
}

/// Every reachable unfinished position, as rasters, in a fixed order.
fn positions() -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![TicTacToe::new()];
    while let Some(g) = stack.pop() {
        if g.outcome().is_some() || !seen.insert(show(&g.cells())) {
            continue;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        stack.extend(moves.iter().map(|&m| g.after(m)));
    }
    seen.into_iter().collect()
}

fn lines(root: &str, mode: Mode, variant: Variant) -> Vec<[u8; 9]> {
    adelaide::tictactoe_answer(root, mode, variant)
        .unwrap()
        .lines()
        .iter()
        .map(|l| l.state)
        .collect()
}

/// The first line (1-based) whose state differs, with both states.
fn first_state_difference(
    golden: &[[u8; 9]],
    other: &[[u8; 9]],
) -> Option<(u64, Option<String>, Option<String>)> {
    let n = golden.len().max(other.len());
    (0..n).find(|&i| golden.get(i) != other.get(i)).map(|i| {
        (
            i as u64 + 1,
            golden.get(i).map(show),
            other.get(i).map(show),
        )
    })
}

const MODES: [Mode; 4] = [Mode::Prune, Mode::Ply(1), Mode::Ply(2), Mode::Ply(3)];

#[test]
fn the_replay_cuts_exactly_where_the_search_stopped() {
    let (mut cuts, mut nodes) = (0, 0);
    for root in positions().iter().step_by(7) {
        for mode in MODES.into_iter().chain([Mode::Plain]) {
            let replay = Replay::new(root, mode, &trace(root, mode)).unwrap();
            for n in &replay.nodes {
                let game = TicTacToe::from_raster(&show(&n.state)).unwrap();
                let mut moves = Vec::new();
                if game.outcome().is_none() && !matches!(mode, Mode::Ply(p) if p == n.depth) {
                    game.legal_moves(&mut moves);
                }
                let cut = n.last.is_some_and(|c| c.cut);
                // A node with fewer children than moves was cut after its last one, and no node goes
                // on after a comparison that says to cut (a cut at the last child prunes nothing).
                let why = format!("{root} {mode:?}: `{}` line {}", show(&n.state), n.line);
                assert!(n.children <= moves.len() as u32, "{why}");
                if n.children < moves.len() as u32 {
                    assert!(cut, "{why}");
                }
                assert_eq!(n.cuts, u32::from(cut), "{why}");
                // The replayed v is the value the search wrote (fail-soft), root aside.
                if n.children > 0 && n.line > 0 {
                    assert_eq!(n.v, n.value, "{root} {mode:?}: `{}`", show(&n.state));
                }
                cuts += u32::from(cut);
                nodes += 1;
            }
        }
    }
    assert!(
        cuts > 1000 && nodes > 10_000,
        "{cuts} cuts in {nodes} nodes"
    );
}

#[test]
fn a_strict_cut_parts_where_the_reference_cuts_at_the_bound() {
    let mut named = 0;
    for root in positions().iter().step_by(3) {
        for mode in MODES {
            let golden = lines(root, mode, Variant::Golden);
            let strict = lines(root, mode, Variant::PruneStrict);
            let Some((line, e, a)) = first_state_difference(&golden, &strict) else {
                continue;
            };
            let p = parting(
                root,
                mode,
                &trace(root, mode),
                line,
                e.as_deref(),
                a.as_deref(),
            );
            let Some(Parting::ReferenceCuts { node, child, check }) = p else {
                panic!("{root} {mode:?} line {line}: {p:?}");
            };
            assert!(is_child(&node, &child));
            assert_eq!(Some(show(&child)), a);
            // The reference reached its bound exactly; the strict search needs to pass it.
            assert!(check.cut);
            if check.max {
                assert_eq!(check.v, check.beta, "{root} {mode:?} line {line}");
            } else {
                assert_eq!(check.v, check.alpha, "{root} {mode:?} line {line}");
            }
            let said = p.unwrap().describe(line);
            assert!(said.contains("so a search that cuts only when v"), "{said}");
            named += 1;
        }
    }
    assert!(named > 100, "{named}");
}

#[test]
fn a_search_one_ply_deeper_parts_below_a_reference_leaf() {
    let mut named = 0;
    for root in positions().iter().step_by(11) {
        for ply in 1..=3 {
            let mode = Mode::Ply(ply);
            let golden = lines(root, mode, Variant::Golden);
            let deeper = lines(root, mode, Variant::PlyOneDeeper);
            let Some((line, e, a)) = first_state_difference(&golden, &deeper) else {
                continue;
            };
            match parting(
                root,
                mode,
                &trace(root, mode),
                line,
                e.as_deref(),
                a.as_deref(),
            ) {
                Some(Parting::ReferenceLeaf {
                    node,
                    child,
                    ply: p,
                }) => {
                    assert_eq!(p, ply);
                    assert!(is_child(&node, &child));
                    named += 1;
                }
                other => panic!("{root} ply {ply} line {line}: {other:?}"),
            }
        }
    }
    assert!(named > 50, "{named}");
}

#[test]
fn a_search_that_cuts_more_is_told_the_reference_goes_on() {
    // Read the other way round, the strict search is the reference and the golden one cuts more: so
    // check on the golden trace cut short that the parting names the node the reference goes on in.
    let root = "xo-ox----";
    let golden = lines(root, Mode::Prune, Variant::Golden);
    assert_eq!(golden.len(), 60);
    let mut named = 0;
    for skip in 1..golden.len() {
        // The student stops after line `skip`: it never writes the rest of that node's children.
        let e = &golden[skip];
        let a = golden[skip + 1..].iter().find(|s| pieces(s) <= pieces(e));
        let Some(p) = parting(
            root,
            Mode::Prune,
            &trace(root, Mode::Prune),
            skip as u64 + 1,
            Some(&show(e)),
            a.map(show).as_deref(),
        ) else {
            continue;
        };
        match p {
            Parting::ReferenceContinues { next, check, .. } => {
                assert_eq!(next, *e);
                assert!(!check.cut);
                assert!(if check.max {
                    check.v < check.beta
                } else {
                    check.v > check.alpha
                });
                named += 1;
            }
            Parting::ReferenceExpands { next, .. } => assert_eq!(next, *e),
            Parting::Order { .. } => {}
            other => panic!("line {}: {other:?}", skip + 1),
        }
    }
    assert!(named > 5, "{named}");
}

#[test]
fn the_sentences_show_the_window_and_the_rule() {
    // The first place the strict search goes on where the golden one cuts, in words.
    let root = "xo-ox----";
    let golden = lines(root, Mode::Prune, Variant::Golden);
    let strict = lines(root, Mode::Prune, Variant::PruneStrict);
    let (line, e, a) = first_state_difference(&golden, &strict).unwrap();
    let said = parting(
        root,
        Mode::Prune,
        &trace(root, Mode::Prune),
        line,
        e.as_deref(),
        a.as_deref(),
    )
    .unwrap()
    .describe(line);
    assert!(
        said.starts_with(&format!("line {line}: your search visits `")),
        "{said}"
    );
    assert!(said.contains("α = ") && said.contains("β = "), "{said}");
    assert!(said.contains("AIMA stops a"), "{said}");
    // Infinite bounds read as ±∞.
    assert_eq!(num(INF), "+∞");
    assert_eq!(num(-INF), "−∞");
}

#[test]
fn the_other_pruning_variants_part_at_a_reference_cut() {
    // A root that does not pass its window on, and a ply search without pruning, both visit nodes the
    // reference prunes: the parting names the cut (the window may differ from the student's there).
    let mut named = 0;
    for root in positions().iter().step_by(13) {
        for (mode, variant) in [
            (Mode::Prune, Variant::RootWindowNotPassed),
            (Mode::Ply(2), Variant::RootWindowNotPassed),
            (Mode::Ply(2), Variant::PlyWithoutPruning),
            (Mode::Ply(3), Variant::PlyWithoutPruning),
        ] {
            let golden = lines(root, mode, Variant::Golden);
            let other = lines(root, mode, variant);
            let Some((line, e, a)) = first_state_difference(&golden, &other) else {
                continue;
            };
            match parting(
                root,
                mode,
                &trace(root, mode),
                line,
                e.as_deref(),
                a.as_deref(),
            ) {
                Some(p @ Parting::ReferenceCuts { check, .. }) => {
                    assert!(check.cut);
                    let said = p.describe(line);
                    assert!(
                        said.contains("so a search that cuts only when")
                            || said.contains("is already past"),
                        "{said}"
                    );
                    named += 1;
                }
                other => panic!("{root} {mode:?} {variant:?} line {line}: {other:?}"),
            }
        }
    }
    assert!(named > 50, "{named}");
}

#[test]
fn children_in_another_order_are_named() {
    // Plain minimax from `xo-ox----`: the root's first two children fill its first and second blanks;
    // a student who starts with the second one parts at line 1.
    let root = "xo-ox----";
    let golden = lines(root, Mode::Plain, Variant::Golden);
    let second = golden[1..].iter().find(|s| pieces(s) == 5).unwrap();
    let p = parting(
        root,
        Mode::Plain,
        &trace(root, Mode::Plain),
        1,
        Some(&show(&golden[0])),
        Some(&show(second)),
    );
    assert_eq!(
        p,
        Some(Parting::Order {
            node: cells(root).unwrap(),
            next: golden[0],
            child: *second,
        })
    );
    assert!(p.unwrap().describe(1).contains("in another order"));
}

#[test]
fn a_golden_file_that_is_no_trace_from_the_root_explains_nothing() {
    let root = "xo-ox----";
    let good = trace(root, Mode::Prune);
    let first = good
        .lines()
        .next()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    assert!(parting(root, Mode::Prune, &good, 1, Some(&first), Some("xo-oxx---")).is_some());
    for bad in [
        "not a trace\n".to_string(),
        good.replace(' ', "\t"),
        // A node two moves below the root at line 1, and a value that is no number.
        format!("xoxoxx---\n{good}"),
        good.replacen(" ", " v", 1),
        // Another root's trace.
        trace("x--------", Mode::Prune),
    ] {
        assert_eq!(
            parting(root, Mode::Prune, &bad, 1, Some(&first), Some("xo-oxx---")),
            None,
            "{bad:.60}"
        );
    }
}
