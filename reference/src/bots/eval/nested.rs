//! The line-counting evaluator shared by the two nested games (Super-TTT and UT3): big-board lines
//! still open to a side, weighted by the little boards it has won in them, plus its open lines inside
//! each little board still in play.

use crate::games::tri::LINES;

/// Weights for lines holding 0, 1 or 2 of a side's marks (and none of the other side's).
const BIG_LINE: [i32; 3] = [4, 40, 400];
const LITTLE_LINE: [i32; 3] = [1, 4, 16];
/// A won little board, whatever lines it is in.
const BOARD_WON: i32 = 60;

/// `side`'s own prospects. `own`/`other`: per little board, the squares each side holds; `won_own`,
/// `won_other`: the little boards each side has won; `dead`: little boards closed without a winner.
pub(crate) fn own_score(
    own: &[u16; 9],
    other: &[u16; 9],
    won_own: u16,
    won_other: u16,
    dead: u16,
) -> i32 {
    let mut s = BOARD_WON * won_own.count_ones() as i32;
    for &l in &LINES {
        if l & (won_other | dead) == 0 {
            s += BIG_LINE[((l & won_own).count_ones() as usize).min(2)];
        }
    }
    let closed = won_own | won_other | dead;
    for b in 0..9 {
        if closed >> b & 1 == 1 {
            continue;
        }
        for &l in &LINES {
            if l & other[b] == 0 {
                s += LITTLE_LINE[((l & own[b]).count_ones() as usize).min(2)];
            }
        }
    }
    s
}
