//! The plain-text tables the terminal shows (the class table, a tournament's standings and its overall
//! ranking): columns two spaces apart, no borders, widths by display width (`comfy-table`), so a name
//! in CJK or with an emoji keeps the columns after it in line.

use comfy_table::{
    presets::NOTHING, CellAlignment, ColumnConstraint, ContentArrangement, Table, Width,
};

/// Where a column's cells sit in its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// One column: its heading, alignment and the least width of its cells (as `{:>4}` would pad).
#[derive(Clone, Copy, Debug)]
pub struct Column<'a> {
    pub heading: &'a str,
    pub align: Align,
    pub min: u16,
}

impl<'a> Column<'a> {
    #[must_use]
    pub fn left(heading: &'a str) -> Column<'a> {
        Column {
            heading,
            align: Align::Left,
            min: 0,
        }
    }

    #[must_use]
    pub fn right(heading: &'a str) -> Column<'a> {
        Column {
            heading,
            align: Align::Right,
            min: 0,
        }
    }

    /// At least `min` columns wide, heading included.
    #[must_use]
    pub fn min(self, min: u16) -> Column<'a> {
        Column { min, ..self }
    }
}

/// A table being filled, a heading line and then one line per row.
pub struct Grid {
    table: Table,
    columns: usize,
}

/// Spaces between two columns.
const GAP: u16 = 2;

impl Grid {
    #[must_use]
    pub fn new(columns: &[Column<'_>]) -> Grid {
        let mut table = Table::new();
        table
            .load_preset(NOTHING)
            .set_content_arrangement(ContentArrangement::Disabled)
            .add_row(columns.iter().map(|c| c.heading));
        let last = columns.len().saturating_sub(1);
        for (i, c) in columns.iter().enumerate() {
            let Some(column) = table.column_mut(i) else {
                continue;
            };
            let gap = if i == last { 0 } else { GAP };
            column.set_padding((0, gap));
            column.set_cell_alignment(match c.align {
                Align::Left => CellAlignment::Left,
                Align::Right => CellAlignment::Right,
            });
            if c.min > 0 {
                // comfy-table's boundary counts the padding too.
                column.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(c.min + gap)));
            }
        }
        Grid {
            table,
            columns: columns.len(),
        }
    }

    /// Adds a row: one cell per column (missing ones are blank, extra ones dropped).
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let mut cells: Vec<String> = cells.into_iter().map(Into::into).collect();
        cells.resize(self.columns, String::new());
        self.table.add_row(cells);
    }

    /// Every line, each ending in `\n`; with `trim`, without the spaces that pad the last column.
    #[must_use]
    pub fn render(&self, trim: bool) -> String {
        let mut out = String::new();
        for line in self.table.lines() {
            out.push_str(if trim { line.trim_end() } else { &line });
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn columns_are_two_spaces_apart_aligned_and_at_least_their_minimum() {
        let mut grid = Grid::new(&[
            Column::right("rank"),
            Column::left("player"),
            Column::right("won").min(4),
            Column::left("note"),
        ]);
        grid.row(["1", "ann", "12", "x"]);
        grid.row(["10", "bartholomew", "3", ""]);
        assert_eq!(
            grid.render(false),
            "rank  player        won  note\n   1  ann            12  x   \n  10  bartholomew     3      \n"
        );
        assert_eq!(
            grid.render(true),
            "rank  player        won  note\n   1  ann            12  x\n  10  bartholomew     3\n"
        );
    }

    #[test]
    fn wide_characters_keep_the_columns_aligned() {
        let mut grid = Grid::new(&[Column::left("student"), Column::right("total")]);
        for name in ["ann", "李小龙", "zoë🎲", "ｆｕｌｌ"] {
            grid.row([name, "10"]);
        }
        let text = grid.render(false);
        // 8 (`ｆｕｌｌ`) + 2 + 5 (`total`) terminal columns on every line, whatever its bytes or chars.
        let widths: Vec<usize> = text.lines().map(UnicodeWidthStr::width).collect();
        assert_eq!(widths, [15; 5], "{text}");
        let spaced = |name: &str, spaces: usize| format!("\n{name}{}10\n", " ".repeat(spaces));
        assert!(text.contains(&spaced("李小龙", 7)), "{text}");
        assert!(text.contains(&spaced("zoë🎲", 8)), "{text}");
    }
}
