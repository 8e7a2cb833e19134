//! Excerpts of what a program printed on stderr, for feedback: its last lines whole (a traceback's
//! `File "…", line N` and the error under it), with the run's own folders written relative to the
//! student's.

use std::path::Path;

use super::show_capped;

/// How many of the last non-blank lines a case's feedback shows: a Python traceback's innermost frames
/// and its error, the top of a Java stack trace's cause, a C program's last words.
pub const LINES: usize = 8;

/// A line is cut past this many characters. A traceback's frame line, its path made relative, is far
/// shorter; the cap is only for a program that prints one endless line.
pub const LINE_CAP: usize = 300;

/// The run's own absolute folders (the built copy, the scratch folder), which differ on every run and
/// mean nothing to a student: each is dropped from the text with the `/` after it, so
/// `/tmp/grader-run-…/build/team.py` reads `team.py`.
#[derive(Clone, Debug, Default)]
pub struct Folders(Vec<String>);

impl Folders {
    /// The folders as given, and as the kernel resolves them (a program may report either).
    #[must_use]
    pub fn new<'a>(folders: impl IntoIterator<Item = &'a Path>) -> Folders {
        let mut prefixes: Vec<String> = Vec::new();
        for folder in folders {
            let resolved = folder.canonicalize().ok();
            for f in std::iter::once(folder).chain(resolved.as_deref()) {
                let text = f.to_string_lossy().trim_end_matches('/').to_string();
                // The root, or a relative path, would rewrite far more than the run's own folder.
                if text.len() > 1 && text.starts_with('/') && !prefixes.contains(&text) {
                    prefixes.push(text);
                }
            }
        }
        // The longest first, so a folder inside another is rewritten whole.
        prefixes.sort_by_key(|p| std::cmp::Reverse(p.len()));
        Folders(prefixes)
    }

    /// `text` with every occurrence of a folder followed by `/` removed (with the `/`), and a folder
    /// named alone written `.`. A longer name that merely starts the same (`…/build2`) is left as is.
    #[must_use]
    pub fn relative(&self, text: &str) -> String {
        let mut text = text.to_string();
        for prefix in &self.0 {
            if !text.contains(prefix.as_str()) {
                continue;
            }
            let mut out = String::with_capacity(text.len());
            let mut rest = text.as_str();
            while let Some(at) = rest.find(prefix.as_str()) {
                out.push_str(&rest[..at]);
                let after = &rest[at + prefix.len()..];
                match after.chars().next() {
                    Some('/') => rest = &after[1..],
                    Some(c) if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') => {
                        out.push_str(prefix);
                        rest = after;
                    }
                    _ => {
                        out.push('.');
                        rest = after;
                    }
                }
            }
            out.push_str(rest);
            text = out;
        }
        text
    }
}

/// The last `n` non-blank lines of `text`, each escaped and cut only past [`LINE_CAP`] characters,
/// their indentation kept (a traceback's code line sits under its frame line).
#[must_use]
pub fn last_lines(text: &str, n: usize) -> Vec<String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(n);
    lines[start..]
        .iter()
        .map(|l| show_capped(l.trim_end(), LINE_CAP))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str = "Traceback (most recent call last):
  File \"/tmp/grader-run-1/s/build/ut3_adapter.py\", line 204, in turn
    answer = player.move(board, stat, last, flag)
  File \"/tmp/grader-run-1/s/build/team_crash.py\", line 36, in move
    return cells[len(cells) + 3]  # an IndexError on its fifth move, with a long comment after it to pass sixty characters
IndexError: list index out of range
";

    #[test]
    fn run_folders_become_relative_and_lookalikes_stay() {
        let f = Folders::new([Path::new("/tmp/grader-run-1/s/build"), Path::new("/tmp/w")]);
        assert_eq!(
            f.relative("File \"/tmp/grader-run-1/s/build/team.py\", line 3"),
            "File \"team.py\", line 3"
        );
        assert_eq!(
            f.relative("cwd /tmp/w, build /tmp/grader-run-1/s/build2/x, /tmp/w/v.txt"),
            "cwd ., build /tmp/grader-run-1/s/build2/x, v.txt"
        );
        // Nothing to rewrite without folders, nor with the root as one.
        assert_eq!(Folders::new([Path::new("/")]).relative("/tmp/a"), "/tmp/a");
    }

    #[test]
    fn a_traceback_keeps_its_last_frame_and_line_number_whole() {
        let f = Folders::new([Path::new("/tmp/grader-run-1/s/build")]);
        let lines = last_lines(&f.relative(TRACE), 3);
        assert_eq!(
            lines,
            [
                "  File \"team_crash.py\", line 36, in move",
                "    return cells[len(cells) + 3]  # an IndexError on its fifth move, with a long comment after it to pass sixty characters",
                "IndexError: list index out of range",
            ]
        );
    }

    #[test]
    fn hostile_lines_are_escaped_and_capped() {
        let long = "x".repeat(10_000);
        let text = format!("\u{1b}[2Jboom\n\n{long}\n");
        let lines = last_lines(&text, 8);
        assert_eq!(lines[0], "\\u{1b}[2Jboom");
        assert_eq!(lines[1].chars().count(), LINE_CAP + 1);
        assert!(lines[1].ends_with('…'));
    }
}
