"""THROWAWAY PROTOTYPE for docs/persistent-worker.md: not part of the package, not a product.

A warm Cupcake behind a user-only Unix socket. Each request is the hook's stdin; the answer is the
hook's stdout. Run with the venv's python (regular install):

    python bench/worker_prototype/server.py SOCKET [--fork]

``--fork``: each request is answered by a forked child of the warm process (fresh state per call, as
a process per call has); without it, in the server process itself. Only the event name is taken from
the client (the first line); nothing else of the process (environment, working directory) is the
caller's: that is one of the things the note says a product could not do."""

from __future__ import annotations

import os
import socket
import sys


def main() -> int:
    path = sys.argv[1]
    forking = "--fork" in sys.argv[2:]
    import cupcake.systems  # noqa: F401
    from cupcake.cli.run import execute  # the warm import: every module a run needs

    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    server.bind(path)  # mode 600
    os.umask(old)
    server.listen(64)
    while True:
        conn, _ = server.accept()
        if forking:
            if os.fork():
                conn.close()
                while True:  # reap without blocking the accept loop for long
                    try:
                        if os.waitpid(-1, os.WNOHANG)[0] == 0:
                            break
                    except ChildProcessError:
                        break
                continue
        try:
            answer(conn, execute)
        finally:
            conn.close()
            if forking:
                os._exit(0)


def answer(conn, execute) -> None:
    data = b""
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    event, _, raw = data.partition(b"\n")
    ctx = execute(raw, ["--event", event.decode()], os.environ)
    stdout, _stderr, _code = ctx.envelope
    conn.sendall(stdout)
    conn.shutdown(socket.SHUT_WR)


if __name__ == "__main__":
    sys.exit(main())
