//! Tic-tac-toe solver properties: the handout's examples, the known tree counts, pruned against plain,
//! and plain values against an independent brute force on every legal position.

// The solvers tested here are not in the student build.
#![cfg(not(feature = "student"))]

use reference::adelaide::{tictactoe, tictactoe_answer, Answer, Mode, Variant};
use reference::games::tictactoe::TicTacToe;
use reference::search::{self, Minimax, Utility};
use reference::Game;

/// Every legal position, as raster strings (the parser accepts exactly those).
fn legal_positions() -> Vec<String> {
    let mut out = Vec::new();
    for mut n in 0..3usize.pow(9) {
        let s: String = (0..9)
            .map(|_| {
                let c = ['-', 'x', 'o'][n % 3];
                n /= 3;
                c
            })
            .collect();
        if TicTacToe::from_raster(&s).is_ok() {
            out.push(s);
        }
    }
    out
}

/// An independent minimax over raw bytes: no `Game`, no search module, nothing shared.
fn brute(b: &mut [u8; 9]) -> i32 {
    const L: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    for l in L {
        if b[l[0]] != b'-' && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]] {
            return if b[l[0]] == b'x' { 1 } else { -1 };
        }
    }
    let xs = b.iter().filter(|&&c| c == b'x').count();
    let os = b.iter().filter(|&&c| c == b'o').count();
    let (me, max) = if xs == os {
        (b'x', true)
    } else {
        (b'o', false)
    };
    let mut best: Option<i32> = None;
    for i in 0..9 {
        if b[i] == b'-' {
            b[i] = me;
            let v = brute(b);
            b[i] = b'-';
            best = Some(match best {
                None => v,
                Some(w) if max => w.max(v),
                Some(w) => w.min(v),
            });
        }
    }
    best.unwrap_or(0)
}

fn brute_str(s: &str) -> i32 {
    brute(&mut s.as_bytes().try_into().unwrap())
}

fn states(a: &Answer) -> Vec<[u8; 9]> {
    a.lines().iter().map(|l| l.state).collect()
}

fn is_subsequence(small: &[[u8; 9]], big: &[[u8; 9]]) -> bool {
    let mut it = big.iter();
    small.iter().all(|s| it.any(|b| b == s))
}

#[test]
fn the_handout_example() {
    let s = tictactoe("oxxxo-ox-", Mode::Plain, Variant::Golden).unwrap();
    assert_eq!(s.stdout(), "oxxxo-oxo\n");
    assert_eq!(s.trace_text(), "oxxxooox- 0\noxxxoooxx 0\noxxxo-oxo -1\n");
}

#[test]
fn the_blank_board() {
    let plain = tictactoe_answer("---------", Mode::Plain, Variant::Golden).unwrap();
    assert_eq!(plain.len(), 549_945);
    assert_eq!(plain.stdout(), "x--------\n");
    let prune = tictactoe_answer("---------", Mode::Prune, Variant::Golden).unwrap();
    assert_eq!(prune.len(), 18_296);
    assert_eq!(prune.stdout(), "x--------\n");
    let strict = tictactoe_answer("---------", Mode::Prune, Variant::PruneStrict).unwrap();
    assert_eq!(strict.len(), 146_119);
    assert_eq!(strict.stdout(), "x--------\n");
}

#[test]
fn the_full_tree_counts() {
    let plain = search::minimax(
        &TicTacToe::new(),
        &Utility,
        Minimax {
            trace: true,
            ..Minimax::default()
        },
    );
    assert_eq!(plain.trace.visits.len(), 549_946);
    let (mut x, mut o, mut draw) = (0, 0, 0);
    for v in &plain.trace.visits {
        match v.state.outcome().map(|o| o.utility()) {
            Some(1) => x += 1,
            Some(-1) => o += 1,
            Some(_) => draw += 1,
            None => {}
        }
    }
    assert_eq!(
        (x + o + draw, x, o, draw),
        (255_168, 131_184, 77_904, 46_080)
    );
}

#[test]
fn plain_values_match_brute_force_everywhere() {
    let all = legal_positions();
    assert_eq!(all.len(), 5_478);
    for s in &all {
        let root = TicTacToe::from_raster(s).unwrap();
        let v = search::minimax(&root, &Utility, Minimax::default()).value;
        assert_eq!(v, brute_str(s), "{s}");
    }
    // Every value written in the blank board's trace is the true minimax value of its state.
    let plain = tictactoe_answer("---------", Mode::Plain, Variant::Golden).unwrap();
    let mut memo = std::collections::HashMap::new();
    for l in &plain.lines() {
        let want = *memo
            .entry(l.state)
            .or_insert_with(|| brute(&mut l.state.clone()));
        assert_eq!(l.value, want, "{}", String::from_utf8_lossy(&l.state));
    }
}

#[test]
fn pruning_keeps_the_move_and_visits_a_subsequence() {
    for s in legal_positions() {
        let plain = tictactoe_answer(&s, Mode::Plain, Variant::Golden).unwrap();
        let prune = tictactoe_answer(&s, Mode::Prune, Variant::Golden).unwrap();
        assert_eq!(prune.board, plain.board, "{s}");
        assert!(prune.len() <= plain.len(), "{s}");
        assert!(is_subsequence(&states(&prune), &states(&plain)), "{s}");
        for ply in 1..=4 {
            let ab = tictactoe_answer(&s, Mode::Ply(ply), Variant::Golden).unwrap();
            let mm = tictactoe_answer(&s, Mode::Ply(ply), Variant::PlyWithoutPruning).unwrap();
            assert_eq!(ab.board, mm.board, "{s} ply {ply}");
            assert!(is_subsequence(&states(&ab), &states(&mm)), "{s} ply {ply}");
        }
    }
}

#[test]
fn variants_relate_to_the_golden_search_as_documented() {
    for s in legal_positions().iter().step_by(7) {
        for mode in [Mode::Plain, Mode::Prune, Mode::Ply(2)] {
            let golden = tictactoe_answer(s, mode, Variant::Golden).unwrap();
            let run = |v| tictactoe_answer(s, mode, v).unwrap();
            // Post-order: the same lines, reordered.
            let post = run(Variant::PostOrder);
            let (mut a, mut b) = (golden.lines(), post.lines());
            a.sort_by_key(|l| (l.state, l.value));
            b.sort_by_key(|l| (l.state, l.value));
            assert_eq!(a, b, "{s}");
            if golden.board.is_none() {
                assert!(post.is_empty());
                continue;
            }
            // Fail-hard: the same nodes, values possibly clamped.
            assert_eq!(states(&run(Variant::FailHard)), states(&golden), "{s}");
            // Prune-strict and a full root window only ever visit more, and choose the same move.
            for v in [Variant::PruneStrict, Variant::RootWindowNotPassed] {
                let r = run(v);
                assert_eq!(r.board, golden.board, "{s} {}", v.name());
                assert!(is_subsequence(&states(&golden), &states(&r)), "{s}");
            }
            if let Mode::Ply(n) = mode {
                let deeper = run(Variant::PlyOneDeeper);
                let golden_deeper = tictactoe_answer(s, Mode::Ply(n + 1), Variant::Golden).unwrap();
                assert_eq!(deeper, golden_deeper, "{s}");
            }
            let with_root = run(Variant::WithRoot);
            assert_eq!(&with_root.lines()[1..], &golden.lines()[..], "{s}");
            assert_eq!(String::from_utf8_lossy(&with_root.lines()[0].state), *s);
        }
    }
}

#[test]
fn variant_names_round_trip() {
    for &v in Variant::ALL {
        assert_eq!(Variant::from_name(v.name()), Some(v));
        assert!(!v.describe().is_empty());
    }
}

#[test]
fn the_retrograde_table_agrees_with_brute_force() {
    use reference::search::{Solved, Table};
    let table = Table::solve(&[TicTacToe::new()]);
    assert_eq!(table.len(), 5_478);
    assert_eq!(table.get(&TicTacToe::new()), Some(Solved::Draw));
    for s in legal_positions() {
        let v = table.get(&TicTacToe::from_raster(&s).unwrap()).unwrap();
        assert_eq!(v.utility(), brute_str(&s), "{s}");
    }
}
