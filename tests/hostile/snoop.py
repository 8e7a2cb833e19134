# Tries to read each path in argv; never prints contents. Exit 0 when nothing could be read.
import sys

leaked = False
for path in sys.argv[1:]:
    try:
        with open(path, "rb") as f:
            f.read(64)
        print("read", path)
        leaked = True
    except OSError:
        print("denied", path)
sys.exit(1 if leaked else 0)
