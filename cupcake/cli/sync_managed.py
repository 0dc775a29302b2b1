"""``cupcake sync --scope managed [--agent NAME]``: Cupcake's hooks where the agent reads its managed or
system settings (``cupcake.agents.managed``), so they run for every user and every project of the
machine, whatever a project's or user's own settings say. For a person with administrator rights or the
device-management tool, once per agent.

The hook command names this installation by its absolute path (install Cupcake where every user can run
it: ``/usr/local/bin/cupcake``, ``/opt/cupcake/bin/cupcake``, or pass ``--command``). fail_mode and
hook_timeout_seconds come from the managed policy file alone (``/etc/cupcake/cupcake.toml``): the
project's and the user's files cannot weaken it, and these hooks run in every project. The same
guarantees as every sync: only Cupcake's entries change, twice changes nothing, ``--dry-run`` shows the
diff, ``--uninstall`` takes out what sync put in, a file Cupcake cannot parse is never overwritten, the
previous file is kept as ``<name>.bak``. A file sync creates is readable by every user (0644) and its
folder 0755: an agent runs as its user, and must be able to read its managed settings.
"""

from __future__ import annotations

import os

from cupcake.agents import hook_command as hooks
from cupcake.agents import managed as locations
from cupcake.agents import settings_file
from cupcake.agents.installers import display_name, installer
from cupcake.agents.settings_file import SettingsFileError
from cupcake.cli.sync import (
    EMPTY_SETTINGS,
    MANAGED,
    Refused,
    backup_note,
    policy_errors_warning,
    policy_settings,
    show_dry_run,
)
from cupcake.project import managed_policy_file

FILE_MODE = 0o644
DIR_MODE = 0o755


def new_text(agent: str, text: str, events, word: str, timeout, closed: bool, uninstall: bool) -> str:
    """The managed file with Cupcake's hooks for ``agent`` (``""``: the file is to be removed), through the
    agent's installer, as its project scope writes them (no machine path but the executable's)."""
    if agent in locations.OWN_FILE:
        if uninstall:
            return ""
        text = ""  # a file of Cupcake's own: written whole
    try:
        return installer(agent).update_text(text, events, word, timeout, closed, uninstall, "project")
    except RecursionError:
        raise Refused("nested too deeply to edit safely; Cupcake leaves it as it is") from None
    except ValueError as exc:
        raise Refused(str(exc)) from None


def _write(loaded, text: str) -> None:
    folder = os.path.dirname(os.path.realpath(loaded.path))
    if not os.path.isdir(folder):
        os.makedirs(folder, DIR_MODE, exist_ok=True)
        os.chmod(folder, DIR_MODE)  # whatever the umask: every user's agent reads it
    if not loaded.exists:
        settings_file.replace(loaded.path, text.encode("utf-8"), FILE_MODE)
        return
    settings_file.write(loaded, text)


def sync_managed(agent: str, env, command=None, dry_run=False, uninstall=False, out=print, err=print) -> int:
    try:
        return _sync(agent, env, command, dry_run, uninstall, out, err)
    except (Refused, SettingsFileError) as exc:
        err(f"cupcake sync: {exc}")
        return 1
    except OSError as exc:
        err(
            f"cupcake sync: cannot write {exc.filename or 'the managed settings'}: {exc.strerror or exc} "
            "(the managed settings are the administrator's: run it as root, or from the device-management tool)"
        )
        return 1


def _sync(agent, env, command, dry_run, uninstall, out, err) -> int:
    display = display_name(agent)
    path = locations.managed_path(agent, env)
    if path is None:
        raise Refused(f"{display} documents no managed settings file on this system, so there is nowhere to write")
    loaded = settings_file.read(path, path)
    text = loaded.text or ""
    if uninstall:
        return _uninstall(agent, display, loaded, text, command, dry_run, out)

    policy_file = managed_policy_file(env)
    fail_mode, timeout, policy_errors, present, compiled = policy_settings(MANAGED, os.path.dirname(policy_file), env)
    executable = command or hooks.installation_executable()
    if executable is None:
        raise Refused("cannot find this installation's `cupcake` executable: pass its path with --command")
    word = hooks.command_word(executable)
    closed = fail_mode == "closed"
    updated = new_text(agent, text, installer(agent).hook_events(compiled), word, timeout, closed, False)
    if dry_run:
        return show_dry_run(path, [(loaded, updated)] if updated != text else [], None, out)
    if updated != text or not loaded.exists:
        _write(loaded, updated)
        out(
            f"Wrote Cupcake's {display} hooks to {path} (every user and project of this machine): `{executable}`, "
            f"fail_mode {fail_mode}, timeout {timeout} s" + backup_note(loaded)
        )
    else:
        out(f"{path}: Cupcake's {display} hooks are already up to date.")
    if not os.path.isabs(executable) or not os.access(executable, os.X_OK):
        err(f"warning: `{executable}` must be an absolute path every user can run: the hooks run as each user")
    if agent in locations.ROOT_OWNED and hasattr(os, "geteuid") and os.geteuid() != 0:
        err(
            f"warning: {display} runs a policy hook file only when root owns it and no group or other user can "
            f"write it; {path} was written by uid {os.geteuid()}: run this as root"
        )
    if policy_errors:
        err(policy_errors_warning(policy_errors, closed))
    if not present:
        out(
            f"No managed policy file yet ({policy_file}): the hooks enforce each project's and user's "
            "files until there is one."
        )
    return 0


def _uninstall(agent, display, loaded, text, command, dry_run, out) -> int:
    path = loaded.path
    if agent in locations.OWN_FILE:
        if dry_run:
            out(f"{path}: would be removed (Cupcake's own file)" if loaded.exists else f"{path}: nothing to remove.")
            out("(dry run: nothing was written)")
            return 0
        if not loaded.exists:
            out(f"{path}: no Cupcake hooks for {display}; nothing to remove.")
            return 0
        os.unlink(path)
        out(f"Removed {path} (Cupcake's {display} hooks for every user).")
        return 0
    word = hooks.command_word(command) if command else hooks.DEFAULT_NAME
    updated = new_text(agent, text, (), word, 600, False, True)
    if dry_run:
        return show_dry_run(path, [(loaded, updated)] if updated != text else [], None, out)
    if updated == text:
        out(f"{path}: no Cupcake hooks for {display}; nothing to remove.")
        return 0
    _write(loaded, updated or EMPTY_SETTINGS)
    out(f"Removed Cupcake's {display} hooks from {path}" + backup_note(loaded))
    return 0
