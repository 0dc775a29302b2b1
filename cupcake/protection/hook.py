"""Self-protection: the agent may not change what governs it (DESIGN.md "Self-protection").

The hook's dispatch over the protected set (``cupcake.protection.protected_set``, which lists its keys
and says which of them a path is). Write, Edit, MultiEdit and NotebookEdit naming a protected path are
blocked (every path field of the input), so is any tool naming a secret (``other_tools``), an MCP or
unknown tool naming a protected path, and a Bash command that could change one or read a secret, or
runs Cupcake's own set-up (``cupcake.protection.bash``). A run only compares strings and, for a Write
to an existing file, one ``stat``."""

from __future__ import annotations

from cupcake import lean_os as os

WRITE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
# Tools that only read (checked against the secrets alone). Any other tool, MCP or unknown, is read
# for paths it could change.
READ_TOOLS = frozenset({"Read", "NotebookRead", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "TodoWrite", "Agent"})
GUARDED_EVENTS = frozenset({"PreToolUse", "PermissionRequest"})
POLICY_NAME = "Cupcake self-protection"


def applies(ctx) -> bool:
    """Cheap: whether self-protection looks at this event (a tool call, before it runs): every tool,
    since any of them could read a secret, and some write."""
    if ctx.event not in GUARDED_EVENTS or ctx.policies is None or ctx.incoming is None:
        return False
    if ctx.settings.get("self_protection") is False:  # only an explicit false turns it off
        return False
    return isinstance(ctx.incoming.tool, str)


def _agent_tool_kind(ctx):
    """ "shell" or "write" when the agent's own name for the tool is one of its shell or file-writing
    tools (a tool the adapter has no canonical name for, such as Cursor's Delete), else None."""
    payload = getattr(ctx.incoming, "payload", None)
    agent = getattr(ctx, "agent", None)
    tool = payload.get("agent_tool") if isinstance(payload, dict) else None
    if agent is None or not isinstance(tool, str):
        return None
    if tool in getattr(agent, "SHELL_TOOLS", ()):
        return "shell"
    if tool in getattr(agent, "FILE_WRITE_TOOLS", ()):
        return "write"
    return None


def violation(ctx, view):
    """The block text when this tool call would change a protected path or read a secret, else None."""
    if ctx.incoming.input_unreadable:
        return (
            f"Cupcake self-protection: the input of this {view.tool} call could not be read (it is not an object "
            "of named arguments), so Cupcake cannot tell what it touches and it is blocked. Send the arguments "
            "as a plain JSON object."
        )
    shell = view.tool == "Bash" or (view.tool not in WRITE_TOOLS and _agent_tool_kind(ctx) == "shell")
    if shell:
        from cupcake.protection.quick import quick_pass

        command = view.command
        if not isinstance(command, str) or not command or quick_pass(command):
            return None  # a plain reading command: nothing below would read it (nor the protected set)
    from cupcake.protection.protected_set import _PERSON, _describe, _display, classify, protected_defaults

    protected = ctx.policies.get("protected") or protected_defaults(ctx.root, ctx.env)
    if not shell:
        from cupcake.protection.other_tools import secret_violation

        found = secret_violation(view, protected, ctx, _display)
        if found or view.tool in READ_TOOLS:
            return found
    from cupcake.protection.install import with_install  # what this process runs: not in the cache

    protected = with_install(protected, ctx.env)
    if shell:  # the Bash reader judges reads of secrets too
        return _bash(view, protected, ctx)
    if view.tool in WRITE_TOOLS or _agent_tool_kind(ctx) == "write":
        return _write(view, protected, ctx)
    from cupcake.protection.other_tools import mcp_violation  # an MCP or unknown tool (see ``other_tools``)

    return mcp_violation(view, protected, ctx, classify, _describe, _PERSON)


# ## Warm: is this path protected? #################################################################


def _write(view, protected, ctx):
    for raw in written_paths(view.tool_input):
        found = _write_one(raw, view, protected, ctx)
        if found:
            return found
    return None


def written_paths(tool_input) -> list:
    """Every path a file tool's input names: each path-like field, not only the first (the tool reads
    its own field, and a decoy beside it must not hide it), and every file of a patch (``file_paths``)."""
    from cupcake.protection.other_tools import PATH_KEYS

    out: list[str] = []
    for key, value in tool_input.items():
        if not isinstance(key, str) or key.lower() not in PATH_KEYS:
            continue
        for item in value[:256] if isinstance(value, list) else (value,):
            if isinstance(item, str) and item and "\0" not in item and item not in out:
                out.append(item)
    return out


def _write_one(raw: str, view, protected, ctx):
    from cupcake.protection.protected_set import _PERSON, _cwd, _describe, _display, classify

    cwd = _cwd(view.cwd, ctx.root)
    literal = os.path.normpath(os.path.join(cwd, raw))
    try:
        resolved = os.path.realpath(literal)  # symlinks followed: a link to a policy file is that file
    except (OSError, ValueError):
        resolved = literal
    for form in (literal, resolved):
        found = classify(form, protected)
        if found:
            return f"Cupcake self-protection: {_describe(literal, found, ctx)}. {_PERSON}"
    from cupcake.protection.other_tools import hard_link_violation  # also .cupcake/ and settings files

    linked = hard_link_violation(resolved, protected, ctx)
    if linked:
        return f"Cupcake self-protection: {linked.replace(resolved, _display(literal, ctx), 1)} {_PERSON}"
    return None


# ## Warm: Bash ####################################################################################


def _bash(view, protected, ctx):
    from cupcake.protection.bash import violation as bash_violation  # the reader is imported only when needed
    from cupcake.protection.protected_set import _cwd

    return bash_violation(view.command, _cwd(view.cwd, ctx.root), ctx.root, ctx.env, protected, ctx)
