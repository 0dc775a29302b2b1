"""From a policy's command string and the event's values to the argv a child receives.

No value is ever parsed as code:

- ``shell = false`` (default): the command is split with shlex *before* substitution; each placeholder
  is filled inside its own argument, so a value holding spaces, ``;``, quotes, ``$(...)`` or newlines
  stays that one argument. The program itself cannot be a placeholder.
- ``shell = true``: the script is the command with each placeholder replaced by a positional parameter
  (``"$1"``, ``"$2"``, …; quoted to suit the place it stands in) and the values are passed as arguments:
  ``["sh", "-c", script, "sh", v1, v2, ...]``. A placeholder where the shell reads a value as code
  (arithmetic, ``[[ ]]``, subscripts, ``${…}``, ``eval``, the program's place) is refused when the
  policies load (``shell_check``).

No value ever becomes an option either (``values.guard_options``): an argument that a value makes start
with ``-`` is passed as ``./-x`` when the placeholder is a path (``{{file_path}}``), else the check fails
with a message saying so; after a literal ``--`` argument (the end of options) values pass as they are.
"""

from __future__ import annotations

from cupcake.run_command.errors import CommandSpecError
from cupcake.run_command.spec import CommandSpec, read_spec
from cupcake.run_command.template import (
    PLACEHOLDER,
    describe_fields,
    field_value,
    fill,
    is_value_field,
    ordered_fields,
)

SHELL = "/bin/sh"
SHELL_VARIABLE = "CUPCAKE_SHELL"  # in the hook's environment: the shell for ``shell = true`` (absolute path)


def split_command(command: str) -> list[str]:
    """The command's words as shlex splits them (POSIX rules, ``#`` is not a comment)."""
    import shlex

    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise CommandSpecError(f"command: cannot be split into arguments ({exc}): {command!r}") from None
    if not words:
        raise CommandSpecError("command: must be a non-empty string")
    return words


def command_problems(command: str, shell: bool) -> list[str]:
    """What is wrong with the command template, as messages starting with ``command:``."""
    if not isinstance(command, str) or not command.strip():
        return ["command: must be a non-empty string"]
    problems = [
        f"command: unknown placeholder {{{{{name}}}}}; a command can use {describe_fields(False)}"
        for name in ordered_fields(command)
        if not is_value_field(name)
    ]
    if shell:
        from cupcake.run_command.shell_check import shell_problems

        return problems + shell_problems(command)
    try:
        words = split_command(command)
    except CommandSpecError as exc:
        return problems + [str(exc)]
    written = sorted(m.group(0) for m in PLACEHOLDER.finditer(command))
    split = sorted(m.group(0) for word in words for m in PLACEHOLDER.finditer(word))
    if written != split:
        broken = [p for p in dict.fromkeys(written) if not any(p in word for word in words)]
        shown = ", ".join(broken) if broken else "a placeholder"
        problems.append(
            f"command: {shown} is broken up by spaces or quotes when the command is split into arguments; "
            "write each placeholder as {{name}} inside one argument"
        )
    if PLACEHOLDER.search(words[0]):
        problems.append(
            f"command: the program to run ({words[0]!r}) contains a placeholder; name the program in the "
            "policy and pass values to it as arguments"
        )
    return problems


def shell_script(command: str) -> tuple[str, list[str]]:
    """The script for ``sh -c`` and the field behind each positional parameter ($1 is the first).

    A placeholder outside quotes becomes ``"$1"``; inside double quotes ``${1}``; inside single quotes
    ``'"$1"'`` (the quote is closed and reopened around it). Quotes are tracked for plain ``'…'``,
    ``"…"`` and backslashes; in other constructs the parameter may be word-split, but never run as code.
    """
    out: list[str] = []
    fields: list[str] = []
    number: dict[str, int] = {}
    state = ""  # "", "'" or '"'
    i, n = 0, len(command)
    while i < n:
        c = command[i]
        if c == "{":
            m = PLACEHOLDER.match(command, i)
            if m:
                name = m.group(1)
                if name not in number:
                    fields.append(name)
                    number[name] = len(fields)
                k = number[name]
                braced = "${%d}" % k
                plain = "$%d" % k if k < 10 else braced
                if state == "":
                    out.append('"' + plain + '"')
                elif state == "'":
                    out.append("'\"" + plain + "\"'")
                else:
                    out.append(braced)
                i = m.end()
                continue
        if c == "\\" and state != "'":
            out.append(command[i : i + 2])
            i += 2
            continue
        if state == "":
            if c in "'\"":
                state = c
        elif c == state:
            state = ""
        out.append(c)
        i += 1
    return "".join(out), fields


def build_argv(spec: CommandSpec, values: dict) -> list[str]:
    """``prepare`` for an already checked spec (the template is checked here)."""
    problems = command_problems(spec.command, spec.shell)
    if problems:
        raise CommandSpecError("; ".join(problems))
    if not isinstance(values, dict):
        values = {}
    from cupcake.run_command.values import guard_options, guard_shell_values

    if spec.shell:
        script, fields = shell_script(spec.command)
        given = guard_shell_values(spec.command, fields, [field_value(name, values) for name in fields])
        return ["sh", "-c", script, "sh", *given]
    words = split_command(spec.command)
    lookup = lambda name: field_value(name, values)  # noqa: E731
    return guard_options(words, [words[0], *(fill(word, lookup) for word in words[1:])], lookup)


def prepare(spec: dict, values: dict) -> list[str]:
    """The argv the child will receive, placeholders filled from ``values``.

    ``shell = false``: the split command, e.g. ``["notify_script.sh", "npm install x; rm -rf ~"]``.
    ``shell = true``: ``["sh", "-c", script, "sh", v1, v2, ...]``.
    The program (argv[0]) is as written; ``run_command`` finds it on PATH, then in working_dir.
    Raises ``CommandSpecError`` when the action is written wrongly.
    """
    return build_argv(read_spec(spec), values)
