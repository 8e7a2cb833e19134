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

/// The `n` non-blank lines of `text` that say why a program failed, each escaped and cut only past
/// [`LINE_CAP`] characters, their indentation kept (a traceback's code line sits under its frame line).
/// Usually the last ones: Python (3 and 2) and C++ end with the error and the innermost frame. A Java
/// stack trace is the other way up, the exception and its innermost frame first, then every caller: when
/// the last one does not fit, its head is shown (the last `Caused by:`, the root cause, when chained).
#[must_use]
pub fn why_lines(text: &str, n: usize) -> Vec<String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    // `\tat pkg.Class.method(File.java:41)`: one word after `at`, a call (never Python's `at = f(x)`).
    let frame = |l: &str| {
        l.starts_with(char::is_whitespace)
            && l.trim().strip_prefix("at ").is_some_and(|call| {
                !call.contains(char::is_whitespace) && call.contains('(') && call.ends_with(')')
            })
    };
    let head = (0..lines.len().saturating_sub(1))
        .rev()
        .find(|&i| !frame(lines[i]) && frame(lines[i + 1]));
    let start = match head {
        Some(h) if lines.len() - h > n => h,
        _ => lines.len().saturating_sub(n),
    };
    lines[start..]
        .iter()
        .take(n)
        // A tab is indentation here (Java's frames), not a character to show escaped.
        .map(|l| show_capped(&l.trim_end().replace('\t', "    "), LINE_CAP))
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
        let lines = why_lines(&f.relative(TRACE), 3);
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
    fn a_java_stack_trace_keeps_its_exception_and_innermost_frames() {
        let mut text = String::from(
            "Exception in thread \"main\" java.lang.IllegalStateException: wrapped\n\tat tictactoe.main(tictactoe.java:90)\nCaused by: java.lang.ArrayIndexOutOfBoundsException: Index 9 out of bounds for length 9\n\tat tictactoe.value(tictactoe.java:41)\n",
        );
        for _ in 0..40 {
            text.push_str("\tat tictactoe.search(tictactoe.java:57)\n");
        }
        text.push_str("\t... 3 more\n");
        let lines = why_lines(&text, 4);
        assert_eq!(
            lines,
            [
                "Caused by: java.lang.ArrayIndexOutOfBoundsException: Index 9 out of bounds for length 9",
                "    at tictactoe.value(tictactoe.java:41)",
                "    at tictactoe.search(tictactoe.java:57)",
                "    at tictactoe.search(tictactoe.java:57)",
            ]
        );
        // A short one is shown whole, from its first line.
        let short = "Exception in thread \"main\" java.lang.NullPointerException\n\tat tictactoe.main(tictactoe.java:12)\n";
        assert_eq!(why_lines(short, 4).len(), 2);
        // Python code that reads `at = …` is no Java frame: the error, last, stays in.
        let python = "Traceback (most recent call last):\n  File \"a.py\", line 3, in f\n    at = f(x)\nValueError: no\n";
        assert_eq!(why_lines(python, 2), ["    at = f(x)", "ValueError: no"]);
    }

    #[test]
    fn hostile_lines_are_escaped_and_capped() {
        let long = "x".repeat(10_000);
        let text = format!("\u{1b}[2Jboom\n\n{long}\n");
        let lines = why_lines(&text, 8);
        assert_eq!(lines[0], "\\u{1b}[2Jboom");
        assert_eq!(lines[1].chars().count(), LINE_CAP + 1);
        assert!(lines[1].ends_with('…'));
    }
}
