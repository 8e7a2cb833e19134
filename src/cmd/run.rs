//! `grader run SUITES SUBMISSIONS`: grades a class, suite by suite, and plays a suite's class
//! tournament when its marks come from one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::common::{check_out, class_outcome, environment_for, jobs, load_config, RunFlags};
use super::exit::{CliError, CmdResult, Exit};
use crate::config::Config;
use crate::grade::class::{self, grade_class_ordered, lend_cap, longest_first, students};
use crate::grade::fingerprint;
use crate::grade::shard::Shard;
use crate::grade::tournament;
use crate::grade::wire::Environment;
use crate::report::class::{
    earlier_results, stored_fingerprint, stored_result, ClassReporter, Outputs,
};
use crate::report::events::{Event, Reporter};
use crate::report::result::SubmissionResult;
use crate::report::shard::{clear_manifest, write_manifest, Manifest};
use crate::report::table::class_table;
use crate::sandbox::pace::Cores;
use crate::suite::validate::discover;
use crate::suite::{oracle, Suite};
use std::sync::Arc;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A folder of suites (`suites/`), or one suite folder.
    pub suites: PathBuf,
    /// With a folder of suites: a folder holding `<suite-name>/<student>/`. With one suite: a folder of
    /// student folders.
    pub submissions: PathBuf,
    /// Where results go: `<out>/<suite>/<student>/result.json` and `<out>/<suite>/grades.csv`.
    #[arg(long, default_value = "results", value_name = "DIR")]
    pub out: PathBuf,
    /// Submissions graded in parallel (default: `grader.toml`'s `run.jobs`; 0 = one per core).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub flags: RunFlags,
    /// Skip the class tournament of a suite with `[arena.marks]` (grades.csv then has no `tournament`
    /// column); `grader tournament` plays it on its own.
    #[arg(long)]
    pub no_tournament: bool,
    /// Grade only shard K of N of each class (`2/3`): the students whose folder name hashes to it.
    /// Writes `<out>/<suite>/shard.json`; `grader merge` joins the N shards' folders into one run's
    /// results and plays the class tournament, which a shard never plays.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Skip each student whose result in `--out` is current: graded from the same submission folder,
    /// suite folder, settings and grader version (`input.sha256` beside its result.json), without an
    /// internal error or a missing toolchain. The class tournament is still played over everyone.
    #[arg(long)]
    pub resume: bool,
}

/// `grader run SUITES SUBMISSIONS`.
pub fn run(args: Args) -> CmdResult {
    let config = load_config(args.flags.config.as_deref())?;
    let jobs = jobs(args.jobs, &config);
    let plan = plan(&args, &config)?;
    let classes: Vec<&Path> = plan.iter().map(|(_, d)| d.as_path()).collect();
    check_out(&args.out, &classes)?;
    let suites: Vec<&Suite> = plan.iter().map(|(s, _)| s).collect();
    crate::doctor::require(&suites, args.flags.allow_missing)?;
    let env = environment_for(args.flags.sandbox.as_deref(), &config, false)?;
    crate::doctor::require_runnable(env.sandbox.as_ref(), &suites)?;
    // Every suite's class at once in `jobs` shared slots (a class whose last submissions take long
    // leaves its cores to the next); as soon as a class is graded, on its own thread, its tournament
    // (its games in the same slots, other classes still grading meanwhile), its policy and its pages;
    // then suite by suite, in order, each table.
    // A slot whose program sleeps is lent to the next submission (`sandbox::pace`).
    let most_memory = suites.iter().map(|s| s.limits.memory).max().unwrap_or(0);
    let slots = Cores::new(jobs, lend_cap(jobs, most_memory));
    let outs: Vec<SuiteOut> = plan
        .iter()
        .map(|(s, dir)| SuiteOut::new(&args, s, dir))
        .collect::<Result<_, _>>()?;
    // What each class grades is settled (and said on stderr) suite by suite, in order, first.
    let prepared: Vec<Result<Prepared, CliError>> = plan
        .iter()
        .zip(&outs)
        .map(|((suite, students_dir), o)| {
            prepare_suite(&args, &config, &env, slots.count(), suite, students_dir, o)
        })
        .collect();
    let classes: Vec<Result<Settled, CliError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = plan
            .iter()
            .zip(prepared)
            .zip(&outs)
            .map(|(((suite, students_dir), prepared), o)| {
                let (args, config, env, slots) = (&args, &config, &env, &slots);
                scope.spawn(move || {
                    prepared.map(|p| {
                        let graded = grade_suite(config, env, slots, suite, p);
                        let played = play_suite(env, jobs, slots, suite, o, graded);
                        settle_suite(args, suite, students_dir, o, played)
                    })
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join().unwrap_or_else(|_| {
                    Err(CliError::internal(anyhow::anyhow!(
                        "grading a class stopped unexpectedly (a bug in the grader)"
                    )))
                })
            })
            .collect()
    });
    let mut exit = Exit::Success;
    let mut failed = None;
    for (((suite, _), o), class) in plan.iter().zip(&outs).zip(classes) {
        // A suite that could not be graded is said at the end: the others' results still count.
        match class {
            Ok(settled) => exit = exit.max(report_suite(suite, o, settled)),
            Err(e) => {
                failed.get_or_insert(e);
            }
        }
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(exit),
    }
}

/// Every suite with the folder of its students, loaded before anything runs: a broken suite is bad
/// input, reported up front.
fn plan(args: &Args, config: &Config) -> Result<Vec<(Suite, PathBuf)>, CliError> {
    let single = args.suites.join(crate::suite::SUITE_FILE).is_file();
    let oracle = oracle::builtin();
    let mut plan: Vec<(Suite, PathBuf)> = Vec::new();
    for dir in discover(&args.suites)? {
        let suite = Suite::load(&dir, config, oracle.clone()).map_err(CliError::usage)?;
        let students_dir = if single {
            let nested = args.submissions.join(&suite.name);
            if nested.is_dir() {
                nested
            } else {
                args.submissions.clone()
            }
        } else {
            args.submissions.join(&suite.name)
        };
        if !students_dir.is_dir() {
            if single {
                return Err(CliError::usage(anyhow::anyhow!(
                    "no submissions folder `{}`",
                    students_dir.display()
                )));
            }
            eprintln!(
                "note: no submissions for `{}` (no folder `{}`)",
                suite.name,
                students_dir.display()
            );
            continue;
        }
        plan.push((suite, students_dir));
    }
    if plan.is_empty() {
        return Err(CliError::usage(anyhow::anyhow!(
            "nothing to grade: no suite in `{}` has a folder in `{}`\nhint: lay submissions out as `SUBMISSIONS/<suite-name>/<student>/`",
            args.suites.display(),
            args.submissions.display()
        )));
    }
    Ok(plan)
}

/// What a suite's grading writes to and whether it plays a tournament, settled before any class is
/// graded (the class reporter borrows it while the classes are graded side by side).
struct SuiteOut {
    out: Outputs,
    tournament: bool,
    play: bool,
    columns: crate::report::Columns,
    /// The suite's `course.toml` and the class's `submissions.toml`, read before anything runs.
    course: Option<crate::course::Course>,
    submissions: Option<crate::course::submissions::Submissions>,
    /// The marks already given (`manual.toml` in the results folder), read before anything runs.
    marks: crate::marks::Marks,
}

impl SuiteOut {
    fn new(args: &Args, suite: &Suite, students_dir: &Path) -> Result<SuiteOut, CliError> {
        let columns = class::columns(suite, false);
        let course = crate::course::Course::for_suite(&suite.dir, &columns.groups)
            .map_err(CliError::usage)?;
        let submissions =
            crate::course::submissions::Submissions::load(students_dir).map_err(CliError::usage)?;
        let out = args.out.join(&suite.name);
        let marks =
            crate::marks::file::read_or_empty(&out.join(crate::marks::MANUAL_FILE), &suite.name)
                .map_err(CliError::usage)?;
        if course.as_ref().is_some_and(|c| c.due.is_some()) && submissions.is_none() {
            eprintln!(
                "note: `{}` has a due date but `{}` has no submissions.toml (from `grader import`): no hand-in's time is known, so no late rule is applied",
                suite.name,
                students_dir.display()
            );
        }
        let mut o = SuiteOut::with(args, suite, course, submissions);
        o.marks = marks;
        Ok(o)
    }

    fn with(
        args: &Args,
        suite: &Suite,
        course: Option<crate::course::Course>,
        submissions: Option<crate::course::submissions::Submissions>,
    ) -> SuiteOut {
        let tournament =
            !args.no_tournament && suite.arena.as_ref().is_some_and(|a| a.marks.is_some());
        // A shard sees part of the class: `grader merge` plays the tournament over all of it.
        let play = tournament && args.shard.is_none();
        SuiteOut {
            out: Outputs {
                dir: args.out.join(&suite.name),
            },
            tournament,
            play,
            columns: class::columns(suite, play),
            course,
            submissions,
            marks: crate::marks::Marks::default(),
        }
    }

    /// The course's policy for this class, with a person's marks when given.
    fn policy<'a>(
        &'a self,
        marks: Option<&'a crate::marks::ClassMarks>,
    ) -> crate::report::policy::Policy<'a> {
        crate::report::policy::Policy {
            course: self.course.as_ref(),
            submissions: self.submissions.as_ref(),
            groups: &self.columns.groups,
            marks,
        }
    }

    /// The marks already given, scored with the suite's rubric against each student's code as
    /// graded now (`code.sha256`, written with its result).
    fn class_marks(&self, suite: &Suite, students: &[&str]) -> crate::marks::ClassMarks {
        crate::marks::ClassMarks {
            marks: self.marks.clone(),
            rubric: suite.manual.clone(),
            code: students
                .iter()
                .filter_map(|k| {
                    Some((
                        (*k).to_string(),
                        crate::report::manual::stored_code(&self.out.dir, k)?,
                    ))
                })
                .collect(),
        }
    }
}

/// A suite's class as graded, before its tournament ([`play_suite`]), policy ([`settle_suite`])
/// and table ([`report_suite`]).
struct ClassGraded<'a> {
    class: Vec<(String, PathBuf)>,
    whole: usize,
    /// Every student's result in student order: the current ones where they were not graded again.
    results: Vec<SubmissionResult>,
    write_error: Option<anyhow::Error>,
    reporter: ClassReporter<'a>,
}

/// A class ready to grade: its students, those whose result is current, those to grade, and the
/// reporter that writes the results.
struct Prepared<'a> {
    class: Vec<(String, PathBuf)>,
    whole: usize,
    current: HashMap<String, SubmissionResult>,
    to_grade: Vec<(String, PathBuf)>,
    /// The order to start `to_grade` in: the longest an earlier run took first.
    order: Vec<usize>,
    reporter: ClassReporter<'a>,
}

/// Settles what one suite's class grades (its shard, the earlier rows kept, the current results
/// `--resume` skips), saying so on stderr.
fn prepare_suite<'a>(
    args: &Args,
    config: &Config,
    env: &Environment,
    jobs: usize,
    suite: &Suite,
    students_dir: &Path,
    o: &'a SuiteOut,
) -> Result<Prepared<'a>, CliError> {
    let mut class = students(students_dir)?;
    let whole = class.len();
    let out = &o.out;
    if let Some(shard) = args.shard {
        class.retain(|(_, dir)| shard.contains(dir.file_name().unwrap_or_default()));
        clear_manifest(&out.dir).map_err(CliError::internal)?;
        eprintln!(
            "shard {shard} of `{}`: {} of {whole} submissions",
            suite.name,
            class.len()
        );
    }
    eprintln!(
        "grading `{}`: {} submissions × {} cases, sandbox {}, {} jobs",
        suite.name,
        class.len(),
        suite.cases().count(),
        env.sandbox.tier(),
        jobs
    );
    let tournament = o.tournament;
    let keys: Vec<&str> = class.iter().map(|(k, _)| k.as_str()).collect();
    // A shard's gradebook holds its share only; the merge keeps the earlier rows.
    let earlier = if args.shard.is_some() {
        Vec::new()
    } else {
        earlier_results(out, &suite.name, &keys)
    };
    if !earlier.is_empty() {
        eprintln!(
            "note: grades.csv keeps {} earlier result(s) of students not in this run",
            earlier.len()
        );
    }
    // What each result is graded from: everything that decides it but `--jobs` and the shard.
    let settings = format!(
        "{:?}\ntier {}\ntournament {tournament}\nsame fault, no replay {}",
        Config {
            jobs: 0,
            ..config.clone()
        },
        env.sandbox.tier(),
        crate::grade::samefault::enabled()
    );
    let part = fingerprint::suite_part(&suite.dir, &settings);
    let prints: HashMap<String, String> = class
        .iter()
        .filter_map(|(k, dir)| Some((k.clone(), fingerprint::submission(part.as_ref()?, dir)?)))
        .collect();
    let code: HashMap<String, String> = class
        .iter()
        .filter_map(|(k, dir)| Some((k.clone(), fingerprint::code(dir)?)))
        .collect();
    let current = if args.resume {
        current(out, &suite.name, &class, &prints, o.play)
    } else {
        HashMap::new()
    };
    let to_grade: Vec<(String, PathBuf)> = class
        .iter()
        .filter(|(k, _)| !current.contains_key(k))
        .cloned()
        .collect();
    if args.resume {
        eprintln!(
            "resume: {} of {} submissions are current (same submission, suite, settings and grader), not graded again",
            current.len(),
            class.len()
        );
    }
    let kept = earlier
        .into_iter()
        .chain(current.values().cloned())
        .collect();
    let reporter = ClassReporter::new(out, &o.columns, to_grade.len())
        .keeping(kept)
        .fingerprints(prints)
        .code_prints(code);
    let order = started_longest_first(out, &suite.name, &to_grade);
    Ok(Prepared {
        class,
        whole,
        current,
        to_grade,
        order,
        reporter,
    })
}

/// Grades one prepared class in the shared `slots` (writing each result as it comes).
fn grade_suite<'a>(
    config: &Config,
    env: &Environment,
    slots: &Arc<Cores>,
    suite: &Suite,
    prepared: Prepared<'a>,
) -> ClassGraded<'a> {
    let Prepared {
        class,
        whole,
        mut current,
        to_grade,
        order,
        reporter,
    } = prepared;
    let (graded, write_error) = match grade_class_ordered(
        &env.sandbox,
        &*env.prepare,
        suite,
        class::Class {
            students: &to_grade,
            order: &order,
        },
        slots,
        config.scratch,
        &reporter,
    ) {
        Ok(results) => (results, reporter.take_error()),
        Err(e) => (Vec::new(), Some(e)),
    };
    // Every result in student order, the current ones where they were not graded again.
    let mut graded = graded.into_iter();
    let results = class
        .iter()
        .filter_map(|(k, _)| current.remove(k).or_else(|| graded.next()))
        .collect();
    ClassGraded {
        class,
        whole,
        results,
        write_error,
        reporter,
    }
}

/// Plays a graded class's tournament (when the suite has one and the whole class was graded), its
/// games holding `slots` while other classes may still grade, and gives each student its marks.
fn play_suite<'a>(
    env: &Environment,
    jobs: usize,
    slots: &Arc<Cores>,
    suite: &Suite,
    o: &SuiteOut,
    mut graded: ClassGraded<'a>,
) -> ClassGraded<'a> {
    if !o.play || graded.results.len() != graded.class.len() {
        return graded;
    }
    if let Some(e) = tournament::play_and_mark(
        suite,
        &o.policy(None),
        &graded.class,
        &mut graded.results,
        &env.sandbox,
        jobs,
        Some(slots),
        &o.out.dir,
        &graded.reporter,
    ) {
        graded.write_error.get_or_insert(e);
    }
    if let Some(e) = graded.reporter.take_error() {
        graded.write_error.get_or_insert(e);
    }
    graded
}

/// A class graded, its tournament played, its policy applied and every file written: what is left
/// to say of it, suite by suite in order ([`report_suite`]).
struct Settled {
    results: Vec<SubmissionResult>,
    write_error: Option<anyhow::Error>,
}

/// Applies the course's policy to a graded class (its tournament played) and writes its results,
/// pages and gradebook (and a shard's manifest), on the class's own thread.
fn settle_suite(
    args: &Args,
    suite: &Suite,
    students_dir: &Path,
    o: &SuiteOut,
    graded: ClassGraded,
) -> Settled {
    let ClassGraded {
        class,
        whole,
        mut results,
        mut write_error,
        reporter,
    } = graded;
    let (out, tournament) = (&o.out, o.tournament);
    let keys: Vec<&str> = class.iter().map(|(k, _)| k.as_str()).collect();
    // The course's policy over the whole class (tracks, lateness, members, a person's marks), then
    // every result.json and the gradebook again with it.
    if let Some(e) = apply_policy(suite, students_dir, o, &mut results) {
        write_error.get_or_insert(e);
    }
    reporter.report(&Event::Remarked { results: &results });
    if let Some(e) = reporter.take_error() {
        write_error.get_or_insert(e);
    }
    if let Some(shard) = args.shard {
        let manifest = Manifest {
            suite: suite.name.clone(),
            shard: shard.index,
            shards: shard.count,
            grader: env!("CARGO_PKG_VERSION").to_string(),
            suite_dir: std::path::absolute(&suite.dir).unwrap_or_else(|_| suite.dir.clone()),
            students_dir: std::path::absolute(students_dir)
                .unwrap_or_else(|_| students_dir.to_path_buf()),
            class: whole,
            students: keys.iter().map(ToString::to_string).collect(),
            columns: class::columns(suite, tournament),
            tournament,
        };
        // Only a shard whose every result was written counts as done.
        if write_error.is_none() {
            if let Err(e) = write_manifest(&out.dir, &manifest) {
                write_error = Some(e);
            }
        }
    }
    reporter.report(&Event::ClassFinished { results: &results });
    if let Some(e) = reporter.take_error() {
        write_error.get_or_insert(e);
    }
    Settled {
        results,
        write_error,
    }
}

/// Prints a settled class's table and says how it went: `Internal` when a result could not be
/// written or the machine failed a case.
fn report_suite(suite: &Suite, o: &SuiteOut, settled: Settled) -> Exit {
    print!(
        "{}",
        class_table(
            &format!("{} ({})", suite.title, suite.name),
            &o.columns,
            &settled.results
        )
    );
    println!();
    class_outcome(&settled.results, settled.write_error, &o.out.dir)
}

/// The course's policy and the manual marks over the whole class's `results`, the marks given to
/// older code flagged, and the rubric file `grader review` reads written beside them (an error
/// writing it returned).
fn apply_policy(
    suite: &Suite,
    students_dir: &Path,
    o: &SuiteOut,
    results: &mut [SubmissionResult],
) -> Option<anyhow::Error> {
    let marked: Vec<&str> = results.iter().map(|r| r.student.as_str()).collect();
    let marks = o.class_marks(suite, &marked);
    o.policy(Some(&marks)).apply(results);
    for flag in crate::report::manual::changed_since_marked(results) {
        eprintln!("note: `{}`: {flag}", suite.name);
    }
    let rubric = crate::report::rubric::ClassRubric {
        suite: suite.name.clone(),
        title: suite.title.clone(),
        submissions: std::path::absolute(students_dir).ok(),
        manual: suite.manual.clone(),
        columns: Some(o.columns.clone()),
    };
    crate::report::rubric::write(&o.out.dir, &rubric)
        .err()
        .map(|e| {
            anyhow::Error::new(e).context(format!(
                "cannot write `{}`",
                o.out.dir.join(crate::report::rubric::REVIEW_FILE).display()
            ))
        })
}

/// The students of `class` whose stored result is current: its fingerprint is the one `prints` has
/// for them now, and it has no internal error or missing toolchain (those are graded again). Their
/// tournament marks are taken out, to be given afresh when `play`, else written back without them.
/// The order to start `to_grade` in: the longest first, by the time each took when last graded into
/// `out` (its build and its cases' wall time, from its `result.json` there, read as untrusted), those
/// with none in student order after them. Reading it costs a file per student: nothing beside grading.
fn started_longest_first(out: &Outputs, suite: &str, to_grade: &[(String, PathBuf)]) -> Vec<usize> {
    let took: Vec<u64> = to_grade
        .iter()
        .map(|(key, _)| stored_result(out, suite, key).map_or(0, |r| r.wall_ms()))
        .collect();
    longest_first(&took)
}

fn current(
    out: &Outputs,
    suite: &str,
    class: &[(String, PathBuf)],
    prints: &HashMap<String, String>,
    play: bool,
) -> HashMap<String, SubmissionResult> {
    let mut found = HashMap::new();
    for (key, _) in class {
        let Some(print) = prints.get(key) else {
            continue;
        };
        if stored_fingerprint(out, key).as_ref() != Some(print) {
            continue;
        }
        let Ok(mut r) = stored_result(out, suite, key) else {
            continue;
        };
        if r.has_internal_error() || r.not_graded().is_some() {
            continue;
        }
        if r.tournament.is_some() {
            tournament::unmark(&mut r);
            let path = out.result_path(key);
            if !play && crate::report::write_atomic(&path, r.to_json().as_bytes()).is_err() {
                continue;
            }
        }
        found.insert(key.clone(), r);
    }
    found
}
