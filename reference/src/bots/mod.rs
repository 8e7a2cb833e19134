//! Benchmark bots, one ladder per game: random, offensive, defensive, minimax, mcts, perfect.
