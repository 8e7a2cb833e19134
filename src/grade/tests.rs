//! The pipeline against a scripted sandbox and a toy oracle: verdict precedence, files written or not,
//! variant credit, scoring. (End-to-end runs of real programs are in tests/run.rs and tests/check.rs.)

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::case::Program;
use super::pipeline::{Extra, Prepare, Prepared};
use crate::config::Config;
use crate::judge::Verdict;
use crate::sandbox::{LimitHit, Outcome, Running, Sandbox, SandboxError, Spec, Status, Tier};
use crate::suite::oracle::{Oracle, Solved};
use crate::suite::Suite;

/// `rev WORD PATH`: prints WORD reversed; writes one `PREFIX 1` line per prefix of WORD (post-order
/// variant: longest first). An empty WORD has no move: nothing printed, nothing written.
struct Rev;

impl Oracle for Rev {
    fn programs(&self) -> Vec<&'static str> {
        vec!["rev"]
    }
    fn solve(
        &self,
        _program: &str,
        args: &[String],
        variant: Option<&str>,
    ) -> Result<Solved, String> {
        let word = args.first().ok_or("no word")?;
        if word == "-" {
            return Ok(Solved {
                stdout: String::new(),
                file: String::new(),
            });
        }
        let mut lines: Vec<String> = (1..=word.len())
            .map(|i| format!("{} 1\n", &word[..i]))
            .collect();
        match variant {
            None => {}
            Some("post-order") => lines.reverse(),
            Some("fail-hard") => lines.truncate(1),
            Some(v) => return Err(format!("no variant {v}")),
        }
        Ok(Solved {
            stdout: format!("{}\n", word.chars().rev().collect::<String>()),
            file: lines.concat(),
        })
    }
    fn variants(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("post-order", "each node after its children"),
            ("fail-hard", "stops early"),
        ]
    }
}

/// Plays the student: behaviour chosen by the program name, computed from the arguments.
struct Scripted;

impl Sandbox for Scripted {
    fn tier(&self) -> Tier {
        Tier::None
    }
    fn spawn(&self, _spec: &Spec) -> Result<Box<dyn Running>, SandboxError> {
        Err(SandboxError::Unavailable {
            tier: Tier::None,
            reason: "scripted".into(),
        })
    }
    // Over 100 lines on purpose: one arm per scripted program, a table the tests name their programs
    // from; split, a reader would hunt for the script a test uses.
    fn run(&self, spec: &Spec) -> Result<Outcome, SandboxError> {
        let args: Vec<String> = spec
            .args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let (word, path) = (&args[0], Path::new(&args[1]));
        let mut outcome = Outcome::silent(Duration::from_millis(5), Duration::from_millis(6));
        let right = Rev.solve("rev", &args, None).unwrap();
        match spec.program.to_str().unwrap() {
            "good" | "post-order" | "fail-hard" | "chatty" => {
                let variant = match spec.program.to_str().unwrap() {
                    "good" | "chatty" => None,
                    v => Some(v),
                };
                let solved = Rev.solve("rev", &args, variant).unwrap();
                outcome.stdout = solved.stdout.into_bytes();
                if word != "-" || spec.program == "chatty" {
                    std::fs::write(
                        path,
                        solved.file
                            + if spec.program == "chatty" {
                                "junk 0\n"
                            } else {
                                ""
                            },
                    )
                    .unwrap();
                }
            }
            "no-file" => outcome.stdout = right.stdout.into_bytes(),
            // Post-order with one mistake: its last value.
            "post-order-slip" => {
                let solved = Rev.solve("rev", &args, Some("post-order")).unwrap();
                outcome.stdout = solved.stdout.into_bytes();
                if word != "-" {
                    let slipped = solved.file.replace(&format!("\n{} 1\n", &word[..1]), "");
                    let file = if slipped == solved.file {
                        solved.file
                    } else {
                        format!("{slipped}\n{} 0\n", &word[..1])
                    };
                    std::fs::write(path, file).unwrap();
                }
            }
            // A post-order trace beside a wrong stdout.
            "post-order-wrong-stdout" => {
                let solved = Rev.solve("rev", &args, Some("post-order")).unwrap();
                if word != "-" {
                    outcome.stdout = b"wrong\n".to_vec();
                    std::fs::write(path, solved.file).unwrap();
                }
            }
            // A Python traceback naming the program's copy and the run's folder, with long lines.
            "traceback" => {
                let dir = spec.read_only[0].display().to_string();
                let work = spec.workdir.display().to_string();
                outcome.status = Status::Exited(1);
                outcome.stderr = format!(
                    "Traceback (most recent call last):\n  File \"{dir}/tictactoe.py\", line 88, in <module>\n    main()\n  File \"{dir}/tictactoe.py\", line 80, in main\n    value = minimax(board, player_to_move_first_in_this_search)\n  File \"{dir}/tictactoe.py\", line 12, in minimax\n    best = max(values) + an_undefined_name_long_enough_to_pass_sixty_characters\nNameError: name 'an_undefined_name_long_enough_to_pass_sixty_characters' is not defined (while writing {work}/visited.txt)\n"
                )
                .into_bytes();
            }
            // Right only at the course's old fixed name; an empty file anywhere else.
            "by-old-name" => {
                outcome.stdout = right.stdout.into_bytes();
                if word != "-" {
                    let known = path.file_name().is_some_and(|n| n == "visited.txt");
                    std::fs::write(path, if known { right.file } else { String::new() }).unwrap();
                }
            }
            // Right everywhere, but in post-order (full credit) unless its folder is named `work`.
            "by-folder" => {
                let order = (!path.parent().unwrap().ends_with("work")).then_some("post-order");
                let solved = Rev.solve("rev", &args, order).unwrap();
                outcome.stdout = solved.stdout.into_bytes();
                if word != "-" {
                    std::fs::write(path, solved.file).unwrap();
                }
            }
            "touch" => {
                outcome.stdout = right.stdout.into_bytes();
                std::fs::write(path, right.file).unwrap();
            }
            // Right answers at CPU times around the default 10 s limit; a second run of a case (its
            // folder is `case-N-again`) is faster for `near-limit`.
            name @ ("near-limit" | "over" | "stopped") => {
                outcome.stdout = right.stdout.into_bytes();
                if word != "-" {
                    std::fs::write(path, right.file).unwrap();
                }
                let again = spec.workdir.to_string_lossy().contains("-again");
                outcome.cpu = match (name, again) {
                    ("near-limit", false) => Duration::from_millis(9_500),
                    ("near-limit", true) => Duration::from_millis(5_000),
                    ("over", _) => Duration::from_millis(10_500),
                    _ => {
                        // The sandbox is handed the backstop, above the limit judged.
                        assert_eq!(spec.limits.cpu, Duration::from_secs(11));
                        outcome.status = Status::Signaled(libc::SIGKILL);
                        outcome.limit = Some(LimitHit::Cpu);
                        spec.limits.cpu + Duration::from_millis(20)
                    }
                };
            }
            "sleeps" => {
                outcome.status = Status::Signaled(libc::SIGKILL);
                outcome.limit = Some(LimitHit::Wall);
                outcome.cpu = Duration::from_millis(40);
                outcome.wall = spec.limits.wall + Duration::from_millis(300);
            }
            "crash" => {
                outcome.status = Status::Signaled(libc::SIGSEGV);
                outcome.stderr = b"Segmentation fault\n".to_vec();
            }
            "slow" => {
                outcome.status = Status::Signaled(libc::SIGKILL);
                outcome.limit = Some(LimitHit::Cpu);
            }
            "broken-sandbox" => {
                return Err(SandboxError::Unavailable {
                    tier: Tier::None,
                    reason: "test".into(),
                })
            }
            other => panic!("no script {other}"),
        }
        Ok(outcome)
    }
}

struct FakeBuild(&'static str);

impl Prepare for FakeBuild {
    fn prepare(&self, _: &dyn Sandbox, _: &Suite, _: &Path, _: &Path) -> Prepared {
        match self.0 {
            "does-not-compile" => Prepared::CompileError {
                language: "c".into(),
                log: "x.c:1: error".into(),
            },
            name => {
                let program = |command: &str| Program {
                    language: "c".into(),
                    dir: "/nowhere".into(),
                    command: vec![command.into()],
                    address_space: true,
                };
                // `second-absent` and `second-broken`: a good main program, and a second one that is
                // missing or does not build; every other name's second program is a good one.
                let (main, second) = match name {
                    "second-absent" => ("good", Extra::Absent("no `second.c`".into())),
                    "second-broken" => ("good", Extra::CompileError("second.c:1: error".into())),
                    name => (name, Extra::Ready(program("good"))),
                };
                Prepared::Ready {
                    program: program(main),
                    log: String::new(),
                    extras: vec![("second".into(), second)],
                    interpreter: None,
                }
            }
        }
    }
}

const SUITE: &str = r#"title = "Rev"
seed = 1
[[languages]]
name = "rev"
detect = ["rev"]
run = ["{dir}/rev"]
[variants]
post-order = { credit = 1.0, note = "full credit" }
fail-hard = { credit = 0.0 }

[[groups]]
name = "words"
points = 6
visibility = "public"
[[groups.cases]]
name = "abc"
args = ["abc", "{work}/visited.txt"]
stdout = { reference = "rev" }
files."visited.txt" = { reference = "rev" }
[[groups.cases]]
name = "abcd"
args = ["abcd", "{work}/visited.txt"]
stdout = { reference = "rev" }
files."visited.txt" = { reference = "rev" }

[[groups]]
name = "none"
points = 2
credit = "all-or-nothing"
[[groups.cases]]
name = "no-move"
args = ["-", "{work}/visited.txt"]
stdout = { reference = "rev" }
files."visited.txt" = { reference = "rev" }
"#;

fn grade(program: &'static str) -> crate::report::result::SubmissionResult {
    grade_suite(SUITE, program)
}

fn grade_suite(text: &str, program: &'static str) -> crate::report::result::SubmissionResult {
    grade_on(text, program, Arc::new(Scripted))
}

fn grade_on(
    text: &str,
    program: &'static str,
    sandbox: Arc<dyn Sandbox>,
) -> crate::report::result::SubmissionResult {
    let (dir, suite) = rev_suite(text);
    let scratch = crate::sandbox::scratch::Scratch::new().unwrap();
    let rooms = super::pipeline::Rooms::new(&scratch, "s", None).unwrap();
    super::pipeline::grade(
        &sandbox,
        &FakeBuild(program),
        &suite,
        program,
        dir.path(),
        &rooms,
        &|_| true,
        &mut |_| {},
    )
    .result
}

fn verdicts(r: &crate::report::result::SubmissionResult) -> Vec<Verdict> {
    r.cases.iter().map(|c| c.verdict).collect()
}

#[test]
fn a_correct_program_gets_every_point() {
    let r = grade("good");
    assert_eq!(verdicts(&r), [Verdict::Accepted; 3]);
    assert_eq!((r.score, r.max), (8.0, 8.0));
    assert_eq!(r.cases[0].summary, "accepted");
}

#[test]
fn a_named_variant_earns_the_suites_credit_with_a_note() {
    let r = grade("post-order");
    assert_eq!(verdicts(&r), [Verdict::Accepted; 3]);
    assert_eq!(r.score, 8.0);
    assert_eq!(r.cases[0].variant.as_deref(), Some("post-order"));
    assert_eq!(
        r.cases[0].summary,
        "accepted; `visited.txt`: your trace is the `post-order` variant (each node after its children): full credit"
    );
    let r = grade("fail-hard");
    assert_eq!(r.cases[0].verdict, Verdict::WrongAnswer);
    assert_eq!(r.cases[0].variant.as_deref(), Some("fail-hard"));
    assert_eq!(r.cases[0].credit, 0.0);
    // The no-move case writes nothing either way.
    assert_eq!(r.score, 2.0);
}

#[test]
fn a_missing_file_and_an_unwanted_file_are_both_wrong() {
    let r = grade("no-file");
    assert_eq!(
        verdicts(&r),
        [
            Verdict::WrongAnswer,
            Verdict::WrongAnswer,
            Verdict::Accepted
        ]
    );
    assert!(
        r.cases[0]
            .summary
            .starts_with("`visited.txt`: you did not write `visited.txt`"),
        "{}",
        r.cases[0].summary
    );
    // The run's own name is said once, where it helps: the file the program was asked for.
    let given = regex::Regex::new(
        r"\(it must be created at the path given on the command line, this time `work/visited-[0-9a-f]{8}\.txt`: the grader gives each run its own name\)$",
    )
    .unwrap();
    assert!(
        given.is_match(&r.cases[0].summary),
        "{}",
        r.cases[0].summary
    );
    let r = grade("chatty");
    assert_eq!(r.cases[2].verdict, Verdict::WrongAnswer);
    assert!(
        r.cases[2]
            .summary
            .contains("no move is possible from this board: create no file"),
        "{}",
        r.cases[2].summary
    );
    // All-or-nothing group: one failure loses it; proportional group keeps what passed.
    assert_eq!(r.groups[1].points, Some(0.0));
    assert!(
        r.cases[0]
            .summary
            .contains("your trace visits 4 nodes where the reference visits 3"),
        "{}",
        r.cases[0].summary
    );
}

/// One rule for both Adelaide games (suite README, "No move possible"): a file left empty where no move
/// is possible is writing nothing; a file with something in it is not (`chatty` above).
#[test]
fn an_empty_file_where_no_move_is_possible_is_writing_nothing() {
    let r = grade("touch");
    assert_eq!(
        verdicts(&r),
        [Verdict::Accepted, Verdict::Accepted, Verdict::Accepted]
    );
}

#[test]
fn crashes_limits_and_the_graders_own_faults_are_told_apart() {
    let r = grade("crash");
    assert_eq!(r.cases[0].verdict, Verdict::RuntimeError);
    assert!(r.cases[0].summary.contains("SIGSEGV"));
    assert_eq!(
        r.cases[0].details,
        ["stderr (last lines):", "  Segmentation fault"]
    );
    assert_eq!(grade("slow").cases[0].verdict, Verdict::TimeLimit);
    let r = grade("broken-sandbox");
    assert_eq!(verdicts(&r), [Verdict::InternalError; 3]);
    assert!(r.has_internal_error());
}

#[test]
fn a_compile_error_fails_every_case_with_the_log_kept() {
    let r = grade("does-not-compile");
    assert_eq!(verdicts(&r), [Verdict::CompileError; 3]);
    assert_eq!(r.build.log, "x.c:1: error");
    assert_eq!(r.score, 0.0);
}

/// SUITE plus a group that runs the recipe's second program (Adelaide postgrads' `tmmorris`).
fn with_second_group() -> String {
    let suite = SUITE.replacen(
        "run = [\"{dir}/rev\"]\n",
        "run = [\"{dir}/rev\"]\nprograms.second = { detect = [\"second.c\"], run = [\"{dir}/second\"] }\n",
        1,
    );
    format!(
        "{suite}\n[[groups]]\nname = \"second\"\nprogram = \"second\"\npoints = 3\n[[groups.cases]]\nname = \"s\"\nargs = [\"abc\", \"{{work}}/visited.txt\"]\nstdout = {{ reference = \"rev\" }}\n"
    )
}

#[test]
fn a_group_whose_program_is_missing_is_not_attempted_and_not_scored() {
    let r = grade_suite(&with_second_group(), "second-absent");
    assert_eq!(verdicts(&r), [Verdict::Accepted; 3]);
    assert_eq!((r.score, r.max), (8.0, 8.0));
    assert!(r.groups.iter().all(|g| g.name != "second"));
    assert_eq!(
        r.not_attempted,
        [crate::report::result::NotAttempted {
            group: "second".into(),
            program: "second".into(),
            reason: "no `second.c`".into(),
        }]
    );
    let json = r.to_json();
    assert!(json.contains("\"not-attempted\""), "{json}");
    // Without the group, the key is left out of result.json altogether.
    assert!(!grade("good").to_json().contains("not-attempted"));
}

#[test]
fn a_second_program_runs_its_groups_or_fails_only_them() {
    let r = grade_suite(&with_second_group(), "good");
    assert_eq!(verdicts(&r), [Verdict::Accepted; 4]);
    assert_eq!((r.score, r.max), (11.0, 11.0));
    assert!(r.not_attempted.is_empty());
    let r = grade_suite(&with_second_group(), "second-broken");
    assert_eq!(
        verdicts(&r),
        [
            Verdict::Accepted,
            Verdict::Accepted,
            Verdict::Accepted,
            Verdict::CompileError
        ]
    );
    assert_eq!((r.score, r.max), (8.0, 11.0));
    assert_eq!(
        r.cases[3].summary,
        "your `second` program did not compile (see the build log)"
    );
    assert!(
        r.build.log.contains("second:\nsecond.c:1: error"),
        "{}",
        r.build.log
    );
}

#[test]
fn every_language_must_define_a_groups_program() {
    let text = format!(
        "[[languages]]\nname = \"c\"\ndetect = [\"Makefile\"]\nrun = [\"{{dir}}/a.bin\"]\n{}",
        with_second_group()
    )
    .replacen("title = \"Rev\"\nseed = 1\n", "", 1);
    let text = format!("title = \"Rev\"\nseed = 1\n{text}");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("suite.toml"), &text).unwrap();
    let Err(e) = Suite::load(dir.path(), &Config::load(None).unwrap(), Arc::new(Rev)) else {
        panic!("a group's program no language defines must not load");
    };
    let e = e.to_string();
    assert!(
        e.contains("group `second` runs program `second`, which language `c` does not define"),
        "{e}"
    );
    assert!(
        e.contains("suite.toml:43:11: "),
        "the error points at the group's `program`: {e}"
    );
}

/// A case accepted within 10% of its limit runs again; the faster run decides, and says so.
#[test]
fn a_case_near_its_cpu_limit_is_run_again_and_the_faster_run_decides() {
    let r = grade("near-limit");
    assert_eq!(verdicts(&r), [Verdict::Accepted; 3]);
    let case = &r.cases[0];
    assert_eq!(case.cpu_ms, 5_000);
    let rerun = case.rerun.as_ref().expect("rerun");
    assert_eq!((rerun.first_cpu_ms, rerun.second_cpu_ms), (9_500, 5_000));
    assert_eq!(rerun.kept, "second");
    let limit = case.cpu_limit.as_ref().unwrap();
    assert_eq!((limit.ms, limit.from.as_str()), (10_000, "suite"));
    // Far from the limit: one run.
    assert_eq!(grade("good").cases[0].rerun, None);
}

/// A program that ends by itself over its limit, or is stopped at the backstop, is a time limit that
/// states the CPU measured beside the limit, never a number under it.
#[test]
fn a_time_limit_says_what_was_measured_over_which_limit() {
    let r = grade("over");
    assert_eq!(r.cases[0].verdict, Verdict::TimeLimit);
    assert_eq!(
        r.cases[0].summary,
        "your program used 10.5 s of CPU time, over the 10 s limit"
    );
    let rerun = r.cases[0]
        .rerun
        .as_ref()
        .expect("a time limit is run again");
    assert_eq!(
        (
            rerun.first_verdict,
            rerun.second_verdict,
            rerun.kept.as_str()
        ),
        (Verdict::TimeLimit, Verdict::TimeLimit, "first")
    );
    // Just over the limit: every case runs twice.
    assert!(r.cases.iter().all(|c| c.rerun.is_some()));
    let r = grade("stopped");
    assert_eq!(r.cases[0].verdict, Verdict::TimeLimit);
    assert_eq!(
        r.cases[0].summary,
        "your program used 11.02 s of CPU time, over the 10 s limit and was stopped"
    );
}

/// Once one case was far over its CPU limit in both of its runs, a later case far over the limit keeps
/// its one run and says why: a program that loops forever costs one confirmation, not every case twice.
#[test]
fn a_program_far_over_its_limit_twice_is_not_run_twice_again() {
    let r = grade("stopped");
    assert_eq!(verdicts(&r), [Verdict::TimeLimit; 3]);
    assert!(r.cases[0].rerun.is_some());
    for case in &r.cases[1..] {
        assert_eq!(case.rerun, None, "{}", case.name);
        assert_eq!(
            case.details.last().map(String::as_str),
            Some("not run a second time: case `words/abc` was already far over its CPU limit in both of its runs, which a busy machine does not explain"),
        );
    }
}

#[test]
fn seconds_read_as_people_write_them() {
    use super::case::secs;
    let s = |ms| Duration::from_millis(ms);
    assert_eq!(secs(s(5_000), s(5_000)), "5 s");
    assert_eq!(secs(s(300), s(300)), "0.3 s");
    assert_eq!(secs(s(5_310), s(5_000)), "5.31 s");
    assert_eq!(secs(s(5_004), s(5_000)), "5.004 s");
}

/// A wall-time limit says both clocks: the wall limit it hit and the CPU it had used (a program
/// waiting or sleeping uses almost none); it is not run again.
#[test]
fn a_wall_limit_states_the_wall_limit_and_the_cpu_used() {
    let r = grade("sleeps");
    assert_eq!(r.cases[0].verdict, Verdict::WallTimeLimit);
    assert_eq!(
        r.cases[0].summary,
        "your program was still running at the 20 s wall-time limit, having used 0.04 s of CPU time (is it waiting for input, or sleeping?)"
    );
    assert_eq!(r.cases[0].rerun, None);
}

#[test]
fn file_names_are_unpredictable_and_feedback_names_the_suite_file() {
    let r = grade("by-old-name");
    assert_eq!(
        verdicts(&r),
        [
            Verdict::WrongAnswer,
            Verdict::WrongAnswer,
            Verdict::Accepted
        ]
    );
    let summary = &r.cases[0].summary;
    assert!(summary.starts_with("`visited.txt`: "), "{summary}");
    assert!(r.integrity.is_empty(), "{:?}", r.integrity);
    // The same student and seed give the same names; another student gets others.
    let again = grade("by-old-name");
    assert_eq!(again.cases[0].summary, r.cases[0].summary);
}

#[test]
fn a_fixed_name_suite_keeps_the_name_in_args() {
    let fixed = SUITE.replace("seed = 1\n", "seed = 1\nfile-names = \"as-written\"\n");
    let r = grade_suite(&fixed, "by-old-name");
    assert_eq!(verdicts(&r), [Verdict::Accepted; 3]);
}

#[test]
fn output_that_depends_on_the_path_is_flagged_without_changing_the_score() {
    let r = grade("by-folder");
    assert_eq!(verdicts(&r), [Verdict::Accepted; 3]);
    assert_eq!((r.score, r.max), (8.0, 8.0));
    assert_eq!(r.integrity.len(), 1, "{:?}", r.integrity);
    assert_eq!(r.integrity[0].case, "words/abc");
    assert!(
        r.integrity[0].what.contains(
            "wrote another `visited.txt`: line 1, `a 1` the first time, `abc 1` the second"
        ),
        "{}",
        r.integrity[0].what
    );
    assert!(r.to_json().contains("\"integrity\""));
    assert!(grade("good").integrity.is_empty());
    assert!(!grade("good").to_json().contains("integrity"));
}

#[test]
fn a_traceback_shows_its_last_lines_whole_with_paths_relative_to_the_students_folder() {
    let r = grade("traceback");
    let d = &r.cases[0].details;
    assert_eq!(d[0], "stderr (last lines):");
    assert!(
        d.contains(&"    File \"tictactoe.py\", line 12, in minimax".to_string()),
        "{d:#?}"
    );
    assert!(
        d.contains(
            &"      best = max(values) + an_undefined_name_long_enough_to_pass_sixty_characters"
                .to_string()
        ),
        "{d:#?}"
    );
    let error = d.last().unwrap();
    assert!(
        error.starts_with("  NameError: name 'an_undefined"),
        "{error}"
    );
    // The run's folder, relative like the program's (its name is the run's own: `work/…`).
    assert!(
        error.ends_with("is not defined (while writing work/visited.txt)"),
        "{error}"
    );
    let all = d.join("\n");
    assert!(!all.contains("/nowhere") && !all.contains("/tmp"), "{all}");
}

#[test]
fn a_slip_in_a_post_order_trace_is_shown_against_the_post_order_reference() {
    let r = grade("post-order-slip");
    let c = &r.cases[0];
    assert_eq!(c.verdict, Verdict::WrongAnswer);
    assert_eq!(
        c.summary,
        "`visited.txt`: your trace is written as the `post-order` variant (each node after its children), and differs from it: you visit the right nodes in the right order, but 1 value differs; first at line 3: expected `a 1`, got `a 0`"
    );
    assert_eq!(
        c.details.last().unwrap(),
        "against the expected trace: line 1: expected `a 1`, got `abc 1`"
    );
    // Points unchanged: the slip costs the case, the no-move case still passes.
    assert_eq!(r.score, 2.0);
}

#[test]
fn a_case_that_fails_on_stdout_never_says_its_trace_earned_credit() {
    let r = grade("post-order-wrong-stdout");
    let c = &r.cases[0];
    assert_eq!(c.verdict, Verdict::WrongAnswer);
    assert_eq!(c.credit, 0.0);
    assert_eq!(c.summary, "stdout: expected `cba`, got `wrong`");
    assert_eq!(
        c.details.last().unwrap(),
        "`visited.txt`: your trace is the `post-order` variant (each node after its children); not scored: the case failed on stdout"
    );
    assert!(
        !c.details.iter().any(|d| d.contains("full credit")),
        "{:#?}",
        c.details
    );
}

/// Counts the submissions being prepared at once, and the most there ever were.
struct CountingBuild {
    now: std::sync::atomic::AtomicUsize,
    most: std::sync::atomic::AtomicUsize,
}

impl Prepare for CountingBuild {
    fn prepare(&self, _: &dyn Sandbox, _: &Suite, _: &Path, _: &Path) -> Prepared {
        use std::sync::atomic::Ordering::SeqCst;
        let now = self.now.fetch_add(1, SeqCst) + 1;
        self.most.fetch_max(now, SeqCst);
        std::thread::sleep(Duration::from_millis(20));
        self.now.fetch_sub(1, SeqCst);
        Prepared::NoLanguage {
            message: "no files".into(),
        }
    }
}

/// A scratch folder holding a `rev` suite of `text` (judged by [`Rev`]), and the suite loaded.
fn rev_suite(text: &str) -> (tempfile::TempDir, Suite) {
    let dir = tempfile::tempdir().unwrap();
    let suite_dir = dir.path().join("rev");
    std::fs::create_dir_all(&suite_dir).unwrap();
    std::fs::write(suite_dir.join("suite.toml"), text).unwrap();
    let suite = Suite::load(&suite_dir, &Config::load(None).unwrap(), Arc::new(Rev)).unwrap();
    (dir, suite)
}

/// Classes graded side by side in shared slots never grade more submissions at once than there are
/// slots, however many workers each class has (twice the slots, for lending), while no program sleeps;
/// and each class still gets every result in its order.
#[test]
fn classes_side_by_side_share_their_slots() {
    use super::class::grade_class_sharing;
    use crate::sandbox::pace::Cores;
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    let (dir, suite) = rev_suite(SUITE);
    let sandbox = Arc::new(Scripted) as Arc<dyn Sandbox>;
    let build = CountingBuild {
        now: AtomicUsize::new(0),
        most: AtomicUsize::new(0),
    };
    let class: Vec<(String, std::path::PathBuf)> = (0..4)
        .map(|i| (format!("s{i}"), dir.path().to_path_buf()))
        .collect();
    for slots in [1, 2] {
        build.most.store(0, SeqCst);
        let shared = Cores::new(slots, slots);
        let results: Vec<Vec<String>> = std::thread::scope(|s| {
            let classes: Vec<_> = (0..3)
                .map(|_| {
                    s.spawn(|| {
                        grade_class_sharing(
                            &sandbox,
                            &build,
                            &suite,
                            &class,
                            &shared,
                            Config::load(None).unwrap().scratch,
                            &crate::report::events::Silent,
                        )
                        .unwrap()
                        .into_iter()
                        .map(|r| r.student)
                        .collect()
                    })
                })
                .collect();
            classes.into_iter().map(|c| c.join().unwrap()).collect()
        });
        assert_eq!(build.most.load(SeqCst), slots, "{slots} slot(s)");
        for students in results {
            assert_eq!(students, ["s0", "s1", "s2", "s3"]);
        }
    }
}

/// A class of `order.len()` copies of the reversing submission (`s0`, `s1`, ...), graded by
/// [`Scripted`] programs on `cores`, starting in `order`.
fn graded_in_order(
    order: &[usize],
    cores: &Arc<crate::sandbox::pace::Cores>,
    reporter: &dyn crate::report::events::Reporter,
) -> Vec<crate::report::result::SubmissionResult> {
    use super::class::{grade_class_ordered, Class};
    let (dir, suite) = rev_suite(SUITE);
    let sandbox = Arc::new(Scripted) as Arc<dyn Sandbox>;
    let class: Vec<(String, std::path::PathBuf)> = (0..order.len())
        .map(|i| (format!("s{i}"), dir.path().to_path_buf()))
        .collect();
    grade_class_ordered(
        &sandbox,
        &CountingBuild {
            now: 0.into(),
            most: 0.into(),
        },
        &suite,
        Class {
            students: &class,
            order,
        },
        cores,
        Config::load(None).unwrap().scratch,
        reporter,
    )
    .unwrap()
}

/// Submissions start in the order asked (the longest an earlier run took first, `grader run`), and the
/// results still come back in student order, each the student's own.
#[test]
fn a_class_starts_in_the_order_given_and_answers_in_student_order() {
    use crate::report::events::{Event, Reporter};
    use crate::sandbox::pace::Cores;
    struct Starts(std::sync::Mutex<Vec<String>>);
    impl Reporter for Starts {
        fn report(&self, event: &Event<'_>) {
            if let Event::SubmissionStarted { student, .. } = event {
                self.0.lock().unwrap().push((*student).to_string());
            }
        }
    }
    let starts = Starts(std::sync::Mutex::new(Vec::new()));
    let results = graded_in_order(&[2, 0, 3, 1], &Cores::new(1, 0), &starts);
    assert_eq!(*starts.0.lock().unwrap(), ["s2", "s0", "s3", "s1"]);
    let students: Vec<&str> = results.iter().map(|r| r.student.as_str()).collect();
    assert_eq!(students, ["s0", "s1", "s2", "s3"]);
}

/// [`Scripted`], each run taking 30 ms, counting how many run at once.
#[derive(Default)]
struct AtOnce {
    now: std::sync::atomic::AtomicUsize,
    most: std::sync::atomic::AtomicUsize,
}

impl Sandbox for AtOnce {
    fn tier(&self) -> Tier {
        Tier::None
    }
    fn spawn(&self, spec: &Spec) -> Result<Box<dyn Running>, SandboxError> {
        Scripted.spawn(spec)
    }
    fn run(&self, spec: &Spec) -> Result<Outcome, SandboxError> {
        use std::sync::atomic::Ordering::SeqCst;
        let now = self.now.fetch_add(1, SeqCst) + 1;
        self.most.fetch_max(now, SeqCst);
        std::thread::sleep(Duration::from_millis(30));
        let outcome = Scripted.run(spec);
        self.now.fetch_sub(1, SeqCst);
        outcome
    }
}

/// With slots free, helpers make the first runs of a submission's later run cases while its worker
/// makes its own (`grade::ahead`); the result is the worker's alone, byte for byte: second runs, the
/// rule for a program far over its limit twice, and the integrity check on the first case it suits.
#[test]
fn cases_run_ahead_on_free_slots_give_the_results_of_one_worker() {
    use crate::sandbox::pace::{Cores, Pacer};
    let cores = Cores::new(3, 0);
    let mut most = 0;
    for program in [
        "good",
        "stopped",
        "near-limit",
        "by-folder",
        "crash",
        "sleeps",
    ] {
        let alone = grade(program);
        let at_once = Arc::new(AtOnce::default());
        let helped = {
            let _slot = Pacer::enter(&cores);
            grade_on(SUITE, program, at_once.clone())
        };
        // Timings aside: the build's wall time is the clock's (seen 0 ms alone, 1 ms helped).
        let untimed = |mut r: crate::report::result::SubmissionResult| {
            r.build.wall_ms = 0;
            r.to_json()
        };
        assert_eq!(untimed(alone), untimed(helped), "{program}");
        most = most.max(at_once.most.load(std::sync::atomic::Ordering::SeqCst));
    }
    // Three run cases, three slots: some ran at once.
    assert!(most >= 2, "at most {most} run at once");
    // Every helper gave its slot back.
    assert_eq!(cores.free(), 3);
}

/// A submission's slot goes back once its programs are done, before its result is written: the next
/// submission starts while the files are written (and synced), on one slot.
#[test]
fn the_next_submission_starts_while_a_result_is_written() {
    use crate::report::events::{Event, Reporter};
    use crate::sandbox::pace::Cores;
    use std::sync::{Condvar, Mutex};
    /// Holds the first result's writing until the second submission has started (or 10 s passed).
    struct SlowWriter {
        started: Mutex<Vec<String>>,
        changed: Condvar,
        seen_while_writing: Mutex<Option<bool>>,
    }
    impl Reporter for SlowWriter {
        fn report(&self, event: &Event<'_>) {
            match event {
                Event::SubmissionStarted { student, .. } => {
                    self.started.lock().unwrap().push((*student).to_string());
                    self.changed.notify_all();
                }
                Event::SubmissionFinished { result, .. } if result.student == "s0" => {
                    let started = self.started.lock().unwrap();
                    let (started, _) = self
                        .changed
                        .wait_timeout_while(started, Duration::from_secs(10), |s| {
                            !s.iter().any(|s| s == "s1")
                        })
                        .unwrap();
                    let seen = started.iter().any(|s| s == "s1");
                    *self.seen_while_writing.lock().unwrap() = Some(seen);
                }
                _ => {}
            }
        }
    }
    let writer = SlowWriter {
        started: Mutex::new(Vec::new()),
        changed: Condvar::new(),
        seen_while_writing: Mutex::new(None),
    };
    // One slot, and one more worker (a slot may be lent once): the second worker can only start the
    // second submission on the slot the first gave back.
    let results = graded_in_order(&[0, 1], &Cores::new(1, 1), &writer);
    assert_eq!(results.len(), 2);
    assert_eq!(
        *writer.seen_while_writing.lock().unwrap(),
        Some(true),
        "the second submission started while the first's result was being written"
    );
}
