//! Exhaustive solving by retrograde analysis: the exact value of every position reachable from some
//! roots, for games small enough to enumerate (tic-tac-toe, Three Men's Morris). A position from which
//! neither side can force a win is a draw, which is how cycles (Morris's movement phase) come out.
//! Perfect-play bots read their moves from the [`Table`].

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

use crate::game::{Game, Outcome, Player};

/// The game-theoretic value of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Solved {
    /// `winner` forces a win; with best play (the winner hurrying, the loser delaying) the game ends
    /// after `plies` more moves.
    Win {
        winner: Player,
        plies: u32,
    },
    Draw,
}

impl Solved {
    /// 1, 0 or -1 from Max's (`First`'s) point of view.
    #[must_use]
    pub fn utility(self) -> i32 {
        match self {
            Solved::Win { winner, .. } => winner.sign(),
            Solved::Draw => 0,
        }
    }
}

/// The solved value of every position reachable from the roots.
#[derive(Clone, Debug)]
pub struct Table<G> {
    index: HashMap<G, usize>,
    values: Vec<Solved>,
}

impl<G: Game + Hash + Eq> Table<G> {
    /// Enumerates every position reachable from `roots` and solves them all.
    #[must_use]
    pub fn solve(roots: &[G]) -> Table<G> {
        let mut positions: Vec<G> = Vec::new();
        let mut index: HashMap<G, usize> = HashMap::new();
        for r in roots {
            if !index.contains_key(r) {
                index.insert(r.clone(), positions.len());
                positions.push(r.clone());
            }
        }
        // Breadth-first enumeration, recording each position's children by index.
        let mut children: Vec<Vec<usize>> = Vec::new();
        let mut moves = Vec::new();
        let mut i = 0;
        while i < positions.len() {
            moves.clear();
            positions[i].legal_moves(&mut moves);
            let mut kids = Vec::with_capacity(moves.len());
            for &mv in &moves {
                let child = positions[i].after(mv);
                let next = positions.len();
                let c = *index.entry(child.clone()).or_insert(next);
                if c == next {
                    positions.push(child);
                }
                kids.push(c);
            }
            children.push(kids);
            i += 1;
        }

        let n = positions.len();
        let mut parents: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (p, kids) in children.iter().enumerate() {
            for &c in kids {
                parents[c].push(p);
            }
        }
        let mut values: Vec<Option<Solved>> = vec![None; n];
        let mut unrefuted: Vec<usize> = children.iter().map(Vec::len).collect();
        let mut queue = VecDeque::new();
        for (i, pos) in positions.iter().enumerate() {
            match pos.outcome() {
                Some(Outcome::Win(winner)) => {
                    values[i] = Some(Solved::Win { winner, plies: 0 });
                    queue.push_back(i);
                }
                Some(Outcome::Draw) => values[i] = Some(Solved::Draw),
                None => {}
            }
        }
        // Positions leave the queue in order of plies, so the first win found for a parent is its
        // fastest, and the child that refutes a parent's last move is its slowest loss.
        while let Some(c) = queue.pop_front() {
            let Some(Solved::Win { winner, plies }) = values[c] else {
                unreachable!("only wins are queued")
            };
            for &p in &parents[c] {
                if values[p].is_some() {
                    continue;
                }
                let mover = positions[p].to_move();
                if winner == mover {
                    values[p] = Some(Solved::Win {
                        winner,
                        plies: plies + 1,
                    });
                    queue.push_back(p);
                } else {
                    unrefuted[p] -= 1;
                    if unrefuted[p] == 0 {
                        values[p] = Some(Solved::Win {
                            winner,
                            plies: plies + 1,
                        });
                        queue.push_back(p);
                    }
                }
            }
        }
        Table {
            index,
            values: values
                .into_iter()
                .map(|v| v.unwrap_or(Solved::Draw))
                .collect(),
        }
    }

    /// How many positions were solved.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of `state`, or `None` when it was not reachable from the roots.
    #[must_use]
    pub fn get(&self, state: &G) -> Option<Solved> {
        self.index.get(state).map(|&i| self.values[i])
    }

    /// A perfect move: the fastest win, else a draw, else the slowest loss; ties go to the earliest
    /// move. `None` when the game is over or `state` is not in the table.
    #[must_use]
    pub fn best_move(&self, state: &G) -> Option<G::Move> {
        let me = state.to_move();
        let score = |v: Solved| match v {
            Solved::Win { winner, plies } if winner == me => (2, -i64::from(plies)),
            Solved::Draw => (1, 0),
            Solved::Win { plies, .. } => (0, i64::from(plies)),
        };
        let mut best: Option<(G::Move, (i32, i64))> = None;
        for mv in state.moves() {
            let s = score(self.get(&state.after(mv))?);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((mv, s));
            }
        }
        best.map(|(mv, _)| mv)
    }
}
