"""Claude Code's hook settings, through the installer interface every agent has (``cupcake.agents.installers``):
where each scope's file is, which events get a hook, the entries edited in place (``hook_edit``), the
protections it adds beside them (``protections``), and what doctor checks in its files."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.claude.capabilities import USER_DIR
from cupcake.agents.hookfile import no_os_layer as os_layer  # noqa: F401 (the installer interface)

NAME = "claude"
SCOPES = {
    "project": os.path.join(USER_DIR, "settings.json"),
    "local": os.path.join(USER_DIR, "settings.local.json"),
    "user": os.path.join("~", USER_DIR, "settings.json"),
}
# What `cupcake sync` may do here besides the hooks: turn Claude Code's own sandbox on (``sandbox``: the
# OS layer is the agent's own), or put Cupcake's jail on instead (``jail``), for who does not run it.
OPTIONS = frozenset({"sandbox", "jail"})
SANDBOX = "own"
# The personal file beside the shared one: git must never see it (nor its backup).
PERSONAL_PATTERN = os.path.join(USER_DIR, "settings.local.json*")


def config_path(scope: str, project_dir: str, env) -> str:
    return hookfile.scope_path(SCOPES, scope, project_dir, env)


def settings_dirs(project_dir: str, env) -> list[str]:
    """The directories holding Claude Code's settings: the project's and the user's ``.claude``."""
    return [os.path.join(project_dir, USER_DIR), os.path.join(hookfile.home_of(env), USER_DIR)]


def protected_paths(project_dir: str, env) -> list[str]:
    """Claude Code's own settings files (the hooks live there), project and user."""
    return [
        os.path.join(base, name)
        for base in settings_dirs(project_dir, env)
        for name in ("settings.json", "settings.local.json")
    ]


# ## The hooks ######################################################################################


def hook_events(compiled) -> tuple:
    """Cupcake's own events, then every event a policy in service names."""
    from cupcake.agents.claude.hooked_events import needed_events

    return needed_events(compiled)


def update_text(
    text: str,
    events,
    word: str,
    timeout,
    closed: bool = False,
    uninstall: bool = False,
    scope="project",
    also=(),
    jail: str = "",
) -> str:
    """``text`` with Cupcake's handlers set for ``events`` (or all removed); ValueError when the file
    holds something Cupcake cannot edit safely. Everything else keeps its bytes."""
    from cupcake.agents.claude import hook_entries as entries
    from cupcake.agents.claude.hook_edit import apply_sync, apply_uninstall
    from cupcake.agents.jsonedit import Document

    doc = Document(text or "{}\n")
    if uninstall:
        apply_uninstall(doc, also)
    else:
        wanted = {e: entries.handler(word, e, closed, timeout, jail if e == "PreToolUse" else "") for e in events}
        apply_sync(doc, wanted, also)
    if not doc.changed:
        return text
    return doc.render()


def hooks_in(text: str) -> list:
    """(event, command, timeout in seconds) of every Cupcake handler in the file, in file order
    (ValueError: cannot read it)."""
    from cupcake.agents.claude.hook_edit import find_cupcake
    from cupcake.agents.jsonedit import Document

    found = []
    for handler in find_cupcake(Document(text)):
        timeout = handler.value.get("timeout")
        seconds = timeout if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) else None
        found.append((handler.event, handler.value["command"], seconds))
    return found


def file_findings(text: str) -> list[tuple[str, str, str | None]]:
    """(status, what, how to fix) of what in a settings file keeps Cupcake's hooks from judging every
    call: all hooks off, a handler that sees only some tools, an async one, an ``if`` filter. ``{file}``
    stands for the file's name; no fix: sync again."""
    from cupcake.agents.claude.hook_edit import find_cupcake
    from cupcake.agents.jsonedit import Document

    doc = Document(text)
    found: list[tuple[str, str, str | None]] = []
    members = doc.root.find("disableAllHooks") if doc.root.kind == "object" else []
    if members and doc.value(members[-1].value) is True:
        found.append(
            (
                "problem",
                '{file} sets "disableAllHooks": true: Claude Code runs no hooks at all',
                'remove "disableAllHooks" from {file}',
            )
        )
    for handler in find_cupcake(doc):
        if not handler.matches_all:
            found.append(
                ("warning", f"{{file}}: Cupcake's {handler.event} hook runs only for matcher {handler.matcher!r}", None)
            )
        if handler.value.get("async") is True:
            found.append(
                ("problem", f"{{file}}: Cupcake's {handler.event} hook is async, and an async hook cannot block", None)
            )
        if "if" in handler.value:
            found.append(
                (
                    "warning",
                    f'{{file}}: Cupcake\'s {handler.event} hook has an "if" filter ({handler.value["if"]!r})',
                    None,
                )
            )
    return found


# ## Protections beside the hooks ####################################################################


def protections_path(scope: str, project_dir: str, env) -> str:
    """Where the protections go: they name this machine's paths (the project, the home, the installed
    package), so never into the team-shared file: beside it, into the personal one."""
    from cupcake.agents.hook_command import SHARED_SCOPES

    return config_path("local" if scope in SHARED_SCOPES else scope, project_dir, env)


def protect(edits, scope: str, root: str, env, compiled, sandbox: bool) -> list[str]:
    """Add Claude Code's own protections for Cupcake's files (``protections``); returns the entries git
    must ignore for what this leaves beside the files. ValueError when a key cannot be edited."""
    from cupcake.agents.claude import protections

    if sandbox:
        missing = protections.sandbox_missing(env)
        if missing:
            raise ValueError(
                f"Claude Code's sandbox needs {' and '.join(missing)}, which {'is' if len(missing) == 1 else 'are'} "
                f"not on PATH: install them (Debian, Ubuntu: `{protections.INSTALL_HINT}`), then run `cupcake sync "
                "--sandbox` again. Nothing was written."
            )
    _move_out_of_shared(edits, scope, root, env)
    path = protections_path(scope, root, env)
    targets = protections.protected_targets(scope, root, env, (compiled or {}).get("protected") or {})
    previous = protections.read_record(path) if edits.exists(path) else None
    text, record = protections.apply(edits.text(path) or "{}\n", targets, sandbox, previous)
    if text != edits.text(path) or edits.exists(path):
        edits.set(path, text)
    if record != previous and (record["created"] or record["deny"] or record["deny_write"] or "enabled_was" in record):
        edits.after(lambda: protections.write_record(path, record))
    return _ignored(scope, root, env)


def unprotect(edits, scope: str, root: str, env) -> list[str]:
    """Take out exactly what ``protect`` added (its record says what); what to tell the person."""
    from cupcake.agents.claude import protections

    done = _move_out_of_shared(edits, scope, root, env)
    path = protections_path(scope, root, env)
    record = protections.read_record(path) if os.path.exists(path) else None
    if record is not None:
        edits.set(path, protections.remove(edits.text(path), record))
        edits.after(lambda: protections.delete_record(path))
    if not done and record is None:
        return []
    return ["Removed the protections sync had added (permissions.deny rules, sandbox paths), and nothing else."]


def _move_out_of_shared(edits, scope: str, root: str, env) -> bool:
    """An older Cupcake wrote the protections into the shared file: take them out of it (they go to the
    personal file, which ``protect`` writes next)."""
    from cupcake.agents.claude import protections
    from cupcake.agents.hook_command import SHARED_SCOPES

    shared = config_path(scope, root, env)
    if scope not in SHARED_SCOPES or not os.path.exists(protections.record_path(shared)):
        return False
    record = protections.read_record(shared)
    if record is not None:
        edits.set(shared, protections.remove(edits.text(shared), record))
    edits.after(lambda: protections.delete_record(shared))
    return True


def _ignored(scope: str, root: str, env) -> list[str]:
    """What git must not see beside the project's files: the personal file (with its backup), and the
    record of what sync added."""
    from cupcake.agents.claude.protections import RECORD_PREFIX

    if scope == "user":
        return []
    return [PERSONAL_PATTERN, os.path.join(USER_DIR, RECORD_PREFIX + "*")]


def notes(scope: str, root: str, env, sandbox: bool = False, jail: str = "", **_options) -> list[str]:
    """What sync tells the person after writing: which layer of self-protection holds (with Cupcake's jail
    on, ``jail``, sync itself says so)."""
    from cupcake.agents.claude.protections import level

    if jail:
        return []
    if sandbox or level(root, env)[0] == "sandboxed":
        return ["Protection: sandboxed (Claude Code's sandbox keeps Bash from writing Cupcake's files)."]
    return [
        "Protection: hook only (Cupcake's hook blocks what it recognises; Claude Code's deny rules cover its file "
        "tools). For the OS guarantee run `cupcake sync --sandbox` (Claude Code's own sandbox) or `cupcake sync "
        "--jail` (Cupcake's jail)."
    ]


def jail_notes(jail_dirs=()) -> list[str]:
    """What the person should know once Cupcake's jail is on here."""
    return [
        "Claude Code checks its own permission rules against the jailed command, so `Bash(npm test:*)` rules no "
        "longer match; its own sandbox (`cupcake sync --sandbox`) keeps them."
    ]


def own_sandbox_on(root: str, env) -> bool:
    """Whether Claude Code's own sandbox guards Cupcake's files here (Cupcake's jail cannot start inside it)."""
    from cupcake.agents.claude.protections import level

    return level(root, env)[0] == "sandboxed"


def doctor_findings(root: str, env, paths, jail: str = "") -> list:
    """Which layer of self-protection holds: Claude Code's own sandbox, Cupcake's jail (``jail``: its flag
    on the hooks; doctor starts it and says so), or only the hook."""
    from cupcake.agents.claude.protections import INSTALL_HINT, level, sandbox_missing

    found, reasons = level(root, env)
    if found == "sandboxed":
        conflict = (
            "; Cupcake's jail is on too, and cannot start inside it: run `cupcake sync --jail --uninstall`"
            if jail
            else ""
        )
        return [
            ("protection", "ok", f"protection level: sandboxed (Bash cannot write Cupcake's files){conflict}", None)
        ]
    if jail:
        return []
    fix = "run `cupcake sync --sandbox` (Claude Code's own sandbox) or `cupcake sync --jail` (Cupcake's)"
    if sandbox_missing(env):
        fix = f"install bubblewrap and socat (`{INSTALL_HINT}`), then " + fix
    # Not a fault of the installation (the hook works), so not a warning: the level and how to raise it.
    return [
        (
            "protection",
            "ok",
            "protection level: hook only (" + "; ".join(reasons) + "): Cupcake's hook blocks the writes it "
            f"recognises, best effort. To raise it to sandboxed: {fix}",
            None,
        )
    ]


def transcript_dirs(env) -> list[str]:
    """Where Claude Code keeps its session transcripts (``~/.claude/projects``): they hold what the person was shown,
    approval codes included, so no tool of the agent may read them."""
    return [os.path.join(hookfile.home_of(env), USER_DIR, "projects")]
