"""Shell syntax in a command that runs without a shell (cold path: checked when policies compile).

Without ``shell = true`` a command is split into arguments and run directly, so ``npm run lint &&
npm test`` runs ``npm`` with ``&&`` as an argument, and ``true && false`` always passes. Such a
command is an error that names the fix."""

from __future__ import annotations

# Longest first, so that "&&" is found as itself and not as "&".
OPERATORS = ("&&", "||", "$(", ">>", "|", ";", ">", "<", "&", "`")


def shell_operators(command: str) -> list[str]:
    """The shell operators the command uses outside quotes (``$(`` and backticks also inside double
    quotes, where a shell would run them), each once, in the order they first appear."""
    found: list[str] = []
    state = ""  # "", "'" or '"'
    i, n = 0, len(command)
    while i < n:
        c = command[i]
        if c == "\\" and state != "'":
            i += 2
            continue
        if state == "'":
            if c == "'":
                state = ""
            i += 1
            continue
        if state == "" and c in "'\"":
            state = c
            i += 1
            continue
        if state == '"' and c == '"':
            state = ""
            i += 1
            continue
        for op in OPERATORS:
            if command.startswith(op, i) and (state == "" or op in ("$(", "`")):
                if op not in found:
                    found.append(op)
                i += len(op) - 1
                break
        i += 1
    return found


def shell_syntax_problem(command: str):
    """The message for a command with shell syntax and no shell, or None."""
    ops = shell_operators(command)
    if not ops:
        return None
    shown = ", ".join(f"`{op}`" for op in ops)
    return (
        f"command: uses shell syntax ({shown}) but runs without a shell, so {shown} would reach the program"
        " as plain arguments; add `shell = true` to the action to run it with /bin/sh (placeholders are"
        " then passed as arguments, never as code), or write one run_command policy per command"
    )
