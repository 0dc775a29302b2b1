"""The console script. ``cupcake run`` is dispatched before typer is imported: it runs on every
tool call, and its start-up is the product."""

from __future__ import annotations

import sys


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "run" and not ({"--help", "-h"} & set(args[1:])):
        from cupcake.cli.run import main as run_main

        return run_main(args[1:])
    from cupcake.cli.app import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
