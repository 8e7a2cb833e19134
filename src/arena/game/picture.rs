//! A position as a picture: where each cell sits, what it holds and how it is shaded, so a report can
//! draw any game's board (the HTML report's SVG) without knowing its rules.

use reference::Player;

/// One position, laid out on a grid of unit squares.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Columns and rows of the layout, in cells.
    pub width: usize,
    pub height: usize,
    /// Every cell, in a fixed order: the same game always lists the same cells in the same places.
    pub cells: Vec<Spot>,
    /// Lines joining cells by index (Three Men's Morris's board); empty for a grid of squares.
    pub links: Vec<(usize, usize)>,
    /// A heavier rule every `block` cells (3 for the 9×9 boards made of little boards); 0 for none.
    pub block: usize,
    /// Cells are drawn as round points (pieces on a board's points) rather than squares.
    pub round: bool,
}

/// One cell: its centre (in cells from the top left), the mark on it and its shade.
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    pub x: f32,
    pub y: f32,
    /// The piece as the game writes it (`x`, `o`, `w`, `b`), or `' '` for an empty cell.
    pub mark: char,
    pub shade: Shade,
}

/// How a cell is shaded beyond its mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    Plain,
    /// The side to move may play here (UT3's allowed blocks).
    Allowed,
    /// The cell's little board is won by the side that writes this mark.
    Won(char),
}

impl Shade {
    /// One character per shade, for compact frame strings: `.` plain, `+` allowed, else the winner's mark.
    #[must_use]
    pub fn code(self) -> char {
        match self {
            Shade::Plain => '.',
            Shade::Allowed => '+',
            Shade::Won(m) => m,
        }
    }
}

impl Picture {
    /// A `size`×`size` grid of squares, row-major, each cell's mark and shade given by `cell(row, col)`.
    #[must_use]
    pub fn grid(
        size: usize,
        block: usize,
        cell: impl Fn(usize, usize) -> (char, Shade),
    ) -> Picture {
        let mut cells = Vec::with_capacity(size * size);
        for r in 0..size {
            for c in 0..size {
                let (mark, shade) = cell(r, c);
                cells.push(Spot {
                    x: c as f32 + 0.5,
                    y: r as f32 + 0.5,
                    mark,
                    shade,
                });
            }
        }
        Picture {
            width: size,
            height: size,
            cells,
            links: Vec::new(),
            block,
            round: false,
        }
    }

    /// Every cell's mark, in cell order (`' '` for empty).
    #[must_use]
    pub fn marks(&self) -> String {
        self.cells.iter().map(|s| s.mark).collect()
    }

    /// Every cell's [`Shade::code`], in cell order.
    #[must_use]
    pub fn shades(&self) -> String {
        self.cells.iter().map(|s| s.shade.code()).collect()
    }
}

/// `x`/`o` for the tic-tac-toe family, `' '` for nobody.
#[must_use]
pub fn xo(p: Option<Player>) -> char {
    match p {
        Some(Player::First) => 'x',
        Some(Player::Second) => 'o',
        None => ' ',
    }
}

/// A raster byte (`x`, `o`, `-`) as a mark.
#[must_use]
pub fn raster_mark(b: u8) -> char {
    match b {
        b'x' | b'X' => 'x',
        b'o' | b'O' => 'o',
        _ => ' ',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_lists_its_cells_row_major_with_centres() {
        let p = Picture::grid(3, 0, |r, c| {
            if (r, c) == (1, 2) {
                ('x', Shade::Allowed)
            } else {
                (' ', Shade::Plain)
            }
        });
        assert_eq!(p.cells.len(), 9);
        assert_eq!(p.marks(), "     x   ");
        assert_eq!(p.shades(), ".....+...");
        assert_eq!((p.cells[5].x, p.cells[5].y), (2.5, 1.5));
    }
}
