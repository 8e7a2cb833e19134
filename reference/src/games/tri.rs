//! Bit tricks for a 3×3 board held in the low nine bits of a `u16` (bit `3*row + col`), shared by the
//! nested games (Super-TTT's little boards and UT3's blocks) at both levels.

/// The eight lines of three, as masks.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// All nine cells.
pub const FULL: u16 = 0x1FF;

const fn build_win_table() -> [bool; 512] {
    let mut table = [false; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 8 {
            if m as u16 & LINES[i] == LINES[i] {
                table[m] = true;
            }
            i += 1;
        }
        m += 1;
    }
    table
}

/// `WINS[mask]`: does `mask` contain a line of three? A table, because playouts ask millions of times.
pub static WINS: [bool; 512] = build_win_table();

/// Does this 3×3 mask hold a line of three?
#[inline]
#[must_use]
pub fn has_line(mask: u16) -> bool {
    WINS[usize::from(mask & FULL)]
}

/// Per side, the cells held on each of the nine inner boards, and the inner boards won: the shared shape
/// of Super-TTT's little boards and UT3's blocks.
pub type Cells = [[u16; 9]; 2];

/// Open cells of inner board `b`: zero once it is won (closed), else the cells neither side holds.
#[inline]
#[must_use]
pub fn open_cells(cells: &Cells, won: [u16; 2], b: usize) -> u16 {
    if (won[0] | won[1]) >> b & 1 == 1 {
        0
    } else {
        !(cells[0][b] | cells[1][b]) & FULL
    }
}

/// Inner boards closed without a winner: full, nobody's line.
#[must_use]
pub fn dead_boards(cells: &Cells, won: [u16; 2]) -> u16 {
    let won = won[0] | won[1];
    (0..9)
        .filter(|&b| won >> b & 1 == 0 && (cells[0][b] | cells[1][b]) == FULL)
        .fold(0, |m, b| m | 1 << b)
}

/// The `k`-th set bit of `mask` (0-based).
#[inline]
#[must_use]
pub fn nth_bit(mut mask: u16, k: u32) -> usize {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_agrees_with_a_plain_scan() {
        for m in 0u16..512 {
            let plain = (0..3).any(|r| (0..3).all(|c| m >> (3 * r + c) & 1 == 1))
                || (0..3).any(|c| (0..3).all(|r| m >> (3 * r + c) & 1 == 1))
                || [0, 4, 8].iter().all(|&i| m >> i & 1 == 1)
                || [2, 4, 6].iter().all(|&i| m >> i & 1 == 1);
            assert_eq!(has_line(m), plain, "mask {m:09b}");
        }
    }
}
