//! Game-tree search over any `Game`: minimax, alpha-beta, depth-limited, with visited-node traces.
