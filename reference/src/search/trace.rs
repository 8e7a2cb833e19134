//! Visited-node traces: every node a search entered, with its value and depth, in pre-order.
//!
//! Depth makes the trace self-describing: the same search in post-order (each node after its
//! children) is a pure reordering, so one search yields both orders.

/// One visited node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visit<G> {
    pub state: G,
    /// The value the search returned for this node (for alpha-beta, a bound where it was cut off).
    pub value: i32,
    /// Moves from the root (the root is 0).
    pub depth: u32,
}

/// The nodes a search visited, in pre-order (each node before its children), root first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace<G> {
    pub visits: Vec<Visit<G>>,
}

impl<G> Default for Trace<G> {
    fn default() -> Self {
        Trace { visits: Vec::new() }
    }
}

impl<G> Trace<G> {
    /// The same visits in post-order: each node after all of its children, siblings in search order.
    #[must_use]
    pub fn into_post_order(self) -> Vec<Visit<G>> {
        let mut out = Vec::with_capacity(self.visits.len());
        let mut open: Vec<Visit<G>> = Vec::new();
        for v in self.visits {
            // A node at depth d closes every open node at depth d or deeper: they have no more children.
            while open.last().is_some_and(|o| o.depth >= v.depth) {
                out.extend(open.pop());
            }
            open.push(v);
        }
        while let Some(o) = open.pop() {
            out.push(o);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visit(state: char, depth: u32) -> Visit<char> {
        Visit {
            state,
            value: 0,
            depth,
        }
    }

    #[test]
    fn post_order_puts_children_first() {
        // r(a(c, d), b(e))
        let t = Trace {
            visits: vec![
                visit('r', 0),
                visit('a', 1),
                visit('c', 2),
                visit('d', 2),
                visit('b', 1),
                visit('e', 2),
            ],
        };
        let order: String = t.into_post_order().iter().map(|v| v.state).collect();
        assert_eq!(order, "cdaebr");
    }
}
