"""A value from the event never becomes an option of the checked program.

A value substituted at the start of an argument (``git diff {{file_path}}``) that starts with ``-``
would be read as an option (``--output=cupcake.toml`` makes git write that file). So:

- when the placeholder is a path (``{{file_path}}``, ``{{tool_input.file_path}}``, ``…path``,
  ``…notebook_path``), the argument is passed as ``./--output=cupcake.toml``: the same file, never an
  option;
- otherwise the check fails without running, saying which value starts with ``-``;
- after a literal ``--`` argument (the conventional end of options) values pass as they are.

With ``shell = true`` the same rule holds for a placeholder written as a whole word of the script.
"""

from __future__ import annotations

from cupcake.run_command.errors import UnsafeValue
from cupcake.run_command.template import PLACEHOLDER

PATH_FIELDS = ("file_path", "tool_input.file_path", "tool_input.path", "tool_input.notebook_path")


def _refusal(name: str, value: str, program: str) -> UnsafeValue:
    shown = value if len(value) <= 60 else value[:57] + "..."
    return UnsafeValue(
        f"the value of {{{{{name}}}}} starts with '-' ({shown!r}), so {program} would read it as an option; "
        "Cupcake does not pass it (write `--` before the placeholder if the program accepts it)"
    )


def guard_options(words: list[str], filled: list[str], lookup) -> list[str]:
    """``filled`` (the command's arguments with values in) with no value turned into an option."""
    out = [filled[0]]
    ended = False
    for word, arg in zip(words[1:], filled[1:]):
        if not ended and arg.startswith("-") and not word.startswith("-"):
            name = _leading_field(word, lookup)
            if name in PATH_FIELDS:
                arg = "./" + arg
            else:
                raise _refusal(name or "?", arg, filled[0])
        ended = ended or word == "--"
        out.append(arg)
    return out


def _leading_field(word: str, lookup) -> str | None:
    """The placeholder whose value starts the argument (earlier ones at its start being empty)."""
    at = 0
    for m in PLACEHOLDER.finditer(word):
        if m.start() != at:
            return None
        if lookup(m.group(1)):
            return m.group(1)
        at = m.end()
    return None


def guard_shell_values(command: str, fields: list[str], given: list[str]) -> list[str]:
    """The positional parameters' values for ``shell = true``, with the same rule for whole-word uses."""
    import re

    out = []
    for name, value in zip(fields, given):
        if value.startswith("-"):
            whole = re.compile(r"(?:^|[\s;&|(])[\"']?\{\{\s*" + re.escape(name) + r"\s*\}\}")
            if whole.search(command):
                if name not in PATH_FIELDS:
                    raise _refusal(name, value, "the program")
                value = "./" + value
        out.append(value)
    return out
