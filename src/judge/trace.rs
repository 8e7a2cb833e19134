//! The trace comparator: visited-node files (`STATE VALUE` per line) compared in one streaming pass,
//! with constant memory however large or wrong the submission's file is.
//!
//! Lines are compared as whitespace-separated tokens (so `oxxxoooxx 0` equals `oxxxoooxx\t0`), and blank
//! lines are ignored. Alongside the first divergence the pass keeps counts, an order-free fingerprint of
//! each side (to say "same lines, different order") and whether the states agree while values do not.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::os::unix::fs::FileExt as _;

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
    /// At the divergence, for a search: whether the state the submission wrote there appears anywhere
    /// in the reference (`false`: a node the reference's search never visits, i.e. prunes or never
    /// reaches), and whether the state the reference wrote there appears anywhere later in the
    /// submission's file (`false`: a node the submission's search cut off). `None` where that side
    /// had ended, or the line had no state.
    pub actual_state_in_reference: Option<bool>,
    pub expected_state_in_actual: Option<bool>,
    /// The first line where the states differ (not only the values): where the two searches first
    /// visit different nodes. A node's value is written before its children in pre-order, so the
    /// first divergence is often an ancestor's value; the searches part further down.
    pub state_divergence: Option<StateDivergence>,
}

/// The first line where the two traces name different states; `None` where that side had ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateDivergence {
    pub line: u64,
    pub expected: Option<String>,
    pub actual: Option<String>,
}

/// How many nodes a graded search visited against the reference, in one mode (`result.json`'s
/// `search` on a trace case).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct SearchCount {
    /// `plain`, `prune` or `prune+ply`.
    pub mode: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// Lines (nodes) in the submission's visited file.
    pub visited: u64,
    /// Lines in the reference's.
    pub reference_visited: u64,
}

/// An order-free fingerprint of a multiset of lines: the count and two wrapping sums of per-line hashes
/// (sums commute, so reordering lines does not change it).
#[derive(Default)]
struct Fingerprint {
    count: u64,
    a: u64,
    b: u64,
}

impl Fingerprint {
    fn add(&mut self, line: &[u8]) {
        // FNV-1a over the tokens with one separator between them: cheap, and spacing-blind like the
        // comparison itself.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut first = true;
        for token in Tokens(line) {
            if !first {
                h = (h ^ 0x20).wrapping_mul(0x0100_0000_01b3);
            }
            first = false;
            for &byte in token {
                h = (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        self.count += 1;
        self.a = self.a.wrapping_add(h);
        // A second, non-linear function of the same hash, so two different multisets must collide twice.
        let m = (h ^ (h >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.b = self.b.wrapping_add(m ^ (m >> 29));
    }
}

/// The whitespace-separated tokens of a line, without allocating.
struct Tokens<'a>(&'a [u8]);

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let bytes = self.0;
        let mut i = 0;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == bytes.len() {
            self.0 = &[];
            return None;
        }
        let mut j = i;
        while j < bytes.len() && !bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        self.0 = &bytes[j..];
        Some(&bytes[i..j])
    }
}

fn blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// Whether two lines have the same tokens, and whether their first tokens (the states) agree.
fn same(x: &[u8], y: &[u8]) -> (bool, bool) {
    let (mut tx, mut ty) = (Tokens(x), Tokens(y));
    let first = tx.next() == ty.next();
    (first && tx.eq(ty), first)
}

fn text(line: &[u8]) -> String {
    String::from_utf8_lossy(line).trim().to_string()
}

/// The non-blank lines of the expected text, with no allocation.
struct ExpectedLines<'a>(&'a [u8]);

impl ExpectedLines<'_> {
    fn count(mut self) -> u64 {
        let mut n = 0;
        while self.next_line().is_some() {
            n += 1;
        }
        n
    }
}

impl<'a> ExpectedLines<'a> {
    fn next_line(&mut self) -> Option<&'a [u8]> {
        loop {
            if self.0.is_empty() {
                return None;
            }
            let end = self
                .0
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(self.0.len());
            let line = &self.0[..end];
            self.0 = &self.0[(end + 1).min(self.0.len())..];
            if !blank(line) {
                return Some(line);
            }
        }
    }
}

/// A line is kept up to this many bytes and the rest of it skipped: a visited line is a dozen bytes, and
/// a file of one endless line must not be held whole in memory.
const MAX_LINE: usize = 4096;

/// Reads non-blank lines with their 1-based line numbers, tolerating any bytes.
struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    number: u64,
    /// The end was read: the file is a finished run's, so no more reads (each would be a system
    /// call for every expected line past a short file's end).
    ended: bool,
}

impl<R: BufRead> Lines<R> {
    /// The next non-blank line, in `self.buf`; false at the end.
    fn advance(&mut self) -> io::Result<bool> {
        loop {
            self.buf.clear();
            if self.ended
                || (&mut self.reader)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut self.buf)?
                    == 0
            {
                self.ended = true;
                return Ok(false);
            }
            if self.buf.len() == MAX_LINE && self.buf.last() != Some(&b'\n') {
                skip_line(&mut self.reader)?;
            }
            self.number += 1;
            if !blank(&self.buf) {
                return Ok(true);
            }
        }
    }
}

/// Drops the rest of an over-long line, a buffer at a time.
fn skip_line(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(());
        }
        if let Some(at) = chunk.iter().position(|&b| b == b'\n') {
            reader.consume(at + 1);
            return Ok(());
        }
        let n = chunk.len();
        reader.consume(n);
    }
}

/// Compares a trace file (opened by the caller, who checked what it is) against the expected text.
/// The file is read from its start whatever its offset, at most `cap` bytes of it.
pub fn compare_file(expected: &str, file: &File, cap: u64) -> io::Result<TraceReport> {
    if identical(expected.as_bytes(), file)? {
        let lines = ExpectedLines(expected.as_bytes()).count();
        return Ok(TraceReport {
            expected_lines: lines,
            actual_lines: lines,
            divergence: None,
            same_lines_other_order: false,
            same_states_other_values: false,
            value_differences: 0,
            actual_state_in_reference: None,
            expected_state_in_actual: None,
            state_divergence: None,
        });
    }
    compare_reader(expected, Positioned { file, at: 0 }.take(cap))
}

/// Reads a file from an offset of its own (pread), so a file can be compared twice.
struct Positioned<'a> {
    file: &'a File,
    at: u64,
}

impl Read for Positioned<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read_at(buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// The fast path for a correct submission: the file is byte for byte the expected text (chunked
/// memcmp, which is quick even in unoptimised builds).
fn identical(expected: &[u8], file: &File) -> io::Result<bool> {
    let mut file = Positioned { file, at: 0 };
    if file.file.metadata()?.len() != expected.len() as u64 {
        return Ok(false);
    }
    let mut chunk = vec![0u8; 1 << 16];
    let mut at = 0;
    loop {
        let n = file.read(&mut chunk)?;
        if n == 0 {
            return Ok(at == expected.len());
        }
        if at + n > expected.len() || chunk[..n] != expected[at..at + n] {
            return Ok(false);
        }
        at += n;
    }
}

/// Compares any reader against the expected text.
pub fn compare_reader(expected: &str, actual: impl Read) -> io::Result<TraceReport> {
    let mut actual = Lines {
        reader: BufReader::with_capacity(1 << 16, actual),
        buf: Vec::with_capacity(64),
        number: 0,
        ended: false,
    };
    let mut expected_lines = ExpectedLines(expected.as_bytes());
    let mut walk = Walk::default();
    loop {
        let e = expected_lines.next_line();
        let a = if actual.advance()? {
            Some(actual.buf.as_slice())
        } else {
            None
        };
        if e.is_none() && a.is_none() {
            break;
        }
        // The line the divergence is reported at: this one, or the one past the file's end.
        let line = if a.is_some() {
            actual.number
        } else {
            actual.number + 1
        };
        walk.step(e, a, line);
    }
    Ok(walk.report(expected))
}

/// The comparison's state between two lines: both sides' fingerprints, the last two agreeing lines,
/// the first divergence of lines and of states.
struct Walk {
    fe: Fingerprint,
    fa: Fingerprint,
    /// The last two agreeing lines, as reusable buffers (no allocation per line).
    context: [(u64, Vec<u8>); 2],
    agreed: u64,
    divergence: Option<Divergence>,
    states_agree: bool,
    value_differences: u64,
    state_divergence: Option<StateDivergence>,
    /// The reference's state at the divergence, looked for in the rest of the submission's file.
    wanted: Option<Vec<u8>>,
    wanted_seen: bool,
}

impl Default for Walk {
    fn default() -> Walk {
        Walk {
            fe: Fingerprint::default(),
            fa: Fingerprint::default(),
            context: [(0, Vec::new()), (0, Vec::new())],
            agreed: 0,
            divergence: None,
            states_agree: true,
            value_differences: 0,
            state_divergence: None,
            wanted: None,
            wanted_seen: false,
        }
    }
}

impl Walk {
    /// One line of each side (at least one present); `line` is where a divergence here is reported.
    fn step(&mut self, e: Option<&[u8]>, a: Option<&[u8]>, line: u64) {
        if let Some(e) = e {
            self.fe.add(e);
        }
        if let Some(a) = a {
            self.fa.add(a);
        }
        let (equal, same_state) = match (e, a) {
            (Some(e), Some(a)) => same(e, a),
            _ => (false, false),
        };
        if !same_state {
            if self.states_agree {
                let state = |l: &[u8]| {
                    Tokens(l)
                        .next()
                        .map(|t| String::from_utf8_lossy(t).into_owned())
                };
                self.state_divergence = Some(StateDivergence {
                    line,
                    expected: e.and_then(state),
                    actual: a.and_then(state),
                });
            }
            self.states_agree = false;
        } else if !equal {
            self.value_differences += 1;
        }
        if self.divergence.is_some() {
            if let (Some(w), Some(a)) = (&self.wanted, a) {
                self.wanted_seen |= Tokens(a).next() == Some(w.as_slice());
            }
        } else if equal {
            let slot = &mut self.context[(self.agreed % 2) as usize];
            slot.0 = line;
            slot.1.clear();
            slot.1.extend_from_slice(a.unwrap_or_default());
            self.agreed += 1;
        } else {
            self.diverge(e, a, line);
        }
    }

    /// The first line where the two part ways, with the agreeing lines before it.
    fn diverge(&mut self, e: Option<&[u8]>, a: Option<&[u8]>, line: u64) {
        let kept = self.agreed.min(2);
        let context = (0..kept)
            .map(|k| {
                let (n, line) = &self.context[((self.agreed - kept + k) % 2) as usize];
                (*n, text(line))
            })
            .collect();
        self.wanted = e.and_then(|e| Tokens(e).next()).map(<[u8]>::to_vec);
        if let (Some(w), Some(a)) = (&self.wanted, a) {
            self.wanted_seen = Tokens(a).next() == Some(w.as_slice());
        }
        self.divergence = Some(Divergence {
            line,
            expected: e.map(text),
            actual: a.map(text),
            context,
        });
    }

    fn report(self, expected: &str) -> TraceReport {
        let (fe, fa) = (self.fe, self.fa);
        let diverged = self.divergence.is_some();
        let actual_state_in_reference = self
            .divergence
            .as_ref()
            .and_then(|d| d.actual.as_deref())
            .and_then(|a| a.split_whitespace().next())
            .map(|state| {
                let mut all = ExpectedLines(expected.as_bytes());
                std::iter::from_fn(|| all.next_line())
                    .any(|l| Tokens(l).next() == Some(state.as_bytes()))
            });
        TraceReport {
            actual_state_in_reference,
            expected_state_in_actual: self.wanted.map(|_| self.wanted_seen),
            expected_lines: fe.count,
            actual_lines: fa.count,
            same_lines_other_order: diverged
                && fe.count == fa.count
                && fe.a == fa.a
                && fe.b == fa.b,
            same_states_other_values: diverged && self.states_agree && self.value_differences > 0,
            value_differences: self.value_differences,
            divergence: self.divergence,
            state_divergence: self.state_divergence,
        }
    }
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
                "you visit the right nodes in the right order, but {} {}; first at {first}",
                thousands(self.value_differences),
                if self.value_differences == 1 {
                    "value differs"
                } else {
                    "values differ"
                }
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
        // Where the searches part: a node one visits and the other never does.
        let state = |s: &Option<String>| {
            s.as_deref()
                .and_then(|l| l.split_whitespace().next())
                .map(show)
                .unwrap_or_default()
        };
        if self.actual_state_in_reference == Some(false) {
            details.push(format!(
                "line {}: your search visits `{}`, a node the reference never visits (its search prunes it, or never reaches it)",
                d.line,
                state(&d.actual)
            ));
        }
        if self.expected_state_in_actual == Some(false) {
            details.push(format!(
                "your search never visits `{}`, which the reference visits here: it cut off a node the reference searches (AIMA stops a max node only when v ≥ β, a min node only when v ≤ α)",
                state(&d.expected)
            ));
        }
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
    fn a_short_file_is_read_to_its_end_once_not_again_for_every_expected_line_past_it() {
        /// A reader that counts the reads asked of it.
        struct Counted<'a>(&'a [u8], std::rc::Rc<std::cell::Cell<usize>>);
        impl Read for Counted<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.1.set(self.1.get() + 1);
                self.0.read(buf)
            }
        }
        let expected: String = (0..5000).map(|i| format!("s{i} 1\n")).collect();
        let reads = std::rc::Rc::new(std::cell::Cell::new(0));
        let r = compare_reader(&expected, Counted(b"s0 1\ns1 1\n", reads.clone())).unwrap();
        assert_eq!((r.expected_lines, r.actual_lines), (5000, 2));
        assert_eq!(r.divergence.as_ref().map(|d| d.line), Some(3));
        // The bytes, then the end: two reads, not one more per expected line past the end.
        assert_eq!(reads.get(), 2);
    }

    #[test]
    fn a_node_only_one_search_visits_is_named() {
        // The submission visits `x` where the reference prunes it, then goes on as the reference.
        let r = report("a 1\nb 1\nc 1\n", "a 1\nx 0\nb 1\nc 1\n");
        assert_eq!(r.actual_state_in_reference, Some(false));
        assert_eq!(r.expected_state_in_actual, Some(true));
        let m = r.mismatch().unwrap();
        assert!(
            m.details.contains(&"line 2: your search visits `x`, a node the reference never visits (its search prunes it, or never reaches it)".to_string()),
            "{m:?}"
        );
        // The submission cuts `b` off, which the reference searches.
        let r = report("a 1\nb 1\nc 1\n", "a 1\nc 1\n");
        assert_eq!(r.actual_state_in_reference, Some(true));
        assert_eq!(r.expected_state_in_actual, Some(false));
        let m = r.mismatch().unwrap();
        assert!(
            m.details[m.details.len() - 2].starts_with(
                "your search never visits `b`, which the reference visits here: it cut off"
            ),
            "{m:?}"
        );
        // Only values differ: both searches visit the same nodes, and nothing more is said.
        let r = report("a 1\nb 1\n", "a 1\nb 0\n");
        assert_eq!(
            (r.actual_state_in_reference, r.expected_state_in_actual),
            (Some(true), Some(true))
        );
    }

    #[test]
    fn the_first_line_naming_another_state_is_kept_past_value_differences() {
        // Line 1's value differs (an ancestor's), the states part at line 3.
        let r = report("a 1\nb 1\nc 1\n", "a 2\nb 1\nx 1\nc 1\n");
        assert_eq!(r.divergence.as_ref().map(|d| d.line), Some(1));
        assert_eq!(
            r.state_divergence,
            Some(StateDivergence {
                line: 3,
                expected: Some("c".to_string()),
                actual: Some("x".to_string()),
            })
        );
        // A file that ends early parts where it ends.
        let r = report("a 1\nb 1\n", "a 1\n");
        assert_eq!(
            r.state_divergence,
            Some(StateDivergence {
                line: 2,
                expected: Some("b".to_string()),
                actual: None,
            })
        );
        assert_eq!(report("a 1\n", "a 0\n").state_divergence, None);
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
    fn files_take_the_fast_path_when_identical_and_the_full_one_otherwise() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("visited.txt");
        std::fs::write(&path, "a 1\nb 2\n").unwrap();
        let open = || File::open(&path).unwrap();
        let r = compare_file("a 1\nb 2\n", &open(), 1 << 20).unwrap();
        assert_eq!(
            (r.divergence, r.expected_lines, r.actual_lines),
            (None, 2, 2)
        );
        std::fs::write(&path, "a  1\nb 2\n").unwrap();
        assert_eq!(
            compare_file("a 1\nb 2\n", &open(), 1 << 20)
                .unwrap()
                .divergence,
            None
        );
        std::fs::write(&path, "a 1\nb 3\n").unwrap();
        assert_eq!(
            compare_file("a 1\nb 2\n", &open(), 1 << 20)
                .unwrap()
                .divergence
                .unwrap()
                .line,
            2
        );
    }

    #[test]
    fn an_endless_line_is_cut_not_held() {
        let mut actual = vec![b'x'; 1 << 20];
        actual.extend_from_slice(b"\nb 2\n");
        let r = compare_reader("a 1\nb 2\n", actual.as_slice()).unwrap();
        let d = r.divergence.unwrap();
        assert_eq!(d.line, 1);
        assert_eq!(d.actual.unwrap().len(), MAX_LINE);
        // The line after the long one is still line 2, and agrees.
        assert_eq!(r.actual_lines, 2);
        assert_eq!(r.value_differences, 0);
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
