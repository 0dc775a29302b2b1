"""Every agent's hook files, taken together (cold path): which agents have Cupcake's hooks where,
and the hook commands in them. What ``sync``, ``doctor`` and ``validate`` ask of all agents at once."""

from __future__ import annotations

import os

from cupcake.agents import adapter


def install_module(agent: str):
    """The agent's ``install`` module (its hook files)."""
    package = adapter(agent).__name__
    return __import__(package + ".install", fromlist=("update_text",))


def configured_agents(root: str, env) -> list[tuple[str, str, str]]:
    """(agent, scope, path) for every other agent whose hook file holds Cupcake's entries for it."""
    from cupcake.agents import NAMES
    from cupcake.agents.hookfile import is_cupcake

    found = []
    for agent in NAMES:
        if agent == "claude":
            continue
        install = install_module(agent)
        for scope in install.SCOPES:
            path = install.config_path(scope, root, env)
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read(1 << 20)
            except (OSError, UnicodeDecodeError):
                continue
            if f"--agent {agent}" in text and _holds_cupcake(text, agent, is_cupcake):
                found.append((agent, scope, path))
    return found


def _holds_cupcake(text: str, agent: str, is_cupcake) -> bool:
    import json

    try:
        data = json.loads(text)
    except ValueError:
        return False
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key in ("command", "bash"):
                if is_cupcake(node.get(key), agent):
                    return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def hook_commands(path: str, agent: str) -> list[tuple[str, str]]:
    """(agent event, command) of Cupcake's hooks in the agent's file."""
    import json

    from cupcake.agents.hookfile import is_cupcake

    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return []
    hooks = data.get("hooks") if isinstance(data, dict) else None
    found: list[tuple[str, str]] = []
    for event, items in (hooks or {}).items() if isinstance(hooks, dict) else ():
        for item in items if isinstance(items, list) else ():
            handlers = item.get("hooks") if isinstance(item, dict) and "hooks" in item else [item]
            for h in handlers if isinstance(handlers, list) else ():
                if isinstance(h, dict):
                    command = h.get("command", h.get("bash"))
                    if isinstance(command, str) and is_cupcake(command, agent):
                        found.append((event, command))
    return found


def executable_in(command: str):
    """The executable a hook command names (its first word), or None."""
    import shlex

    try:
        argv = shlex.split(command[: command.index("||")] if "||" in command else command)
    except ValueError:
        return None
    return os.path.expanduser(argv[0]) if argv else None
