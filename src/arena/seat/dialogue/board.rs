//! Reading 3×3 boards from what a program printed, whatever it looks like: `X | O |  ` with rules of
//! `-`, `+` or `_`, frames of `|` or `*`, boxes with cells three lines high, cells as plain words
//! (`X O -`, `1 # 0`) or fixed-width characters (`X   O `, `X*O`), Python lists (`['X', '_', '_']`),
//! numbers in the empty cells, row labels (`A`, `0`, `1`) and column headers. A board is read as its
//! nine cell *tokens* in row-major order; which token means an empty cell and which a mark is decided
//! by [`Empties`], which learns it from the boards of the game (the first board of a game is empty).
//! Pure text work on untrusted text: any input gives some boards or none, never a panic.

use super::screen::CLEAR;

/// One printed board: the token of each cell, row-major, as printed (trimmed, quotes and brackets
/// off; `""` for a blank cell), and the labels printed beside rows and above columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub cells: [String; 9],
    pub row_labels: Option<[String; 3]>,
    pub col_labels: Option<[String; 3]>,
}

/// How a printed line splits into cells, for telling a cell's filler lines from another board row.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shape {
    /// Split at these character columns by a separator (`|`, `*`, `│`).
    Bars(Vec<usize>),
    /// Words split by spaces.
    Words,
    /// Fixed-width cells of this many characters.
    Fixed(usize),
}

/// One line read as a board row.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    label: Option<String>,
    tokens: [String; 3],
    shape: Shape,
}

impl Row {
    fn blank(&self) -> bool {
        self.tokens.iter().all(String::is_empty)
    }
}

/// What a line of a board block is.
#[derive(Clone, Debug)]
enum Line {
    Row(Row),
    /// A rule; or, when it is a row of narrow cells drawn with `_` (`___|___|___` under `_1_|_2_|_3_`),
    /// that empty row, read so when the block makes no board with it as a rule.
    Rule(Option<Row>),
    Blank,
}

/// Characters a horizontal rule is drawn with.
const RULE: &str = "-_=+*~#─━═┼┬┴├┤┌┐└┘│║╋╬┃|:.";
/// Characters a cell printed without separators can hold: marks, digits and placeholders.
const CELL_CHARS: &str = "XxOo0123456789_-.*#·×○●";
/// Characters that split a row into cells.
const BARS: &[char] = &['|', '│', '║', '┃', '*'];

/// Every board in `text`, in the order printed. A screen clear ends a board.
#[must_use]
pub fn grids(text: &str) -> Vec<Grid> {
    let mut out = Vec::new();
    let mut block: Vec<Line> = Vec::new();
    for screen in text.split(CLEAR) {
        for line in screen.split('\n') {
            match classify(line) {
                Some(l) => block.push(l),
                None => {
                    out.extend(read_block(&block));
                    block.clear();
                }
            }
        }
        out.extend(read_block(&block));
        block.clear();
    }
    out
}

/// Whether `line` could be part of a board: a row of three cells, or a rule.
#[must_use]
pub fn board_line(line: &str) -> bool {
    !line.trim().is_empty() && matches!(classify(line), Some(Line::Row(_) | Line::Rule(_)))
}

/// The last board in `text`.
#[must_use]
pub fn last_grid(text: &str) -> Option<Grid> {
    grids(text).pop()
}

/// A line of a board block, or `None` for a line of text that ends any board.
fn classify(line: &str) -> Option<Line> {
    let line = line.trim_end_matches(['\r']);
    if line.trim().is_empty() {
        // A line of spaces as long as a row of three cells is an empty row of fixed-width cells.
        let n = line.chars().count();
        if n >= 3 && n % 3 == 0 {
            return Some(Line::Row(Row {
                label: None,
                tokens: Default::default(),
                shape: Shape::Fixed(n / 3),
            }));
        }
        return Some(Line::Blank);
    }
    if rule(line) {
        return Some(Line::Rule(underscored(line)));
    }
    row(line).map(Line::Row)
}

/// A line that only draws a horizontal rule (`---+---+---`, `_______|___`, `*****`).
fn rule(line: &str) -> bool {
    let drawn: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    let strokes = drawn.iter().filter(|c| "-_=~─━═*#".contains(**c)).count();
    drawn.iter().all(|c| RULE.contains(*c))
        && (strokes >= 4 || drawn.contains(&'+') && strokes >= 2)
}

/// A rule drawn as three narrow cells of `_` between bars, as the empty row it may be.
fn underscored(line: &str) -> Option<Row> {
    let cells: Vec<&str> = line.trim().split('|').collect();
    let narrow = cells.len() == 3
        && cells
            .iter()
            .all(|c| (1..=3).contains(&c.len()) && c.chars().all(|ch| ch == '_'));
    narrow.then(|| barred(&line.replace('_', " "))).flatten()
}

/// A line read as a row of three cells, if it is one.
fn row(line: &str) -> Option<Row> {
    if line.chars().count() > 120 {
        return None;
    }
    let listed = unlist(line);
    let line = listed.as_deref().unwrap_or(line);
    if let Some(found) = barred(line) {
        return Some(found);
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let cell = |w: &str| token(w).filter(|t| t.chars().count() <= 3);
    match words.as_slice() {
        [a, b, c] => Some(Row {
            label: None,
            tokens: [cell(a)?, cell(b)?, cell(c)?],
            shape: Shape::Words,
        }),
        [l, a, b, c] if label(l) => Some(Row {
            label: Some((*l).to_string()),
            tokens: [cell(a)?, cell(b)?, cell(c)?],
            shape: Shape::Words,
        }),
        // Three characters in a row (`X*O`, `XO-`), each a mark or a placeholder: not a word.
        [one] if one.chars().count() == 3 && one.chars().all(|c| CELL_CHARS.contains(c)) => {
            let t: Vec<String> = one.chars().map(|c| c.to_string()).collect();
            tokens3(&t).map(|tokens| Row {
                label: None,
                tokens,
                shape: Shape::Fixed(1),
            })
        }
        _ => fixed(line),
    }
}

/// A Python list row (`1 ['x', '_', '_']`) as plain words (`1 x _ _`).
fn unlist(line: &str) -> Option<String> {
    let open = line.find('[')?;
    let close = line.rfind(']')?;
    (close > open && line[open..close].contains(',')).then(|| {
        line.chars()
            .map(|c| if "[],'\"".contains(c) { ' ' } else { c })
            .collect()
    })
}

/// A row split by bars (`X | O |  `, `| X | O |   |`, `| X || O ||   |`, `*   O   *       *`), with a
/// label before the first cell (`0 X | O |  `, `A    | O |  `).
fn barred(line: &str) -> Option<Row> {
    let chars: Vec<char> = line.chars().collect();
    let positions: Vec<usize> = (0..chars.len())
        .filter(|&i| BARS.contains(&chars[i]))
        .collect();
    if positions.is_empty() {
        return None;
    }
    // `*` separates cells only when it frames them; a lone `*` is an empty cell (`X*O`).
    if chars.contains(&'*') && !chars.iter().any(|c| "|│║┃".contains(*c)) && positions.len() < 4
    {
        return None;
    }
    let mut segments: Vec<String> = Vec::new();
    let mut from = 0;
    for &p in positions.iter().chain(std::iter::once(&chars.len())) {
        let seg: String = chars[from..p].iter().collect();
        from = p + 1;
        if !seg.is_empty() {
            segments.push(seg);
        }
    }
    // A frame around cells written as words (`| X O _ |`).
    if let [inner] = segments.as_slice() {
        let inner = inner.trim();
        if !inner.contains(BARS) && !inner.is_empty() {
            return row(inner);
        }
    }
    // A frame leaves blank segments outside the cells (`  | X | O |   |`).
    if segments.len() > 3 && segments.first().is_some_and(|s| s.trim().is_empty()) {
        segments.remove(0);
    }
    if segments.len() > 3 && segments.last().is_some_and(|s| s.trim().is_empty()) {
        segments.pop();
    }
    let [first, second, third] = <[String; 3]>::try_from(segments).ok()?;
    let mut label = None;
    let first_words: Vec<&str> = first.split_whitespace().collect();
    let first = match first_words.as_slice() {
        [l, t] if label_like(l) => {
            label = Some((*l).to_string());
            (*t).to_string()
        }
        _ => first.clone(),
    };
    let tokens = [token(&first)?, token(&second)?, token(&third)?];
    Some(Row {
        label,
        tokens,
        shape: Shape::Bars(positions),
    })
}

/// Fixed-width cells: a line whose length is three cells of `w` characters, each holding at most one
/// non-space character (`X   O `, `_ _ _ `).
fn fixed(line: &str) -> Option<Row> {
    let chars: Vec<char> = line.chars().collect();
    let n = chars.len();
    if n < 3 || n % 3 != 0 || n > 30 {
        return None;
    }
    let w = n / 3;
    // Marks and placeholders only: a short word is no row of cells.
    if !chars
        .iter()
        .all(|c| c.is_whitespace() || CELL_CHARS.contains(*c))
    {
        return None;
    }
    let mut tokens: [String; 3] = Default::default();
    for (k, cell) in chars.chunks(w).enumerate() {
        let marks: String = cell.iter().filter(|c| !c.is_whitespace()).collect();
        if marks.chars().count() > 1 {
            return None;
        }
        tokens[k] = token(&marks)?;
    }
    Some(Row {
        label: None,
        tokens,
        shape: Shape::Fixed(w),
    })
}

/// A cell's text as a token: trimmed, quotes and brackets off; `None` when it is not a cell (a word,
/// a sentence).
fn token(text: &str) -> Option<String> {
    // Quotes and brackets around a cell, and `_` or `-` padding it (`_x_`, `___`).
    let t = text
        .trim()
        .trim_matches(|c: char| "'\"[](){}".contains(c))
        .trim()
        .trim_matches(['_', '-']);
    let n = t.chars().count();
    // A mark, a placeholder or a number: short, and no letters beyond one (`X`, `o`, `12`, `×`).
    let letters = t.chars().filter(|c| c.is_alphabetic()).count();
    (n <= 3 && letters <= 1 && !t.contains(char::is_whitespace)).then(|| t.to_string())
}

fn tokens3(t: &[String]) -> Option<[String; 3]> {
    let tokens: Vec<String> = t.iter().map(|s| token(s)).collect::<Option<_>>()?;
    <[String; 3]>::try_from(tokens).ok()
}

/// A word that can label a row: `A`-`C`, `a`-`c`, `0`-`3`, optionally followed by `:` or `)`.
fn label(word: &str) -> bool {
    let w = word.trim_end_matches([':', ')', '.']);
    matches!(w, "A" | "B" | "C" | "a" | "b" | "c" | "0" | "1" | "2" | "3")
}

/// A label before the first cell in a barred row (any short word: `0`, `A`, `row1`).
fn label_like(word: &str) -> bool {
    label(word) || word.chars().count() <= 4 && word.chars().any(|c| c.is_ascii_digit())
}

/// The boards of one block of board-like lines: rows grouped into bands (a cell's filler lines with
/// its content line, between rules), the last three bands the board, a band before them its header.
fn read_block(block: &[Line]) -> Vec<Grid> {
    let read = read_ruled(block);
    if !read.is_empty() || !block.iter().any(|l| matches!(l, Line::Rule(Some(_)))) {
        return read;
    }
    let rows: Vec<Line> = block
        .iter()
        .map(|l| match l {
            Line::Rule(Some(row)) => Line::Row(row.clone()),
            other => other.clone(),
        })
        .collect();
    read_ruled(&rows)
}

/// [`read_block`] with the rules as they are drawn.
fn read_ruled(block: &[Line]) -> Vec<Grid> {
    let mut bands: Vec<Row> = Vec::new();
    let mut segment: Vec<Row> = Vec::new();
    // Rules between rows split the board into bands; one only above or below it (`-----`) does not.
    let rows_at: Vec<usize> = (0..block.len())
        .filter(|&i| matches!(block[i], Line::Row(_)))
        .collect();
    let ruled = (0..block.len()).any(|i| {
        matches!(block[i], Line::Rule(_))
            && rows_at.first().is_some_and(|&f| f < i)
            && rows_at.last().is_some_and(|&l| l > i)
    });
    for line in block {
        match line {
            Line::Row(r) => segment.push(r.clone()),
            Line::Rule(_) => bands.extend(merge(std::mem::take(&mut segment), ruled)),
            Line::Blank => {
                if !ruled {
                    bands.extend(merge(std::mem::take(&mut segment), false));
                }
            }
        }
    }
    bands.extend(merge(segment, ruled));
    board_of(&bands).into_iter().collect()
}

/// The bands of one segment between rules: under rules, rows of one shape with at most one holding
/// anything are one band (a cell's filler lines); otherwise each row is a band.
fn merge(rows: Vec<Row>, ruled: bool) -> Vec<Row> {
    let same_shape = rows.windows(2).all(|w| w[0].shape == w[1].shape);
    let full: Vec<&Row> = rows.iter().filter(|r| !r.blank()).collect();
    if ruled && same_shape && full.len() <= 1 && !rows.is_empty() {
        let content = full.first().copied().unwrap_or(&rows[0]);
        return vec![content.clone()];
    }
    rows.into_iter().filter(|r| !r.blank() || !ruled).collect()
}

/// The board the bands show: the last three bands with one shape; a header of column labels before
/// or after them is taken as such.
fn board_of(bands: &[Row]) -> Option<Grid> {
    if bands.len() < 3 {
        return None;
    }
    // The last three bands of the same shape (a header has another: `  0   1   2` over `0 X | O |`).
    let mut end = bands.len();
    while end >= 3 {
        let three = &bands[end - 3..end];
        let kinds: Vec<_> = three.iter().map(|r| shape_kind(&r.shape)).collect();
        if kinds.iter().all(|k| *k == kinds[0]) && !header(&three[2], three) {
            return Some(grid(three, bands, end));
        }
        end -= 1;
    }
    None
}

/// The kind of a shape, ignoring where the bars fall (a label shifts them).
fn shape_kind(shape: &Shape) -> u8 {
    match shape {
        Shape::Bars(_) => 0,
        // One board may print a row as words (`X O X `) and the next as fixed cells (`X   O `).
        Shape::Words | Shape::Fixed(_) => 1,
    }
}

/// Whether `row`, the last of `three`, is a header of column labels under a board of words.
fn header(row: &Row, three: &[Row]) -> bool {
    let labels = row.tokens.iter().all(|t| label(t)) && row.label.is_none();
    labels && three[..2].iter().any(|r| r.label.is_some())
}

fn grid(three: &[Row], bands: &[Row], end: usize) -> Grid {
    let mut cells: [String; 9] = Default::default();
    for (r, row) in three.iter().enumerate() {
        for c in 0..3 {
            cells[3 * r + c] = row.tokens[c].clone();
        }
    }
    // Row labels; one beside an empty first cell reads as that cell (`1   | X |`): a sequence of them
    // (`0 1 2`, `A B C`) is one no board of marks can show.
    let labels: Vec<&str> = three
        .iter()
        .map(|r| r.label.as_deref().unwrap_or(r.tokens[0].as_str()))
        .collect();
    let mut row_labels = None;
    let some_labelled = three.iter().any(|r| r.label.is_some());
    if sequence(&labels) && (some_labelled || matches!(three[0].shape, Shape::Bars(_))) {
        row_labels = Some([0, 1, 2].map(|k| labels[k].to_string()));
        for (r, row) in three.iter().enumerate() {
            if row.label.is_none() {
                cells[3 * r].clear();
            }
        }
    }
    let is_header = |r: &Row| r.label.is_none() && r.tokens.iter().all(|t| label(t));
    let col_labels = [end.checked_sub(4).map(|i| &bands[i]), bands.get(end)]
        .into_iter()
        .flatten()
        .find(|r| {
            is_header(r)
                && (shape_kind(&r.shape) != shape_kind(&three[0].shape) || row_labels.is_some())
        })
        .map(|r| r.tokens.clone());
    Grid {
        cells,
        row_labels,
        col_labels,
    }
}

/// `0 1 2`, `1 2 3`, `A B C` or `a b c`.
fn sequence(words: &[&str]) -> bool {
    matches!(
        words,
        ["0", "1", "2"] | ["1", "2", "3"] | ["A", "B", "C"] | ["a", "b", "c"]
    )
}

/// Which tokens mean an empty cell: learned per cell from the game's first board (before any move
/// every cell is empty, whatever it shows), else the usual placeholders, or numbers that count the
/// cells in some order.
#[derive(Clone, Debug, Default)]
pub struct Empties {
    /// The token each cell showed on a board known to be empty.
    pub seen: Option<[String; 9]>,
}

/// Tokens that only ever stand for an empty cell.
const PLACEHOLDERS: &[&str] = &["", "_", "-", ".", "#", "*", "?", "~", "·", "__", "--"];

impl Empties {
    /// The marks `grid` shows, by cell (`None` for an empty cell).
    #[must_use]
    pub fn marks(&self, grid: &Grid) -> [Option<String>; 9] {
        let numbered = numbering(grid);
        std::array::from_fn(|i| {
            let t = &grid.cells[i];
            let empty = match &self.seen {
                Some(seen) => *t == seen[i] || PLACEHOLDERS.contains(&t.as_str()),
                None => PLACEHOLDERS.contains(&t.as_str()) || numbered && number(t).is_some(),
            };
            (!empty).then(|| t.clone())
        })
    }

    /// Learns the empty tokens from a board known to show no mark.
    pub fn learn(&mut self, grid: &Grid) {
        self.seen = Some(grid.cells.clone());
    }
}

/// A token that is a number, or a guide's cell number with a letter after it (`0x`, `1.`).
fn number(t: &str) -> Option<u32> {
    let digits = t.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '.');
    (t.chars().count() - digits.chars().count() <= 1)
        .then(|| digits.parse().ok())
        .flatten()
}

/// Whether the numbers on `grid` number its cells in one of the usual orders (its empty cells show
/// their numbers): row-major from 0 or 1, or as a numeric keypad.
#[must_use]
pub fn numbering(grid: &Grid) -> bool {
    numbering_of(grid).is_some()
}

/// How the numbers on `grid` number its cells: `(base, keypad)`, when every number on it agrees with
/// one order and at least one number is shown.
#[must_use]
pub fn numbering_of(grid: &Grid) -> Option<(u32, bool)> {
    let shown = shown_numbers(grid);
    if shown.is_empty() {
        return None;
    }
    ORDERS
        .into_iter()
        .find(|&order| agrees(&shown, order) && (shown.len() >= 2 || order == (1, false)))
}

/// The numbering of `grid` when only one order explains its numbers (the middle row reads alike on a
/// phone's keys and a keypad, so numbers there alone settle nothing).
#[must_use]
pub fn numbering_certain(grid: &Grid) -> Option<(u32, bool)> {
    let shown = shown_numbers(grid);
    let mut fits = ORDERS.into_iter().filter(|&o| agrees(&shown, o));
    match (fits.next(), fits.next()) {
        (Some(one), None) if !shown.is_empty() => Some(one),
        _ => None,
    }
}

/// The orders a board may number its cells in: `(base, keypad)`.
const ORDERS: [(u32, bool); 3] = [(1, false), (0, false), (1, true)];

fn shown_numbers(grid: &Grid) -> Vec<(usize, u32)> {
    (0..9)
        .filter_map(|i| number(&grid.cells[i]).map(|n| (i, n)))
        .collect()
}

fn agrees(shown: &[(usize, u32)], (base, pad): (u32, bool)) -> bool {
    let keypad = |i: usize| 3 * (2 - i as u32 / 3) + i as u32 % 3 + 1;
    shown.iter().all(|&(i, n)| {
        let want = if pad { keypad(i) } else { i as u32 + base };
        n == want
    })
}

#[cfg(test)]
mod tests;
