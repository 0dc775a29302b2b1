"""Every agent's hook files through one interface (cold path: ``sync``, ``doctor``, ``validate``).

Each adapter package has an ``install`` module, the agent's installer, with the same names:

- ``SCOPES`` (scope -> where its file is, as shown), ``config_path(scope, project_dir, env)``,
  ``OPTIONS`` (what ``sync`` may do there besides the hooks: ``sandbox``, ``jail``, ``trust``);
- ``SANDBOX``: what ``sync --sandbox`` turns on: ``"own"``, the agent's own sandbox (Cupcake's jail is
  then ``--jail``; ``own_sandbox_on(root, env)`` says whether it is on), or ``"jail"``, Cupcake's jail
  (``cupcake.jail``); ``os_layer(scope, root, env, on)``: what else the jail needs changed there (None,
  or an object with ``shown()``, ``ignored(root)`` and ``apply()``); ``jail_notes(jail_dirs)``: what
  sync says once the jail is on;
- ``hook_events(compiled)``: the canonical events it hooks;
- ``update_text(text, events, word, timeout, closed, uninstall, scope, also, jail)``: the file's text with
  Cupcake's entries set (or removed), the jail's flag on the before-tool hook, every other byte kept
  (ValueError: cannot edit it safely);
- ``hooks_in(text)``: (its event, command, timeout in seconds) of Cupcake's hooks there;
- ``protect(edits, scope, root, env, compiled, sandbox)`` and ``unprotect(edits, scope, root, env)``:
  what it adds beside the hooks (Claude Code's deny rules and sandbox paths), with the entries git must
  ignore, and takes out again, with what to tell the person; ``file_findings(text)``: what doctor says
  about the file; ``doctor_findings(root, env, paths, jail)``: what doctor says about the agent beside
  its files; ``notes(scope, root, env, **options)``: what sync says after writing (Codex's trust step);
- ``protected_paths(project_dir, env)``: its files self-protection keeps the agent off; unless
  ``settings_dirs(project_dir, env)`` names folders: those whose ``settings*.json`` files it reads its
  hooks from, which self-protection guards by name (any such file there, a new one too);
- ``transcript_dirs(env)``: the folders of its session transcripts (they hold what the person was
  shown, approval codes included): secrets to self-protection, unreadable to the agent's tools.

Nothing outside ``cupcake/agents/`` names an agent's module, file or key: it asks here."""

from __future__ import annotations

import os

from cupcake.agents import NAMES, adapter


def installer(agent: str):
    """The agent's ``install`` module (its hook files)."""
    return __import__(adapter(agent).__name__ + ".install", fromlist=("update_text",))


def display_name(agent: str) -> str:
    return getattr(adapter(agent), "DISPLAY_NAME", agent)


def hooks(agent: str, path: str) -> list[tuple[str, str, float | None]]:
    """(agent event, command, timeout) of Cupcake's hooks in the agent's file at ``path`` ([] when
    it is absent or cannot be read: doctor says why)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(1 << 22)
        return installer(agent).hooks_in(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return []


def configured_agents(root: str, env) -> list[tuple[str, str, str]]:
    """(agent, scope, path) for every hook file, of every agent, that holds Cupcake's hooks for it."""
    found = []
    for agent in NAMES:
        install = installer(agent)
        for scope in install.SCOPES:
            path = install.config_path(scope, root, env)
            if hooks(agent, path):
                found.append((agent, scope, path))
    return found


def canonical_event(agent: str, agent_event: str) -> str:
    """The canonical name of an agent's event (its own name when the agent's table has no such event)."""
    for canonical, line in adapter(agent).CAPABILITIES.items():
        if agent_event in line["agent_events"]:
            return canonical
    return agent_event


def installed_events(root: str, env):
    """{canonical event: [where]} of Cupcake's hooks in every agent's files, or None when none has any."""
    found: dict = {}
    for agent, scope, path in configured_agents(root, env):
        where = f"{display_name(agent)} ({installer(agent).SCOPES[scope]})"
        for agent_event, _command, _timeout in hooks(agent, path):
            found.setdefault(canonical_event(agent, agent_event), []).append(where)
    return found or None


def unhooked(compiled, installed) -> list:
    """``(name, event, file, line)`` of every policy in service whose event no installed hook calls."""
    if not compiled or installed is None:
        return []
    return [(p[0], p[1], p[5], p[6]) for p in compiled.get("policies") or () if p[1] not in installed]


def unhooked_message(event: str) -> str:
    return f"no installed hook calls Cupcake on {event}, so this policy never runs; run `cupcake sync` to install one"


def settings_dirs(root: str, env) -> list[str]:
    """The directories whose ``settings*.json`` files hold an agent's hooks (those its installer's
    ``settings_dirs`` names: Claude Code's): guarded by name, any file there (a new ``settings.local.json`` too)."""
    found: list[str] = []
    for agent in NAMES:
        found.extend(d for d in installer(agent).settings_dirs(root, env) if d not in found)
    return found


def settings_names(root: str, env) -> list[str]:
    """The usual names of the hook files in the ``settings_dirs`` (what a ``find -name`` aimed at one
    that does not exist yet must be checked against): the names of those installers' ``protected_paths``."""
    found: list[str] = []
    for agent in NAMES:
        install = installer(agent)
        if install.settings_dirs(root, env):
            found.extend(n for n in (os.path.basename(p) for p in install.protected_paths(root, env)) if n not in found)
    return found


def transcript_dirs(env) -> list[str]:
    """Every agent's folder of session transcripts (its installer's ``transcript_dirs``)."""
    found: list[str] = []
    for agent in NAMES:
        found.extend(d for d in installer(agent).transcript_dirs(env) if d not in found)
    return found


def hook_config_paths(root: str, env) -> list[str]:
    """Every agent's own hook configuration (files, or a directory of hook files), project and user,
    and the organisation's (its policy folder and each agent's managed settings): whichever agent runs,
    it may not rewrite which hooks the agents run. An agent whose installer names ``settings_dirs`` is
    left out of the project and user part: its files are guarded by name in those (``settings_dirs``)."""
    from cupcake.agents.managed import guarded_paths
    from cupcake.project import managed_dir

    found: list[str] = [managed_dir(env)]  # the organisation's policy folder: nothing may be created or changed there
    for agent in NAMES:
        found.extend(p for p in guarded_paths(agent, env) if p not in found)  # the organisation's hooks
        try:
            install = installer(agent)
            if install.settings_dirs(root, env):
                continue
            paths = install.protected_paths(root, env)
        except Exception:  # an adapter that cannot say: the others still count
            continue
        found.extend(p for p in paths if p not in found)
    return found
