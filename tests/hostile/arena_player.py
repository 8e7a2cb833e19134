# A hostile arena player (tests/contain_arena.rs). Run as a script it speaks the persistent protocol;
# loaded as a module (a suite's adapter calls `move`) it plays the same. On its first move it tries
# what a sandboxed player must not be able to do, and says on stderr how each attempt went. It always
# plays the first blank square, so the game ends with a verdict whatever the attempts gave.
import os
import socket
import sys

GOLDEN = "@GOLDEN@"
OUTSIDE = "@OUTSIDE@"
HOME = "@HOME@"
PORT = int("@PORT@")
HERE = os.path.dirname(os.path.abspath(__file__))
tried = False


def attempt(name, action):
    try:
        action()
        print(f"attack {name}: SUCCEEDED", file=sys.stderr, flush=True)
    except Exception as e:
        print(f"attack {name}: blocked ({type(e).__name__})", file=sys.stderr, flush=True)


def write(path):
    with open(path, "w") as f:
        f.write("pwned\n")


def attacks():
    attempt("shadow", lambda: open("/etc/shadow").read(1))
    attempt("golden", lambda: open(GOLDEN).read(1))
    attempt("loopback", lambda: socket.create_connection(("127.0.0.1", PORT), timeout=1).close())
    attempt("outside", lambda: write(OUTSIDE))
    attempt("home", lambda: write(os.path.join(HOME, "pwned.txt")))
    attempt("own-folder", lambda: write(os.path.join(HERE, "pwned.txt")))
    print("attacks done", file=sys.stderr, flush=True)


def move(board, side):
    global tried
    if not tried:
        tried = True
        attacks()
    return str(board.index("-"))


if __name__ == "__main__":
    for line in sys.stdin:
        kind, *rest = line.rstrip("\n").split("\t")
        if kind == "game":
            print("ready", flush=True)
        elif kind == "turn":
            print(move(rest[2], rest[0]), flush=True)
        elif kind == "end":
            break
