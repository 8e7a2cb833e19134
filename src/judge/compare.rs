//! Output comparators for whole outputs held in memory: exact, whitespace-tolerant tokens, numeric.
//! (Visited-node traces, which can be huge, have their own streaming comparator in `trace`.)

use super::{show, thousands, Mismatch};

/// How a suite wants an output compared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Comparator {
    /// Byte for byte, except that a missing final newline is forgiven.
    Exact,
    /// The same whitespace-separated tokens: spacing, blank lines and line breaks do not matter.
    Tokens,
    /// Tokens, where two numbers are equal within `tolerance` (absolute, or relative to the expected
    /// value when that is larger), so `0.0` equals `0`.
    Numeric { tolerance: f64 },
    /// Visited-node traces: one `STATE VALUE` per line, streamed (see `trace`).
    Trace,
}

impl Comparator {
    pub fn name(self) -> &'static str {
        match self {
            Comparator::Exact => "exact",
            Comparator::Tokens => "tokens",
            Comparator::Numeric { .. } => "numeric",
            Comparator::Trace => "trace",
        }
    }

    /// Compares in-memory outputs. `Trace` here uses the same line rules as the streaming comparator.
    pub fn compare(self, expected: &[u8], actual: &[u8]) -> Option<Mismatch> {
        match self {
            Comparator::Exact => exact(expected, actual),
            Comparator::Tokens => tokens(expected, actual, None),
            Comparator::Numeric { tolerance } => tokens(expected, actual, Some(tolerance)),
            Comparator::Trace => {
                super::trace::compare_reader(&String::from_utf8_lossy(expected), actual)
                    .ok()
                    .and_then(|report| report.mismatch())
            }
        }
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a student sees when they printed nothing, or something.
fn describe(text: &str) -> String {
    if text.trim().is_empty() {
        "nothing".to_string()
    } else {
        format!("`{}`", show(text.trim_end_matches('\n')))
    }
}

fn exact(expected: &[u8], actual: &[u8]) -> Option<Mismatch> {
    let strip = |b: &[u8]| -> Vec<u8> { b.strip_suffix(b"\n").unwrap_or(b).to_vec() };
    if strip(expected) == strip(actual) {
        return None;
    }
    let (e, a) = (lossy(expected), lossy(actual));
    let (el, al): (Vec<&str>, Vec<&str>) = (e.lines().collect(), a.lines().collect());
    if el.len() <= 1 && al.len() <= 1 {
        let summary = format!("expected {}, got {}", describe(&e), describe(&a));
        let mut details = Vec::new();
        if e.trim() == a.trim() {
            details.push("the difference is only in spaces or line endings".to_string());
        }
        return Some(Mismatch { summary, details });
    }
    let line = el
        .iter()
        .zip(&al)
        .position(|(x, y)| x != y)
        .unwrap_or(el.len().min(al.len()));
    let get = |v: &[&str], i: usize| {
        v.get(i)
            .map_or("end of output".to_string(), |s| format!("`{}`", show(s)))
    };
    Some(differ_at(
        "line",
        line,
        [get(&el, line), get(&al, line)],
        [el.len(), al.len()],
    ))
}

/// Where two sequences of `unit`s (lines, words) first differ: `word 3: expected …, got …`, with how
/// many of them each has in the details.
fn differ_at(
    unit: &str,
    index: usize,
    [expected, got]: [String; 2],
    [e, a]: [usize; 2],
) -> Mismatch {
    Mismatch {
        summary: format!("{unit} {}: expected {expected}, got {got}", index + 1),
        details: vec![format!(
            "expected {} {unit}s, got {}",
            thousands(e as u64),
            thousands(a as u64)
        )],
    }
}

fn numbers_equal(e: &str, a: &str, tolerance: f64) -> bool {
    match (e.parse::<f64>(), a.parse::<f64>()) {
        (Ok(x), Ok(y)) if x.is_finite() && y.is_finite() => {
            (x - y).abs() <= tolerance.max(tolerance * x.abs())
        }
        _ => false,
    }
}

fn tokens(expected: &[u8], actual: &[u8], tolerance: Option<f64>) -> Option<Mismatch> {
    let (e, a) = (lossy(expected), lossy(actual));
    // (line number, token) pairs so a difference can be located.
    let split = |text: &str| -> Vec<(usize, String)> {
        text.lines()
            .enumerate()
            .flat_map(|(i, l)| l.split_whitespace().map(move |t| (i + 1, t.to_string())))
            .collect()
    };
    let (et, at) = (split(&e), split(&a));
    let same = |x: &str, y: &str| x == y || tolerance.is_some_and(|t| numbers_equal(x, y, t));
    let first = et.iter().zip(&at).position(|((_, x), (_, y))| !same(x, y));
    let index = match first {
        Some(i) => i,
        None if et.len() == at.len() => return None,
        None => et.len().min(at.len()),
    };
    if et.len() <= 1 && at.len() <= 1 {
        return Some(Mismatch {
            summary: format!("expected {}, got {}", describe(&e), describe(&a)),
            details: Vec::new(),
        });
    }
    let token = |v: &[(usize, String)], i: usize| {
        v.get(i).map_or("end of output".to_string(), |(line, t)| {
            format!("`{}` (line {line})", show(t))
        })
    };
    Some(differ_at(
        "word",
        index,
        [token(&et, index), token(&at, index)],
        [et.len(), at.len()],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_forgives_only_the_final_newline() {
        assert_eq!(
            Comparator::Exact.compare(b"oxxxo-oxo\n", b"oxxxo-oxo"),
            None
        );
        let m = Comparator::Exact
            .compare(b"oxxxo-oxo\n", b"oxxxo-oxo \n")
            .unwrap();
        assert_eq!(m.summary, "expected `oxxxo-oxo`, got `oxxxo-oxo `");
        assert_eq!(
            m.details,
            ["the difference is only in spaces or line endings"]
        );
        let m = Comparator::Exact.compare(b"x--------\n", b"").unwrap();
        assert_eq!(m.summary, "expected `x--------`, got nothing");
    }

    #[test]
    fn exact_locates_the_first_different_line() {
        let m = Comparator::Exact
            .compare(b"a\nb\nc\n", b"a\nB\nc\n")
            .unwrap();
        assert_eq!(m.summary, "line 2: expected `b`, got `B`");
        let m = Comparator::Exact.compare(b"a\nb\n", b"a\n").unwrap();
        assert_eq!(m.summary, "line 2: expected `b`, got end of output");
    }

    #[test]
    fn tokens_ignore_spacing_but_not_words() {
        assert_eq!(Comparator::Tokens.compare(b"a b\nc\n", b"  a\tb c"), None);
        let m = Comparator::Tokens
            .compare(b"a b\nc d\n", b"a b\nc e\n")
            .unwrap();
        assert_eq!(m.summary, "word 4: expected `d` (line 2), got `e` (line 2)");
        assert!(Comparator::Tokens.compare(b"0", b"0.0").is_some());
    }

    #[test]
    fn numeric_tolerates_small_differences_only() {
        let numeric = Comparator::Numeric { tolerance: 1e-6 };
        assert_eq!(numeric.compare(b"0 1.5 x", b"0.0 1.5000001 x"), None);
        assert!(numeric.compare(b"0 1.5", b"0 1.6").is_some());
        assert!(numeric.compare(b"x", b"y").is_some());
        assert!(numeric.compare(b"1", b"nan").is_some());
        // Relative tolerance for large values.
        assert_eq!(numeric.compare(b"1000000000", b"1000000000.5"), None);
    }
}
