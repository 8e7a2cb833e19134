//! The HTML report: a class page (`index.html`) and a page per student (`report.html`) with every case
//! and a replay of every game, each one self-contained file (inline CSS, JS and SVG; no network),
//! readable without JavaScript and printable. Pages are built from results alone.
//!
//! Written by hand with one escaping function ([`esc`]) rather than a template crate: the pages are a
//! few tables and lists, and every string that reaches them passes through that one function.

pub mod class;
pub mod replay;
pub mod similarity;
pub mod student;
pub mod svg;

use std::fmt::Write as _;

/// The most characters of one program-printed text shown on a page.
pub const TEXT_CAP: usize = 4000;

/// Text made safe for HTML body and attribute values: control characters shown escaped (newlines and
/// tabs kept), cut past [`TEXT_CAP`] characters, then `& < > " '` written as entities.
#[must_use]
pub fn esc(text: &str) -> String {
    entities(&crate::untrusted::block(text, TEXT_CAP))
}

/// Escaped text (from [`esc`]) with each pair of backticks made a `<code>` span, as the words the
/// grader writes mark names and values (`` `visited.txt` ``); a lone backtick stays as it is.
#[must_use]
pub fn code_spans(escaped: &str) -> String {
    let parts: Vec<&str> = escaped.split('`').collect();
    let mut out = String::with_capacity(escaped.len() + 16);
    for (k, part) in parts.iter().enumerate() {
        match (k % 2, k + 1 == parts.len()) {
            (1, true) => {
                out.push('`');
                out.push_str(part);
            }
            (1, false) => {
                out.push_str("<code>");
                out.push_str(part);
                out.push_str("</code>");
            }
            _ => out.push_str(part),
        }
    }
    out
}

/// `& < > " '` written as entities and nothing else: for text the grader made whole (the replay's
/// JSON frames), which must not be cut.
#[must_use]
pub fn entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A student's folder name as one segment of a relative link: every byte outside the unreserved
/// characters percent-encoded (a key may hold `%`).
#[must_use]
pub fn url_segment(key: &str) -> String {
    let mut out = String::new();
    for b in key.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A whole page: `title` (escaped here) and `body` (already HTML), with the stylesheet and the replay
/// script inline.
#[must_use]
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n{body}\
         <script>\n{}</script>\n</body>\n</html>\n",
        esc(title),
        include_str!("page.css"),
        include_str!("page.js")
    )
}

/// `verdict` as a page writes it: its words, coloured by whether it passed.
#[must_use]
pub fn verdict(v: crate::judge::Verdict) -> String {
    let class = match v {
        crate::judge::Verdict::Accepted => "ok",
        // Not the student's fault, not yet anyone's: a person decides.
        crate::judge::Verdict::Review => "mute",
        _ => "bad",
    };
    format!("<span class=\"{class}\">{}</span>", esc(v.label()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backtick_pairs_become_code_and_a_lone_one_stays() {
        assert_eq!(
            code_spans(&esc("wrote `a<b`, then ` alone")),
            "wrote <code>a&lt;b</code>, then ` alone"
        );
        assert_eq!(code_spans("no ticks"), "no ticks");
    }

    #[test]
    fn escaping_leaves_no_markup_and_no_control_bytes() {
        let e = esc("<script>alert('x')</script> & \"q\" \x1b[2J\u{202e}");
        assert!(
            !e.contains(['<', '>', '\'', '"', '\x1b', '\u{202e}']),
            "{e}"
        );
        assert!(e.starts_with("&lt;script&gt;alert(&#39;x&#39;)"), "{e}");
        assert!(esc(&"a".repeat(10 * TEXT_CAP)).len() < 2 * TEXT_CAP);
    }

    #[test]
    fn links_encode_every_unsafe_byte() {
        assert_eq!(url_segment("ann-b.c_1"), "ann-b.c_1");
        assert_eq!(url_segment("a%1B b/\"<"), "a%251B%20b%2F%22%3C");
    }
}
