//! Runs one case of a suite on a built program through the sandbox, and judges what it produced.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::judge::excerpt::{self, Folders};
use crate::judge::trace::{self, SearchCount};
use crate::judge::{Comparator, Judged, Mismatch, Verdict};
use crate::report::result::{CaseResult, CpuLimit};
use crate::sandbox::{LimitHit, Outcome, Sandbox, Spec, Status, Stdin};
use crate::suite::{Case, Expect, Group, Run, Suite};
use crate::untrusted::{self, OutputFileError};

use super::names::{concrete_args, Names, REFERENCE_WORK};

/// A built submission, ready to run.
#[derive(Clone, Debug)]
pub struct Program {
    pub language: String,
    /// The built copy of the submission (read-only to the runs).
    pub dir: PathBuf,
    /// The command, `{dir}` already substituted.
    pub command: Vec<String>,
    /// Whether RLIMIT_AS may be applied.
    pub address_space: bool,
}

impl Program {
    /// The same program as the arena's seats run it.
    #[must_use]
    pub fn built(&self) -> crate::build::Built {
        crate::build::Built {
            language: self.language.clone(),
            dir: self.dir.clone(),
            command: self.command.clone(),
            log: String::new(),
            outcome: None,
            address_space: self.address_space,
            interpreter: None,
        }
    }
}

/// A result for `case` with nothing run yet: an internal error until something says otherwise.
#[must_use]
pub fn blank(group: &Group, case: &Case) -> CaseResult {
    CaseResult::unjudged(&group.name, &case.name, case.visibility)
}

/// The CPU limit a `language` program's run of `case` gets: the case's own (the suite's `[limits]`
/// unless the case sets one), raised by the suite's `calibration.toml` for that language.
#[must_use]
pub fn cpu_limit(suite: &Suite, case: &Case, language: &str) -> CpuLimit {
    let own = case.limits.cpu;
    match suite.calibration.as_ref().and_then(|c| c.cpu_for(language)) {
        Some(calibrated) if calibrated > own => CpuLimit {
            ms: calibrated.as_millis() as u64,
            from: "calibration".to_string(),
        },
        _ => CpuLimit {
            ms: own.as_millis() as u64,
            from: "suite".to_string(),
        },
    }
}

/// The CPU the sandbox lets a run use before stopping it: above the limit, so that the verdict is the
/// grader's precise measurement (the cgroup's, or the reaped process's) against the limit, never the
/// kernel's RLIMIT_CPU alone. That one counts CPU in scheduler ticks, which on a busy machine charge a
/// process whole ticks it only partly ran: it can send SIGXCPU at "5 s" when 4.77 s was measured.
/// (The sandbox rounds RLIMIT_CPU up to whole seconds, so the kernel's limit is higher still.)
#[must_use]
pub fn backstop(limit: Duration) -> Duration {
    limit + (limit / 10).max(Duration::from_millis(500))
}

/// Whether a first run's result is worth a second: accepted within 10% of its CPU limit, or any time
/// limit (over it, or stopped by the kernel's backstop). A machine busy with other runs can push a
/// correct program over; one more run on a (hopefully) quieter moment decides.
#[must_use]
pub fn needs_rerun(result: &CaseResult) -> bool {
    let Some(limit) = &result.cpu_limit else {
        return false;
    };
    match result.verdict {
        Verdict::TimeLimit => true,
        Verdict::Accepted => result.cpu_ms * 10 >= limit.ms * 9,
        _ => false,
    }
}

/// Whether a time-limited run used its CPU far past the limit: at least three quarters of the way from
/// the limit to the [`backstop`] (10.75 s for a 10 s limit), beyond what a busy machine adds to a run's
/// CPU time.
#[must_use]
pub fn far_over(verdict: Verdict, cpu_ms: u64, limit: &CpuLimit) -> bool {
    let limit_ms = limit.ms;
    let margin = backstop(Duration::from_millis(limit_ms)).as_millis() as u64 - limit_ms;
    verdict == Verdict::TimeLimit && cpu_ms >= limit_ms + margin * 3 / 4
}

/// Whether both runs of a case run twice were far over its limit ([`far_over`]): the machine does not
/// explain that program's time, and its later cases over the limit are not run twice (the pipeline).
#[must_use]
pub fn over_twice(result: &CaseResult) -> bool {
    match (&result.rerun, &result.cpu_limit) {
        (Some(r), Some(limit)) => {
            far_over(r.first_verdict, r.first_cpu_ms, limit)
                && far_over(r.second_verdict, r.second_cpu_ms, limit)
        }
        _ => false,
    }
}

/// Of two runs of one case, the one that used less CPU decides (the first on a tie): a deterministic
/// rule that never lets the machine's slow moment cost the student. The kept result says it was rerun.
#[must_use]
pub fn keep_faster(first: CaseResult, second: CaseResult) -> CaseResult {
    let rerun = crate::report::result::Rerun {
        first_cpu_ms: first.cpu_ms,
        first_verdict: first.verdict,
        second_cpu_ms: second.cpu_ms,
        second_verdict: second.verdict,
        kept: if second.cpu_ms < first.cpu_ms {
            "second"
        } else {
            "first"
        }
        .to_string(),
    };
    let mut kept = if second.cpu_ms < first.cpu_ms {
        second
    } else {
        first
    };
    kept.rerun = Some(rerun);
    kept
}

/// Runs and judges one case, its files given `names`; also returns what the run printed (for the
/// integrity check). `scratch` is a fresh folder this case may use and that is removed after.
pub fn run_case(
    sandbox: &dyn Sandbox,
    suite: &Suite,
    group: &Group,
    case: &Case,
    program: &Program,
    scratch: &Path,
    names: &Names,
) -> (CaseResult, Vec<u8>) {
    let cpu = cpu_limit(suite, case, &program.language);
    let mut limits = case.limits.clone();
    limits.cpu = Duration::from_millis(cpu.ms);
    if cpu.from == "calibration" {
        // A raised CPU limit is only worth anything with the wall time to spend it.
        limits.wall = limits.wall.max(limits.cpu * 2);
    }
    run_case_within(
        sandbox, suite, group, case, program, scratch, limits, cpu.from, names,
    )
}

/// [`run_case`] with the limits given: `limits.cpu` is the limit judged (`from` says whose it is),
/// the sandbox stopping the run only at its [`backstop`]. `grader calibrate` gives references room.
#[allow(clippy::too_many_arguments)]
pub fn run_case_within(
    sandbox: &dyn Sandbox,
    suite: &Suite,
    group: &Group,
    case: &Case,
    program: &Program,
    scratch: &Path,
    mut limits: crate::sandbox::Limits,
    from: String,
    names: &Names,
) -> (CaseResult, Vec<u8>) {
    let mut result = blank(group, case);
    let Some(run) = case.run() else {
        result.summary = format!("a `{}` case cannot run as a run case", case.kind.word());
        return (result, Vec::new());
    };
    let work = scratch.join(&names.work);
    if let Err(e) = std::fs::create_dir_all(&work) {
        result.summary = format!("the grader could not make a work folder: {e}");
        return (result, Vec::new());
    }
    let Some(program_name) = program.command.first() else {
        result.summary = "the grader has no command to run this program".to_string();
        return (result, Vec::new());
    };
    let work_text = work.display().to_string();
    let mut args: Vec<OsString> = program.command[1..].iter().map(OsString::from).collect();
    args.extend(
        names
            .args(&run.args, &work_text)
            .into_iter()
            .map(OsString::from),
    );
    let limit = limits.cpu;
    result.cpu_limit = Some(CpuLimit {
        ms: limit.as_millis() as u64,
        from,
    });
    let judged = limits.clone();
    limits.cpu = backstop(limit);
    limits.address_space = program.address_space.then_some(limits.memory);
    let spec = Spec {
        program: OsString::from(program_name),
        args,
        workdir: work.clone(),
        env: Vec::new(),
        stdin: run.stdin.clone().map_or(Stdin::Null, Stdin::Bytes),
        limits,
        read_only: vec![program.dir.clone()],
    };
    let outcome = match sandbox.run(&spec) {
        Ok(o) => o,
        Err(e) => {
            result.summary = format!("the grader could not run your program: {e}");
            result.details = crate::error::causes(&e)
                .map(|s| format!("caused by: {s}"))
                .collect();
            return (result, Vec::new());
        }
    };
    result.cpu_ms = crate::units::nearest_ms(outcome.cpu);
    result.wall_ms = crate::units::nearest_ms(outcome.wall);
    result.peak_memory = outcome.peak_memory;
    if let Some((verdict, summary)) = run_failure(&outcome, &judged) {
        result.verdict = verdict;
        result.summary = summary;
        let folders = Folders::new([program.dir.as_path(), scratch]);
        result.details = stderr_tail(&outcome.stderr, &folders);
        return (result, outcome.stdout);
    }
    let judged = judge_outputs(suite, case, run, &outcome.stdout, &work, names);
    result.verdict = judged.verdict;
    result.credit = judged.credit;
    result.summary = judged.summary;
    result.details = judged.details;
    result.variant = judged.variant;
    result.search = judged.search;
    (result, outcome.stdout)
}

/// The verdict when the run itself failed, in precedence order: limits, then crashes. `l` are the
/// limits judged (the sandbox itself stopped the run only at the CPU [`backstop`]).
fn run_failure(outcome: &Outcome, l: &crate::sandbox::Limits) -> Option<(Verdict, String)> {
    if let Some(by_limit) = limit_failure(outcome, l) {
        return Some(by_limit);
    }
    let cpu = l.cpu;
    let used = outcome.cpu;
    if outcome.stdout_truncated {
        return Some((
            Verdict::OutputLimit,
            format!(
                "your program printed more than {} to stdout",
                size(l.output)
            ),
        ));
    }
    // It ended by itself, but past its limit (the sandbox lets it run on to the backstop).
    if used > cpu {
        return Some((Verdict::TimeLimit, over_cpu(used, cpu, "")));
    }
    exit_failure(outcome, l)
}

/// The verdict of a run the sandbox stopped at one of its limits.
fn limit_failure(outcome: &Outcome, l: &crate::sandbox::Limits) -> Option<(Verdict, String)> {
    let cpu = l.cpu;
    let used = outcome.cpu;
    match outcome.limit {
        Some(LimitHit::Memory) => Some((
            Verdict::MemoryLimit,
            format!(
                "your program used more than the {} memory limit",
                size(l.memory)
            ),
        )),
        Some(LimitHit::Cpu) if used >= cpu => {
            Some((Verdict::TimeLimit, over_cpu(used, cpu, " and was stopped")))
        }
        // The sandbox saw more than its last measurement shows: say both, never "more than" beside
        // a smaller number.
        Some(LimitHit::Cpu) => Some((
            Verdict::TimeLimit,
            format!(
                "your program was stopped at its {} CPU limit; the grader measured {} of CPU time",
                secs(cpu, cpu),
                secs(used, cpu)
            ),
        )),
        Some(LimitHit::Wall) => Some((
            Verdict::WallTimeLimit,
            format!(
                "your program was still running at the {} wall-time limit, having used {} of CPU time (is it waiting for input, or sleeping?)",
                secs(l.wall, l.wall),
                secs(used, cpu)
            ),
        )),
        Some(LimitHit::Idle) => Some((
            Verdict::Idle,
            format!(
                "your program used no CPU for {}, asleep: it is waiting for something that will not come (a long sleep, a lock or a child that never answers); stopped before the {} wall-time limit",
                secs(l.idle.unwrap_or_default(), l.wall),
                secs(l.wall, l.wall)
            ),
        )),
        Some(LimitHit::Output) => Some((
            Verdict::OutputLimit,
            format!(
                "your program printed more than {} to stdout",
                size(l.output)
            ),
        )),
        Some(LimitHit::Stderr) => Some((
            Verdict::OutputLimit,
            format!(
                "your program wrote more than {} to stderr (the file-size limit) and was stopped there; the first {} are kept",
                size(l.file_size),
                size(l.output)
            ),
        )),
        None => None,
    }
}

/// The verdict of a run that ended by itself within its limits: by its exit status or signal.
fn exit_failure(outcome: &Outcome, l: &crate::sandbox::Limits) -> Option<(Verdict, String)> {
    let (cpu, used) = (l.cpu, outcome.cpu);
    match outcome.status {
        Status::Exited(0) => None,
        // SIGXCPU under the limit: the kernel's tick-counted RLIMIT_CPU fired first; say both numbers.
        Status::Signaled(libc::SIGXCPU) => Some((
            Verdict::TimeLimit,
            format!(
                "the kernel stopped your program for CPU time (SIGXCPU) when the grader had measured {} of CPU time, under the {} limit",
                secs(used, cpu),
                secs(cpu, cpu)
            ),
        )),
        Status::Signaled(libc::SIGXFSZ) => Some((
            Verdict::OutputLimit,
            format!(
                "your program wrote a file larger than {}",
                size(l.file_size)
            ),
        )),
        Status::Signaled(sig) => Some((
            Verdict::RuntimeError,
            format!("your program crashed with {}", signal_name(sig)),
        )),
        Status::Exited(code) => Some((
            Verdict::RuntimeError,
            format!("your program exited with status {code} (a correct run exits with 0)"),
        )),
    }
}

/// "your program used 5.31 s of CPU time, over the 5 s limit": the measurement, then the limit.
fn over_cpu(used: Duration, limit: Duration, how: &str) -> String {
    format!(
        "your program used {} of CPU time, over the {} limit{how}",
        secs(used, limit),
        secs(limit, limit)
    )
}

/// Seconds as people read them: `5 s`, `0.3 s`, `5.31 s` (at most two decimals), or three when two
/// would print the same number as `beside` (`5.004 s` beside a 5 s limit, never `5 s`).
pub fn secs(d: Duration, beside: Duration) -> String {
    let short = |d: Duration| {
        let text = format!("{:.2}", d.as_secs_f64());
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    if d != beside && short(d) == short(beside) {
        format!("{:.3} s", d.as_secs_f64())
    } else {
        format!("{} s", short(d))
    }
}

fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGSEGV => {
            "SIGSEGV (a segmentation fault: a bad pointer or array index, or a stack overflow)"
        }
        libc::SIGABRT => "SIGABRT (an abort: a failed assertion or an uncaught exception)",
        libc::SIGFPE => "SIGFPE (an arithmetic error such as division by zero)",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        _ => return format!("signal {sig}"),
    };
    name.to_string()
}

fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{}G", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{}M", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{}K", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The last lines of stderr, which usually say why a program failed: whole (a traceback's line number
/// is in its last lines), with the run's folders (`folders`) written relative to the student's.
fn stderr_tail(stderr: &[u8], folders: &Folders) -> Vec<String> {
    let text = folders.relative(&String::from_utf8_lossy(stderr));
    let lines = excerpt::why_lines(&text, excerpt::LINES);
    if lines.is_empty() {
        return Vec::new();
    }
    let mut out = vec!["stderr (last lines):".to_string()];
    out.extend(lines.iter().map(|l| format!("  {l}")));
    out
}

/// Compares stdout and every expected file; the first failing output decides the sentence. A trace
/// of a search with modes brings its nodes-visited count.
fn judge_outputs(
    suite: &Suite,
    case: &Case,
    run: &Run,
    stdout: &[u8],
    work: &Path,
    names: &Names,
) -> Judged {
    let mut search = None;
    let mut judged = judge_all(suite, case, run, stdout, work, names, &mut search);
    judged.search = search;
    judged
}

fn judge_all(
    suite: &Suite,
    case: &Case,
    run: &Run,
    stdout: &[u8],
    work: &Path,
    names: &Names,
    search: &mut Option<SearchCount>,
) -> Judged {
    if let Some(expect) = &run.stdout {
        if let Some(mut m) = expect.comparator.compare(expect.text.as_bytes(), stdout) {
            let wanted = expect.text.trim();
            let printed = String::from_utf8_lossy(stdout);
            if !wanted.is_empty()
                && printed.lines().count() > 1
                && printed.lines().any(|l| l.trim() == wanted)
            {
                m.details.insert(
                    0,
                    "your output contains the expected line among others: print only that (debug output belongs on stderr)".to_string(),
                );
            }
            if wanted.is_empty() && !printed.trim().is_empty() {
                // The Adelaide rule "no further moves: print nothing, write nothing" (INDEX.md) is the
                // common case; say it in those words rather than "expected nothing".
                let first = printed
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or_default();
                m.summary = format!(
                    "you printed `{}`, but no move is possible from this board: print nothing and write nothing",
                    crate::judge::show(first.trim())
                );
            }
            // A wrong board often comes from a recognisable search: if a file is a named variant whose
            // own board is the one printed, the variant explains the whole case.
            if let Some(judged) = explained_by_variant(
                suite, case, run, expect, stdout, work, names, &mut m, search,
            ) {
                return judged;
            }
            return Judged::wrong(format!("stdout: {}", m.summary), m.details);
        }
    }
    let mut credit: f64 = 1.0;
    let mut notes = Vec::new();
    let mut variant_seen = None;
    for (name, expect) in &run.files {
        match judge_file(suite, case, run, name, expect, work, names, search) {
            FileJudgement::Pass => {}
            FileJudgement::Fail(m) => {
                return Judged::wrong(format!("`{name}`: {}", m.summary), m.details)
            }
            FileJudgement::Internal(why) => return Judged::only(Verdict::InternalError, why),
            FileJudgement::Refused(why) => return Judged::wrong(why, Vec::new()),
            FileJudgement::Variant {
                name: vname,
                credit: c,
                summary,
                details,
                ..
            } => {
                credit = credit.min(c);
                if c < 1.0 {
                    return Judged {
                        verdict: Verdict::WrongAnswer,
                        credit: c,
                        summary: format!("`{name}`: {summary}"),
                        details,
                        variant: Some(vname),
                        search: None,
                    };
                }
                notes.push(format!("`{name}`: {summary}"));
                notes.extend(details);
                variant_seen = Some(vname);
            }
        }
    }
    let summary = match notes.first() {
        Some(first) => format!("accepted; {first}"),
        None => "accepted".to_string(),
    };
    Judged {
        verdict: Verdict::Accepted,
        credit,
        summary,
        details: notes.into_iter().skip(1).collect(),
        variant: variant_seen,
        search: None,
    }
}

/// When stdout is wrong: a file that is a named variant, and the variant's board equals what was
/// printed, gives the variant's verdict; a variant whose board differs is added to the details.
#[allow(clippy::too_many_arguments)]
fn explained_by_variant(
    suite: &Suite,
    case: &Case,
    run: &Run,
    stdout_expect: &Expect,
    stdout: &[u8],
    work: &Path,
    names: &Names,
    m: &mut Mismatch,
    search: &mut Option<SearchCount>,
) -> Option<Judged> {
    for (name, expect) in &run.files {
        let FileJudgement::Variant {
            name: vname,
            credit,
            summary,
            plain,
            details,
        } = judge_file(suite, case, run, name, expect, work, names, search)
        else {
            continue;
        };
        let program = expect.reference.as_deref()?;
        let args = concrete_args(&run.args, REFERENCE_WORK);
        let board = suite.variant_output(program, &args, &vname).ok()??;
        if stdout_expect
            .comparator
            .compare(board.stdout.as_bytes(), stdout)
            .is_none()
        {
            let verdict = if credit >= 1.0 {
                Verdict::Accepted
            } else {
                Verdict::WrongAnswer
            };
            let mut details = details;
            details.push(format!(
                "stdout: {} (the board this variant chooses)",
                m.summary
            ));
            let summary = format!("`{name}` and stdout: {summary}");
            let summary = if credit >= 1.0 {
                format!("accepted; {summary}")
            } else {
                summary
            };
            return Some(Judged {
                verdict,
                credit,
                summary,
                details,
                variant: Some(vname),
                search: None,
            });
        }
        // The case fails on stdout whatever the trace is: say what the trace is without a note that
        // speaks of its credit ("full credit"), and that it earned nothing here.
        let what = if credit >= 1.0 { plain } else { summary };
        m.details.push(format!(
            "`{name}`: {what}; not scored: the case failed on stdout"
        ));
    }
    None
}

/// Whether a run's output file, already opened through the one door for a run's files (no link, a
/// regular file), is empty or only whitespace.
fn holds_nothing(file: &std::fs::File) -> bool {
    const CAP: u64 = 4096;
    let mut bytes = Vec::new();
    // Read one byte past the cap: a file longer than it holds something by definition.
    match file.take(CAP + 1).read_to_end(&mut bytes) {
        Ok(n) => n as u64 <= CAP && bytes.iter().all(u8::is_ascii_whitespace),
        Err(_) => false,
    }
}

enum FileJudgement {
    Pass,
    Fail(Mismatch),
    Variant {
        name: String,
        credit: f64,
        summary: String,
        /// The summary without the suite's note (which may speak of credit).
        plain: String,
        details: Vec<String>,
    },
    Internal(String),
    /// The file is not one the grader reads (a link, a FIFO, too large): the message says why.
    Refused(String),
}

/// A file the run left that the grader refuses to read: the submission's doing (a link, a FIFO, a
/// folder made unreadable or replaced), so a wrong answer for this case whose first line is the reason;
/// only the machine running short (descriptors, memory, a disk error) is the grader's. The message
/// names the file as the suite does (`name`), not by this run's unpredictable `actual` name.
fn refused(e: OutputFileError, name: &str, actual: &str) -> FileJudgement {
    match e {
        OutputFileError::Io { ref source, .. }
            if matches!(
                source.raw_os_error(),
                Some(libc::EMFILE | libc::ENFILE | libc::ENOMEM | libc::EIO | libc::EINTR)
            ) =>
        {
            FileJudgement::Internal(format!("the grader could not read a file: {e}"))
        }
        e => FileJudgement::Refused(e.to_string().replace(actual, name)),
    }
}

#[allow(clippy::too_many_arguments)]
fn judge_file(
    suite: &Suite,
    case: &Case,
    run: &Run,
    name: &str,
    expect: &Expect,
    work: &Path,
    names: &Names,
    search: &mut Option<SearchCount>,
) -> FileJudgement {
    let file = match open_judged(case, name, expect, work, names) {
        Ok(Some(file)) => file,
        Ok(None) => return FileJudgement::Pass,
        Err(judgement) => return judgement,
    };
    let cap = case.limits.file_size;
    let (mismatch, golden_line) = match compare_golden(suite, run, name, expect, &file, cap, search)
    {
        Ok(Some(compared)) => compared,
        Ok(None) => return FileJudgement::Pass,
        Err(judgement) => return judgement,
    };
    // Only now, the golden comparison having failed, are the named variants computed.
    let closer = match judge_variants(suite, run, expect, &file, cap, &mismatch, golden_line) {
        Ok(closer) => closer,
        Err(judgement) => return judgement,
    };
    if let Some((v, m)) = closer {
        let mut details = m.details;
        details.push(format!("against the expected trace: {}", mismatch.summary));
        return FileJudgement::Fail(Mismatch {
            summary: format!(
                "your trace is written as the `{}` variant ({}), and differs from it: {}",
                v.name, v.description, m.summary
            ),
            details,
        });
    }
    FileJudgement::Fail(mismatch)
}

/// The output file the run left, opened to be compared: `Ok(None)` when the case expects nothing and
/// got nothing (a pass), `Err` with the judgement when there is nothing to compare.
fn open_judged(
    case: &Case,
    name: &str,
    expect: &Expect,
    work: &Path,
    names: &Names,
) -> Result<Option<std::fs::File>, FileJudgement> {
    let actual = names.actual(name);
    let expect_nothing = expect.text.trim().is_empty();
    // Everything the run left is hostile: opened without following links, never blocking, a regular
    // file only, and read no further than the largest file the run was allowed to write.
    let cap = case.limits.file_size;
    let file = match untrusted::open_output(work, Path::new(actual)) {
        Ok(f) => Some(f),
        Err(OutputFileError::Missing { .. }) => None,
        Err(e) => return Err(refused(e, name, actual)),
    };
    let written = match file.as_ref().map(std::fs::File::metadata).transpose() {
        Ok(m) => m.map(|m| m.len()),
        Err(e) => {
            return Err(FileJudgement::Internal(format!(
                "the grader could not read `{name}`: {e}"
            )))
        }
    };
    match (expect_nothing, written) {
        // "No further moves: print nothing, write nothing" (INDEX.md; handout: "not print or write
        // anything"). Decided once for tic-tac-toe and Morris: a file with nothing in it (or only
        // whitespace) is writing nothing; any content is something (suite README, "No move possible").
        (true, None) => Ok(None),
        (true, Some(_)) if file.as_ref().is_some_and(holds_nothing) => Ok(None),
        (true, Some(bytes)) => Err(FileJudgement::Fail(Mismatch {
            summary: format!(
                "you created `{name}` ({bytes} bytes), but no move is possible from this board: create no file"
            ),
            details: vec!["check for a finished board before opening the output file".to_string()],
        })),
        (false, None) => {
            let given = if names.renamed(name) {
                format!(", this time `{}/{actual}`: the grader gives each run its own name", names.work)
            } else {
                String::new()
            };
            Err(FileJudgement::Fail(Mismatch {
                summary: format!("you did not write `{name}` (it must be created at the path given on the command line{given})"),
                details: Vec::new(),
            }))
        }
        (false, Some(bytes)) if bytes > cap => Err(refused(
            OutputFileError::TooLarge {
                name: name.to_string(),
                cap,
            },
            name,
            actual,
        )),
        (false, Some(_)) => Ok(file),
    }
}

/// The file against the golden output: `Ok(None)` when it matches, else the mismatch and the golden
/// trace's line where the two first part ways (0: no trace comparison). Counts the search's nodes.
fn compare_golden(
    suite: &Suite,
    run: &Run,
    name: &str,
    expect: &Expect,
    file: &std::fs::File,
    cap: u64,
    search: &mut Option<SearchCount>,
) -> Result<Option<(Mismatch, u64)>, FileJudgement> {
    if expect.comparator != Comparator::Trace {
        let mut bytes = Vec::new();
        if let Err(e) = file.take(cap).read_to_end(&mut bytes) {
            return Err(FileJudgement::Internal(format!(
                "the grader could not read `{name}`: {e}"
            )));
        }
        return Ok(expect
            .comparator
            .compare(expect.text.as_bytes(), &bytes)
            .map(|m| (m, 0)));
    }
    let report = trace::compare_file(&expect.text, file, cap)
        .map_err(|e| FileJudgement::Internal(format!("the grader could not read `{name}`: {e}")))?;
    let golden_line = report.divergence.as_ref().map_or(0, |d| d.line);
    let program = expect.reference.as_deref();
    let args = concrete_args(&run.args, REFERENCE_WORK);
    if let Some(mode) = program.and_then(|p| suite.oracle().search_mode(p, &args)) {
        *search = Some(SearchCount {
            mode: mode.name.to_string(),
            ply: mode.ply,
            visited: report.actual_lines,
            reference_visited: report.expected_lines,
        });
    }
    let mut mismatch = report.mismatch();
    // Where the searches first visit different nodes, and what the reference's window was.
    if let (Some(m), Some(program), Some(d)) = (&mut mismatch, program, &report.state_divergence) {
        let said = suite.oracle().parting(
            program,
            &args,
            &expect.text,
            d.line,
            d.expected.as_deref(),
            d.actual.as_deref(),
        );
        if let Some(said) = said {
            // It says more than the bare "a node only one search visits" lines.
            m.details.retain(|l| {
                !l.contains("a node the reference never visits")
                    && !l.starts_with("your search never visits `")
            });
            let at = m.details.len().saturating_sub(1);
            m.details.insert(at, said);
        }
    }
    Ok(mismatch.map(|m| (m, golden_line)))
}

/// The suite's named variants against a file that failed the golden trace: `Err` with the judgement
/// when the file is one of them; `Ok(Some)` with a full-credit variant (the same search written another
/// way, as post-order) that the file follows further than the golden trace, so the file is that
/// variant with a mistake, shown against it.
fn judge_variants<'s>(
    suite: &'s Suite,
    run: &Run,
    expect: &Expect,
    file: &std::fs::File,
    cap: u64,
    mismatch: &Mismatch,
    golden_line: u64,
) -> Result<Option<(&'s crate::suite::VariantCredit, Mismatch)>, FileJudgement> {
    let mut closer: Option<(&crate::suite::VariantCredit, Mismatch, u64)> = None;
    let (Some(program), Comparator::Trace) = (&expect.reference, expect.comparator) else {
        return Ok(None);
    };
    let args = concrete_args(&run.args, REFERENCE_WORK);
    for v in &suite.variants {
        let solved = suite.variant_output(program, &args, &v.name).map_err(|e| {
            FileJudgement::Internal(format!("the reference variant `{}` failed: {e}", v.name))
        })?;
        // None: the same as the golden outputs (a kit records only those that differ).
        let Some(solved) = solved else {
            continue;
        };
        if solved.file.trim().is_empty() || *solved.file == *expect.text {
            continue;
        }
        let Ok(report) = trace::compare_file(&solved.file, file, cap) else {
            continue;
        };
        let line = report.divergence.as_ref().map(|d| d.line);
        match (line, report.mismatch()) {
            (Some(line), Some(m))
                if v.credit >= 1.0
                    && line > golden_line.max(closer.as_ref().map_or(0, |c| c.2)) =>
            {
                closer = Some((v, m, line));
            }
            _ => {}
        }
        if report.divergence.is_none() {
            return Err(variant_judgement(v, mismatch));
        }
    }
    Ok(closer.map(|(v, m, _)| (v, m)))
}

/// A file that is the variant `v` exactly: its credit, and for partial credit what it misses against
/// the expected trace.
fn variant_judgement(v: &crate::suite::VariantCredit, mismatch: &Mismatch) -> FileJudgement {
    let plain = format!("your trace is the `{}` variant ({})", v.name, v.description);
    let mut summary = plain.clone();
    if !v.note.is_empty() {
        summary.push_str(&format!(": {}", v.note));
    }
    let details = if v.credit < 1.0 {
        let mut d = vec![format!(
            "this variant earns {}% of the case",
            (v.credit * 100.0).round()
        )];
        d.push(format!("against the expected trace: {}", mismatch.summary));
        // The first divergence with the lines before it (`line N: …`), and where its search parts
        // from the reference's, when a node only one visits.
        d.extend(
            mismatch
                .details
                .iter()
                .filter(|l| l.starts_with("line ") || l.contains("your search "))
                .cloned(),
        );
        d
    } else {
        Vec::new()
    };
    FileJudgement::Variant {
        name: v.name.clone(),
        credit: v.credit,
        summary,
        plain,
        details,
    }
}
