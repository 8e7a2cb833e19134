//! The Super-Tic-Tac-Toe suite (seed 000): its Guile adapter driven directly over the persistent
//! protocol, and the pinned grades of its example submissions. Skipped, with the reason printed, when
//! GNU Guile is not installed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::util::{repo, scratch};

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
        err.starts_with("sttt adapter: your AI `my-ai` raised an error on its turn 2: "),
        "{err}"
    );
    assert!(err.contains("car"), "{err}");
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
        stderr(&out).contains("loading `mine.scm` raised an error:"),
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
