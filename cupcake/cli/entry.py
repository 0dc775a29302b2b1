"""The console script. ``cupcake run`` is dispatched before typer is imported: it runs on every
tool call, and its start-up is the product.

When Cupcake cannot even import what a run needs, ``cli/last_resort.py`` answers: a note to the user, or,
with ``--fail-closed`` on the command line (fail_mode "closed", written there by `cupcake sync`),
a block (exit 2, the reason on stderr). It uses nothing but the interpreter itself."""

from __future__ import annotations

import sys

# At the top, not where it is needed: if it cannot be imported, neither can this module, and the
# launcher (bin/cupcake) answers instead.
from cupcake.cli.last_resort import answer_last_resort


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


if __name__ == "__main__":
    raise SystemExit(main())
