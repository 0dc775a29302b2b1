"""Cupcake's entries in another agent's hook file, edited in place: every byte that is not one of
Cupcake's own entries stays as it was. Pure (text in, text out).

Two shapes: "grouped" (Claude Code's ``hooks.Event[].hooks[]``: Gemini CLI, Codex, droid) and
"flat" (``hooks.event[]`` of handlers: Copilot CLI, Cursor).

``json``, the command builder and the in-place editor are imported where they are used: the OS layer
reads an agent's hook paths (``install.protected_paths``) on the hot path, and they cost it milliseconds."""

from __future__ import annotations


def new_text(top: dict, wanted: dict) -> str:
    """A whole file, when there is none yet."""
    import json

    return json.dumps({**top, "hooks": wanted}, indent=2, ensure_ascii=False) + "\n"


def update(
    text: str,
    agent: str,
    wanted: dict,
    *,
    grouped: bool,
    key: str = "command",
    top=None,
    uninstall: bool = False,
    also=(),
) -> str:
    """``text`` with Cupcake's entries for ``agent`` set to ``wanted`` (agent event -> list of entries,
    as the file holds them), or all removed. ValueError for a file that is not a JSON object or whose
    ``hooks`` Cupcake cannot edit safely. Entries of other tools and events stay byte for byte."""
    import json

    from cupcake.agents.hook_command import is_cupcake
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
            return is_cupcake(doc.value(node).get(key), agent, also)
        inner = [m for m in node.members if m.key == "hooks"]
        return (
            bool(inner)
            and inner[-1].value.kind == "array"
            and all(
                h.kind == "object" and is_cupcake(doc.value(h).get(key), agent, also) for h in inner[-1].value.items
            )
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
    from cupcake.agents.hook_command import BLOCKING_EVENTS, build

    out: dict[str, list] = {}
    for event in events:
        line = capabilities.get(event)
        agent_event = line["agent_events"][0] if line else event
        flag = jail if event == "PreToolUse" else ""
        entry = handler(build(word, agent, agent_event, event in BLOCKING_EVENTS, closed, flag))
        if grouped:
            m = matcher(event) if matcher else None
            entry = {"matcher": m, "hooks": [entry]} if m is not None else {"hooks": [entry]}
        out.setdefault(agent_event, []).append(entry)
    return out


def commands_in(text: str, agent: str, key: str = "command", timeout_key: str = "timeout", per_second: int = 1):
    """(agent event, command, timeout in seconds or None) of Cupcake's hooks for ``agent`` in a hook
    file's text (ValueError: not JSON), in either shape."""
    import json

    from cupcake.agents.hook_command import is_cupcake

    data = json.loads(text) if text.strip() else {}
    hooks = data.get("hooks") if isinstance(data, dict) else None
    found: list = []
    for event, items in hooks.items() if isinstance(hooks, dict) else ():
        for item in items if isinstance(items, list) else ():
            handlers = item.get("hooks") if isinstance(item, dict) and "hooks" in item else [item]
            for h in handlers if isinstance(handlers, list) else ():
                command = h.get(key) if isinstance(h, dict) else None
                if is_cupcake(command, agent):
                    timeout = h.get(timeout_key)
                    seconds = (
                        timeout / per_second if isinstance(timeout, (int, float)) and timeout is not True else None
                    )
                    found.append((event, command, seconds))
    return found


# What an agent's installer says where it has nothing of its own to add (the interface is in
# ``cupcake.agents.installers``).


def nothing_to_protect(edits, scope, root, env, compiled, sandbox) -> list[str]:
    return []


def nothing_to_unprotect(edits, scope, root, env) -> list[str]:
    return []


def no_findings(text: str) -> list:
    return []


def no_notes(scope, root, env, **options) -> list[str]:
    return []


def no_doctor_findings(root, env, paths, jail="") -> list:
    return []


def no_settings_dirs(project_dir, env) -> list[str]:
    return []


def no_transcript_dirs(env) -> list[str]:
    return []


def no_jail_notes(jail_dirs=()) -> list[str]:
    return []


def no_os_layer(scope, root, env, on: bool):
    return None


def no_own_sandbox(root, env) -> bool:
    return False


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
