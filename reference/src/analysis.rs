//! Where a finished game turned against one side, and the tactics it missed: exact from a game's
//! solver where one exists, else a bounded win/loss search whose answers are proofs or "unclear".
//!
//! Everything here reads a start position and the moves played; it never plays a move itself.

use crate::bots::Playable;
use crate::game::{Outcome, Player};

/// What a position is worth to the side about to move (or that just moved, for a move's value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Worth {
    Lost,
    /// Neither a proven win nor a proven loss within the search (an estimate only).
    Unclear,
    Drawn,
    Won,
}

impl Worth {
    /// `won`, `drawn`, `lost`, `unclear`: the word result.json and feedback use.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Worth::Won => "won",
            Worth::Drawn => "drawn",
            Worth::Lost => "lost",
            Worth::Unclear => "unclear",
        }
    }

    /// Higher is better for the side it belongs to; an unclear position ranks with a draw, so an
    /// estimate reports only moves that turn a proven win or an unclear game into a proven loss, or
    /// a proven win into anything less.
    fn rank(self) -> u8 {
        match self {
            Worth::Lost => 0,
            Worth::Unclear | Worth::Drawn => 1,
            Worth::Won => 2,
        }
    }
}

/// How a value was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// The game's perfect solver.
    Exact,
    /// A search `plies` deep generating at most `nodes` positions for each position judged, proving
    /// wins and losses only.
    Estimate { plies: u32, nodes: u64 },
}

/// The first move by one side that made its position worse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn<M> {
    /// 0-based index of the move in the game.
    pub ply: usize,
    pub played: M,
    /// What the position was worth to the mover before the move, and after the move it made.
    pub before: Worth,
    pub after: Worth,
    /// The moves that kept `before`, in the game's move order.
    pub better: Vec<M>,
    pub basis: Basis,
}

/// One side's missed tactics in a game: the plies (0-based) of each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tactics {
    /// It could win with this move and did not.
    pub missed_wins: Vec<usize>,
    /// After this move the opponent could win at once, though another move would have stopped it
    /// (and no move won outright).
    pub missed_blocks: Vec<usize>,
}

/// The depth of the estimate's search, in plies after the move judged.
pub const ESTIMATE_PLIES: u32 = 4;
/// The most nodes the estimate searches for one position: a node count, not a time, so the result
/// is the same on every machine.
pub const ESTIMATE_NODES: u64 = 20_000;

/// The fewest nodes the estimate gives one move when it shares [`ESTIMATE_NODES`] among a
/// position's moves.
pub const MIN_NODES: u64 = 200;

/// How positions are valued: by the solver when `start` is covered by one, else by the estimate.
#[must_use]
pub fn basis<G: Playable>(start: &G) -> Basis {
    if start.solvable() {
        Basis::Exact
    } else {
        Basis::Estimate {
            plies: ESTIMATE_PLIES,
            nodes: ESTIMATE_NODES,
        }
    }
}

/// What `next` (the position after a move) is worth to the side that made the move.
fn worth_after<G: Playable>(next: &G, mover: Player, basis: Basis) -> Worth {
    if let Some(o) = next.outcome() {
        return match o {
            Outcome::Draw => Worth::Drawn,
            Outcome::Win(p) if p == mover => Worth::Won,
            Outcome::Win(_) => Worth::Lost,
        };
    }
    let to_mover = |v: i32| match v.signum() {
        1 => Worth::Lost,
        -1 => Worth::Won,
        _ => Worth::Drawn,
    };
    match basis {
        Basis::Exact => next.solve().map_or(Worth::Unclear, to_mover),
        Basis::Estimate { plies, nodes } => {
            let mut left = nodes;
            match prove(next, plies, &mut left) {
                0 => Worth::Unclear,
                v => to_mover(v),
            }
        }
    }
}

/// What the estimate proves about `g` for its side to move: `Some(1)` a win, `Some(-1)` a loss,
/// `Some(0)` a finished draw, `None` nothing proven within [`ESTIMATE_PLIES`] and [`ESTIMATE_NODES`].
#[must_use]
pub fn estimate<G: Playable>(g: &G) -> Option<i32> {
    if g.outcome() == Some(Outcome::Draw) {
        return Some(0);
    }
    let mut left = ESTIMATE_NODES;
    match prove(g, ESTIMATE_PLIES, &mut left) {
        0 => None,
        v => Some(v),
    }
}

/// Negamax over {−1, 0, 1} for the side to move, `depth` plies deep, generating at most `left`
/// positions:
/// 1 is a proven win, −1 a proven loss, 0 anything else (a draw, the horizon, or the budget spent,
/// after which every node answers 0). So ±1 are always proofs, whatever the budget cut.
fn prove<G: Playable>(g: &G, depth: u32, left: &mut u64) -> i32 {
    if let Some(o) = g.outcome() {
        return match o {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == g.to_move() => 1,
            Outcome::Win(_) => -1,
        };
    }
    if depth == 0 || *left == 0 {
        return 0;
    }
    // A node pays for every position it generates, so the work is bounded by the budget even where
    // a turn has thousands of moves (Super-TTT's pairs of placements).
    let moves = g.search_moves();
    let Some(rest) = left.checked_sub(moves.len() as u64) else {
        *left = 0;
        return 0;
    };
    *left = rest;
    let mut best = -1;
    for (i, &m) in moves.iter().enumerate() {
        let v = -prove(&g.after(m), depth - 1, left);
        best = best.max(v);
        if best == 1 {
            break;
        }
        // The budget ran out with moves still unsearched: no loss is proven.
        if *left == 0 && i + 1 < moves.len() {
            return best.max(0);
        }
    }
    best
}

/// The positions of a game before each move, from `start`.
fn positions<G: Playable>(start: &G, moves: &[G::Move]) -> Vec<G> {
    let mut at = Vec::with_capacity(moves.len());
    let mut g = start.clone();
    for &m in moves {
        at.push(g.clone());
        g.apply(m);
    }
    at
}

/// The first move `side` made that lowered what its position was worth (a won position to a draw or
/// a loss, a drawn one to a loss), with the moves that would have kept it; `None` when it never did.
#[must_use]
pub fn turning_point<G: Playable>(
    start: &G,
    moves: &[G::Move],
    side: Player,
) -> Option<Turn<G::Move>> {
    let basis = basis(start);
    for (ply, g) in positions(start, moves).iter().enumerate() {
        if g.to_move() != side || g.outcome().is_some() {
            continue;
        }
        let played = moves[ply];
        let after = worth_after(&g.after(played), side, basis);
        if after == Worth::Won {
            continue;
        }
        // The estimate first searches the position itself (one search, not one per move) and looks
        // at the moves only when that finds something better than what was played.
        if let Basis::Estimate { plies, nodes } = basis {
            let mut left = nodes;
            let quick = match prove(g, plies + 1, &mut left) {
                1 => Worth::Won,
                -1 => Worth::Lost,
                _ => Worth::Unclear,
            };
            if quick.rank() <= after.rank() {
                continue;
            }
        }
        // An estimate shares its budget among the moves (at least `MIN_NODES` each).
        let moves = g.search_moves();
        let share = match basis {
            Basis::Estimate { plies, nodes } => Basis::Estimate {
                plies,
                nodes: (nodes / moves.len().max(1) as u64).max(MIN_NODES),
            },
            Basis::Exact => Basis::Exact,
        };
        let worths: Vec<(G::Move, Worth)> = moves
            .into_iter()
            .map(|m| (m, worth_after(&g.after(m), side, share)))
            .collect();
        let before = worths
            .iter()
            .map(|&(_, w)| w)
            .max_by_key(|w| w.rank())
            .unwrap_or(after);
        if before.rank() > after.rank() {
            let better = worths
                .iter()
                .filter(|&&(_, w)| w.rank() == before.rank())
                .map(|&(m, _)| m)
                .collect();
            return Some(Turn {
                ply,
                played,
                before,
                after,
                better,
                basis,
            });
        }
    }
    None
}

/// `side`'s missed wins in one and unblocked wins in one over the game.
#[must_use]
pub fn tactics<G: Playable>(start: &G, moves: &[G::Move], side: Player) -> Tactics {
    let mut t = Tactics::default();
    let wins = |g: &G, m: G::Move| g.after(m).outcome() == Some(Outcome::Win(g.to_move()));
    // The opponent can win at once after `m` (and `m` did not end the game).
    let gives = |g: &G, m: G::Move| {
        let next = g.after(m);
        next.outcome().is_none() && next.can_win_now()
    };
    for (ply, g) in positions(start, moves).iter().enumerate() {
        if g.to_move() != side || g.outcome().is_some() {
            continue;
        }
        let played = moves[ply];
        let all = g.moves();
        if all.iter().any(|&m| wins(g, m)) {
            if !wins(g, played) {
                t.missed_wins.push(ply);
            }
        } else if gives(g, played) && all.iter().any(|&m| !gives(g, m)) {
            t.missed_blocks.push(ply);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::TicTacToe;
    use crate::{Game, Notation};

    fn game(cells: &[&str]) -> (TicTacToe, Vec<<TicTacToe as Game>::Move>) {
        let start = TicTacToe::new();
        let mut g = start;
        let mut moves = Vec::new();
        for c in cells {
            let m = g.parse_move(c).unwrap();
            moves.push(m);
            g = g.after(m);
        }
        (start, moves)
    }

    #[test]
    fn an_edge_reply_to_a_corner_loses_the_draw() {
        // x takes a corner; o answers on an edge (1), which loses: only the centre holds the draw.
        let (start, moves) = game(&["0", "1", "4", "8"]);
        let t = turning_point(&start, &moves, Player::Second).unwrap();
        assert_eq!((t.ply, t.before, t.after), (1, Worth::Drawn, Worth::Lost));
        let better: Vec<String> = t.better.iter().map(|&m| start.format_move(m)).collect();
        assert_eq!(better, ["4"]);
        assert_eq!(t.basis, Basis::Exact);
        assert_eq!(turning_point(&start, &moves, Player::First), None);
    }

    #[test]
    fn missed_wins_and_blocks_are_counted_per_side() {
        let (start, moves) = game(&["0", "3", "1", "6", "5", "4"]);
        // Ply 3: x holds 0 and 1, and o plays 6, not 2: a missed block. Ply 4: x could take 2 and
        // win, and plays 5: a missed win. Ply 5: o has no win, x still threatens 2, o plays 4: a
        // missed block again.
        assert_eq!(
            tactics(&start, &moves, Player::Second),
            Tactics {
                missed_wins: vec![],
                missed_blocks: vec![3, 5]
            }
        );
        assert_eq!(
            tactics(&start, &moves, Player::First),
            Tactics {
                missed_wins: vec![4],
                missed_blocks: vec![]
            }
        );
    }

    #[test]
    fn the_estimate_only_reports_proofs() {
        let mut left = ESTIMATE_NODES;
        // x to move with 0 and 1 held and 2 open: a win in one is proven.
        let g = TicTacToe::from_raster("xx-oo----").unwrap();
        assert_eq!(prove(&g, 1, &mut left), 1);
        // The blank board: nothing is proven within 4 plies.
        let mut left = ESTIMATE_NODES;
        assert_eq!(prove(&TicTacToe::new(), 4, &mut left), 0);
        // With no budget nothing is proven, not even the win in one.
        let mut left = 0;
        assert_eq!(prove(&g, 1, &mut left), 0);
    }
}
