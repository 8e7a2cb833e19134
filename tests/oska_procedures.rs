//! The Oska suite's Python adapter on hand-ins of the procedure's shape (`suites/ubc-2004-oska/adapters/
//! oska_adapter.py`), run directly as the suite runs it: which function it calls, what board it hands
//! over, how it reads the answer, and how each way of going wrong is told. Python 3, and Python 2 where
//! the hand-in is Python 2.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{grader, repo, scratch};

const START: &str = "[[w,w,w,w],[e,e,e],[e,e],[e,e,e],[b,b,b,b]]";
const BLOCKED: &str = "[[e,e,e,e],[e,e,e],[e,e],[b,w,e],[b,b,b,e]]";

fn adapter() -> PathBuf {
    repo().join("suites/ubc-2004-oska/adapters/oska_adapter.py")
}

fn python(version: &str) -> Option<PathBuf> {
    grader::toolchain::Toolchain::global()
        .tool(version)
        .map(Path::to_path_buf)
}

/// What one call printed: the answer line (stdout), stderr, and the exit code.
struct Asked {
    out: String,
    err: String,
    code: Option<i32>,
}

/// A folder of `files`, asked for one move as the suite asks (`python -S -B adapter DIR ENTRY BOARD
/// COLOUR DEPTH`).
fn ask(interpreter: &Path, files: &[(&str, &str)], entry: &str, board: &str, side: &str) -> Asked {
    let dir = scratch();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let out = Command::new(interpreter)
        .args(["-S", "-B"])
        .arg(adapter())
        .arg(dir.path())
        .args([entry, board, side, "2"])
        .env("PYTHONHASHSEED", "0")
        .current_dir(dir.path())
        .output()
        .unwrap();
    Asked {
        out: String::from_utf8_lossy(&out.stdout).trim().to_string(),
        err: String::from_utf8_lossy(&out.stderr).to_string(),
        code: out.status.code(),
    }
}

fn ask3(files: &[(&str, &str)], entry: &str, board: &str, side: &str) -> Option<Asked> {
    let Some(p) = python("python3") else {
        eprintln!("skipped: no python3");
        return None;
    };
    Some(ask(&p, files, entry, board, side))
}

/// A player that moves its first piece's first step (reading order), in whatever shape it is told.
const FIRST_STEP: &str = r#"
def first_step(board, colour, depth):
    rows = [list(r) for r in board]
    ahead = 1 if colour == 'w' else -1
    for r in range(len(rows)):
        for i in range(len(rows[r])):
            if rows[r][i] != colour:
                continue
            for j in (i - 1, i, i + 1):
                nr = r + ahead
                if 0 <= nr < len(rows) and 0 <= j < len(rows[nr]) and rows[nr][j] == EMPTY:
                    x, nx = 2 * i - len(rows[r]) + 1, 2 * j - len(rows[nr]) + 1
                    if abs(x - nx) == 1:
                        rows[r][i], rows[nr][j] = EMPTY, colour
                        return rows
    return None
"#;

fn player(empty: &str, name: &str, body: &str) -> String {
    format!("EMPTY = '{empty}'\n{FIRST_STEP}\ndef {name}(board, colour, depth):\n{body}\n")
}

#[test]
fn the_one_function_of_three_arguments_is_called_whatever_its_name() {
    let file = player(
        "-",
        "next_board_zz9",
        "    return [''.join(r) for r in first_step(board, colour, depth)]",
    );
    // `first_step` takes three arguments too, but `next_board_zz9` calls it.
    let Some(a) = ask3(&[("mine.py", &file)], "", START, "w") else {
        return;
    };
    assert_eq!(
        a.out, "[[e,w,w,w],[w,e,e],[e,e],[e,e,e],[b,b,b,b]]",
        "{}",
        a.err
    );
    assert_eq!(a.code, Some(0), "{}", a.err);
}

#[test]
fn a_name_with_oska_wins_over_helpers_and_a_driver_calling_it_does_not_hide_it() {
    let ai = player(
        "-",
        "oska_play",
        "    return first_step(board, colour, depth)",
    );
    // A terminal game (guarded, never run) calls the procedure, and a helper of three arguments no
    // one calls sits beside it.
    let game = "from ai import oska_play\n\ndef prompt(board, colour, text):\n    return input(text)\n\ndef main():\n    print(oska_play(['wwww','---','--','---','bbbb'], 'w', 2))\n\nif __name__ == '__main__':\n    main()\n";
    let Some(a) = ask3(&[("ai.py", &ai), ("game.py", game)], "", START, "w") else {
        return;
    };
    assert_eq!(
        a.out, "[[e,w,w,w],[w,e,e],[e,e],[e,e,e],[b,b,b,b]]",
        "{}",
        a.err
    );
}

#[test]
fn two_equally_plausible_functions_or_none_are_said_so() {
    let two = format!(
        "{}\ndef oskaplayer_v1(board, colour, depth):\n    return board\n",
        player(
            "-",
            "oskaplayer",
            "    return first_step(board, colour, depth)"
        )
    );
    let Some(a) = ask3(&[("p.py", &two)], "", START, "w") else {
        return;
    };
    assert_eq!(a.code, Some(2), "{}", a.err);
    assert!(a.out.is_empty());
    assert!(
        a.err.contains("cannot tell which function is your Oska procedure: `oskaplayer` (p.py), `oskaplayer_v1` (p.py)"),
        "{}",
        a.err
    );
    // The instructor names it: that one is called.
    let a = ask3(&[("p.py", &two)], "p.py:oskaplayer_v1", START, "w").unwrap();
    assert_eq!(a.out, START, "{}", a.err);

    let none = "def helper(board):\n    return board\n";
    let broken = "def oskaplayer(board, colour, depth)\n    return board\n";
    let a = ask3(&[("a.py", none), ("b.py", broken)], "", START, "w").unwrap();
    assert_eq!(a.code, Some(2), "{}", a.err);
    assert!(
        a.err.contains("no function of three parameters"),
        "{}",
        a.err
    );
    assert!(a.err.contains("`b.py`: SyntaxError at line 1"), "{}", a.err);

    let a = ask3(&[("a.py", none)], "oskaplayer colour=blue", START, "w").unwrap();
    assert!(
        a.err
            .contains("the entry setting `colour=blue` is not one of"),
        "{}",
        a.err
    );
}

#[test]
fn the_board_comes_as_the_code_expects_it() {
    // Code that compares with 'e' and never '-' gets the handout's lists; it may return lists.
    let lists = player(
        "e",
        "oskamaniac_k2",
        "    assert isinstance(board[0], list), board\n    return first_step(board, colour, depth)",
    );
    let Some(a) = ask3(&[("k.py", &lists)], "", START, "b") else {
        return;
    };
    assert_eq!(
        a.out, "[[w,w,w,w],[e,e,e],[e,e],[b,e,e],[e,b,b,b]]",
        "{}",
        a.err
    );
    // Code on '-' gets row strings.
    let strings = player(
        "-",
        "oskaplayer",
        "    assert board[0] == 'wwww', board\n    return tuple(''.join(r).upper() for r in first_step(board, colour, depth))",
    );
    let a = ask3(&[("s.py", &strings)], "", START, "b").unwrap();
    assert_eq!(
        a.out, "[[w,w,w,w],[e,e,e],[e,e],[b,e,e],[e,b,b,b]]",
        "{}",
        a.err
    );
    // The instructor can say otherwise: lists with '-', and the side as a word.
    let words = player(
        "-",
        "oskaplayer",
        "    assert board[0] == ['w', 'w', 'w', 'w'] and colour == 'black', (board, colour)\n    return first_step(board, 'b', depth)",
    );
    let a = ask3(&[("s.py", &words)], "board=lists colour=words", START, "b").unwrap();
    assert_eq!(
        a.out, "[[w,w,w,w],[e,e,e],[e,e],[b,e,e],[e,b,b,b]]",
        "{}",
        a.err
    );
}

#[test]
fn no_board_a_printed_board_and_garbage_are_read_as_a_ta_would() {
    // None (or []) is no next board: a pass.
    let none = player(
        "-",
        "oskaplayer",
        "    return first_step(board, colour, depth)",
    );
    let Some(a) = ask3(&[("n.py", &none)], "", BLOCKED, "w") else {
        return;
    };
    assert_eq!((a.out.as_str(), a.code), ("", Some(0)), "{}", a.err);
    assert!(a.err.contains("returned None: no next board"), "{}", a.err);

    // Printed, not returned: the printed board counts; what the module printed on import does not.
    let prints = format!(
        "{}print(['wwww', '---', '--', '---', 'bbbb'])\n",
        player("-", "oskaplayer", "    b = first_step(board, colour, depth)\n    if b:\n        print([''.join(r) for r in b])")
    );
    let a = ask3(&[("p.py", &prints)], "", START, "w").unwrap();
    assert_eq!(
        a.out, "[[e,w,w,w],[w,e,e],[e,e],[e,e,e],[b,b,b,b]]",
        "{}",
        a.err
    );
    assert!(
        a.err.contains("returned None but printed a board"),
        "{}",
        a.err
    );
    let a = ask3(&[("p.py", &prints)], "", BLOCKED, "w").unwrap();
    assert_eq!(a.out, "", "{}", a.err);

    // Anything else is told as what it was, on the answer line the referee quotes.
    for (body, said) in [
        (
            "    return 0",
            "oskaplayer returned 0 (an int), not a board",
        ),
        (
            "    return ['wwww', '--x', '--', '---', 'bbbb']",
            "oskaplayer row 2 holds 'x'",
        ),
        (
            "    return [['w', 'w'], 7]",
            "oskaplayer a row is 7, not a string",
        ),
    ] {
        let a = ask3(
            &[("g.py", &player("-", "oskaplayer", body))],
            "",
            START,
            "w",
        )
        .unwrap();
        assert!(a.out.starts_with(said), "{body}: {} / {}", a.out, a.err);
        assert_eq!(a.code, Some(0));
    }
}

#[test]
fn raising_exiting_and_changing_the_board_are_the_students_and_say_where() {
    let raises = player(
        "-",
        "oskaplayer",
        "    return first_step(board, colour, depth)[9][9]",
    );
    let Some(a) = ask3(&[("r.py", &raises)], "", START, "w") else {
        return;
    };
    assert_eq!(a.code, Some(1), "{}", a.err);
    assert!(a.out.is_empty());
    let last = a.err.trim().lines().last().unwrap();
    assert!(
        last.starts_with("error: `oskaplayer` raised IndexError at line 20 of `r.py`"),
        "{last}"
    );

    let exits = player("-", "oskaplayer", "    import sys\n    sys.exit(3)");
    let a = ask3(&[("x.py", &exits)], "", START, "w").unwrap();
    assert_eq!(a.code, Some(1), "{}", a.err);
    assert!(
        a.err
            .contains("called sys.exit(3): return the next board instead"),
        "{}",
        a.err
    );

    let loads =
        "import no_such_module_here\ndef oskaplayer(board, colour, depth):\n    return board\n";
    let a = ask3(&[("l.py", loads)], "", START, "w").unwrap();
    assert_eq!(a.code, Some(1), "{}", a.err);
    assert!(a.err.contains("error: loading `l.py` raised"), "{}", a.err);

    // Changed in place and returned: said, and the answer still counts.
    let mutates = player(
        "-",
        "oskaplayer",
        "    board[:] = [''.join(r) for r in first_step(board, colour, depth)]\n    return board",
    );
    let a = ask3(&[("m.py", &mutates)], "", START, "w").unwrap();
    assert_eq!(
        a.out, "[[e,w,w,w],[w,e,e],[e,e],[e,e,e],[b,b,b,b]]",
        "{}",
        a.err
    );
    assert!(
        a.err
            .contains("`oskaplayer` changed the board it was given"),
        "{}",
        a.err
    );
}

#[test]
fn a_program_reading_its_arguments_runs_as_a_program() {
    let program = "import sys\nprint('debug', file=sys.stderr)\nprint(sys.argv[1])\n";
    let Some(a) = ask3(&[("oska.py", program)], "", START, "w") else {
        return;
    };
    assert_eq!(a.out, START, "{}", a.err);
    assert_eq!(a.err.trim(), "debug");
}

#[test]
fn python_2_procedures_are_called_under_python_2() {
    let Some(two) = python("python2") else {
        return eprintln!("skipped: no python2");
    };
    let file = "EMPTY = 'e'\n".to_string()
        + FIRST_STEP
        + "\ndef oskamaniac_py2(board, colour, depth):\n    print 'thinking', len(board)\n    return first_step(board, colour, depth)\n";
    let a = ask(&two, &[("old.py", &file)], "", START, "w");
    assert_eq!(
        a.out, "[[e,w,w,w],[w,e,e],[e,e],[e,e,e],[b,b,b,b]]",
        "{}",
        a.err
    );
    assert!(a.err.contains("thinking 5"), "{}", a.err);
    let raises = "def oskaplayer(board, colour, depth):\n    print 'oops'\n    return board[99]\n";
    let a = ask(&two, &[("r.py", raises)], "", START, "w");
    let last = a.err.trim().lines().last().unwrap_or("");
    assert!(
        last.starts_with("error: `oskaplayer` raised IndexError at line 3 of `r.py`"),
        "{}",
        a.err
    );
}

#[test]
fn garbage_loses_the_game_with_what_it_was_through_the_grader() {
    let dir = scratch();
    let sub = dir.path().join("garbage");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(
        sub.join("oskaplayer.py"),
        "def oskaplayer(board, player, depth):\n    return len(board)\n",
    )
    .unwrap();
    // `check` keeps the games in a temporary folder: this test's, removed with it.
    let out = grader()
        .env("TMPDIR", dir.path())
        .arg("check")
        .arg(repo().join("suites/ubc-2004-oska"))
        .arg(&sub)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("you printed `oskaplayer returned 5 (an int), not a board`"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_hand_in_with_its_own_random_and_ast_modules_is_still_read() {
    let prints = "import random, ast\nassert random.MINE and ast.MINE\n\ndef oskaplayer(board, colour, depth):\n    print(['www-', '--w', '--', '---', 'bbbb'])\n";
    let mine = "MINE = True\n";
    let Some(a) = ask3(
        &[("p.py", prints), ("random.py", mine), ("ast.py", mine)],
        "",
        START,
        "w",
    ) else {
        return;
    };
    assert_eq!(
        a.out, "[[w,w,w,e],[e,e,w],[e,e],[e,e,e],[b,b,b,b]]",
        "{}",
        a.err
    );
}
