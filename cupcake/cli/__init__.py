"""The command line: `run`'s fast entry (`entry`, `run`), the typer app for everything else (`app`), one module per command."""
