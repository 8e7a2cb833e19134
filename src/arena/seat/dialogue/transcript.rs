//! A game's dialogue as a person at the terminal would have seen it: what the program printed, and
//! each line the grader typed on a line of its own after `→ `. Kept for a person who must judge what
//! the grader could not follow (`review`), capped: a program that floods its output keeps its first
//! `CAP` bytes, the part that shows what went wrong.

/// The most bytes kept (a whole game of tic-tac-toe is a few KiB).
pub const CAP: usize = 48 * 1024;

/// What was printed and typed, in order.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    bytes: Vec<u8>,
    /// Bytes left out past the cap.
    dropped: usize,
}

impl Transcript {
    /// Output the program printed (any bytes; decoded lossily when read).
    pub fn printed(&mut self, bytes: &[u8]) {
        let room = CAP.saturating_sub(self.bytes.len());
        let kept = bytes.len().min(room);
        self.bytes.extend_from_slice(&bytes[..kept]);
        self.dropped += bytes.len() - kept;
    }

    /// A line the grader typed: on a line of its own, after `→ `.
    pub fn typed(&mut self, line: &str) {
        if self.bytes.last().is_some_and(|&b| b != b'\n') {
            self.printed(b"\n");
        }
        self.printed(format!("→ {line}\n").as_bytes());
    }

    /// The text, with a note of what the cap left out; `None` when nothing happened.
    #[must_use]
    pub fn text(&self) -> Option<String> {
        if self.bytes.is_empty() {
            return None;
        }
        let mut out = String::from_utf8_lossy(&self.bytes).into_owned();
        if self.dropped > 0 {
            out.push_str(&format!("\n… ({} more bytes)", self.dropped));
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_lines_stand_on_their_own_and_the_cap_holds() {
        let mut t = Transcript::default();
        assert_eq!(t.text(), None);
        t.printed(b"Your move? ");
        t.typed("1 1");
        t.printed(b"X| |\n");
        t.typed("2 2");
        assert_eq!(t.text().unwrap(), "Your move? \n→ 1 1\nX| |\n→ 2 2\n");
        t.printed(&vec![b'a'; 2 * CAP]);
        let text = t.text().unwrap();
        assert!(text.len() < CAP + 100, "{}", text.len());
        assert!(
            text.ends_with("more bytes)"),
            "{}",
            &text[text.len() - 40..]
        );
    }
}
