//! The Super-Tic-Tac-Toe suite (seed 000): its Guile adapter driven directly over the persistent
//! protocol, and the pinned grades of its example submissions. Skipped, with the reason printed, when
//! GNU Guile is not installed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use std::sync::OnceLock;

use crate::util::{case, grade_class, grader, read, repo, scratch};

pub const SUITE: &str = "suites/csci1901-2004-sttt";
pub const EXAMPLES: &str = "examples/submissions/csci1901-2004-sttt";

/// Whether `guile` runs here; says why not on stderr.
pub fn have_guile() -> bool {
    let ok = Command::new("guile")
        .arg("--version")
        .stdout(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: GNU Guile (`guile`) is not installed");
    }
    ok
}

fn adapter_path() -> PathBuf {
    repo().join(SUITE).join("adapters/grader-sttt.scm")
}

const EMPTY: &str = "(big (little () () () () () () () () ()) (little () () () () () () () () ()) \
(little () () () () () () () () ()) (little () () () () () () () () ()) (little () () () () () () () () ()) \
(little () () () () () () () () ()) (little () () () () () () () () ()) (little () () () () () () () () ()) \
(little () () () () () () () () ()))";

/// Runs the adapter on `dir` (with `entry`, maybe empty), feeding `game`, the given turns and `end`.
fn drive(dir: &Path, entry: &str, turns: &[&str]) -> Output {
    let mut input = String::from("game\tsttt\tx\t1000\n");
    for state in turns {
        input.push_str(&format!("turn\tx\tnone\t{state}\n"));
    }
    input.push_str("end\tx wins\n");
    let mut child = Command::new("guile")
        .arg("--no-auto-compile")
        .arg("-s")
        .arg(adapter_path())
        .arg(dir)
        .arg(entry)
        // A compiled copy of the adapter in the user's cache makes Guile print a note; runs under the
        // sandbox have no cache at all.
        .env("XDG_CACHE_HOME", dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("guile starts");
    let mut stdin = child.stdin.take().unwrap();
    // The adapter may exit early (a load error): a broken pipe is part of what is tested.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// A submission folder holding `files` (name, Scheme text).
fn submission(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = scratch();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// One student file whose `my-ai` returns `answer` (a Scheme expression) every turn.
fn answering(answer: &str) -> tempfile::TempDir {
    submission(&[(
        "ai.scm",
        &format!(
            "(define (make-ai) (define (AI board who) {answer}) AI)\n(define my-ai (make-ai))\n"
        ),
    )])
}

#[test]
fn a_well_formed_answer_goes_back_as_the_handout_writes_it() {
    if !have_guile() {
        return;
    }
    let dir = answering("'((1 . 1) (5 . 5))");
    let out = drive(dir.path(), "", &[EMPTY]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "ready\n((1 . 1) (5 . 5))\n");
}

#[test]
fn the_handouts_null_placement_and_out_of_range_numbers_pass_through_for_the_referee() {
    if !have_guile() {
        return;
    }
    let dir = answering("'(() (9 . 9))");
    assert_eq!(
        stdout(&drive(dir.path(), "", &[EMPTY])),
        "ready\n(() (9 . 9))\n"
    );
    let dir = answering("'((0 . 10) (1 . 2))");
    assert_eq!(
        stdout(&drive(dir.path(), "", &[EMPTY])),
        "ready\n((0 . 10) (1 . 2))\n"
    );
}

#[test]
fn malformed_answers_become_one_line_the_referee_reads_as_forfeited_placements() {
    if !have_guile() {
        return;
    }
    // (answer, the line the referee gets)
    let cases = [
        ("'((1 5) (2 . 3))", "((1 5) (2 . 3))"),
        ("'((1 . 5))", "((1 . 5))"),
        ("#f", "#f"),
        ("42", "42"),
        ("\"a (b\\nc\"", r#""a_[b\nc""#),
        ("'((1.5 . 2) (x . y))", "((1.5 . 2) (x . y))"),
        (
            "(list (vector 1 2) \"two words\")",
            "(#[1_2] \"two_words\")",
        ),
        // A bignum's 100,000 digits would flood the protocol's line.
        (
            "(list (cons (expt 10 100000) 1) '(1 . 1))",
            "([#_._1] (1 . 1))",
        ),
    ];
    for (answer, line) in cases {
        let dir = answering(answer);
        let out = drive(dir.path(), "", &[EMPTY]);
        assert!(out.status.success(), "{answer}: {}", stderr(&out));
        assert_eq!(stdout(&out), format!("ready\n{line}\n"), "answer {answer}");
    }
}

#[test]
fn a_circular_answer_is_cut_short_not_printed_forever() {
    if !have_guile() {
        return;
    }
    let dir = answering("(let ((l (list 1 2 3))) (set-cdr! (cddr l) l) l)");
    let out = drive(dir.path(), "", &[EMPTY]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let reply = text.lines().nth(1).expect("a reply line");
    assert!(reply.len() <= 100, "{reply}");
}

#[test]
fn output_printed_by_the_student_goes_to_stderr_and_input_reads_as_empty() {
    if !have_guile() {
        return;
    }
    let dir = submission(&[(
        "ai.scm",
        "(display \"loading\") (newline)\n\
         (define (my-ai board who)\n\
           (display \"((9 . 9) (9 . 8))\") (newline)\n\
           (if (eof-object? (read)) '((2 . 2) (3 . 3)) '((4 . 4) (4 . 5))))\n",
    )]);
    let out = drive(dir.path(), "", &[EMPTY, EMPTY]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "ready\n((2 . 2) (3 . 3))\n((2 . 2) (3 . 3))\n"
    );
    assert!(stderr(&out).contains("loading"), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("((9 . 9) (9 . 8))"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_ai_gets_the_board_as_a_list_and_the_side_as_a_symbol_fresh_each_turn() {
    if !have_guile() {
        return;
    }
    // Answers (1 . 1) only when the board is the handout's list with `x` in its first square, the side
    // the symbol `x`, and the previous turn's vandalism (set-car!) did not carry over.
    let dir = submission(&[(
        "ai.scm",
        "(define (my-ai board who)\n\
           (let ((ok (and (eq? (car board) 'big) (eq? who 'x)\n\
                          (eq? (car (list-ref board 1)) 'little)\n\
                          (eq? (list-ref (list-ref board 1) 1) 'x)\n\
                          (null? (list-ref (list-ref board 9) 9)))))\n\
             (set-car! (list-ref board 1) 'vandal)\n\
             (if ok '((1 . 2) ()) '((9 . 9) ()))))\n",
    )]);
    let state = EMPTY.replacen("(little ()", "(little x", 1);
    let out = drive(dir.path(), "", &[&state, &state]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "ready\n((1 . 2) ())\n((1 . 2) ())\n");
}

#[test]
fn a_scheme_error_in_the_ai_ends_the_process_with_a_one_line_reason() {
    if !have_guile() {
        return;
    }
    let dir = submission(&[(
        "ai.scm",
        "(define my-ai (let ((n 0)) (lambda (board who) (set! n (+ n 1))\n\
           (if (= n 2) (car '()) '((1 . 1) (1 . 2))))))\n",
    )]);
    let out = drive(dir.path(), "", &[EMPTY, EMPTY, EMPTY]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "ready\n((1 . 1) (1 . 2))\n");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("In procedure car: Wrong type argument"),
        "{err}"
    );
    assert!(
        err.trim_end()
            .ends_with("(in your AI `my-ai` on its turn 2)"),
        "{err}"
    );
}

#[test]
fn the_entry_named_by_the_suite_is_used_and_a_missing_one_is_named() {
    if !have_guile() {
        return;
    }
    let dir = submission(&[(
        "team.scm",
        "(define (our-ai board who) '((3 . 3) (3 . 4)))\n(define (my-ai board who) '((1 . 1) (1 . 2)))\n",
    )]);
    assert_eq!(
        stdout(&drive(dir.path(), "our-ai", &[EMPTY])),
        "ready\n((3 . 3) (3 . 4))\n"
    );
    assert_eq!(
        stdout(&drive(dir.path(), "", &[EMPTY])),
        "ready\n((1 . 1) (1 . 2))\n"
    );
    let out = drive(dir.path(), "their-ai", &[EMPTY]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("`team.scm` does not define the procedure `their-ai`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn without_my_ai_the_one_two_argument_procedure_is_found() {
    if !have_guile() {
        return;
    }
    let dir = submission(&[(
        "player.scm",
        "(define (make-player) (lambda (board who) '((5 . 5) (5 . 1))))\n\
         (define helper-count 3)\n\
         (define (square-at board) (car board))\n\
         (define smart-ai (make-player))\n",
    )]);
    assert_eq!(
        stdout(&drive(dir.path(), "", &[EMPTY])),
        "ready\n((5 . 5) (5 . 1))\n"
    );
}

#[test]
fn no_candidate_or_several_candidates_are_said_clearly() {
    if !have_guile() {
        return;
    }
    let none = submission(&[("a.scm", "(define (make-ai) 1)\n")]);
    let out = drive(none.path(), "", &[EMPTY]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("defines no `my-ai` and no top-level procedure taking (board who)"),
        "{}",
        stderr(&out)
    );
    let several = submission(&[(
        "a.scm",
        "(define (ai-one board who) '())\n(define (ai-two board who) '())\n",
    )]);
    let out = drive(several.path(), "", &[EMPTY]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out)
            .contains("several top-level procedures taking two arguments (`ai-one`, `ai-two`)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn my_ai_left_as_the_factory_is_explained() {
    if !have_guile() {
        return;
    }
    let dir = submission(&[(
        "a.scm",
        "(define (make-ai) (lambda (board who) '()))\n(define my-ai make-ai)\n",
    )]);
    let out = drive(dir.path(), "", &[EMPTY]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("`my-ai` in `a.scm` does not take two arguments (board who)"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("(define my-ai (make-ai))"));
}

#[test]
fn files_that_do_not_load_or_are_not_one_are_named() {
    if !have_guile() {
        return;
    }
    let broken = submission(&[(
        "mine.scm",
        "(define my-ai (lambda (b w) (start! my-ai random-ai)))\n(start! my-ai random-ai)\n",
    )]);
    let out = drive(broken.path(), "", &[EMPTY]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("(while loading `mine.scm`); hint: the file must load on its own"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("start!"), "{}", stderr(&out));

    let empty = submission(&[("notes.txt", "")]);
    let out = drive(empty.path(), "", &[EMPTY]);
    assert!(
        stderr(&out).contains("no Scheme file (`*.scm`, `*.ss` or `*.stk`) in the submission"),
        "{}",
        stderr(&out)
    );

    let two = submission(&[("a.scm", ""), ("b.stk", "")]);
    let out = drive(two.path(), "", &[EMPTY]);
    assert!(
        stderr(&out).contains("several Scheme files in the submission (`a.scm`, `b.stk`)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_examples_written_in_scheme_answer_a_first_turn_legally() {
    if !have_guile() {
        return;
    }
    for student in [
        "decent",
        "random",
        "template",
        "prints-stdout",
        "stale-state",
    ] {
        let out = drive(&repo().join(EXAMPLES).join(student), "", &[EMPTY]);
        assert!(out.status.success(), "{student}: {}", stderr(&out));
        let text = stdout(&out);
        let reply = text.lines().nth(1).unwrap_or_default();
        let game = reference::games::Sttt::new();
        use reference::Notation;
        assert!(
            game.parse_move(reply).is_ok(),
            "{student} answered `{reply}` to the empty board"
        );
    }
}

/// Grades every example once per test process (two jobs) and keeps the results folder.
fn graded() -> &'static Path {
    static RESULTS: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, results) = RESULTS.get_or_init(|| {
        let dir = scratch();
        let results = grade_class(dir.path(), &repo().join(SUITE), &repo().join(EXAMPLES));
        (dir, results)
    });
    results
}

fn result(student: &str) -> serde_json::Value {
    serde_json::from_str(&read(&graded().join(student).join("result.json"))).unwrap()
}

/// Every case's verdict, every group's points and each score (the tournament's bonus aside), as the
/// `<example>.expected.toml` files pin them (EXPECTED.md explains each), compared through the code
/// `grader verify` uses.
#[test]
fn every_example_gets_its_pinned_verdicts_and_points() {
    if !have_guile() {
        return;
    }
    crate::util::assert_as_expected(graded(), &repo().join(EXAMPLES), &[]);
}

/// Each flaw is reported in the words of the game and the handout, on every game it spoiled.
#[test]
fn every_flaw_is_named_in_the_details_of_the_legal_cases() {
    if !have_guile() {
        return;
    }
    let expect = [
        ("malformed-move", "ill-formatted placement `("),
        ("illegal-move", "is already won"),
        ("stale-state", "is already occupied"),
        ("too-slow", "timed out after"),
        ("crash-turn-5", "crashed"),
    ];
    for (student, words) in expect {
        let r = result(student);
        for name in ["legal-vs-random", "legal-vs-offensive"] {
            let details = case(&r, name)["details"].as_array().unwrap();
            // A fault repeated in several games is said once with their numbers
            // ("games 1, 3 and 5: ..."): every one of the six games is named once.
            let games: Vec<&str> = details
                .iter()
                .map(|d| d.as_str().unwrap())
                .filter(|d| d.starts_with("game"))
                .collect();
            let named: usize = games
                .iter()
                .map(|d| {
                    let head = d.split(':').next().unwrap_or_default();
                    head.split([' ', ','])
                        .filter(|w| w.parse::<u32>().is_ok())
                        .count()
                })
                .sum();
            assert_eq!(named, 6, "{student} {name}: {details:?}");
            for d in games {
                assert!(d.contains(words), "{student} {name}: `{d}` lacks `{words}`");
            }
        }
    }
    // A crash is explained by the last lines of its stderr, once, under the first game it ended.
    let crash = result("crash-turn-5");
    let details = case(&crash, "legal-vs-random")["details"].to_string();
    assert!(
        details.contains("In procedure car: Wrong type argument"),
        "{details}"
    );
    assert!(details.contains("(stderr as in game 1)"), "{details}");
    let slow = result("too-slow");
    let first = case(&slow, "legal-vs-random")["details"][0]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(first.contains("(limit 1.00 s + 250 ms margin)"), "{first}");
}

#[test]
fn the_gradebook_has_the_tournament_bonus_and_leaves_the_effort_column_blank() {
    if !have_guile() {
        return;
    }
    let csv = read(&graded().join("grades.csv"));
    // Issue 17: the run plays the class tournament; its bonus marks (000:23) are in the total. The five
    // that do not play all their `legal` games legally are not allowed in (000:23, "in order to enter,
    // your AI must be capable of making legal moves without crashing"): 0. The five others play the
    // section round robin (seed 2004), then the top four the knockout: EXPECTED.md explains each mark.
    // The 15 effort marks are a person's (issue 32): out of 50, incomplete until given.
    assert_eq!(
        csv,
        "student,legal,bots,tournament,effort,max,late-hours,late-deduction,total,total-note\n\
         crash-turn-5,0,0,0,,50,,,,incomplete: 15 manual marks not given\n\
         decent,15,20,40,,50,,,,incomplete: 15 manual marks not given\n\
         illegal-move,0,0,0,,50,,,,incomplete: 15 manual marks not given\n\
         malformed-move,0,0,0,,50,,,,incomplete: 15 manual marks not given\n\
         prints-stdout,15,0,0,,50,,,,incomplete: 15 manual marks not given\n\
         python-protocol,15,20,30,,50,,,,incomplete: 15 manual marks not given\n\
         random,15,0,20,,50,,,,incomplete: 15 manual marks not given\n\
         stale-state,0,0,0,,50,,,,incomplete: 15 manual marks not given\n\
         template,15,15,20,,50,,,,incomplete: 15 manual marks not given\n\
         too-slow,0,0,0,,50,,,,incomplete: 15 manual marks not given\n"
    );
    assert_eq!(
        read(&graded().join("tournament.csv")),
        "rank,student,stage,points,games,won,drawn,lost,faults,marks\n\
         1,decent,knockout final,2,2,1,0,1,0,40\n\
         2,python-protocol,knockout final,2,2,1,0,1,0,30\n\
         3,random,knockout round 1,0,2,0,0,2,0,20\n\
         4,template,knockout round 1,0,2,0,0,2,0,20\n\
         5,prints-stdout,stage 1 group 1,2,8,1,0,7,0,0\n\
         ,crash-turn-5,left out: failed `legal`,,,,,,,0\n\
         ,illegal-move,left out: failed `legal`,,,,,,,0\n\
         ,malformed-move,left out: failed `legal`,,,,,,,0\n\
         ,stale-state,left out: failed `legal`,,,,,,,0\n\
         ,too-slow,left out: failed `legal`,,,,,,,0\n"
    );
    // A bonus counts in the score, not in the maximum.
    let decent = result("decent");
    assert_eq!(
        (&decent["score"], &decent["max"]),
        (&75.0.into(), &35.0.into()),
        "{decent}"
    );
    assert_eq!(decent["tournament"]["bonus"], true, "{decent}");
}

#[test]
fn the_legal_cases_measure_the_very_games_the_bots_cases_score() {
    if !have_guile() {
        return;
    }
    let games = graded().join("decent/games");
    let legal = read(&games.join("legal-vs-offensive-3.json"));
    let bots = read(&games.join("beats-offensive-3.json"));
    let strip = |text: &str| -> serde_json::Value {
        let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
        for m in v["moves"].as_array_mut().unwrap() {
            m["micros"] = serde_json::Value::Null;
        }
        v
    };
    assert_eq!(strip(&legal), strip(&bots));
}

/// The class tournament on the suite: a section round robin, its top four in a knockout, bonus marks by
/// final rank; the crashing entrant is ranked last with nothing.
#[test]
fn the_suite_tournament_plays_the_round_robin_then_the_knockout() {
    if !have_guile() {
        return;
    }
    let dir = scratch();
    let examples = repo().join(EXAMPLES);
    let out = grader()
        .arg("tournament")
        .arg(repo().join(SUITE))
        .args(
            [
                "decent",
                "template",
                "python-protocol",
                "random",
                "crash-turn-5",
            ]
            .map(|s| examples.join(s)),
        )
        .args(["--jobs", "2", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    for stage in ["stage 1 group 1", "knockout round 1", "knockout final"] {
        assert!(stdout.contains(stage), "{stdout}");
    }
    assert!(stdout.contains("champion: python-protocol"), "{stdout}");
    assert_eq!(
        read(&dir.path().join("csci1901-2004-sttt/tournament.csv")),
        "rank,student,stage,points,games,won,drawn,lost,faults,marks\n\
         1,python-protocol,knockout final,2,2,1,0,1,0,40\n\
         2,decent,knockout final,2,2,1,0,1,0,30\n\
         3,random,knockout round 1,0,2,0,0,2,0,20\n\
         4,template,knockout round 1,0,2,0,0,2,0,20\n\
         5,crash-turn-5,stage 1 group 1,0,8,0,0,8,6,0\n"
    );
}
