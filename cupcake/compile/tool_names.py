"""Matchers that no tool can match (cold path: a validation warning, never a change to a run).

A matcher is a regex over the tool name Claude Code sends. ``bash`` (tool names are capitalised)
or Claude Code's permission-rule syntax ``Bash(git *)`` (read as a regex, it matches "Bashgit …")
never fires, silently. The built-in tool names are Claude Code's (``cupcake.agents.catalog.canonical_tools``);
MCP tools are ``mcp__<server>__<tool>``."""

from __future__ import annotations

import re

from cupcake.agents.catalog import canonical_tools

# Claude Code's tool names (its vocabulary is the canonical one): the list lives with its adapter.
BUILTIN_TOOLS = canonical_tools()
# Names an MCP tool may have, to try a matcher on: a regex that matches one of them targets MCP tools.
MCP_SAMPLES = ("mcp__server__tool", "mcp__plugin_name_server__tool", "mcp__github__create_issue")
FILE_TOOLS = ("Read", "Edit", "Write", "MultiEdit", "NotebookEdit")
_PERMISSION = re.compile(r"([A-Za-z]+)\((.*)\)", re.S)


def matcher_warning(matcher: str):
    """Why ``matcher`` can match no tool, or None when some tool (built-in or MCP) matches it."""
    rule = _PERMISSION.fullmatch(matcher)
    if rule and rule.group(1) in BUILTIN_TOOLS:
        return (
            f'`matcher` "{matcher}" is Claude Code\'s permission-rule syntax, which a matcher is not: read as a'
            f" regex over the tool name it matches no tool, so this policy never runs. The policy that means it: "
            + equivalent(rule.group(1), rule.group(2))
        )
    names = matcher.split("|")
    if all(_plain(n) for n in names):  # a list of names: each must be a tool's
        unknown = [n for n in names if n not in BUILTIN_TOOLS and not n.startswith("mcp__")]
        if not unknown:
            return None
        close = [_nearest(n) for n in unknown]
        hint = f' (did you mean "{close[0]}"?)' if len(unknown) == 1 and close[0] else ""
        shown = ", ".join(f'"{n}"' for n in unknown)
        return (
            f"`matcher`: {shown} {'is no tool' if len(unknown) == 1 else 'are no tools'} Claude Code sends"
            f" (tool names are case-sensitive, such as Bash, Edit or mcp__server__tool), so "
            f"{'this policy never runs' if len(unknown) == len(names) else 'that part never matches'}{hint}"
        )
    try:
        pattern = re.compile(matcher)
    except re.error:
        return None  # reported as an error elsewhere
    if any(pattern.fullmatch(name) for name in BUILTIN_TOOLS + MCP_SAMPLES) or matcher.startswith("mcp__"):
        return None
    return (
        f'`matcher` "{matcher}" matches no tool Claude Code sends (tool names are case-sensitive, such as'
        " Bash, Edit or mcp__server__tool), so this policy never runs"
    )


def _plain(name: str) -> bool:
    return name.replace("_", "").isalnum()


def _nearest(name: str):
    from cupcake.problems import suggestion

    folded = {t.lower(): t for t in BUILTIN_TOOLS}
    if name.lower() in folded:
        return folded[name.lower()]
    found = suggestion(name, BUILTIN_TOOLS)
    return found.split('"')[1] if found else None


def equivalent(tool: str, argument: str) -> str:
    """The matcher and condition that mean the permission rule ``tool(argument)``, as TOML."""
    argument = argument.strip()
    if tool in ("Bash", "PowerShell") and argument:
        if argument.endswith(":*"):  # the legacy prefix form, "npm run test:*"
            regex = "^" + _escape(argument[:-2]) + r"\b"
        else:
            regex = "^" + ".*".join(_escape(part) for part in argument.split("*")) + "$"
            regex = regex.replace(r"\ .*$", r"(\s|$)")  # "git *" also allows plain "git"
        return f'matcher = "{tool}", conditions = [{{ type = "command_regex", value = {_toml(regex)} }}]'
    if tool in FILE_TOOLS and argument:
        path = argument[2:] if argument.startswith("./") else argument
        regex = "^" + _path_glob(path) + "$"
        return f'matcher = "{tool}", conditions = [{{ type = "filepath_regex", value = {_toml(regex)} }}]'
    if tool == "WebFetch" and argument.startswith("domain:"):
        domain = re.escape(argument[len("domain:") :])
        regex = f"^https?://([^/]*\\.)?{domain}(/|:|$)"
        return f'matcher = "WebFetch", conditions = [{{ type = "field", path = "tool_input.url", regex = {_toml(regex)} }}]'
    return f'matcher = "{tool}" (with conditions on its tool_input for "{argument}")'


def _escape(text: str) -> str:
    return re.escape(text).replace("\\ ", " ")


def _path_glob(glob: str) -> str:
    out, i = [], 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return "".join(out)


def _toml(text: str) -> str:
    """A TOML literal string when it can be one (regexes read best without escapes)."""
    if "'" not in text and "\n" not in text:
        return f"'{text}'"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
