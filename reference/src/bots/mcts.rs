//! `mcts:N`: UCT (Kocsis and Szepesvári 2006) with the game's playouts (uniformly random unless the
//! game says otherwise), N iterations a move or a wall-clock budget. Children are expanded in a seeded
//! random order; the move played is the most visited child (first in expansion order on ties). The
//! exploration constant is the game's ([`Playable::EXPLORATION`]), and where the opponent moves a
//! game may explore more widely ([`Playable::EXPLORE_REPLIES`]).

use std::time::{Duration, Instant};

use super::{Bot, Playable};
use crate::game::{Outcome, Player};
use crate::rng::Rng;

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MctsBudget {
    /// Exactly this many iterations (reproducible).
    Playouts(u32),
    /// As many iterations as fit in this time (not reproducible across machines or loads).
    Time(Duration),
}

struct Node<M> {
    mv: Option<M>,
    /// The side that made `mv`; rewards are counted for it.
    mover: Player,
    children: Vec<u32>,
    untried: Vec<M>,
    visits: u32,
    reward: f64,
    /// `reward / visits` and `1 / √visits`, refreshed on backpropagation so that selection, which scans
    /// every child, does no division or square root per child.
    mean: f64,
    inv_sqrt: f64,
}

pub struct Mcts {
    budget: MctsBudget,
    rng: Rng,
    name: String,
    /// Iterations run by the last `choose` (for benchmarks).
    pub last_iterations: u64,
}

impl Mcts {
    #[must_use]
    pub fn new(budget: MctsBudget, seed: u64, name: String) -> Mcts {
        Mcts {
            budget,
            rng: Rng::new(seed),
            name,
            last_iterations: 0,
        }
    }

    /// Runs the search from `root` and returns the most visited move.
    pub fn search<G: Playable>(&mut self, root: &G) -> G::Move {
        let mut nodes: Vec<Node<G::Move>> = vec![Node {
            mv: None,
            mover: root.to_move().opponent(),
            children: Vec::new(),
            untried: root.moves(),
            visits: 0,
            reward: 0.0,
            mean: 0.0,
            inv_sqrt: 0.0,
        }];
        let start = Instant::now();
        let mut iterations: u64 = 0;
        let mut path: Vec<u32> = Vec::new();
        loop {
            match self.budget {
                MctsBudget::Playouts(n) if iterations >= u64::from(n) => break,
                MctsBudget::Time(t)
                    if iterations > 0 && iterations % 64 == 0 && start.elapsed() >= t =>
                {
                    break
                }
                _ => {}
            }
            iterations += 1;
            let mut state = root.clone();
            let mut cur = 0u32;
            path.clear();
            path.push(0);
            // Selection: descend through fully expanded nodes by UCB1.
            while nodes[cur as usize].untried.is_empty() && !nodes[cur as usize].children.is_empty()
            {
                let c = if state.to_move() == root.to_move() {
                    G::EXPLORATION
                } else {
                    G::EXPLORE_REPLIES
                };
                let explore = c * f64::from(nodes[cur as usize].visits).ln().sqrt();
                let mut best = f64::NEG_INFINITY;
                let mut pick = 0;
                for &c in &nodes[cur as usize].children {
                    let ch = &nodes[c as usize];
                    let ucb = ch.mean + explore * ch.inv_sqrt;
                    if ucb > best {
                        best = ucb;
                        pick = c;
                    }
                }
                cur = pick;
                state.apply(nodes[cur as usize].mv.expect("only the root has no move"));
                path.push(cur);
            }
            // Expansion: one untried move, chosen at random.
            if !nodes[cur as usize].untried.is_empty() {
                let u = &mut nodes[cur as usize].untried;
                let i = self.rng.below(u.len());
                let mv = u.swap_remove(i);
                let mover = state.to_move();
                state.apply(mv);
                let id = nodes.len() as u32;
                nodes.push(Node {
                    mv: Some(mv),
                    mover,
                    children: Vec::new(),
                    untried: state.moves(),
                    visits: 0,
                    reward: 0.0,
                    mean: 0.0,
                    inv_sqrt: 0.0,
                });
                nodes[cur as usize].children.push(id);
                cur = id;
                path.push(cur);
            }
            // Simulation and backpropagation.
            let outcome = state.playout(&mut self.rng, G::PLAYOUT_PLIES);
            for &n in &path {
                let node = &mut nodes[n as usize];
                node.visits += 1;
                node.reward += match outcome {
                    Some(Outcome::Win(p)) if p == node.mover => 1.0,
                    Some(Outcome::Win(_)) => 0.0,
                    Some(Outcome::Draw) | None => 0.5,
                };
                let v = f64::from(node.visits);
                node.mean = node.reward / v;
                node.inv_sqrt = v.sqrt().recip();
            }
        }
        self.last_iterations = iterations;
        let root = &nodes[0];
        let mut best = root.children[0];
        for &c in &root.children {
            if nodes[c as usize].visits > nodes[best as usize].visits {
                best = c;
            }
        }
        nodes[best as usize].mv.expect("children have moves")
    }
}

impl<G: Playable> Bot<G> for Mcts {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G) -> G::Move {
        self.search(state)
    }
}
