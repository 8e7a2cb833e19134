# Connects to each HOST:PORT in argv. Exit 0 when no connection was made.
import socket
import sys

leaked = False
for target in sys.argv[1:]:
    host, port = target.split(":")
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
        print("connected", target)
        leaked = True
    except OSError as e:
        print("refused", target, e)
sys.exit(1 if leaked else 0)
