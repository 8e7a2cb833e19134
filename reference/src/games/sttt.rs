//! Super-Tic-Tac-Toe (Minnesota CSci 1901, 2004): two placements a turn on nine little boards.
