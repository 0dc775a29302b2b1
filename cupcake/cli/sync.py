"""``cupcake sync``: write Cupcake's hook entries into Claude Code settings (or take them out).

A safe read-modify-write: only Cupcake's own entries change, a file that is not valid JSON is never
overwritten, the write is atomic and the previous file is kept as ``<name>.bak``.
"""

from __future__ import annotations

import difflib
import os
import shutil
import sys

from cupcake.agents import project_dir_in
from cupcake.agents.claude import hook_entries as entries
from cupcake.agents.claude import settings_file
from cupcake.agents.claude.hook_edit import ShapeError, apply_sync, apply_uninstall, find_cupcake
from cupcake.agents.claude.settings_file import SettingsFileError
from cupcake.agents.jsonedit import Document
from cupcake.evaluate.settings import DEFAULTS, fail_mode_of
from cupcake.project import PROJECT_FILE, find_root, managed_policy_file, policy_files, user_policy_file
from cupcake.stores import gitignore

EMPTY_SETTINGS = "{}\n"


class Refused(Exception):
    """Sync stops and writes nothing; the message says why and what to do."""


def scope_label(scope: str, path: str, root: str, env) -> str:
    """How a settings file is named in messages."""
    home = entries.home_of(env).rstrip("/") + "/"
    if scope != "user" and path.startswith(root.rstrip("/") + "/"):
        return path[len(root.rstrip("/")) + 1 :]
    if path.startswith(home):
        return "~/" + path[len(home) :]
    return path


def applicable_policy_files(scope: str, root: str, env) -> list[str]:
    """The policy files whose settings apply where the scope's hooks run: the user scope's hooks run
    in every project, so only the managed and the user's file count there; the managed scope's hooks
    run for every user, so only the managed file counts there."""
    if scope == "managed":
        return [managed_policy_file(env)]
    return list(policy_files(root, env)) if scope != "user" else [managed_policy_file(env), user_policy_file(env)]


def hook_timeout(settings: dict):
    """``hook_timeout_seconds`` as written into the hooks, or None when it is not a positive number."""
    timeout = settings.get("hook_timeout_seconds", DEFAULTS["hook_timeout_seconds"])
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        return None
    return int(timeout) if isinstance(timeout, float) and timeout.is_integer() else timeout


def policy_settings(scope: str, root: str, env):
    """(fail_mode, timeout, policy errors, files present, compiled set), read by the loader `cupcake run` uses.
    Refused when the settings themselves cannot be known (a file that is not TOML, a bad [settings])."""
    from cupcake.compile.compiler import compile_files  # cold: tomli, pydantic

    paths = applicable_policy_files(scope, root, env)
    compiled = compile_files(paths, root, env)
    problems = compiled["problems"]
    unknowable = [p for p in problems if p["severity"] == "error" and p["policy"] is None]
    if unknowable:
        listed = "\n".join(f"  {_where(p)}: {p['message']}" for p in unknowable)
        raise Refused(
            "cannot read the policy files, and sync takes fail_mode and hook_timeout_seconds from them:\n"
            f"{listed}\nFix this (`cupcake validate` lists every problem), then run `cupcake sync` again. Nothing was written."
        )
    settings = compiled["settings"]
    timeout = hook_timeout(settings)
    if timeout is None:
        raise Refused(
            "[settings] hook_timeout_seconds must be a positive number of seconds, "
            f"not {settings.get('hook_timeout_seconds')!r}. Nothing was written."
        )
    from cupcake.cli.validate import system_problems

    errors = [p for p in problems if p["severity"] == "error"] + system_problems(compiled, root)
    present = [p for p in paths if os.path.exists(p)]
    return fail_mode_of(settings), timeout, errors, present, compiled


def _where(problem) -> str:
    return f"{problem['file']}:{problem['line']}" if problem.get("line") else problem["file"]


def chosen_executable(scope: str, command):
    """The executable the hooks call: ``--command``, else `cupcake` by name for the shared project
    file, else this installation's absolute path."""
    if command:
        return command
    if scope in entries.SHARED_SCOPES:
        return entries.DEFAULT_NAME
    found = entries.installation_executable()
    if found is None:
        raise Refused(
            "cannot find this installation's `cupcake` executable beside the Python interpreter "
            f"({os.path.dirname(os.path.abspath(sys.executable))}); "
            "pass its path with --command. Nothing was written."
        )
    return found


def path_warnings(executable: str, env, closed: bool) -> list[str]:
    """Whether Claude Code, started from this shell, will run this installation."""
    mine = entries.installation_executable()
    fails = "every hook would fail, and " + (
        'block every call (fail_mode "closed")' if closed else "Claude Code then lets every call through"
    )
    if "$" in executable:
        return []
    if "/" in executable:
        expanded = os.path.expanduser(executable)
        if not (os.path.isfile(expanded) and os.access(expanded, os.X_OK)):
            return [f"{executable} is not an executable file: {fails}."]
        return []
    found = shutil.which(executable, path=env.get("PATH", os.defpath))
    fix = (
        f"Put {os.path.dirname(mine)} on PATH, or run `cupcake sync --scope local` to write this installation's absolute path."
        if mine
        else "Install Cupcake on PATH, or pass --command with its absolute path."
    )
    if found is None:
        return [
            f"`{executable}` is not on this PATH, so Claude Code started from here will not find it: {fails}. {fix}"
        ]
    if mine and os.path.realpath(found) != os.path.realpath(mine):
        return [
            f"`{executable}` on this PATH is {found}, not this installation ({mine}): the hooks will run that one. {fix}"
        ]
    return []


def diff(label: str, old, new: str) -> str:
    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=label if old is not None else "/dev/null",
        tofile=label,
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def sync(
    scope: str,
    env,
    cwd: str,
    command=None,
    dry_run=False,
    uninstall=False,
    out=print,
    err=print,
    sandbox=False,
    jail=False,
    unshare_net=False,
) -> int:
    """``sandbox``: Claude Code's own sandbox; ``jail``: Cupcake's jail instead (``cupcake.cli.sync_jail``)."""
    from cupcake.agents.claude.protections import ProtectionShapeError
    from cupcake.cli.sync_jail import CannotStart

    try:
        return _sync(scope, env, cwd, command, dry_run, uninstall, out, err, sandbox, jail, unshare_net)
    except (Refused, SettingsFileError, ShapeError, ProtectionShapeError, CannotStart) as exc:
        err(f"cupcake sync: {exc}")
        return 1


def _sync(scope, env, cwd, command, dry_run, uninstall, out, err, sandbox=False, jail=False, unshare_net=False) -> int:
    if scope not in entries.SCOPES:
        raise Refused(f"unknown scope {scope!r}: use project, local or user")
    root = find_root(project_dir_in(env), cwd)
    if scope != "user" and os.path.realpath(cwd) != root:
        out(f"Project root: {root} (found from {cwd}: {_why_root(root)})")
    path = entries.settings_path(scope, root, env)
    label = scope_label(scope, path, root, env)
    loaded = settings_file.read(path, label)
    try:
        doc = Document(loaded.text if loaded.exists else EMPTY_SETTINGS)
    except RecursionError:
        raise Refused(f"{label}: nested too deeply to edit safely; Cupcake leaves it as it is") from None
    from cupcake.cli import sync_jail

    if uninstall and jail:  # the jail off, the hooks kept
        return _install(
            scope, root, env, doc, loaded, chosen_executable(scope, command), dry_run, out, err, False, "", True
        )
    if uninstall:
        also = (entries.executable_of(entries.command_word(command)),) if command else ()
        return _uninstall(doc, loaded, also, dry_run, out)
    flag = sync_jail.flag(unshare_net) if jail else _current_jail(doc)
    if sandbox:
        from cupcake.agents.claude.protections import INSTALL_HINT, sandbox_missing

        missing = sandbox_missing(env)
        if missing:
            raise Refused(
                f"Claude Code's sandbox needs {' and '.join(missing)}, which {'is' if len(missing) == 1 else 'are'} "
                f"not on PATH: install them (Debian, Ubuntu: `{INSTALL_HINT}`), then run `cupcake sync --sandbox` "
                "again. Nothing was written."
            )
    return _install(
        scope, root, env, doc, loaded, chosen_executable(scope, command), dry_run, out, err, sandbox, flag, jail
    )


def _current_jail(doc: Document) -> str:
    """The jail flag on Cupcake's PreToolUse hook now (a plain sync keeps the layer as it is)."""
    hooks = doc.value(doc.root).get("hooks") if doc.root.kind == "object" else None
    groups = hooks.get("PreToolUse") if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else ():
        for hook in group.get("hooks", ()) if isinstance(group, dict) else ():
            command = hook.get("command") if isinstance(hook, dict) else None
            if entries.is_cupcake(command) and entries.jail_flag(command):
                return entries.jail_flag(command)
    return ""


def _why_root(root: str) -> str:
    if os.path.isfile(os.path.join(root, PROJECT_FILE)):
        return f"it holds {PROJECT_FILE}"
    if os.path.isdir(os.path.join(root, ".cupcake")):
        return "it holds .cupcake/"
    if os.path.lexists(os.path.join(root, ".git")):
        return f"the git top level, as no {PROJECT_FILE} is above"
    return "the working directory"


def _edited(doc: Document, loaded):
    """The new text, or None when the edits leave the file as it is."""
    new_text = doc.render() if doc.changed else loaded.text
    return new_text if new_text != loaded.text else None


def show_dry_run(loaded, new_text, ignore, out) -> int:
    """Print what sync would change (``new_text`` None or unchanged: nothing), and write nothing."""
    old = loaded.text if loaded.exists else None
    shown = diff(loaded.label, old, new_text) if new_text is not None and new_text != (old or "") else ""
    if ignore is not None and ignore.new is not None:
        shown += diff(".gitignore", ignore.old, ignore.new)
    out(shown.rstrip("\n") if shown else f"{loaded.label}: nothing to change.")
    out("(dry run: nothing was written)")
    return 0


def backup_note(loaded) -> str:
    """Where the file's previous version is kept (settings_file.write keeps one whenever the file existed)."""
    return f" (the previous version is in {loaded.label}.bak)." if loaded.exists else "."


def write_gitignore(ignore, out) -> None:
    """Write the planned ``.gitignore`` (``stores.gitignore.plan``), if it adds anything."""
    if ignore is None or ignore.new is None:
        return
    try:
        settings_file.replace_atomically(ignore.path, gitignore.encode(ignore.new))
    except OSError as exc:
        raise Refused(f".gitignore: cannot write it: {exc.strerror or exc} (the hooks were written)") from None
    out(f"Added {' and '.join(ignore.added)} to .gitignore.")


def policy_errors_warning(policy_errors, closed: bool) -> str:
    """What sync says when the policy files it read have errors: what they name is out of service."""
    return (
        f"warning: the policy files have {len(policy_errors)} error(s); until they are fixed what they name is "
        "out of service, and `cupcake run` reports them on every event"
        + (' (and blocks every event that can be blocked: fail_mode "closed")' if closed else "")
        + ". `cupcake validate` lists them."
    )


def _uninstall(doc: Document, loaded, also, dry_run, out) -> int:
    from cupcake.agents.claude import protections

    removed = len(find_cupcake(doc, also))
    apply_uninstall(doc, also)
    new_text = _edited(doc, loaded)
    record = protections.read_record(loaded.path) if loaded.exists else None
    if record is not None:
        base = new_text if new_text is not None else loaded.text
        stripped = protections.remove(base, record)
        new_text = stripped if stripped != loaded.text else None
    if dry_run:
        return show_dry_run(loaded, new_text, None, out)
    if new_text is None:
        out(f"{loaded.label}: no Cupcake hooks; nothing to remove.")
        if record is not None:
            protections.delete_record(loaded.path)
        return 0
    settings_file.write(loaded, new_text)
    if record is not None:
        protections.delete_record(loaded.path)
    out(
        f"Removed {removed} Cupcake hook entr{'y' if removed == 1 else 'ies'} from {loaded.label}" + backup_note(loaded)
    )
    if record is not None:
        out("Removed the protections sync had added (permissions.deny rules, sandbox paths), and nothing else.")
    return 0


def _install(
    scope, root, env, doc: Document, loaded, executable: str, dry_run, out, err, sandbox=False, jail="", layer=False
) -> int:
    """``jail``: the OS layer's flag for the PreToolUse hook ("" none); ``layer``: whether this sync turns the
    jail on or off (then it says so, and tries the jail first)."""
    from cupcake.agents.claude import protections
    from cupcake.agents.claude.hooked_events import needed_events
    from cupcake.stores.policies.cache import secret

    fail_mode, timeout, policy_errors, present, compiled = policy_settings(scope, root, env)
    word = entries.command_word(executable)
    closed = fail_mode == "closed"
    also = (entries.executable_of(word),)
    events = needed_events(compiled)  # Cupcake's own, and every event a policy names
    apply_sync(doc, {event: entries.handler(word, event, closed, timeout, jail) for event in events}, also)
    hooked = doc.render() if doc.changed else (loaded.text if loaded.exists else EMPTY_SETTINGS)
    targets = protections.protected_targets(scope, root, env, compiled.get("protected") or {})
    previous = protections.read_record(loaded.path) if loaded.exists else None
    protected_text, record = protections.apply(hooked, targets, sandbox, previous)
    new_text = protected_text if protected_text != loaded.text else None
    extra = (gitignore.LOCAL_ENTRY,) if scope == "local" else ()
    ignore = gitignore.plan(root, extra) if scope != "user" else None
    if dry_run:
        return show_dry_run(loaded, new_text, ignore, out)
    from cupcake.cli import sync_jail

    seconds = sync_jail.check(root, env, "claude", jail) if layer and jail else None
    secret(env, create=True)  # the policy cache's seal from now on (run itself writes only under .cupcake/)
    shown_command = entries.hook_command(word, "<Event>", closed)
    if new_text is not None:
        settings_file.write(loaded, new_text)
    if record != previous and (record["created"] or record["deny"] or record["deny_write"] or "enabled_was" in record):
        protections.write_record(loaded.path, record)
    if new_text is not None:
        out(
            f"Wrote Cupcake's hooks to {loaded.label}: {len(events)} events, `{shown_command}`, "
            f"timeout {timeout} s" + backup_note(loaded)
        )
    else:
        out(f"{loaded.label}: Cupcake's hooks are already up to date (`{shown_command}`, timeout {timeout} s).")
    write_gitignore(ignore, out)
    for warning in path_warnings(executable, env, closed):
        err(f"warning: {warning}")
    if policy_errors:
        err(policy_errors_warning(policy_errors, closed))
    level = "sandboxed" if sandbox else protections.level(root, env)[0]
    if jail and layer:
        for line in sync_jail.what_it_does("claude", "Claude Code", jail, seconds):
            out(line.replace("--agent claude --sandbox", "--jail"))
    elif layer:
        out("OS layer: Cupcake's jail is off for Claude Code (`cupcake sync --sandbox` turns on Claude Code's own).")
    elif jail:
        out("Protection: jailed (Cupcake's jail keeps shell commands from writing Cupcake's files).")
    elif level == "sandboxed":
        out("Protection: sandboxed (Claude Code's sandbox keeps Bash from writing Cupcake's files).")
    else:
        out(
            "Protection: hook only (Cupcake's hook blocks what it recognises; Claude Code's deny rules cover its file "
            "tools). For the OS guarantee run `cupcake sync --sandbox`."
        )
    if not present:
        names = PROJECT_FILE + " or ~/.claude/cupcake.toml" if scope != "user" else "~/.claude/cupcake.toml"
        out(f"No policy file yet ({names}): Cupcake stays silent until there is one.")
    return 0
