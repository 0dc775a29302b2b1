"""The console script. ``cupcake run`` is dispatched before typer is imported: it runs on every
tool call, and its start-up is the product.

When Cupcake cannot even import what a run needs, ``last_resort`` answers: a note to the user, or,
with ``--fail-closed`` on the command line (fail_mode "closed", written there by `cupcake sync`),
a block (exit 2, the reason on stderr). It uses nothing but the interpreter itself."""

from __future__ import annotations

import sys


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "run" and not ({"--help", "-h"} & set(args[1:])):
        try:
            from cupcake.cli.run import main as run_main
        except BaseException as exc:  # a broken installation: answer all the same
            closed = bool({"--fail-closed", "--jail", "--jail-unshare-net"} & set(args[1:]))
            return answer_last_resort(exc, closed)
        return run_main(args[1:])
    from cupcake.cli.app import main as cli_main

    return cli_main(args)


def last_resort(exc: BaseException, closed: bool):
    """(stdout, stderr, exit code) when no policy could be evaluated because Cupcake itself broke."""
    what = f"{type(exc).__name__}: {exc}".replace("\n", " ")[:2000]
    if closed:
        text = f'Cupcake: internal error, so this is blocked (fail_mode "closed"): {what}\n'
        return b"", text.encode("utf-8", "replace"), 2
    text = f'Cupcake: internal error, no policy was enforced for this event (fail_mode "open"): {what}'
    escaped = "".join(c if " " <= c and c not in '"\\' else f"\\u{ord(c):04x}" for c in text)
    return ('{"systemMessage":"' + escaped + '"}\n').encode("utf-8", "replace"), b"", 0


def answer_last_resort(exc: BaseException, closed: bool) -> int:
    stdout, stderr, code = last_resort(exc, closed)
    try:
        sys.stdout.buffer.write(stdout)
        sys.stdout.buffer.flush()
        sys.stderr.buffer.write(stderr)
        sys.stderr.buffer.flush()
    except (OSError, ValueError):
        pass
    return code


if __name__ == "__main__":
    raise SystemExit(main())
