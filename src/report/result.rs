//! The result of grading one submission: what `result.json` holds, and what every report reads.

use serde::{Deserialize, Serialize};

use crate::judge::Verdict;
use crate::suite::{CreditRule, Visibility};

/// One submission, graded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct SubmissionResult {
    pub suite: String,
    pub student: String,
    /// The sandbox tier the runs used.
    pub sandbox: crate::sandbox::Tier,
    pub build: BuildReport,
    pub cases: Vec<CaseResult>,
    pub groups: Vec<GroupScore>,
    pub score: f64,
    pub max: f64,
    /// Groups whose program the submission does not have (Adelaide undergraduates hand in no
    /// `tmmorris`): not run, not scored, and not in `max`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_attempted: Vec<NotAttempted>,
    /// Notes for the instructor from the integrity check (`grade::integrity`): a case whose output
    /// changed when only its file's name and folder did. They never change the score.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub integrity: Vec<IntegrityNote>,
    /// The class tournament `grader run` plays for a suite with `[arena.marks]`: the place and the
    /// marks, counted in `score` (and in `max` unless a bonus).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentMark>,
    /// The row's grade under the course's policy (`course::grade`): its maximum, the late deduction,
    /// the total (or why it is blank), its students. Set by `grader run` once the class is graded;
    /// every report reads the total and maximum through [`SubmissionResult::total`] and
    /// [`SubmissionResult::out_of`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub course: Option<crate::course::grade::Grade>,
}

/// A case whose output depended on the path it was given: the instructor decides what it means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct IntegrityNote {
    /// `group/case`.
    pub case: String,
    /// What changed, in one sentence (anything the program printed is escaped).
    pub what: String,
}

/// A student's part in the class tournament: where it placed and why it got its marks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct TournamentMark {
    /// Null when there is no mark to give: the machine could not build it, or no tournament could be
    /// played (`reason` says which). Never a zero for the machine's fault.
    pub marks: Option<f64>,
    /// The most marks the ranking gives.
    pub max: f64,
    /// The marks are a bonus: in `score`, not in `max`.
    pub bonus: bool,
    /// 1-based, among the `entrants` who played; null for a student who did not play.
    pub rank: Option<usize>,
    pub entrants: usize,
    /// The furthest stage it played (`final`, `stage 1 group 2`, `knockout final`) and its line there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standing: Option<Standing>,
    /// One sentence: why these marks.
    pub reason: String,
    /// The CPU its program used over the tournament's games, milliseconds: a timing, like a case's
    /// (`cargo bench --bench grading -- --floor` counts it in the class's cost). Absent when it played
    /// none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cpu_ms: u64,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A line of the stage table where a student finished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Standing {
    pub stage: String,
    pub points: u32,
    pub games: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    /// Games lost by its own fault (a crash, a timeout, an illegal or malformed move).
    pub faults: u32,
}

/// A group left out because the submission has no program for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct NotAttempted {
    pub group: String,
    /// The program the group runs (`tmmorris`).
    pub program: String,
    /// What was looked for: `no \`tmmorris.py\``.
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct BuildReport {
    pub status: BuildStatus,
    pub language: Option<String>,
    /// The compiler's output (trimmed), or what went wrong.
    pub log: String,
    pub wall_ms: u64,
    /// CPU time the build's programs used (compilers, the interpreter's checks); 0 in a result
    /// written before it was recorded.
    #[serde(default)]
    pub cpu_ms: u64,
    /// The Python interpreter a Python program ran under (path and version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interpreter: Option<crate::build::Interpreter>,
}

/// How a submission's build went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BuildStatus {
    Built,
    CompileError,
    /// No language's files were found.
    NoLanguage,
    /// The machine lacks the toolchain (the machine's fault, not the student's).
    NotGraded,
    /// The grader could not build it (its own fault).
    InternalError,
}

impl BuildStatus {
    /// The word result.json and the class table use (`compile-error`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            BuildStatus::Built => "built",
            BuildStatus::CompileError => "compile-error",
            BuildStatus::NoLanguage => "no-language",
            BuildStatus::NotGraded => "not-graded",
            BuildStatus::InternalError => "internal-error",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct CaseResult {
    pub group: String,
    pub name: String,
    pub visibility: Visibility,
    pub verdict: Verdict,
    /// Fraction of the case earned, 0 to 1 (a recognised variant may earn part or all of it).
    pub credit: f64,
    /// One sentence saying what happened.
    pub summary: String,
    pub details: Vec<String>,
    /// The reference variant the output matched, when one did.
    pub variant: Option<String>,
    /// Trace cases of a search with modes (Adelaide's tic-tac-toe): nodes visited against the
    /// reference, whenever the program wrote a trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<crate::judge::trace::SearchCount>,
    pub cpu_ms: u64,
    pub wall_ms: u64,
    pub peak_memory: Option<u64>,
    /// The CPU limit a run case had, and where it came from (absent for games and position cases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_limit: Option<CpuLimit>,
    /// Set when the case ended near its CPU limit and was run a second time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerun: Option<Rerun>,
    /// Play cases: each game's analysis from the submission's side (its turning point, the wins in
    /// one it missed or let through).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<crate::arena::analysis::GameAnalysis>,
    /// Play cases: the games not played because the first ones ended in the same fault before any
    /// move (`grade::samefault`), each scored as that fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_played: Option<NotPlayed>,
    /// A `review` case (the grader could not follow an interactive program): everything typed and
    /// printed in its first such game, so a person can judge it in a minute (capped, escaped).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    /// A `review` case a person settled (`grader review`): the credit given, why, by whom and when.
    /// The case's `credit` is then this credit, and its group is scored with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled: Option<Settled>,
}

/// A person's word on a `review` case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Settled {
    pub credit: f64,
    pub reason: String,
    pub by: String,
    pub at: String,
}

impl CaseResult {
    /// A `review` case no person has settled yet: its group and the total wait.
    #[must_use]
    pub fn waits_for_review(&self) -> bool {
        self.verdict == Verdict::Review && self.settled.is_none()
    }
}

impl CaseResult {
    /// A case with nothing run yet: an internal error with no credit until something says otherwise.
    #[must_use]
    pub fn unjudged(group: &str, name: &str, visibility: Visibility) -> Self {
        CaseResult {
            group: group.to_string(),
            name: name.to_string(),
            visibility,
            verdict: Verdict::InternalError,
            credit: 0.0,
            summary: String::new(),
            details: Vec::new(),
            variant: None,
            search: None,
            cpu_ms: 0,
            wall_ms: 0,
            peak_memory: None,
            cpu_limit: None,
            rerun: None,
            games: Vec::new(),
            not_played: None,
            transcript: None,
            settled: None,
        }
    }
}

/// The games of a play case that were not played, and the fault they were scored as.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct NotPlayed {
    /// Their numbers, from 1 (game 1 is the first the case asks for).
    pub games: Vec<u32>,
    /// The fault games 1 and 2 ended in, in game 1's words.
    pub fault: String,
}

/// The CPU limit of one run: the suite's (`[limits]`, or the case's own) or a calibrated one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct CpuLimit {
    pub ms: u64,
    /// `suite` or `calibration` (the suite's `calibration.toml` raised it for this language).
    pub from: String,
}

/// A case run twice because its first run ended within 10% of its CPU limit (or over it): the run that
/// used less CPU decides, the first on a tie.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Rerun {
    pub first_cpu_ms: u64,
    pub first_verdict: Verdict,
    pub second_cpu_ms: u64,
    pub second_verdict: Verdict,
    /// `first` or `second`: whose verdict and output the case reports.
    pub kept: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct GroupScore {
    pub name: String,
    pub credit_rule: CreditRule,
    /// Null for a `[[manual]]` column (`credit-rule = "manual"`), which the total leaves out.
    pub points: Option<f64>,
    pub max: f64,
    pub passed: usize,
    pub cases: usize,
}

/// The most characters of one summary or detail kept in `result.json`.
pub const TEXT_CAP: usize = 2000;
/// The most characters of a `review` case's transcript kept in `result.json`.
pub const TRANSCRIPT_CAP: usize = 64 * 1024;
/// The most detail lines of one case kept in `result.json`.
pub const MAX_DETAILS: usize = 100;

/// A name from the file, shown escaped and short.
fn one(name: &str) -> String {
    crate::untrusted::one_line(name, 80)
}

/// Cuts `text` to `max` characters, saying how much was cut.
fn cap(text: &mut String, max: usize) {
    if let Some((at, _)) = text.char_indices().nth(max) {
        let rest = text.len() - at;
        text.truncate(at);
        text.push_str(&format!("… ({rest} more bytes)"));
    }
}

/// The most bytes of one `result.json` read back: a result with its cases' details is a few hundred
/// kilobytes at most.
pub const RESULT_CAP: u64 = 64 << 20;

/// Reads `dir/<key>/result.json` as any file in a results folder is read (no link followed, never
/// blocking, capped) and checks it ([`SubmissionResult::check`]) and that it is `key`'s.
///
/// # Errors
/// Why it cannot be read or is not a valid result of `key`, in words (the caller names the file).
pub fn read_result(dir: &std::path::Path, key: &str) -> Result<SubmissionResult, String> {
    let rel = std::path::Path::new(key).join("result.json");
    let read = crate::untrusted::read_output(dir, &rel, RESULT_CAP).map_err(|e| e.to_string())?;
    if read.truncated {
        return Err(format!(
            "larger than the {RESULT_CAP} bytes a result may be"
        ));
    }
    let r: SubmissionResult =
        serde_json::from_slice(&read.bytes).map_err(|e| format!("not a result: {e}"))?;
    r.check()
        .map_err(|why| format!("not a valid result: {why}"))?;
    if r.student != key {
        return Err(format!(
            "the result of `{}`, not of `{key}`",
            crate::untrusted::one_line(&r.student, 80)
        ));
    }
    Ok(r)
}

/// The longest time a result may give (a hundred days, in ms): far past any run, and what keeps a
/// class's sum of times (every export adds them up) from overflowing.
const MAX_MS: u64 = 10_000_000_000;
/// The most cases one result may hold.
const MAX_CASES: usize = 1_000_000;

/// `x` is a number of points: finite, not negative, at most `max` (with a rounding's slack).
fn points_in(what: &str, x: f64, max: f64) -> Result<(), String> {
    if !x.is_finite() || x < 0.0 || x > max + 1e-6 {
        return Err(format!("{what} is {x}, not a number from 0 to {max}"));
    }
    Ok(())
}

impl SubmissionResult {
    /// How long grading it took its programs: the build's wall time and every case's, in ms.
    #[must_use]
    pub fn wall_ms(&self) -> u64 {
        self.cases
            .iter()
            .fold(self.build.wall_ms, |sum, c| sum.saturating_add(c.wall_ms))
    }

    /// Checks a result read back before anything uses it: its suite and student plain names (they
    /// become folder names), every number finite and in its range (a score of `NaN`, `-5` or more than
    /// its maximum is a tampered file, never a grade), every count consistent.
    ///
    /// # Errors
    /// The first thing wrong, in words.
    pub fn check(&self) -> Result<(), String> {
        crate::untrusted::plain_name(&self.suite)?;
        crate::untrusted::plain_name(&self.student)?;
        points_in("the maximum", self.max, f64::MAX)?;
        let bonus = self
            .tournament
            .as_ref()
            .filter(|t| t.bonus)
            .map_or(0.0, |t| t.max);
        points_in("the score", self.score, self.max + bonus)?;
        if self.cases.len() > MAX_CASES {
            return Err(format!(
                "{} cases, more than any suite has",
                self.cases.len()
            ));
        }
        if self.build.wall_ms > MAX_MS || self.build.cpu_ms > MAX_MS {
            return Err(format!(
                "the build took {} ms",
                self.build.wall_ms.max(self.build.cpu_ms)
            ));
        }
        for c in &self.cases {
            points_in(&format!("case `{}`'s credit", one(&c.name)), c.credit, 1.0)?;
            if c.wall_ms > MAX_MS || c.cpu_ms > MAX_MS {
                return Err(format!(
                    "case `{}` took {} ms",
                    one(&c.name),
                    c.wall_ms.max(c.cpu_ms)
                ));
            }
        }
        for g in &self.groups {
            points_in(
                &format!("group `{}`'s maximum", one(&g.name)),
                g.max,
                f64::MAX,
            )?;
            if let Some(p) = g.points {
                points_in(&format!("group `{}`'s points", one(&g.name)), p, g.max)?;
            }
            if g.passed > g.cases {
                return Err(format!(
                    "group `{}` passed {} of {} cases",
                    one(&g.name),
                    g.passed,
                    g.cases
                ));
            }
        }
        if let Some(t) = &self.tournament {
            points_in("the tournament's maximum", t.max, f64::MAX)?;
            if let Some(m) = t.marks {
                points_in("the tournament's marks", m, t.max)?;
            }
            if t.rank.is_some_and(|k| k == 0 || k > t.entrants) {
                return Err(format!("a tournament place out of {} entrants", t.entrants));
            }
        }
        Ok(())
    }

    /// Cases that did not earn full credit.
    pub fn failures(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases.iter().filter(|c| c.credit < 1.0)
    }

    /// Why the submission could not be graded on this machine (a missing toolchain), if so.
    pub fn not_graded(&self) -> Option<&str> {
        if self.build.status == BuildStatus::NotGraded {
            return Some(&self.build.log);
        }
        self.cases
            .iter()
            .find(|c| c.verdict == Verdict::NotGraded)
            .map(|c| c.summary.as_str())
    }

    /// The row's total as the gradebook shows it: the course's grade when applied (null when a person
    /// must decide), else the score, null when the machine could not grade it.
    #[must_use]
    pub fn total(&self) -> Option<f64> {
        match &self.course {
            Some(g) => g.total,
            None => {
                (self.not_graded().is_none() && self.needs_review().is_none()).then_some(self.score)
            }
        }
    }

    /// The most this row can get: the course's maximum when applied, else the suite's.
    #[must_use]
    pub fn out_of(&self) -> f64 {
        self.course.as_ref().map_or(self.max, |g| g.max)
    }

    /// Why a person must look before the submission has a total (a case the grader could not follow,
    /// `Verdict::Review`): `group/case: summary` of the first such case.
    pub fn needs_review(&self) -> Option<String> {
        self.cases.iter().find(|c| c.waits_for_review()).map(|c| {
            let why = c
                .summary
                .strip_prefix("needs review: ")
                .unwrap_or(&c.summary);
            format!("{}/{}: {why}", c.group, c.name)
        })
    }

    /// Settles each `review` case as `settlements` (by `group/case`) says, and scores the groups of
    /// the review cases again: a settled case earns its credit, one not (or no longer) settled none.
    /// The score follows its groups.
    pub fn settle(
        &mut self,
        settlements: &std::collections::BTreeMap<String, crate::marks::Settlement>,
    ) {
        let mut touched: Vec<String> = Vec::new();
        for c in self
            .cases
            .iter_mut()
            .filter(|c| c.verdict == Verdict::Review)
        {
            let given = settlements.get(&format!("{}/{}", c.group, c.name));
            c.settled = given.map(|s| Settled {
                credit: s.credit,
                reason: s.reason.clone(),
                by: s.stamp.by.clone(),
                at: s.stamp.at.to_string(),
            });
            c.credit = given.map_or(0.0, |s| s.credit.clamp(0.0, 1.0));
            if !touched.contains(&c.group) {
                touched.push(c.group.clone());
            }
        }
        for g in self.groups.iter_mut().filter(|g| touched.contains(&g.name)) {
            let credits: Vec<f64> = self
                .cases
                .iter()
                .filter(|c| c.group == g.name)
                .map(|c| c.credit)
                .collect();
            g.passed = credits.iter().filter(|c| **c >= 1.0).count();
            g.points = Some((g.max * g.credit_rule.fraction(&credits) * 100.0).round() / 100.0);
        }
        if !touched.is_empty() {
            let total: f64 = self
                .groups
                .iter()
                .filter(|g| g.credit_rule != CreditRule::Manual)
                .filter_map(|g| g.points)
                .sum::<f64>()
                + self
                    .tournament
                    .as_ref()
                    .and_then(|t| t.marks)
                    .unwrap_or(0.0);
            self.score = (total * 100.0).round() / 100.0;
        }
    }

    /// Whether any case hit the grader's own fault.
    pub fn has_internal_error(&self) -> bool {
        self.build.status == BuildStatus::InternalError
            || self
                .cases
                .iter()
                .any(|c| c.verdict == Verdict::InternalError)
    }

    /// The result as pretty JSON with a final newline. Text that may quote a program (summaries,
    /// details, the build log) is capped, so no submission can make a result file huge.
    pub fn to_json(&self) -> String {
        let mut capped = self.clone();
        cap(&mut capped.build.log, TEXT_CAP * 8);
        for c in &mut capped.cases {
            cap(&mut c.summary, TEXT_CAP);
            if c.details.len() > MAX_DETAILS {
                let cut = c.details.len() - MAX_DETAILS;
                c.details.truncate(MAX_DETAILS);
                c.details.push(format!("… ({cut} more lines)"));
            }
            for d in &mut c.details {
                cap(d, TEXT_CAP);
            }
            if let Some(t) = &mut c.transcript {
                cap(t, TRANSCRIPT_CAP);
            }
        }
        let mut bytes = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut bytes, SafePretty::default());
        capped.serialize(&mut ser).expect("results serialize");
        let mut text = String::from_utf8(bytes).expect("JSON is UTF-8");
        text.push('\n');
        text
    }
}

/// serde_json's pretty printer, except that C1 controls (U+0080 to U+009F: CSI is U+009B), the
/// bidirectional controls and the line separators (`untrusted::is_hidden`) are written as `\uXXXX`
/// escapes too: serde escapes only C0 controls, and a terminal showing `result.json` must not act on
/// what a program printed. The JSON means the same.
#[derive(Default)]
struct SafePretty(serde_json::ser::PrettyFormatter<'static>);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(fn $name<W: ?Sized + std::io::Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> std::io::Result<()> {
            self.0.$name(w $(, $arg)*)
        })*
    };
}

impl serde_json::ser::Formatter for SafePretty {
    delegate!(
        begin_array(),
        end_array(),
        begin_array_value(first: bool),
        end_array_value(),
        begin_object(),
        end_object(),
        begin_object_key(first: bool),
        begin_object_value(),
        end_object_value(),
    );

    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (at, c) in fragment.char_indices() {
            // serde escapes the C0 controls itself.
            let hidden = !c.is_ascii() && crate::untrusted::is_hidden(c);
            if hidden {
                w.write_all(&fragment.as_bytes()[start..at])?;
                write!(w, "\\u{:04x}", u32::from(c))?;
                start = at + c.len_utf8();
            }
        }
        w.write_all(&fragment.as_bytes()[start..])
    }
}

/// Results made up by hand, for the tests of what reads them.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::{BuildReport, BuildStatus, CaseResult, SubmissionResult};
    use crate::judge::Verdict;
    use crate::suite::Visibility;

    /// Case `c` of `group`, public, with this verdict and credit and nothing else.
    pub fn case(group: &str, verdict: Verdict, credit: f64) -> CaseResult {
        CaseResult {
            verdict,
            credit,
            ..CaseResult::unjudged(group, "c", Visibility::Public)
        }
    }

    /// `student`'s built submission to suite `s`, unsandboxed, with these cases and no score.
    pub fn submission(student: &str, cases: Vec<CaseResult>) -> SubmissionResult {
        SubmissionResult {
            suite: "s".into(),
            student: student.into(),
            sandbox: crate::sandbox::Tier::None,
            build: BuildReport {
                status: BuildStatus::Built,
                language: None,
                log: String::new(),
                wall_ms: 0,
                cpu_ms: 0,
                interpreter: None,
            },
            cases,
            groups: Vec::new(),
            score: 0.0,
            max: 0.0,
            not_attempted: Vec::new(),
            integrity: Vec::new(),
            tournament: None,
            course: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_hides_c1_controls_and_caps_what_a_program_printed() {
        let case = CaseResult {
            summary: format!("got \u{9b}2J\u{202e}\x1b{}", "A".repeat(65536)),
            details: vec!["d".into(); 500],
            ..fixtures::case("g", Verdict::WrongAnswer, 0.0)
        };
        let r = SubmissionResult {
            sandbox: crate::sandbox::Tier::Full,
            max: 1.0,
            ..fixtures::submission("st", vec![case])
        };
        let json = r.to_json();
        assert!(!json.contains(['\u{9b}', '\u{202e}', '\x1b']), "{json}");
        assert!(json.len() < 20_000, "{}", json.len());
        let back: SubmissionResult = serde_json::from_str(&json).unwrap();
        let summary = &back.cases[0].summary;
        assert!(
            summary.starts_with("got \u{9b}2J\u{202e}\x1bAAA"),
            "{summary}"
        );
        assert!(summary.ends_with(" more bytes)"), "{summary}");
        assert_eq!(back.cases[0].details.len(), MAX_DETAILS + 1);
    }
}

/// A file a case produced beside `result.json` (game records, transcripts), to be saved by whoever
/// writes the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    /// Relative to the student's results folder (`games/vs-random-1.json`).
    pub path: std::path::PathBuf,
    pub bytes: Vec<u8>,
}
