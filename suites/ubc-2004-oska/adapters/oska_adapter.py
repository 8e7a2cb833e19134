"""The grader's Python adapter for the UBC 2004 Oska suite: asks a student's Oska procedure for one move.

Usage: python3 -S -B oska_adapter.py DIR ENTRY BOARD COLOUR DEPTH (or python2: it runs under both)

The handout's interface is a procedure of the board, the side and the depth that gives the next board,
under a name the student chooses (004:57-72, 004:195-214). In Python that is a function of three
arguments returning the board, as later offerings of the course asked (`oskaplayer(board, colour,
depth)`). The adapter finds it, calls it once, and prints the board it returned on stdout in the
handout's notation (`[[w,w,w,e],[e,e,w],[e,e],[e,e,e],[b,b,b,b]]`); nothing for no board (a pass).

- A program of the suite's other form (`oska.py` reading its arguments from `sys.argv`) is run as it
  is, exactly as `python oska.py BOARD COLOUR DEPTH`.
- ENTRY (the suite's `[entries]`) names the function, `name` or `file.py:name`, optionally followed by
  settings: `board=strings|lists`, `empty=-|e`, `colour=letters|words`.
- Without a name the function is found without running anything: the one function of three
  parameters among the top-level `.py` files; if several, the one no other function calls whose name
  contains `oska`, else the one whose name contains `oska`, else the one no other function calls.
  None, or several still, is a one-line error saying so (exit 2).
- The board it gets: a list of row strings with `-` for an empty square (`['wwww', '---', '--',
  '---', 'bbbb']`, the later offerings' form) unless its code uses `'e'` and not `'-'`, then the
  handout's list of lists of `'w'`, `'b'`, `'e'`. The side is `'w'` or `'b'` (004:96-98).
- What it returns: a list or tuple of rows, each a string or a list of one-character strings, pieces
  `w`/`b` (either case), empty squares any of `-`, `e`, `.`, `_`, space. `None` or an empty list is no
  next board. `None` after printing a board as the last line on stdout is that board (a note says so).
- Whatever the student's code prints goes to stderr; it is never read as the answer except as above.
  An exception is its traceback and a one-line `error:` naming the line (exit 1). A function that
  changes the board it was given is told so on stderr; the grader judges what it returned against its
  own copy.
"""

from __future__ import print_function

import os
import random
import sys
import traceback

ADAPTER = os.path.basename(__file__)
PY2 = sys.version_info[0] == 2
try:
    TEXT = (str, unicode)  # noqa: F821 (Python 2's other string type)
except NameError:
    TEXT = (str,)
CODE = type(compile("", "", "exec"))
# A function's code (optimized locals in a fresh namespace), as opposed to a class body or a module.
FUNCTION_FLAGS = 0x1 | 0x2
EMPTIES = "-e._ "
SEED = 2004
CAPTURE_CAP = 1 << 16


class Unusable(Exception):
    """The grader cannot tell what to call: the message says what to change (exit 2)."""


class Garbage(Exception):
    """The function returned something that is not a board: the message says what it was."""


def one_line(text, cap=300):
    text = " ".join(str(text).split())
    return text if len(text) <= cap else text[: cap - 3] + "..."


# --- the arguments -------------------------------------------------------------------------------


def parse_board(text):
    """The handout's notation (the grader's own argument) as rows of `w`, `b`, `e`."""
    compact = "".join(text.split())
    if not (compact.startswith("[[") and compact.endswith("]]")):
        raise Unusable("the board argument `{}` is not a list of rows (a grader bug)".format(text))
    return [row.split(",") for row in compact[2:-2].split("],[")]


SETTINGS = {
    "board": ("strings", "lists"),
    "empty": ("-", "e"),
    "colour": ("letters", "words"),
    "color": ("letters", "words"),
}


def parse_entry(entry):
    """`(file or None, name or None, settings)` from `[file.py:]name key=value ...`."""
    words = entry.split()
    settings = {}
    target = None
    for word in words:
        if "=" not in word:
            if target is not None:
                raise Unusable("the entry `{}` names two functions; write `[file.py:]name key=value ...`".format(entry))
            target = word
            continue
        key, _, value = word.partition("=")
        if key not in SETTINGS or value not in SETTINGS[key]:
            allowed = ", ".join("{}={}".format(k, "|".join(v)) for k, v in sorted(SETTINGS.items()))
            raise Unusable("the entry setting `{}` is not one of {}".format(word, allowed))
        settings["colour" if key == "color" else key] = value
    if target is None:
        return None, None, settings
    if ":" in target:
        module, _, name = target.partition(":")
        return (module if module.endswith(".py") else module + ".py"), name, settings
    return None, target, settings


# --- the student's files, read without running them ----------------------------------------------


def student_files(folder):
    try:
        names = sorted(os.listdir(folder))
    except OSError as e:
        raise Unusable("cannot list the submission folder: {}".format(e))
    return [n for n in names if n.endswith(".py") and n != ADAPTER and os.path.isfile(os.path.join(folder, n))]


def compiled(folder, names):
    """`{file: code}` of the files that compile, and `{file: error}` of those that do not."""
    codes, errors = {}, {}
    for name in names:
        path = os.path.join(folder, name)
        try:
            with open(path, "rb") as f:
                source = f.read()
            # dont_inherit: this file's `print_function` must not change how a Python 2 file reads.
            codes[name] = compile(source, path, "exec", 0, True)
        except SyntaxError as e:
            errors[name] = "SyntaxError at line {}: {}".format(e.lineno, e.msg)
        except (OSError, ValueError, TypeError) as e:
            errors[name] = one_line(e)
    return codes, errors


def nested(code):
    """`code` and every code object inside it."""
    out, todo = [], [code]
    while todo:
        c = todo.pop()
        out.append(c)
        todo.extend(k for k in c.co_consts if isinstance(k, CODE))
    return out


def functions(module):
    """The module's own functions (defined at its top level, also under an `if`): `[(name, code)]`."""
    return [
        (c.co_name, c)
        for c in module.co_consts
        if isinstance(c, CODE) and c.co_flags & FUNCTION_FLAGS == FUNCTION_FLAGS and not c.co_name.startswith("<")
    ]


def names_used(code):
    out = set()
    for c in nested(code):
        out.update(c.co_names)
    return out


def strings(code):
    """Every string constant in the code (`'-'`, `'e'`, `'white'`...)."""
    out = set()
    for c in nested(code):
        out.update(k for k in c.co_consts if isinstance(k, str))
    return out


# --- which form, which function --------------------------------------------------------------------


def program_form(codes):
    """`oska.py` when it is a program reading its arguments (the suite's other form), else None."""
    code = codes.get("oska.py")
    if code is not None and names_used(code) & {"argv", "argparse"}:
        return "oska.py"
    return None


def candidates(codes):
    """`(file, name, code)` of every top-level function taking three positional arguments."""
    return [
        (f, name, c)
        for f in sorted(codes)
        for name, c in functions(codes[f])
        if c.co_argcount == 3
    ]


def callers(codes):
    """For each name, the `(file, function)` of the other functions whose code uses it: top-level
    functions with what they nest (a comprehension, an inner helper), and the methods of top-level
    classes. Code run at a module's top level (a test call, an import) calls nothing here."""
    used = {}
    for f in sorted(codes):
        units = functions(codes[f])
        for c in codes[f].co_consts:
            if isinstance(c, CODE) and c.co_flags & FUNCTION_FLAGS != FUNCTION_FLAGS:
                units.extend(functions(c))
        for name, c in units:
            for n in names_used(c):
                if n != name:
                    used.setdefault(n, []).append((f, name))
    return used


def describe(found):
    return ", ".join("`{}` ({})".format(name, f) for f, name, _ in found)


def choose(codes, errors, wanted_file, wanted_name):
    """The `(file, name)` to call."""
    found = candidates(codes)
    if wanted_name:
        mine = [c for c in found if c[1] == wanted_name and wanted_file in (None, c[0])]
        if len(mine) == 1:
            return mine[0][:2]
        if len(mine) > 1:
            raise Unusable("`{}` is defined in several files ({}); name the file in the entry: `file.py:{}`".format(wanted_name, describe(mine), wanted_name))
        where = " in `{}`".format(wanted_file) if wanted_file else ""
        raise Unusable("no function `{}(board, colour, depth)` with three parameters{}; the suite's [entries] names it{}".format(wanted_name, where, broken(errors)))
    if len(found) == 1:
        return found[0][:2]
    if not found:
        raise Unusable("no function of three parameters (board, colour, depth) in your .py files: define your Oska procedure, e.g. `def oskaplayer(board, colour, depth)` returning the next board{}".format(broken(errors)))
    used = callers(codes)
    tops = [c for c in found if not used.get(c[1])]
    oska = [c for c in found if "oska" in c[1].lower()]
    for group in ([c for c in tops if c in oska], oska, tops):
        if len(group) == 1:
            return group[0][:2]
    alike = next((g for g in ([c for c in tops if c in oska], oska, tops) if g), found)
    raise Unusable("cannot tell which function is your Oska procedure: {} all take three arguments{}; keep one, or ask your instructor to name yours in the suite's [entries]".format(describe(alike), " and no other function calls them" if all(c in tops for c in alike) else ""))


def broken(errors):
    if not errors:
        return ""
    return " (not read: {})".format("; ".join("`{}`: {}".format(f, e) for f, e in sorted(errors.items())))


def convention(codes, settings):
    """How the board is handed over: rows as strings or lists, the empty square, the side's spelling."""
    seen = set()
    for code in codes.values():
        seen |= strings(code)
    empty = settings.get("empty") or ("e" if "e" in seen and "-" not in seen else "-")
    rows = settings.get("board") or ("lists" if empty == "e" else "strings")
    return rows, empty, settings.get("colour", "letters")


# --- the call --------------------------------------------------------------------------------------


class Capture(object):
    """The student's stdout: written through to stderr, the last 64 KiB kept (for a printed board)."""

    def __init__(self, sink):
        self.sink = sink
        self.kept = ""

    def write(self, text):
        if PY2 and not isinstance(text, str):
            text = unicode(text).encode("utf-8")  # noqa: F821
        elif not PY2 and isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        self.sink.write(text)
        self.kept = (self.kept + str(text))[-CAPTURE_CAP:]

    def flush(self):
        self.sink.flush()

    def __getattr__(self, name):
        return getattr(self.sink, name)


def place_of(folder, tb):
    """`line N of file.py`: the deepest frame in the student's own files."""
    frames = [f for f in traceback.extract_tb(tb) if os.path.dirname(os.path.abspath(f[0])) == folder and os.path.basename(f[0]) != ADAPTER]
    if not frames:
        return ""
    return " at line {} of `{}`".format(frames[-1][1], os.path.basename(frames[-1][0]))


def fail(what, folder):
    """The traceback, then one line naming the error and where (the last thing on stderr), exit 1."""
    kind, error, tb = sys.exc_info()
    traceback.print_exc()
    print("error: {} raised {}{}: {}".format(what, kind.__name__, place_of(folder, tb), one_line(error)), file=sys.stderr)
    sys.stderr.flush()
    os._exit(1)


def load(folder, module, name):
    # The standard modules the adapter uses are imported before the student's folder goes on the path
    # (a hand-in may have its own `random.py`). A student's `random` gives the same move for the same
    # board at every run.
    random.seed(SEED)
    # ...and a module of the hand-in's own with such a name is what its `import` finds, as it would be
    # in a Python started in its folder (the adapter keeps its own references to the standard ones).
    for own in ("random", "traceback"):
        if os.path.isfile(os.path.join(folder, own + ".py")):
            sys.modules.pop(own, None)
    sys.path.insert(0, folder)
    # `-S` skipped site's start-up work; the site-packages folder stays importable.
    version = "python{}.{}".format(*sys.version_info[:2])
    sys.path.append(os.path.join(sys.prefix, "lib", version, "site-packages"))
    try:
        mod = __import__(module[:-3])
    except BaseException:
        fail("loading `{}`".format(module), folder)
    fn = getattr(mod, name, None)
    if not callable(fn):
        raise Unusable("`{}` defines no function `{}` once loaded".format(module, name))
    return fn


def handed(board, rows, empty):
    cells = [[empty if c == "e" else c for c in row] for row in board]
    return [("".join(r) if rows == "strings" else r) for r in cells]


def call(fn, name, folder, board, side, depth, rows, empty):
    given = handed(board, rows, empty)
    kept = handed(board, rows, empty)
    try:
        value = fn(given, side, depth)
    except SystemExit as e:
        print("error: `{}` called sys.exit({!r}): return the next board instead".format(name, e.code), file=sys.stderr)
        sys.stderr.flush()
        os._exit(1)
    except BaseException:
        fail("`{}`".format(name), folder)
    if given != kept:
        print("note: `{}` changed the board it was given; the handout's procedure leaves its arguments as they are (004:57-64): work on a copy. The grader judges the board returned against its own copy.".format(name), file=sys.stderr)
    return value


def cells_of(row):
    if isinstance(row, TEXT):
        return list(row)
    if isinstance(row, (list, tuple)) and all(isinstance(c, TEXT) and len(c) == 1 for c in row):
        return list(row)
    raise Garbage("a row is {!r}, not a string or a list of one-character strings".format(row))


def as_board(value):
    """Rows of `w`, `b`, `e` from what the function returned, or None for no next board."""
    if value is None or (isinstance(value, (list, tuple)) and len(value) == 0):
        return None
    if not isinstance(value, (list, tuple)):
        kind = type(value).__name__
        raise Garbage("returned {} ({} {}), not a board".format(short(value), "an" if kind[0] in "aeiou" else "a", kind))
    out = []
    for r, row in enumerate(value):
        cells = []
        for c in cells_of(row):
            if c in "wW" or c in "bB":
                cells.append(c.lower())
            elif c in EMPTIES:
                cells.append("e")
            else:
                raise Garbage("row {} holds {!r}: squares are `w`, `b` or empty (`-`, `e`)".format(r + 1, c))
        out.append(cells)
    return out


def short(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def literal(text, folder):
    """`ast.literal_eval` of the standard library, even beside a student's own `ast.py`."""
    mine = sys.modules.get("ast")
    if mine is not None and os.path.dirname(os.path.abspath(getattr(mine, "__file__", "") or "")) == folder:
        del sys.modules["ast"]
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != folder]
    try:
        return __import__("ast").literal_eval(text)
    finally:
        sys.path[:] = saved


def printed_board(text, folder):
    """The board on the last non-empty line the function printed, if it is one."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    if not lines or not lines[-1].startswith("["):
        return None
    try:
        return as_board(literal(lines[-1], folder))
    except (ValueError, SyntaxError, Garbage):
        return None


def notation(board):
    return "[" + ",".join("[" + ",".join(row) + "]" for row in board) + "]"


def answer(fd, line):
    """One line on the grader's own copy of stdout, unbuffered (the process ends with `os._exit`)."""
    data = line.replace("\n", " ") + "\n"
    if not isinstance(data, bytes):
        data = data.encode("utf-8", "replace")
    while data:
        data = data[os.write(fd, data):]


# --- main ------------------------------------------------------------------------------------------


def main(argv):
    if len(argv) != 6:
        raise Unusable("usage: oska_adapter.py DIR ENTRY BOARD COLOUR DEPTH (got {} arguments)".format(len(argv) - 1))
    folder = os.path.abspath(argv[1])
    wanted_file, wanted_name, settings = parse_entry(argv[2])
    board, side, depth = parse_board(argv[3]), argv[4], int(argv[5])
    codes, errors = compiled(folder, student_files(folder))
    program = None if (wanted_name or settings) else program_form(codes)
    if program:
        path = os.path.join(folder, program)
        os.execv(sys.executable, [sys.executable, path] + argv[3:])
    module, name = choose(codes, errors, wanted_file, wanted_name)
    rows, empty, colour = convention(codes, settings)
    if colour == "words":
        side = {"w": "white", "b": "black"}.get(side, side)
    fd = os.dup(1)
    os.dup2(2, 1)
    captured = sys.stdout = Capture(sys.stderr)
    fn = load(folder, module, name)
    # Only what the call prints can be its board, never what loading the module printed.
    captured.kept = ""
    value = call(fn, name, folder, board, side, depth, rows, empty)
    try:
        result = as_board(value)
    except Garbage as e:
        print("error: `{}` {}".format(name, e), file=sys.stderr)
        # The referee quotes this line as the answer it could not read: plain words, no backticks.
        answer(fd, "{} {}".format(name, one_line(e, 120)))
        return
    if value is None:
        result = printed_board(captured.kept, folder)
        if result is not None:
            print("note: `{}` returned None but printed a board: graded on the printed board (return it: 004:62-64)".format(name), file=sys.stderr)
    if result is None:
        print("note: `{}` returned {}: no next board, which the grader reads as a pass".format(name, short(value)), file=sys.stderr)
        return
    answer(fd, notation(result))


if __name__ == "__main__":
    try:
        main(sys.argv)
    except Unusable as e:
        sys.stdout = sys.__stdout__
        print("error: {}".format(e), file=sys.stderr)
        sys.exit(2)
    sys.stderr.flush()
    # The student's threads or atexit handlers have no say once the answer is out.
    os._exit(0)
