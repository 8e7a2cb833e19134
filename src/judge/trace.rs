//! The trace comparator: visited-node files (`STATE VALUE` per line) compared in one streaming pass,
//! with constant memory however large or wrong the submission's file is.
//!
//! Lines are compared as whitespace-separated tokens (so `oxxxoooxx 0` equals `oxxxoooxx\t0`), and blank
//! lines are ignored. Alongside the first divergence the pass keeps counts, an order-free fingerprint of
//! each side (to say "same lines, different order") and whether the states agree while values do not.

use std::collections::VecDeque;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use super::{show, thousands, Mismatch};

/// Where the two traces first part ways. Line numbers are the submission file's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    pub line: u64,
    /// `None` when that side had already ended.
    pub expected: Option<String>,
    pub actual: Option<String>,
    /// Up to two agreeing lines just before, with their line numbers.
    pub context: Vec<(u64, String)>,
}

/// Everything one pass learns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceReport {
    pub expected_lines: u64,
    pub actual_lines: u64,
    pub divergence: Option<Divergence>,
    /// The same multiset of lines (by fingerprint), in a different order.
    pub same_lines_other_order: bool,
    /// Every line has the expected state at the expected place; only values differ.
    pub same_states_other_values: bool,
    /// Lines whose state matched but whose value did not.
    pub value_differences: u64,
}

#[derive(Default)]
struct Fingerprint {
    count: u64,
    a: u64,
    b: u64,
}

impl Fingerprint {
    fn add(&mut self, tokens: &[&str]) {
        let mut ha = std::hash::DefaultHasher::new();
        let mut hb = std::hash::DefaultHasher::new();
        0xa5u8.hash(&mut hb);
        for t in tokens {
            t.hash(&mut ha);
            t.hash(&mut hb);
        }
        self.count += 1;
        // Sums commute, so the order of lines does not change the fingerprint.
        self.a = self.a.wrapping_add(ha.finish());
        self.b = self.b.wrapping_add(hb.finish().rotate_left(17));
    }
}

/// Reads non-blank lines with their 1-based line numbers, tolerating any bytes.
struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    number: u64,
}

impl<R: BufRead> Lines<R> {
    fn next_line(&mut self) -> io::Result<Option<(u64, String)>> {
        loop {
            self.buf.clear();
            if self.reader.read_until(b'\n', &mut self.buf)? == 0 {
                return Ok(None);
            }
            self.number += 1;
            let text = String::from_utf8_lossy(&self.buf);
            if !text.trim().is_empty() {
                return Ok(Some((self.number, text.trim().to_string())));
            }
        }
    }
}

/// Compares a trace file against the expected text.
pub fn compare_file(expected: &str, path: &Path) -> io::Result<TraceReport> {
    compare_reader(expected, File::open(path)?)
}

/// Compares any reader against the expected text.
pub fn compare_reader(expected: &str, actual: impl Read) -> io::Result<TraceReport> {
    let mut actual = Lines {
        reader: BufReader::with_capacity(1 << 16, actual),
        buf: Vec::new(),
        number: 0,
    };
    let mut expected_lines = expected.lines().filter(|l| !l.trim().is_empty());
    let (mut fe, mut fa) = (Fingerprint::default(), Fingerprint::default());
    let mut context: VecDeque<(u64, String)> = VecDeque::new();
    let mut divergence = None;
    let mut states_agree = true;
    let mut value_differences = 0;
    loop {
        let e = expected_lines.next();
        let a = actual.next_line()?;
        if e.is_none() && a.is_none() {
            break;
        }
        let et: Vec<&str> = e
            .map(|l| l.split_whitespace().collect())
            .unwrap_or_default();
        let at: Vec<&str> = a
            .as_ref()
            .map(|(_, l)| l.split_whitespace().collect())
            .unwrap_or_default();
        if e.is_some() {
            fe.add(&et);
        }
        if a.is_some() {
            fa.add(&at);
        }
        if e.is_none() || a.is_none() || et.first() != at.first() {
            states_agree = false;
        } else if et != at {
            value_differences += 1;
        }
        if divergence.is_none() {
            if let (Some(_), Some((n, line)), true) = (e, &a, et == at) {
                if context.len() == 2 {
                    context.pop_front();
                }
                context.push_back((*n, line.clone()));
            } else {
                divergence = Some(Divergence {
                    line: a.as_ref().map_or(actual.number + 1, |(n, _)| *n),
                    expected: e.map(|l| l.trim().to_string()),
                    actual: a.map(|(_, l)| l),
                    context: context.drain(..).collect(),
                });
            }
        }
    }
    let diverged = divergence.is_some();
    Ok(TraceReport {
        expected_lines: fe.count,
        actual_lines: fa.count,
        same_lines_other_order: diverged && fe.count == fa.count && fe.a == fa.a && fe.b == fa.b,
        same_states_other_values: diverged && states_agree && value_differences > 0,
        value_differences,
        divergence,
    })
}

impl TraceReport {
    /// One sentence for the student, then details; `None` when the traces agree.
    pub fn mismatch(&self) -> Option<Mismatch> {
        let d = self.divergence.as_ref()?;
        let side = |s: &Option<String>| match s {
            Some(l) => format!("`{}`", show(l)),
            None => "the end of the file".to_string(),
        };
        let first = format!(
            "line {}: expected {}, got {}",
            d.line,
            side(&d.expected),
            side(&d.actual)
        );
        let (e, a) = (thousands(self.expected_lines), thousands(self.actual_lines));
        let summary = if self.actual_lines == 0 {
            format!("your trace is empty; the reference visits {e} nodes")
        } else if self.same_lines_other_order {
            format!("your trace has the right {e} lines but in a different order ({first})")
        } else if self.same_states_other_values {
            format!(
                "you visit the right nodes in the right order, but {} values differ; first at {first}",
                thousands(self.value_differences)
            )
        } else if self.expected_lines != self.actual_lines {
            format!("your trace visits {a} nodes where the reference visits {e}; first difference at {first}")
        } else {
            first
        };
        let mut details: Vec<String> = d
            .context
            .iter()
            .map(|(n, l)| format!("line {n}: `{}` (agrees)", show(l)))
            .collect();
        details.push(format!("line {}: expected {}", d.line, side(&d.expected)));
        details.push(format!("line {}: got      {}", d.line, side(&d.actual)));
        details.push(format!("expected {e} lines (nodes), got {a}"));
        Some(Mismatch { summary, details })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(expected: &str, actual: &str) -> TraceReport {
        compare_reader(expected, actual.as_bytes()).unwrap()
    }

    #[test]
    fn equal_traces_agree_despite_spacing_and_blank_lines() {
        let r = report(
            "oxxxoooxx 0\noxxxo-oxo -1\n",
            "\noxxxoooxx\t0\n  oxxxo-oxo   -1  \n\n",
        );
        assert_eq!(r.divergence, None);
        assert_eq!((r.expected_lines, r.actual_lines), (2, 2));
        assert_eq!(r.mismatch(), None);
    }

    #[test]
    fn the_first_divergence_comes_with_two_lines_of_context() {
        let r = report("a 1\nb 1\nc 1\nd 1\n", "a 1\nb 1\nc 1\nX 1\n");
        let d = r.divergence.clone().unwrap();
        assert_eq!(d.line, 4);
        assert_eq!(d.context, [(2, "b 1".to_string()), (3, "c 1".to_string())]);
        let m = r.mismatch().unwrap();
        assert_eq!(m.summary, "line 4: expected `d 1`, got `X 1`");
        assert_eq!(m.details[0], "line 2: `b 1` (agrees)");
        assert_eq!(m.details.last().unwrap(), "expected 4 lines (nodes), got 4");
    }

    #[test]
    fn a_reordered_trace_is_recognised() {
        let r = report("a 1\nb 2\nc 3\n", "b 2\nc 3\na 1\n");
        assert!(r.same_lines_other_order);
        assert!(r
            .mismatch()
            .unwrap()
            .summary
            .starts_with("your trace has the right 3 lines but in a different order"));
        // The same states with one value changed is not a reordering.
        assert!(!report("a 1\nb 2\n", "b 2\na 2\n").same_lines_other_order);
    }

    #[test]
    fn values_that_differ_on_the_right_states_are_named() {
        let r = report("a 1\nb 2\nc 3\n", "a 1\nb 0\nc 0\n");
        assert!(r.same_states_other_values);
        assert_eq!(r.value_differences, 2);
        assert_eq!(
            r.mismatch().unwrap().summary,
            "you visit the right nodes in the right order, but 2 values differ; first at line 2: expected `b 2`, got `b 0`"
        );
    }

    #[test]
    fn counts_are_reported_when_the_search_differs() {
        let expected = "a 1\n".repeat(3);
        let actual = format!("{}z 9\n", "a 1\n".repeat(3));
        let m = report(&expected, &actual).mismatch().unwrap();
        assert_eq!(
            m.summary,
            "your trace visits 4 nodes where the reference visits 3; first difference at line 4: expected the end of the file, got `z 9`"
        );
        let m = report("a 1\nb 1\n", "a 1\n").mismatch().unwrap();
        assert!(
            m.summary
                .contains("line 2: expected `b 1`, got the end of the file"),
            "{}",
            m.summary
        );
    }

    #[test]
    fn empty_and_garbage_traces_are_explained() {
        assert_eq!(
            report("a 1\n", "").mismatch().unwrap().summary,
            "your trace is empty; the reference visits 1 nodes"
        );
        let garbage: &[u8] = &[0xff, 0xfe, b'\n', 0, 1, 2];
        let r = compare_reader("a 1\n", garbage).unwrap();
        assert_eq!(r.actual_lines, 2);
        assert!(r.mismatch().is_some());
    }
}
