"""``cupcake sync --agent NAME``: write Cupcake's hooks into another agent's hook configuration.

The same guarantees as for Claude Code (``cupcake.cli.sync``): only Cupcake's own entries for that
agent change, every other byte stays; syncing twice changes nothing; ``--dry-run`` shows the diff;
``--uninstall`` takes Cupcake's entries out and nothing else; a file Cupcake cannot parse is never
overwritten; the write is atomic and the previous file is kept as ``<name>.bak``. Each hook command
is ``cupcake run --agent NAME --event <the agent's event>``; with ``fail_mode = "closed"`` a missing
or crashing executable blocks too (exit 2 with the reason on stderr, which every one of these agents
takes as a block; Cursor's ``failClosed`` besides).

Codex runs a project's hooks only in a trusted project, and only hooks trusted by hash: ``--trust``
does both (``cupcake.agents.codex.trust``), else the output says how.
"""

from __future__ import annotations

import os

from cupcake.agents import adapter, project_dir_in
from cupcake.agents.claude import hook_entries as entries
from cupcake.agents.claude import settings_file
from cupcake.agents.claude.settings_file import SettingsFileError
from cupcake.cli.sync import (
    Refused,
    backup_note,
    chosen_executable,
    policy_errors_warning,
    policy_settings,
    scope_label,
    show_dry_run,
    write_gitignore,
)
from cupcake.project import PROJECT_FILE, find_root
from cupcake.stores import gitignore


def install_module(agent: str):
    """The agent's ``install`` module (its hook files)."""
    package = adapter(agent).__name__
    return __import__(package + ".install", fromlist=("update_text",))


def config_label(agent: str, scope: str, root: str, env) -> tuple[str, str]:
    """(path, how it is named in messages) of the agent's hook file for ``scope``."""
    path = install_module(agent).config_path(scope, root, env)
    return path, scope_label(scope, path, root, env)


def updated_text(install, text: str, word: str, timeout, closed: bool, uninstall: bool, scope: str) -> str:
    kwargs = {"scope": scope} if "scope" in install.update_text.__code__.co_varnames else {}
    return install.update_text(text, install.EVENTS, word, int(timeout), closed, uninstall, **kwargs)


def sync_agent(
    agent: str,
    scope: str,
    env,
    cwd: str,
    command=None,
    dry_run: bool = False,
    uninstall: bool = False,
    trust: bool = False,
    out=print,
    err=print,
) -> int:
    try:
        return _sync(agent, scope, env, cwd, command, dry_run, uninstall, trust, out, err)
    except (Refused, SettingsFileError) as exc:
        err(f"cupcake sync: {exc}")
        return 1


def _sync(agent, scope, env, cwd, command, dry_run, uninstall, trust, out, err) -> int:
    install = install_module(agent)
    display = getattr(adapter(agent), "DISPLAY_NAME", agent)
    if scope not in install.SCOPES:
        raise Refused(f"{display} has no {scope!r} scope: use {' or '.join(install.SCOPES)}")
    if trust and agent != "codex":
        raise Refused(f"--trust is for Codex, which trusts hooks by hash; {display} needs no trust step")
    root = find_root(project_dir_in(env), cwd)
    path, label = config_label(agent, scope, root, env)
    loaded = _read(path, label)
    text = loaded.text or ""

    if uninstall:
        word = entries.command_word(command) if command else "cupcake"
        new_text = _edit(install, text, word, 600, False, True, scope, label)
        if dry_run:
            return show_dry_run(loaded, new_text, None, out)
        if new_text == text:
            out(f"{label}: no Cupcake hooks for {display}; nothing to remove.")
            return 0
        _write(loaded, new_text)
        out(f"Removed Cupcake's {display} hooks from {label}" + backup_note(loaded))
        return 0

    fail_mode, timeout, policy_errors, present, _compiled = policy_settings(scope, root, env)
    executable = chosen_executable(scope, command)
    word = entries.command_word(executable)
    closed = fail_mode == "closed"
    new_text = _edit(install, text, word, timeout, closed, False, scope, label)
    ignore = gitignore.plan(root) if scope != "user" else None
    if dry_run:
        return show_dry_run(loaded, new_text, ignore, out)

    from cupcake.agents.hookfile import command_line
    from cupcake.stores.policies.cache import secret

    secret(env, create=True)  # the policy cache's seal from now on
    shown = command_line(word, agent, "<event>", closed)
    if new_text != text or not loaded.exists:
        _write(loaded, new_text)
        out(
            f"Wrote Cupcake's {display} hooks to {label}: {len(install.EVENTS)} events, `{shown}`, "
            f"timeout {timeout} s" + backup_note(loaded)
        )
    else:
        out(f"{label}: Cupcake's {display} hooks are already up to date (`{shown}`, timeout {timeout} s).")
    write_gitignore(ignore, out)
    from cupcake.cli.sync import path_warnings

    for warning in path_warnings(executable, env, closed):
        warning = warning.replace("Claude Code", display).replace(
            "run `cupcake sync --scope local` to write this installation's absolute path",
            f"run `cupcake sync --agent {agent} --command {entries.installation_executable() or '/path/to/cupcake'}`",
        )
        err("warning: " + warning)
    if policy_errors:
        err(policy_errors_warning(policy_errors, closed))
    for line in _next_steps(agent, scope, root, env, trust, out, err):
        out(line)
    if not present:
        out(f"No policy file yet ({PROJECT_FILE} or ~/.claude/cupcake.toml): Cupcake stays silent until there is one.")
    return 0


def _next_steps(agent, scope, root, env, trust, out, err) -> list[str]:
    """What the agent still needs before it runs the hooks (Codex: trust; Copilot: a trusted folder)."""
    if agent == "codex":
        from cupcake.agents.codex import trust as codex_trust

        if trust:
            try:
                trusted = codex_trust.trust(root, env, project=scope == "project")
            except codex_trust.TrustError as exc:
                raise Refused(f"the hooks were written, but Codex could not be asked to trust them: {exc}") from None
            return [
                f"Codex now trusts Cupcake's hooks ({len(trusted)} newly trusted)"
                + (" and this project." if scope == "project" else ".")
            ]
        return [codex_trust.HOW]
    if agent == "copilot" and scope == "project":
        return [
            "Copilot CLI loads .github/hooks/ only in a folder it trusts (answer its trust prompt, "
            "or run with --trust-folder)."
        ]
    if agent == "cursor":
        return ["Cursor runs project hooks only in a trusted workspace (not verified in the real client)."]
    return []


def _read(path: str, label: str):
    try:
        return settings_file.read(path, label)
    except SettingsFileError as exc:
        if "empty" in exc.what:  # an empty hook file is a new one for these agents' tools
            return settings_file.Loaded(path, label, "", b"")
        raise


def _edit(install, text, word, timeout, closed, uninstall, scope, label) -> str:
    try:
        return updated_text(install, text, word, timeout, closed, uninstall, scope)
    except RecursionError:
        raise Refused(f"{label}: nested too deeply to edit safely; Cupcake leaves it as it is") from None
    except ValueError as exc:
        raise Refused(f"{label}: {exc}") from None


def _write(loaded, text: str) -> None:
    if not text and loaded.exists:
        settings_file.write(loaded, "{}\n")  # never leave an empty file an agent might not read
        return
    settings_file.write(loaded, text)


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
