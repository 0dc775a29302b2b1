"""Cupcake's entries in another agent's hook file, edited in place: every byte that is not one of
Cupcake's own entries stays as it was. Pure (text in, text out); off the hot path (uses ``json``).

Two shapes: "grouped" (Claude Code's ``hooks.Event[].hooks[]``: Gemini CLI, Codex, droid) and
"flat" (``hooks.event[]`` of handlers: Copilot CLI, Cursor)."""

from __future__ import annotations

# json, shlex and the in-place editor are imported where they are used: the OS layer reads an agent's hook
# paths (``install.protected_paths``) on the hot path, and they cost it milliseconds.

# fail_mode = "closed": a missing or crashing executable blocks too. Exit 2 blocks in every agent here,
# but Gemini CLI lets a bare exit 2 through (it blocks only with a reason on stderr), and the others
# show the model stderr as the reason: so the reason is always said.
CLOSED_REASON = "Cupcake could not run, and its fail_mode is closed: blocked until a person fixes it."
# Where a failure blocks in closed mode: before a tool runs, and a prompt. At a stop a block only makes
# the agent continue (droid loops until its time-out); elsewhere nothing can be stopped.
CLOSED_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit"})
CLOSED_SUFFIX = f" || {{ echo '{CLOSED_REASON}' >&2; exit 2; }}"
# The OS layer (`sync --sandbox`): the before-tool hook carries the jail flag, and a Cupcake that cannot run
# blocks there whatever fail_mode says, since the call would otherwise run outside the jail.
JAIL_REASON = "Cupcake could not run, and its OS layer never lets a command run outside its jail: blocked until a person fixes it."
JAIL_SUFFIX = f" || {{ echo '{JAIL_REASON}' >&2; exit 2; }}"
JAIL_FLAGS = ("--jail", "--jail-unshare-net")


def command_line(word: str, agent: str, agent_event: str, closed: bool = False, jail: str = "") -> str:
    """``<cupcake> run --agent NAME --event <the agent's event> [--jail]`` (word: the executable,
    shell-quoted); ``jail`` is one of ``JAIL_FLAGS`` or empty."""
    line = f"{word} run --agent {agent} --event {agent_event}"
    if jail:
        return f"{line} {jail}{JAIL_SUFFIX}"
    return line + (CLOSED_SUFFIX if closed else "")


def is_cupcake(command, agent: str) -> bool:
    """Whether a hook command is a Cupcake run for ``agent`` (any executable path named cupcake)."""
    if not isinstance(command, str):
        return False
    import shlex

    body = command.rstrip()
    if "||" in body:  # the closed-mode tail, whichever form
        body = body[: body.index("||")]
    try:
        argv = shlex.split(body)
    except ValueError:
        return False
    if len(argv) < 4 or argv[1] != "run" or not (argv[0] == "cupcake" or argv[0].endswith("/cupcake")):
        return False
    return any(argv[i] == "--agent" and argv[i + 1] == agent for i in range(2, len(argv) - 1))


def new_text(top: dict, wanted: dict) -> str:
    """A whole file, when there is none yet."""
    import json

    return json.dumps({**top, "hooks": wanted}, indent=2, ensure_ascii=False) + "\n"


def update(
    text: str, agent: str, wanted: dict, *, grouped: bool, key: str = "command", top=None, uninstall: bool = False
) -> str:
    """``text`` with Cupcake's entries for ``agent`` set to ``wanted`` (agent event -> list of entries,
    as the file holds them), or all removed. ValueError for a file that is not a JSON object or whose
    ``hooks`` Cupcake cannot edit safely. Entries of other tools and events stay byte for byte."""
    import json

    from cupcake.agents.jsonedit import Document, New

    top = top or {}
    if not text.strip():
        return "" if uninstall else new_text(top, wanted)
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"not valid JSON ({exc}); Cupcake leaves the file as it is") from None
    if not isinstance(data, dict):
        raise ValueError("the top level is not a JSON object; Cupcake leaves the file as it is")
    doc = Document(text)
    members = [m for m in doc.root.members if m.key == "hooks"]
    if len(members) > 1:
        raise ValueError('"hooks" appears more than once; keep one, then run this again')
    if not members:
        if uninstall:
            return text
        extra = [New(k, v) for k, v in top.items() if k not in data]
        doc.rewrite(doc.root, doc.root.members + extra + [New("hooks", wanted)])
        return doc.render()
    hooks = members[0].value
    if hooks.kind != "object":
        raise ValueError('"hooks" is not an object; Cupcake leaves the file as it is')

    def ours(node) -> bool:
        if node.kind != "object":
            return False
        if not grouped:
            return is_cupcake(doc.value(node).get(key), agent)
        inner = [m for m in node.members if m.key == "hooks"]
        return (
            bool(inner)
            and inner[-1].value.kind == "array"
            and all(h.kind == "object" and is_cupcake(doc.value(h).get(key), agent) for h in inner[-1].value.items)
            and bool(inner[-1].value.items)
        )

    emptied, seen = [], set()
    for member in hooks.members:
        if member.value.kind != "array":
            if member.key in wanted and not uninstall:
                raise ValueError(f'"hooks": "{member.key}" is not a list; Cupcake leaves the file as it is')
            continue
        items = member.value.items
        kept = [i for i in items if not ours(i)]
        want = [] if uninstall else wanted.get(member.key, None)
        if want is None:
            continue  # an event Cupcake is not asked about: untouched
        seen.add(member.key)
        mine = [doc.value(i) for i in items if ours(i)]
        if mine == want and items[len(items) - len(mine) :] == [i for i in items if ours(i)]:
            continue  # already as wanted: syncing twice changes nothing
        if len(kept) == len(items) and not want:
            continue
        new_items = kept + [New(None, w) for w in want]
        if new_items:
            doc.rewrite(member.value, new_items)
        else:
            emptied.append(member)
    if not uninstall:
        added = [New(e, w) for e, w in wanted.items() if e not in seen and not any(m.key == e for m in hooks.members)]
        if added or emptied:
            doc.rewrite(hooks, [m for m in hooks.members if m not in emptied] + added)
    elif emptied:
        left = [m for m in hooks.members if m not in emptied]
        if left:
            doc.rewrite(hooks, left)
        else:
            doc.rewrite(doc.root, [m for m in doc.root.members if m is not members[0]])
    return doc.render() if doc.changed else text


def entries(
    agent: str,
    events,
    capabilities: dict,
    word: str,
    *,
    grouped: bool,
    handler,
    matcher=None,
    closed: bool = False,
    jail: str = "",
) -> dict:
    """The hook entries for canonical ``events`` (or the agent's own event names): agent event ->
    list as the file holds it. ``handler(command)`` builds one handler; ``matcher(event)`` the
    group's matcher (None: no matcher field); ``jail`` the OS layer's flag, on the before-tool hook."""
    out: dict[str, list] = {}
    for event in events:
        line = capabilities.get(event)
        agent_event = line["agent_events"][0] if line else event
        flag = jail if event == "PreToolUse" else ""
        entry = handler(command_line(word, agent, agent_event, closed and event in CLOSED_EVENTS, flag))
        if grouped:
            m = matcher(event) if matcher else None
            entry = {"matcher": m, "hooks": [entry]} if m is not None else {"hooks": [entry]}
        out.setdefault(agent_event, []).append(entry)
    return out


def scope_path(scopes: dict, scope: str, project_dir: str, env) -> str:
    """Where a scope's hook file is, from an agent's ``SCOPES`` table: a path under ``~`` is in the
    user's home (``env``'s HOME), any other is relative to the project directory."""
    relative = scopes[scope]
    if relative == "~" or relative.startswith("~/"):
        return home_of(env) + relative[1:]
    import os

    return os.path.join(project_dir, relative)


def home_of(env) -> str:
    import os

    return (env or {}).get("HOME") or os.path.expanduser("~")
