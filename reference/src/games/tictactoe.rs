//! Tic-tac-toe with the Adelaide raster encoding (`x`, `o`, `-`) and E(s) = M(s) − O(s).
