"""Compiling a ``command`` condition into plain, cacheable data (cold path).

``{ type = "command", program = "git", subcommand = "push", flags = ["-f|--force"], ... }`` holds when
some simple command the Bash line would run (see ``cupcake.shell``) matches every field given.
The compiled form is one flat tuple (see ``Spec`` in ``command_match`` for the field order)."""

from __future__ import annotations

import fnmatch

from pydantic_core import ValidationError

from cupcake.compile import schema
from cupcake.compile.glob_shapes import regexes, shape
from cupcake.compile.literals import required_pieces
from cupcake.compile.messages import explain

FIELDS = ("program", "subcommand", "flags", "not_flags", "args", "args_regex", "path_outside", "via", "piped_from")


def _names(value, what: str, report, lower: bool = False):
    """A string or a list of strings, as a sorted tuple; None when absent."""
    if value is None:
        return None
    items = [value] if isinstance(value, str) else value
    out = []
    for item in items:
        text = item.strip()
        if not text:
            report(f"condition command: `{what}` must not hold an empty name", "conditions")
            return None
        out.append(text.lower() if lower else text)
    if not out:
        report(f"condition command: `{what}` must not be empty", "conditions")
        return None
    return tuple(dict.fromkeys(out))


def _flag_sets(value, what: str, report):
    """``["-f|--force", "-r|-R"]`` -> (("-f", "--force"), ("-r", "-R")); None when absent."""
    if value is None:
        return None
    out = []
    for entry in value:
        alternatives = tuple(a.strip() for a in entry.split("|") if a.strip())
        if not alternatives or any(not a.startswith("-") and not a.startswith("+") for a in alternatives):
            report(
                f'condition command: each `{what}` entry lists flags such as "-f|--force" (got {entry!r})',
                "conditions",
            )
            return None
        out.append(alternatives)
    return tuple(out)


def glob_regex(glob: str) -> str:
    """A glob over one argument as a regex (``*`` matches any text, ``/`` included)."""
    return fnmatch.translate(glob)


def compile_command_condition(cond: dict, report, checked_regex):
    """The compiled condition, or None (reported)."""
    model = schema.CommandCondition
    try:
        model.validate(cond)
    except ValidationError as exc:
        for _loc, message in explain(exc.errors(), model.keys):
            report("condition command: " + message, "conditions")
        return None
    if not any(cond.get(field) is not None for field in FIELDS):
        report(f"condition command: give at least one of {', '.join('`' + f + '`' for f in FIELDS)}", "conditions")
        return None
    reported = []
    outer = report

    def counting(message, key=None, severity="error"):
        reported.append(message)
        outer(message, key, severity) if severity != "error" else outer(message, key)

    report = counting  # what follows reports through the counter

    programs = _names(cond.get("program"), "program", report, lower=True)
    if programs is not None and any("/" in p for p in programs):
        report(
            'condition command: `program` is a name such as "rm" (paths are normalised: /bin/rm is rm)', "conditions"
        )
        return None
    subcommands = _names(cond.get("subcommand"), "subcommand", report)
    via = _names(cond.get("via"), "via", report)
    flags = _flag_sets(cond.get("flags"), "flags", report)
    not_flags = _flag_sets(cond.get("not_flags"), "not_flags", report)
    args = tuple(shape(glob_regex(g)) for g in cond.get("args") or ()) or None
    args_regex = cond.get("args_regex")
    if args_regex is not None:
        pattern = checked_regex(args_regex, "command args_regex", report)
        if pattern is None:
            return None
        args_regex = (pattern, required_pieces(pattern))  # an argument without the pieces is never searched
    outside = cond.get("path_outside")
    if outside is not None:
        roots = []
        for root in outside:
            if root != "{project}" and not root.startswith(("/", "~")) and root not in ("$TMPDIR",):
                report(
                    f'condition command: `path_outside` entries are "{{project}}", "$TMPDIR", absolute paths or ~/…'
                    f" (got {root!r})",
                    "conditions",
                )
                return None
            roots.append(root.rstrip("/") or "/")
        outside = tuple(roots)
    if reported:
        return None
    globs = tuple(cond.get("args") or ()) or None
    piped = _names(cond.get("piped_from"), "piped_from", report, lower=True)
    return ("command", programs, subcommands, flags, not_flags, args, args_regex, outside, via, globs, piped)


def patterns_of(cond) -> list:
    """The regexes a compiled ``command`` condition evaluates (their SRE programs are cached)."""
    found = regexes(cond[5] or ())
    if cond[6]:
        found.append(cond[6][0])
    return found


def describe(cond) -> str:
    """The condition as written, for ``explain`` and error messages."""
    parts = []
    names = ("program", "subcommand", "flags", "not_flags", "args", "args_regex", "path_outside", "via")
    for name, value in zip(names, cond[1:]):
        if value is None:
            continue
        if name in ("flags", "not_flags"):
            value = ["|".join(v) for v in value]
        elif name == "args":
            value = cond[9]
        elif name == "args_regex":
            value = value[0]
        parts.append(f"{name}={value!r}" if isinstance(value, str) else f"{name}={list(value)!r}")
    if cond[10]:
        parts.append(f"piped_from={list(cond[10])!r}")
    return "command(" + ", ".join(parts) + ")"
