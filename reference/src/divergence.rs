//! Where a tic-tac-toe search parts from the Adelaide reference's: the node at which one search cuts
//! and the other goes on, and the v, α, β with which the reference decides there.
//!
//! The reference's windows are re-derived from its golden trace (the visited file a suite or a student
//! kit holds): each node's value is the value its search returned (fail-soft), so replaying the AIMA
//! loop over the children in trace order gives, after each child, the v, α and β the reference
//! compared. Nothing here searches: the student build, which has no search, explains a parting from
//! the kit's golden file alone. A test checks the replay cuts exactly where the search stopped, over
//! every reachable position.

use crate::adelaide::Mode;
use crate::game::{Game, Player};
use crate::games::tictactoe::TicTacToe;

/// Above every value a trace holds (`search::INF`, which the student build does not have).
const INF: i32 = i32::MAX;

/// What the reference compared at one node after one of its children returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// The child that had just returned: its line in the visited file.
    pub after_line: u64,
    pub after: [u8; 9],
    /// The node's best value so far, and the window it was compared with (before the update that
    /// follows the comparison).
    pub v: i32,
    pub alpha: i32,
    pub beta: i32,
    pub max: bool,
    /// Whether the reference stopped searching the node's children here.
    pub cut: bool,
}

/// Why the two searches part at one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parting {
    /// The student searches `child`, a child of `node`, where the reference cut `node` off.
    ReferenceCuts {
        node: [u8; 9],
        child: [u8; 9],
        check: Check,
    },
    /// The student stops searching `node`; the reference goes on to `next`.
    ReferenceContinues {
        node: [u8; 9],
        next: [u8; 9],
        check: Check,
        mode: Mode,
    },
    /// The student searches below `node`, which the reference values as a leaf at the ply limit.
    ReferenceLeaf {
        node: [u8; 9],
        child: [u8; 9],
        ply: u32,
    },
    /// The student never searches below `node` (line `line`), which the reference expands.
    ReferenceExpands {
        node: [u8; 9],
        node_line: u64,
        next: [u8; 9],
        depth: u32,
        mode: Mode,
    },
    /// Both search the children of `node`, in another order.
    Order {
        node: [u8; 9],
        next: [u8; 9],
        child: [u8; 9],
    },
}

/// A node of the replayed reference search.
struct Node {
    state: [u8; 9],
    line: u64,
    depth: u32,
    value: i32,
    max: bool,
    /// The window the node was given by its parent.
    alpha_in: i32,
    beta_in: i32,
    /// The window as the node's loop has updated it so far.
    alpha: i32,
    beta: i32,
    v: i32,
    /// The last comparison made after a child returned.
    last: Option<Check>,
    children: u32,
    /// How many comparisons said to cut (at most one, the last, in a replay that matches the search).
    cuts: u32,
}

/// The golden search from `root` in `mode`, replayed from its trace with its windows: the root (line 0)
/// and every visited node in pre-order. `None` for a board with no move or an impossible one, or a
/// trace that is not one of `STATE VALUE` lines.
struct Replay {
    nodes: Vec<Node>,
}

fn pieces(cells: &[u8; 9]) -> u32 {
    cells.iter().filter(|&&c| c != b'-').count() as u32
}

impl Replay {
    fn new(root: &str, mode: Mode, golden: &str) -> Option<Replay> {
        let game = TicTacToe::from_raster(root).ok()?;
        let base = pieces(&game.cells());
        let root_max = game.to_move() == Player::First;
        let node = |state: [u8; 9], line: u64, value: i32| {
            let depth = pieces(&state) - base;
            let max = root_max == (depth % 2 == 0);
            Node {
                state,
                line,
                depth,
                value,
                max,
                alpha_in: -INF,
                beta_in: INF,
                alpha: -INF,
                beta: INF,
                v: if max { -INF } else { INF },
                last: None,
                children: 0,
                cuts: 0,
            }
        };
        let mut nodes = vec![node(game.cells(), 0, 0)];
        for (i, text) in golden.lines().enumerate() {
            let (state, value) = text.trim_end().split_once(' ')?;
            let state = cells(state)?;
            let depth = pieces(&state).checked_sub(base)?;
            // A node is one move below an open node (or the root); anything else is no pre-order trace.
            if depth == 0 || depth > nodes.last().map_or(0, |n| n.depth) + 1 {
                return None;
            }
            nodes.push(node(state, i as u64 + 1, value.parse().ok()?));
        }
        let mut replay = Replay { nodes };
        replay.windows(mode);
        Some(replay)
    }

    /// Runs the AIMA loop over the trace: each node's window from its parent's at the time, each
    /// returned value compared as the reference compares it.
    fn windows(&mut self, mode: Mode) {
        let mut path: Vec<usize> = vec![0];
        for i in 1..self.nodes.len() {
            let depth = self.nodes[i].depth;
            while self.nodes[*path.last().expect("the root stays")].depth >= depth {
                let done = path.pop().expect("not the root");
                self.returned(*path.last().expect("the root stays"), done, mode);
            }
            let parent = *path.last().expect("the root stays");
            let (alpha, beta) = (self.nodes[parent].alpha, self.nodes[parent].beta);
            let n = &mut self.nodes[i];
            (n.alpha_in, n.beta_in, n.alpha, n.beta) = (alpha, beta, alpha, beta);
            self.nodes[parent].children += 1;
            path.push(i);
        }
        while path.len() > 1 {
            let done = path.pop().expect("not the root");
            self.returned(*path.last().expect("the root stays"), done, mode);
        }
    }

    fn returned(&mut self, parent: usize, child: usize, mode: Mode) {
        let (cv, after_line, after) = {
            let c = &self.nodes[child];
            (c.value, c.line, c.state)
        };
        let p = &mut self.nodes[parent];
        p.v = if p.max { p.v.max(cv) } else { p.v.min(cv) };
        let cut = mode != Mode::Plain && if p.max { p.v >= p.beta } else { p.v <= p.alpha };
        p.cuts += u32::from(cut);
        p.last = Some(Check {
            after_line,
            after,
            v: p.v,
            alpha: p.alpha,
            beta: p.beta,
            max: p.max,
            cut,
        });
        if mode != Mode::Plain {
            if p.max {
                p.alpha = p.alpha.max(p.v);
            } else {
                p.beta = p.beta.min(p.v);
            }
        }
    }

    /// The node at `depth` on the path to line `line` (the nodes open just before it).
    fn open_at(&self, line: u64, depth: u32) -> Option<&Node> {
        let before = usize::try_from(line).ok()?.min(self.nodes.len());
        self.nodes[..before]
            .iter()
            .rev()
            .find(|n| n.depth <= depth)
            .filter(|n| n.depth == depth)
    }

    /// The last child of `parent` before line `line`, and the check made after it.
    fn check_before(&self, parent: &Node, line: u64) -> Option<Check> {
        let depth = parent.depth + 1;
        let child = self.nodes[..usize::try_from(line).ok()?.min(self.nodes.len())]
            .iter()
            .rev()
            .take_while(|n| n.depth >= depth)
            .find(|n| n.depth == depth)?;
        // Replay only the children of `parent` up to `child`.
        let mut v = if parent.max { -INF } else { INF };
        let (mut alpha, mut beta) = (parent.alpha_in, parent.beta_in);
        let first = parent.line as usize + 1;
        let mut check = None;
        for n in self.nodes[first..=child.line as usize]
            .iter()
            .filter(|n| n.depth == depth)
        {
            v = if parent.max {
                v.max(n.value)
            } else {
                v.min(n.value)
            };
            check = Some(Check {
                after_line: n.line,
                after: n.state,
                v,
                alpha,
                beta,
                max: parent.max,
                cut: false,
            });
            if parent.max {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
        }
        check
    }
}

/// Whether `child` is `parent` with one more piece.
fn is_child(parent: &[u8; 9], child: &[u8; 9]) -> bool {
    let changed: Vec<usize> = (0..9).filter(|&i| parent[i] != child[i]).collect();
    changed.len() == 1 && parent[changed[0]] == b'-'
}

fn cells(state: &str) -> Option<[u8; 9]> {
    let game = TicTacToe::from_raster(state).ok()?;
    Some(game.cells())
}

/// Where a pre-order trace that agrees with the golden one (`golden`, the reference's visited file
/// from `root` in `mode`) up to line `line` (1-based) parts from it: `expected` is the reference's
/// state at that line (`None` past its end), `actual` the student's. `None` when the student's line is
/// no child of a node on the reference's path there, or the parting is of no kind above (then the
/// searches differ in values, not in what they visit), or `golden` is not a trace from `root`.
#[must_use]
pub fn parting(
    root: &str,
    mode: Mode,
    golden: &str,
    line: u64,
    expected: Option<&str>,
    actual: Option<&str>,
) -> Option<Parting> {
    if line == 0 {
        return None;
    }
    let replay = Replay::new(root, mode, golden)?;
    let base = pieces(&replay.nodes[0].state);
    let expected = expected.and_then(cells);
    let actual = actual.and_then(cells);
    let in_reference = |s: &[u8; 9]| replay.nodes[1..].iter().any(|n| n.state == *s);
    // The student's node: its parent on the reference's path, if the reference did not visit it there.
    if let Some(a) = actual {
        let depth = pieces(&a).checked_sub(base + 1);
        if let Some(parent) = depth.and_then(|d| replay.open_at(line, d)) {
            if is_child(&parent.state, &a) {
                let e_sibling = expected.filter(|e| is_child(&parent.state, e));
                if let (Some(e), true) = (e_sibling, in_reference(&a)) {
                    return Some(Parting::Order {
                        node: parent.state,
                        next: e,
                        child: a,
                    });
                }
                if parent.children == 0 {
                    if let Mode::Ply(ply) = mode {
                        if parent.depth != ply {
                            return None;
                        }
                        return Some(Parting::ReferenceLeaf {
                            node: parent.state,
                            child: a,
                            ply,
                        });
                    }
                }
                if let Some(check) = parent.last.filter(|c| c.cut && c.after_line < line) {
                    return Some(Parting::ReferenceCuts {
                        node: parent.state,
                        child: a,
                        check,
                    });
                }
            }
        }
    }
    // The reference's node: the student stopped searching its parent.
    let e = expected?;
    let depth = pieces(&e).checked_sub(base + 1)?;
    let parent = replay.open_at(line, depth)?;
    match replay.check_before(parent, line) {
        Some(check) => Some(Parting::ReferenceContinues {
            node: parent.state,
            next: e,
            check,
            mode,
        }),
        None if parent.line > 0 => Some(Parting::ReferenceExpands {
            node: parent.state,
            node_line: parent.line,
            next: e,
            depth: parent.depth,
            mode,
        }),
        None => None,
    }
}

fn moves(n: u32) -> String {
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}

fn show(cells: &[u8; 9]) -> String {
    cells.iter().map(|&b| char::from(b)).collect()
}

fn num(x: i32) -> String {
    match x {
        INF => "+∞".to_string(),
        x if x == -INF => "−∞".to_string(),
        x => x.to_string(),
    }
}

/// The values the reference compared, and its rule: `max node: v = 1, α = 0, β = 1`.
fn window(c: &Check) -> String {
    format!(
        "{} node: v = {}, α = {}, β = {}",
        if c.max { "a max" } else { "a min" },
        num(c.v),
        num(c.alpha),
        num(c.beta)
    )
}

impl Parting {
    /// One sentence for the student, starting `line N: your search ...`.
    #[must_use]
    pub fn describe(&self, line: u64) -> String {
        match self {
            Parting::ReferenceCuts { node, child, check } => {
                let (rule, bound, name) = if check.max {
                    ("AIMA stops a max node once v ≥ β", check.beta, "β")
                } else {
                    ("AIMA stops a min node once v ≤ α", check.alpha, "α")
                };
                let hint = if check.v == bound {
                    format!(
                        "; v = {name} here, so a search that cuts only when v {} {name} goes on",
                        if check.max { ">" } else { "<" }
                    )
                } else {
                    format!("; v is already past {name} here, so your search does not cut at `{}` at all, or had another window there (is α or β passed on to every child?)", show(node))
                };
                format!(
                    "line {line}: your search visits `{}`, but the reference stops searching `{}` after `{}` (line {}): {}, and {rule}{hint}",
                    show(child),
                    show(node),
                    show(&check.after),
                    check.after_line,
                    window(check),
                )
            }
            Parting::ReferenceContinues {
                node,
                next,
                check,
                mode,
            } => {
                let rule = match (mode, check.max) {
                    (Mode::Plain, _) => {
                        "plain minimax searches every child, never cuts".to_string()
                    }
                    (_, true) => format!(
                        "{}, and AIMA stops a max node only once v ≥ β",
                        window(check)
                    ),
                    (_, false) => format!(
                        "{}, and AIMA stops a min node only once v ≤ α",
                        window(check)
                    ),
                };
                format!(
                    "line {line}: your search stops searching `{}` after `{}` (line {}), but the reference goes on to `{}`: {rule}",
                    show(node),
                    show(&check.after),
                    check.after_line,
                    show(next),
                )
            }
            Parting::ReferenceLeaf { node, child, ply } => format!(
                "line {line}: your search visits `{}` below `{}`, but the reference values `{}` as a leaf by E(s): it is {} below the root, the ply limit",
                show(child),
                show(node),
                show(node),
                moves(*ply),
            ),
            Parting::ReferenceExpands {
                node,
                node_line,
                next,
                depth,
                mode,
            } => {
                let why = match mode {
                    Mode::Ply(ply) => format!(
                        "it is {} below the root, fewer than the ply limit {ply}, and the game goes on",
                        moves(*depth)
                    ),
                    Mode::Plain | Mode::Prune => "the game goes on there".to_string(),
                };
                format!(
                    "line {line}: your search treats `{}` (line {node_line}) as a leaf, but the reference searches its children, first `{}`: {why}",
                    show(node),
                    show(next),
                )
            }
            Parting::Order { node, next, child } => format!(
                "line {line}: your search takes the children of `{}` in another order: it visits `{}` where the reference visits `{}` (children in the raster order of the blank filled)",
                show(node),
                show(child),
                show(next),
            ),
        }
    }
}

#[cfg(test)]
#[path = "divergence_tests.rs"]
mod tests;
