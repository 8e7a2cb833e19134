//! What a terminal would show of a program's output, as plain text: escape sequences (colours, cursor
//! moves) dropped, a screen clear (`clear`, `\x1b[2J`, `\x1bc`) turned into a break between screens,
//! carriage returns and backspaces applied to their line, tabs expanded, every other control byte
//! dropped. Pure text work on bytes that are untrusted: any input gives some text, never a panic.

/// The marker a screen clear leaves in the text: the reader of boards takes what follows it.
pub const CLEAR: char = '\u{c}';

/// Tab stops every this many columns, as a terminal has them.
const TAB: usize = 8;

/// The text `bytes` shows on a terminal (decoded lossily).
#[must_use]
pub fn render(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut line: Vec<char> = Vec::new();
    let mut col = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                if escape(&mut chars) {
                    flush(&mut out, &mut line, &mut col);
                    out.push(CLEAR);
                }
            }
            '\u{9b}' => {
                // An 8-bit CSI: parameters, then a final byte.
                if csi(&mut chars) {
                    flush(&mut out, &mut line, &mut col);
                    out.push(CLEAR);
                }
            }
            '\n' => {
                flush(&mut out, &mut line, &mut col);
                out.push('\n');
            }
            '\r' => col = 0,
            '\u{8}' => col = col.saturating_sub(1),
            '\t' => {
                let to = (col / TAB + 1) * TAB;
                while col < to {
                    put(&mut line, &mut col, ' ');
                }
            }
            CLEAR => {
                flush(&mut out, &mut line, &mut col);
                out.push(CLEAR);
            }
            c if c.is_control() => {}
            c => put(&mut line, &mut col, c),
        }
    }
    flush(&mut out, &mut line, &mut col);
    out
}

/// Writes `c` at the cursor, over what is there.
fn put(line: &mut Vec<char>, col: &mut usize, c: char) {
    if *col < line.len() {
        line[*col] = c;
    } else {
        line.resize(*col, ' ');
        line.push(c);
    }
    *col += 1;
}

fn flush(out: &mut String, line: &mut Vec<char>, col: &mut usize) {
    out.extend(line.drain(..));
    *col = 0;
}

/// Skips one escape sequence after ESC; true when it clears the screen.
fn escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> bool {
    match chars.next() {
        Some('[') => csi(chars),
        // OSC (a window title): up to BEL or ESC \.
        Some(']') => {
            while let Some(c) = chars.next() {
                if c == '\u{7}' {
                    break;
                }
                if c == '\u{1b}' {
                    chars.next_if_eq(&'\\');
                    break;
                }
            }
            false
        }
        // RIS, a full reset: the screen is cleared.
        Some('c') => true,
        // Character-set designations take one more byte.
        Some('(' | ')' | '*' | '+') => {
            chars.next();
            false
        }
        _ => false,
    }
}

/// Skips a CSI sequence's parameters and final byte; true for an erase of the display (`J` with 2 or
/// 3, or `H` followed by `J`, which is what `clear` prints).
fn csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> bool {
    let mut params = String::new();
    for c in chars.by_ref() {
        if ('@'..='~').contains(&c) {
            return c == 'J' && (params.contains('2') || params.contains('3') || params.is_empty());
        }
        params.push(c);
        if params.len() > 32 {
            return false;
        }
    }
    false
}

/// The text after the last screen clear: what is on the screen now.
#[must_use]
pub fn last_screen(text: &str) -> &str {
    text.rsplit_once(CLEAR).map_or(text, |(_, after)| after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_go_and_a_clear_breaks_the_screen() {
        let shown = render(b"\x1b[H\x1b[2J\x1b[3JHuman turn [X]\n\x1b[1;31mX\x1b[0m | O |  \n");
        assert_eq!(shown, "\u{c}\u{c}Human turn [X]\nX | O |  \n");
        assert_eq!(last_screen(&shown), "Human turn [X]\nX | O |  \n");
        assert_eq!(render(b"\x1b]0;title\x07ok\x1bcnew"), "ok\u{c}new");
    }

    #[test]
    fn carriage_returns_backspaces_and_tabs_act_on_their_line() {
        assert_eq!(render(b"thinking...\rMy move: 5\n"), "My move: 5.\n");
        assert_eq!(render(b"ab\x08c\n"), "ac\n");
        assert_eq!(render(b"\t\t X | O\r\n"), "                 X | O\n");
        assert_eq!(render(b"a\x07b\x00c"), "abc");
        // Not UTF-8, and a truncated escape: still text.
        assert_eq!(render(b"\xff\x1b["), "\u{fffd}");
    }
}
