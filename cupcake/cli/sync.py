"""``cupcake sync [--agent NAME]``: write Cupcake's hook entries into an agent's hook settings (or take
them out), the same way for every agent, through its installer (``cupcake.agents.installers``).

A safe read-modify-write: only Cupcake's own entries change, a file that is not valid JSON is never
overwritten, the write is atomic and the previous file is kept as ``<name>.bak``. The hook command
(``cupcake.agents.hook_command``) names ``cupcake`` in a team-shared file and this installation's path
in a personal one, and blocks where a call could go through unchecked because Cupcake cannot start.
"""

from __future__ import annotations

import difflib
import os
import shutil
import sys

from cupcake.agents import DEFAULT, NAMES, adapter
from cupcake.agents import hook_command as hooks
from cupcake.agents.installers import display_name, installer
from cupcake.agents.settings_file import BACKUP_SUFFIX, Edits, SettingsFileError
from cupcake.agents.settings_file import write as write_file
from cupcake.evaluate.settings import DEFAULTS, fail_mode_of
from cupcake.project import PROJECT_FILE, USER_FILE, find_root, managed_policy_file, policy_files, user_policy_file
from cupcake.stores import gitignore

EMPTY_SETTINGS = "{}\n"
MANAGED = "managed"  # every user's hooks, where the agent reads its managed settings: cupcake.cli.sync_managed


class Refused(Exception):
    """Sync stops and writes nothing; the message says why and what to do."""

    code = 1


class Usage(Refused):
    """The command line asks for what cannot be (an unknown agent, an option the agent has no use for)."""

    code = 2


def home_of(env) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def scope_label(scope: str, path: str, root: str, env) -> str:
    """How a settings file is named in messages."""
    home = home_of(env).rstrip("/") + "/"
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
    """The executable the hooks call: ``--command``, else `cupcake` by name for a team-shared file,
    else this installation's absolute path."""
    if command:
        return command
    if scope in hooks.SHARED_SCOPES:
        return hooks.DEFAULT_NAME
    found = hooks.installation_executable()
    if found is None:
        raise Refused(
            "cannot find this installation's `cupcake` executable beside the Python interpreter "
            f"({os.path.dirname(os.path.abspath(sys.executable))}); "
            "pass its path with --command. Nothing was written."
        )
    return found


def path_warnings(executable: str, env, agent: str = DEFAULT) -> list[str]:
    """Whether the agent, started from this shell, will run this installation."""
    mine = hooks.installation_executable()
    display = display_name(agent)
    fails = f"every call {display} could stop is blocked until it is (the hook says why)"
    if "$" in executable:
        return []
    if "/" in executable:
        expanded = os.path.expanduser(executable)
        if not (os.path.isfile(expanded) and os.access(expanded, os.X_OK)):
            return [f"{executable} is not an executable file: {fails}."]
        return []
    found = shutil.which(executable, path=env.get("PATH", os.defpath))
    personal = next(s for s in installer(agent).SCOPES if s not in hooks.SHARED_SCOPES)
    again = f"cupcake sync{_agent_flag(agent)} --scope {personal}"
    fix = (
        "Install Cupcake where every shell finds it (`pipx install .` or `uv tool install .` from its source), "
        f"or run `{again}` to write this installation's absolute path."
        if mine
        else "Install Cupcake on PATH, or pass --command with its absolute path."
    )
    if found is None:
        return [f"`{executable}` is not on this PATH, so {display} started from here will not find it: {fails}. {fix}"]
    if mine and os.path.realpath(found) != os.path.realpath(mine):
        return [
            f"`{executable}` on this PATH is {found}, not this installation ({mine}): the hooks will run that one. {fix}"
        ]
    return []


def _agent_flag(agent: str) -> str:
    return "" if agent == DEFAULT else f" --agent {agent}"


def diff(label: str, old, new: str) -> str:
    lines = difflib.unified_diff(
        (old or "").splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=label if old is not None else "/dev/null",
        tofile=label,
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def show_dry_run(label: str, changed, ignore, out) -> int:
    """Print what sync would change (each file's diff, then .gitignore's), and write nothing."""
    shown = "".join(diff(loaded.label, loaded.text if loaded.exists else None, new) for loaded, new in changed)
    if ignore is not None and ignore.new is not None:
        shown += diff(".gitignore", ignore.old, ignore.new)
    out(shown.rstrip("\n") if shown else f"{label}: nothing to change.")
    out("(dry run: nothing was written)")
    return 0


def backup_note(loaded) -> str:
    """Where the file's previous version is kept (``settings_file.write`` keeps one whenever the file existed)."""
    return f" (the previous version is in {loaded.label}{BACKUP_SUFFIX})." if loaded.exists else "."


def write_gitignore(ignore, out) -> None:
    """Write the planned ``.gitignore`` (``stores.gitignore.plan``), if it adds anything."""
    if ignore is None or ignore.new is None:
        return
    from cupcake.stores.atomic_write import write_atomically

    try:
        write_atomically(ignore.path, gitignore.encode(ignore.new), 0o644, durable=True)
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
    agent: str = DEFAULT,
    trust: bool = False,
    jail: bool = False,
    unshare_net: bool = False,
) -> int:
    """``sandbox``: the OS layer as ``--sandbox`` turns it on for the agent (its installer's ``SANDBOX``: the
    agent's own sandbox, or Cupcake's jail); ``jail``: Cupcake's jail (``cupcake.cli.sync_jail``);
    ``unshare_net``: the jail without network. With ``uninstall``, the jail's option takes the layer off
    and keeps the hooks."""
    from cupcake.cli.sync_jail import CannotStart

    options = {"sandbox": sandbox, "trust": trust, "jail": jail}
    try:
        return _sync(agent, scope, env, cwd, command, dry_run, uninstall, out, err, options, unshare_net)
    except (Refused, SettingsFileError) as exc:
        err(f"cupcake sync: {exc}")
        return getattr(exc, "code", 1)
    except CannotStart as exc:
        err(f"cupcake sync: {exc}")
        return 1


class Layer:
    """What this sync does with the OS layer (Cupcake's jail): ``flag``, the jail's flag on the before-tool
    hook after it ("" none); ``changed``: whether it turns the jail on or off (then it tries the jail
    first, changes what the installer says the jail needs, and says so); ``own``: the agent's own sandbox
    asked for."""

    __slots__ = ("flag", "changed", "own")

    def __init__(self, flag: str, changed: bool, own: bool):
        self.flag, self.changed, self.own = flag, changed, own


def _layer(install, display: str, text: str, uninstall: bool, options, unshare_net: bool) -> Layer:
    from cupcake.cli import sync_jail

    own_sandbox = install.SANDBOX == "own"
    if options["sandbox"] and options["jail"] and own_sandbox:
        raise Usage(f"--sandbox ({display}'s own sandbox) and --jail (Cupcake's) are two ways to one end: pick one")
    wants_jail = options["jail"] or (options["sandbox"] and not own_sandbox)
    if unshare_net and not wants_jail:
        raise Usage("--unshare-net is for Cupcake's jail (--jail, or --sandbox where the agent has no own sandbox)")
    current = hooks.jail_of(command for _e, command, _t in install.hooks_in(text)) if text else ""
    if uninstall:  # the jail off (and what it changed beside the hooks put back), the hooks kept
        return Layer("", True, False)
    if wants_jail:
        flag = sync_jail.flag(unshare_net)
        return Layer(flag, flag != current, False)
    own = options["sandbox"] and own_sandbox
    return Layer("" if own else current, False, own)  # the jail cannot start inside the agent's own sandbox


def _sync(agent, scope, env, cwd, command, dry_run, uninstall, out, err, options, unshare_net=False) -> int:
    if agent not in NAMES:
        raise Usage(f"unknown agent {agent!r} (known: {', '.join(NAMES)})")
    install, display = installer(agent), display_name(agent)
    if scope not in install.SCOPES:
        every = list(dict.fromkeys(s for n in NAMES for s in installer(n).SCOPES))
        if scope not in every:
            raise Refused(f"unknown scope {scope!r}: use {', '.join(every[:-1])} or {every[-1]}")
        raise Refused(f"{display} has no {scope!r} scope: use {' or '.join(install.SCOPES)}")
    asked = sorted(name for name, on in options.items() if on)
    for name in asked:
        if name not in install.OPTIONS:
            offered = [n for n in NAMES if name in installer(n).OPTIONS]
            raise Usage(f"--{name} is for {' and '.join(display_name(n) for n in offered)}; {display} has no such step")
    root = find_root(adapter(agent).project_dir(env), cwd)
    if scope != "user" and os.path.realpath(cwd) != root:
        out(f"Project root: {root} (found from {cwd}: {_why_root(root)})")
    path = install.config_path(scope, root, env)
    edits = Edits(lambda p: scope_label(scope if p == path else "project", p, root, env))
    text = edits.text(path)  # a file Cupcake cannot read is never overwritten: stop here, before anything else
    try:
        layer = _layer(install, display, text or "", uninstall, options, unshare_net)
    except ValueError:
        layer = _layer(install, display, "", uninstall, options, unshare_net)  # update_text says what is wrong
    wants_jail = options["jail"] or (options["sandbox"] and install.SANDBOX != "own")
    if uninstall and not wants_jail:
        return _uninstall(install, display, scope, root, env, edits, path, command, dry_run, out)
    run = _Run(install, agent, display, scope, root, env, edits, path, out, err)
    return _install(run, command, dry_run, options, layer)


class _Run:
    """One sync's whereabouts: the agent, its installer, the scope, the project, the file, the output."""

    def __init__(self, install, agent, display, scope, root, env, edits, path, out, err):
        self.install, self.agent, self.display, self.scope = install, agent, display, scope
        self.root, self.env, self.edits, self.path, self.out, self.err = root, env, edits, path, out, err

    def label(self, path: str) -> str:
        return scope_label(self.scope if path == self.path else "project", path, self.root, self.env)

    def off_command(self) -> str:
        """The command that takes the jail off and keeps the hooks."""
        option = "jail" if self.install.SANDBOX == "own" else "sandbox"
        scope = "" if self.scope == "project" else f" --scope {self.scope}"
        return f"cupcake sync{_agent_flag(self.agent)}{scope} --{option} --uninstall"


def _why_root(root: str) -> str:
    if os.path.isfile(os.path.join(root, PROJECT_FILE)):
        return f"it holds {PROJECT_FILE}"
    if os.path.isdir(os.path.join(root, ".cupcake")):
        return "it holds .cupcake/"
    if os.path.lexists(os.path.join(root, ".git")):
        return f"the git top level, as no {PROJECT_FILE} is above"
    return "the working directory"


def _edit(install, edits, path, events, word, timeout, closed, uninstall, scope, also, jail="") -> None:
    current = edits.text(path)
    try:
        new = install.update_text(current, events, word, timeout, closed, uninstall, scope, also, jail)
    except RecursionError:
        raise Refused(f"{edits.label(path)}: nested too deeply to edit safely; Cupcake leaves it as it is") from None
    except ValueError as exc:
        raise Refused(f"{edits.label(path)}: {exc}") from None
    if not new and edits.exists(path):
        new = EMPTY_SETTINGS  # never leave an empty file an agent might not read
    if new != current:
        edits.set(path, new)


def _write_all(edits) -> list:
    """Write every changed file (each atomically, its previous version kept), then what must follow."""
    changed = edits.changed()
    for loaded, text in changed:
        write_file(loaded, text)
    for action in edits.then:
        action()
    return changed


def _uninstall(install, display, scope, root, env, edits, path, command, dry_run, out) -> int:
    also = (command,) if command else ()  # an executable named otherwise than cupcake, given with --command
    removed = len(install.hooks_in(edits.text(path))) if edits.exists(path) else 0
    _edit(install, edits, path, (), hooks.DEFAULT_NAME, 600, False, True, scope, also)
    try:
        protected = install.unprotect(edits, scope, root, env)  # what it will say it removed
    except ValueError as exc:
        raise Refused(str(exc)) from None
    beside = install.os_layer(scope, root, env, False)  # what the jail had changed there, put back
    if dry_run:
        _show_beside(beside, lambda p: scope_label("project", p, root, env), out)
        return show_dry_run(edits.label(path), edits.changed(), None, out)
    if beside is not None:
        out(beside.apply().format(file=scope_label("project", beside.shown()[0], root, env)))
    changed = _write_all(edits)
    label = edits.label(path)
    if not changed and not protected:
        out(f"{label}: no Cupcake hooks for {display}; nothing to remove.")
        return 0
    loaded = edits.loaded[path]
    if removed:
        noun = "entry" if removed == 1 else "entries"
        out(f"Removed {removed} Cupcake hook {noun} for {display} from {label}" + backup_note(loaded))
    for line in protected:
        out(line)
    return 0


def _show_beside(beside, label, out) -> None:
    """A dry run: the diff of what the OS layer changes beside the hooks."""
    if beside is not None:
        path, old, new = beside.shown()
        out(diff(label(path), old, new).rstrip("\n"))


def _install(run: _Run, command, dry_run, options, layer: Layer) -> int:
    from cupcake.cli import sync_jail
    from cupcake.stores.user_secret import secret

    install, agent, display, scope, root, env = run.install, run.agent, run.display, run.scope, run.root, run.env
    edits, path, out, err = run.edits, run.path, run.out, run.err
    fail_mode, timeout, policy_errors, present, compiled = policy_settings(scope, root, env)
    executable = chosen_executable(scope, command)
    word = hooks.command_word(executable)
    closed = fail_mode == "closed"
    also = (executable,)
    events = install.hook_events(compiled)  # Cupcake's own, and (where the agent says) every event a policy names
    _edit(install, edits, path, events, word, timeout, closed, False, scope, also, layer.flag)
    try:
        ignored = install.protect(edits, scope, root, env, compiled, layer.own)
    except ValueError as exc:
        raise Refused(f"{exc}") from None
    beside = install.os_layer(scope, root, env, bool(layer.flag)) if layer.changed else None
    ignore = None
    if scope != "user":
        ignored = list(ignored) + _beside_shared(scope, path, root) + (beside.ignored(root) if beside else [])
        ignore = gitignore.plan(root, ignored)
    changed = edits.changed()
    if dry_run:
        _show_beside(beside, run.label, out)
        code = show_dry_run(edits.label(path), changed, ignore, out)
        if layer.changed and layer.flag:
            out("(the jail was not started either; sync without --dry-run runs `true` in it first)")
        return code
    # Never write a jail that cannot start: it would refuse every shell call.
    seconds = sync_jail.check(root, env, agent, layer.flag) if layer.changed and layer.flag else None

    secret(env, create=True)  # the policy cache's seal from now on (run itself writes only under .cupcake/)
    if beside is not None:
        out(beside.apply().format(file=run.label(beside.shown()[0])))
    _write_all(edits)
    label, loaded = edits.label(path), edits.loaded[path]
    shown = hooks.run_command(word, agent, "<event>", closed)
    if any(item[0] is loaded for item in changed):
        out(
            f"Wrote Cupcake's {display} hooks to {label}: {len(events)} events, `{shown}`, "
            f"timeout {timeout} s" + backup_note(loaded)
        )
    else:
        out(f"{label}: Cupcake's {display} hooks are already up to date (`{shown}`, timeout {timeout} s).")
    write_gitignore(ignore, out)
    for warning in path_warnings(executable, env, agent):
        err(f"warning: {warning}")
    if policy_errors:
        err(policy_errors_warning(policy_errors, closed))
    try:
        for line in install.notes(scope, root, env, sandbox=layer.own, trust=options["trust"], jail=layer.flag):
            out(line)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    for line in _layer_lines(run, layer, seconds):
        out(line)
    if not present:
        names = f"{PROJECT_FILE} or ~/{USER_FILE}" if scope != "user" else f"~/{USER_FILE}"
        out(f"No policy file yet ({names}): Cupcake stays silent until there is one.")
    return 0


def _layer_lines(run: _Run, layer: Layer, seconds) -> list[str]:
    """What sync says about the OS layer: turned on, kept on, or turned off."""
    from cupcake.cli import sync_jail

    if layer.flag and layer.changed:
        return sync_jail.what_it_does(run.install, layer.flag, seconds, run.off_command())
    if layer.flag:
        return [f"OS layer: jailed (Cupcake's jail keeps {run.display}'s shell commands from writing Cupcake's files)."]
    if layer.changed:
        return [f"OS layer: off for {run.display} (its shell calls run as they are; the hook layer still guards them)."]
    return []


def _beside_shared(scope: str, path: str, root: str) -> list[str]:
    """What sync leaves beside a team-shared file, for git to ignore: its backup."""
    if scope not in hooks.SHARED_SCOPES or not path.startswith(root.rstrip("/") + "/"):
        return []
    return [os.path.relpath(path, root) + BACKUP_SUFFIX]
