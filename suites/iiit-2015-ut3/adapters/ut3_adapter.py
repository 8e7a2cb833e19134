"""Runs a UT3 class written to the IIIT 2015 handout over the grader's persistent protocol.

Usage: python3 -S -B ut3_adapter.py DIR [ENTRY] (or python2: the adapter runs under both, as the
course's evaluator was Python 2)

ENTRY names the team's class as the handout assigns it: `Class`, `module:Class` or `module.py:Class`.
Without it the adapter takes the one class in DIR's modules that defines a `move` method.

One process per game: the module is imported once and the class instantiated once, so the object keeps
its state between moves, as under the course's evaluator. Each turn `move(self, current_board_game,
board_stat, move_by_opponent, flag)` gets fresh copies of the 9x9 board and the 9 block statuses (`'-'`,
`'x'`, `'o'`), the opponent's last move as a tuple (`(-1, -1)` on the first move) and `'x'` or `'o'`.

Whatever the student's code prints goes to stderr: the protocol has its own copy of the original stdout.
A move that changes the lists or is not a tuple of two ints is answered with a line the referee cannot
read as a move (`changed board_stat[4]`, `list [3, 4]`), so the game is lost with that in its reason and
the adapter's full explanation in the record's stderr (the handout: "you are not allowed to modify the
current_board_game list, and neither the board_stat list").
"""

from __future__ import print_function

import io
import os
import sys

PY2 = sys.version_info[0] == 2
try:
    INTS = (int, long)  # noqa: F821 (Python 2's other integer type)
except NameError:
    INTS = (int,)


def native(text):
    """Python 2 students compare with `str` literals and print with `%s`: give them `str`, not unicode."""
    if PY2 and not isinstance(text, str):
        return text.encode("utf-8")
    return text

# Determinism: string hashing (set and dict order of str keys) is fixed with PYTHONHASHSEED, which only
# takes effect at start-up, so the adapter re-runs itself once with it set (about 10 ms).
if os.environ.get("PYTHONHASHSEED") != "0":
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, "-S", "-B"] + sys.argv)

# The protocol's channels first, before any student code can touch fd 0 or fd 1.
PROTOCOL_OUT = io.open(os.dup(1), "w", buffering=1, encoding="utf-8")
PROTOCOL_IN = io.open(os.dup(0), "r", encoding="utf-8")
os.dup2(2, 1)
_null = os.open(os.devnull, os.O_RDONLY)
os.dup2(_null, 0)
os.close(_null)
sys.stdout = sys.stderr
sys.stdin = io.open(os.devnull, "r", encoding="utf-8")

ADAPTER = os.path.basename(__file__)


def send(line):
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    PROTOCOL_OUT.write(line.replace(u"\n", u" ") + u"\n")
    PROTOCOL_OUT.flush()


class Unusable(Exception):
    """The submission cannot be run; the message says what the student must fix."""


def candidates(folder):
    """(module, class) for every top-level class with a `move` method, read without running the code.

    A line scan, not `ast`: importing `ast` costs more than the rest of the start-up, and the import
    that follows checks the file properly (a syntax error is reported then)."""
    found = []
    try:
        names = sorted(os.listdir(folder))
    except OSError as e:
        raise Unusable("cannot list the submission folder: {}".format(e))
    for name in names:
        if not name.endswith(".py") or name == ADAPTER:
            continue
        try:
            with io.open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError as e:
            raise Unusable("cannot read `{}`: {}".format(name, e))
        cls = None
        for line in lines:
            if line[:1] not in ("", " ", "\t", "#"):
                cls = None
                words = line.split()
                if words[0] == "class" and len(words) > 1:
                    cls = words[1].split("(")[0].split(":")[0]
            elif cls and line.lstrip().startswith("def move(") and len(line) > len(line.lstrip()):
                found.append((name[:-3], cls))
                cls = None
    return found


def choose(folder, entry):
    """The (module, class) to play, from ENTRY or by discovery."""
    entry = entry.strip()
    if ":" in entry:
        module, cls = entry.split(":", 1)
        module = module[:-3] if module.endswith(".py") else module
        if not os.path.isfile(os.path.join(folder, module + ".py")):
            raise Unusable("no file `{}.py`; name your file as assigned (entry `{}`)".format(module, entry))
        return module, cls
    found = candidates(folder)
    if entry:
        mine = [c for c in found if c[1] == entry]
        if len(mine) == 1:
            return mine[0]
        if not mine:
            raise Unusable("no class `{}` with a `move` method in any .py file; name your class as assigned".format(entry))
        where = ", ".join("{}.py".format(m) for m, _ in mine)
        raise Unusable("class `{}` is defined in several files ({}); hand in only one".format(entry, where))
    if len(found) == 1:
        return found[0]
    if not found:
        raise Unusable("no class with a `move` method in any .py file; define `move(self, current_board_game, board_stat, move_by_opponent, flag)` in your class")
    names = ", ".join("{}.{}".format(m, c) for m, c in found)
    raise Unusable("several classes have a `move` method ({}); keep one, or ask for your assigned class name to be set in the suite's [entries]".format(names))


def failure(folder, own, e):
    """`SyntaxError at line 17: invalid syntax`: the error, and where in the team's own files it arose
    (the file named when it is not `own`), in plain words rather than a traceback."""
    def mine(path):
        path = os.path.abspath(path or "")
        if path.startswith(folder + os.sep) and os.path.basename(path) != ADAPTER:
            return os.path.relpath(path, folder)
        return None

    where = None
    if isinstance(e, SyntaxError) and mine(e.filename):
        # Its own message, without the `(file, line N)` Python 2 appends: the place is said below.
        where, message = (mine(e.filename), e.lineno), e.msg
    else:
        import traceback

        frames = [f for f in traceback.extract_tb(sys.exc_info()[2]) if mine(f[0])]
        if frames:
            where = (mine(frames[-1][0]), frames[-1][1])
        message = str(e)
    text = type(e).__name__
    if where and where[1]:
        text += " at line {}".format(where[1])
        if where[0] != own:
            text += " of `{}`".format(where[0])
    return "{}: {}".format(text, message) if message else text


def load(folder, entry):
    """Imports the module, finds the class and makes the player object."""
    module, cls = choose(folder, entry)
    sys.path.insert(0, folder)
    # A student's `random` gives the same games on every run: the opponents' seeds vary the games.
    import random

    random.seed(2015)
    # `-S` skipped site's .pth processing (about 40 ms here); site-packages stays importable.
    version = "python{}.{}".format(sys.version_info[0], sys.version_info[1])
    sys.path.append(os.path.join(sys.prefix, "lib", version, "site-packages"))
    try:
        mod = __import__(module)
    except BaseException as e:
        import traceback

        traceback.print_exc()
        raise Unusable("your file `{}.py` could not be loaded: {}".format(module, failure(folder, module + ".py", e)))
    klass = getattr(mod, cls, None)
    # Python 2's `class Player:` is an old-style class, not an instance of `type`.
    if not (isinstance(klass, type) or type(klass).__name__ == "classobj"):
        raise Unusable("`{}.py` defines no class `{}`; name your class as assigned".format(module, cls))
    if not callable(getattr(klass, "move", None)):
        raise Unusable("class `{}` in `{}.py` has no `move` method".format(cls, module))
    try:
        return klass()
    except BaseException as e:
        import traceback

        traceback.print_exc()
        raise Unusable("`{}()` failed: {}; the class must be creatable with no arguments".format(cls, failure(folder, module + ".py", e)))


def decode(state):
    """The handout's arguments from the referee's `CELLS STAT ROW,COL FLAG`."""
    cells, stat, last, flag = state.split(" ")
    board = [list(cells[r * 9:(r + 1) * 9]) for r in range(9)]
    row, col = last.split(",")
    return board, list(stat), (int(row), int(col)), flag


def changed(before, after, what):
    """A sentence naming the first change, or None."""
    if what == "current_board_game":
        if isinstance(after, list) and len(after) == 9:
            for r in range(9):
                row = after[r]
                if not (isinstance(row, list) and len(row) == 9):
                    return "move changed current_board_game: row {} is no longer a list of 9 cells".format(r)
                for c in range(9):
                    if row[c] != before[r][c]:
                        return "move changed current_board_game[{}][{}] from {!r} to {!r}".format(r, c, before[r][c], row[c])
            return None
        return "move changed current_board_game: it is no longer a list of 9 rows"
    if after == before:
        return None
    if isinstance(after, list) and len(after) == 9:
        for b in range(9):
            if after[b] != before[b]:
                return "move changed board_stat[{}] from {!r} to {!r}".format(b, before[b], after[b])
    return "move changed board_stat: it is no longer a list of 9 entries"


def short(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def describe(value):
    return "{} (a {})".format(short(value), type(value).__name__)


def turn(player, state):
    board, stat, last, flag = decode(state)
    board_kept = [row[:] for row in board]
    stat_kept = stat[:]
    try:
        answer = player.move(board, stat, last, flag)
    except SystemExit as e:
        # Hand-ins copied the evaluator's `sys.exit(1)` into `move`. Without this line the last thing on
        # stderr would be whatever the agent printed before, read as the reason for the crash.
        code = e.code if e.code is not None else 0
        print("move called sys.exit({!r}): return a move instead; exiting ends your game".format(code), file=sys.stderr)
        sys.stderr.flush()
        os._exit(1)
    except Exception:
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    # Answered with a short line the referee cannot read as a move (it quotes it in the game's reason);
    # the full sentence goes to stderr, which the record keeps.
    for why in (changed(board_kept, board, "current_board_game"), changed(stat_kept, stat, "board_stat")):
        if why:
            # Fix first: feedback shows only the start of the stderr tail.
            print("the handout forbids changing the lists: work on a copy ({})".format(why), file=sys.stderr)
            return why.split(" from ")[0].replace("move changed ", "changed ")
    if not (
        type(answer) is tuple
        and len(answer) == 2
        and all(isinstance(v, INTS) and not isinstance(v, bool) for v in answer)
    ):
        print("return a tuple of two ints, not {}".format(describe(answer)), file=sys.stderr)
        return "{} {}".format(type(answer).__name__, short(answer))
    return "({}, {})".format(answer[0], answer[1])


def main():
    folder = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    entry = sys.argv[2] if len(sys.argv) > 2 else ""
    player = None
    for line in PROTOCOL_IN:
        kind, _, rest = native(line).rstrip("\n").partition("\t")
        if kind == "game":
            try:
                player = load(folder, entry)
            except Unusable as e:
                send("error: {}".format(e))
                return
            send("ready")
        elif kind == "turn":
            _side, _last, state = rest.split("\t", 2)
            send(turn(player, state))
        elif kind == "end":
            return


if __name__ == "__main__":
    main()
