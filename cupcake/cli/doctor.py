"""``cupcake doctor``: what a user needs to answer "why didn't it block?".

Each check gives findings: ok, warning, or problem (exit code 1), and every finding that is not ok
says how to fix it. The checks, in the order a hook call depends on them: Cupcake's hook entries in
each settings scope, the executable they name, the policy files, `.cupcake/`, and a sample event sent
through the hook command itself, timed.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile

from cupcake import __version__
from cupcake.agents import project_dir_in
from cupcake.agents.claude import hook_entries as entries
from cupcake.agents.claude import probe, settings_file
from cupcake.agents.claude.hook_edit import ShapeError, find_cupcake
from cupcake.agents.claude.settings_file import SettingsFileError
from cupcake.agents.jsonedit import Document
from cupcake.cli.sync import applicable_policy_files, hook_timeout, scope_label
from cupcake.evaluate.settings import fail_mode_of
from cupcake.project import WORK_DIR, find_root, policy_files

OK, WARNING, PROBLEM = "ok", "warning", "problem"
SCOPE_ORDER = ("managed", "project", "local", "user")  # managed: the organisation's (sync --scope managed)
SLOW_SECONDS = 1.0


class Finding:
    __slots__ = ("check", "status", "message", "fix")

    def __init__(self, check: str, status: str, message: str, fix=None):
        self.check = check
        self.status = status
        self.message = message
        self.fix = fix

    def as_dict(self) -> dict:
        return {"check": self.check, "status": self.status, "message": self.message, "fix": self.fix}


class Installed:
    """Cupcake's hook handlers found in one scope's settings file."""

    __slots__ = ("scope", "label", "found")

    def __init__(self, scope: str, label: str, found):
        self.scope = scope
        self.label = label
        self.found = found


class Report:
    """The findings, in order; ``on_add`` (when given) shows each one as it is found."""

    def __init__(self, root: str, on_add=None, progress=None):
        self.root = root
        self.findings: list[Finding] = []
        self.round_trip: dict | None = None
        self.on_add = on_add
        self.progress = progress or (lambda text: None)

    def add(self, check: str, status: str, message: str, fix=None) -> None:
        finding = Finding(check, status, message, fix)
        self.findings.append(finding)
        if self.on_add is not None:
            self.on_add(finding)

    def count(self, status: str) -> int:
        return sum(1 for f in self.findings if f.status == status)


def diagnose(env, cwd: str, on_add=None, progress=None, on_root=None) -> Report:
    root = find_root(project_dir_in(env), cwd)
    if on_root is not None:
        on_root(root)
    report = Report(root, on_add, progress)
    installed = _check_settings(report, root, env)
    from cupcake.cli.doctor_agents import check_agents, configured_agents

    others = configured_agents(root, env)  # every other agent with Cupcake's hooks
    _check_hooks_present(report, installed, bool(others))
    _check_executables(report, installed, root, env)
    compiled = _check_policies(report, root, env)
    _check_active(report, bool(installed or others), compiled)
    _check_unhooked(report, installed, compiled)
    _check_modes(report, installed, root, env, compiled)
    _check_workdir(report, root)
    from cupcake.cli.doctor_fleet import check_policy_layers, check_telemetry

    check_policy_layers(report, root, env, compiled)
    check_telemetry(report, root, env, compiled)
    from cupcake.cli import doctor_os_layer  # which layer guards Cupcake's files, per agent

    claude_commands = [f.value.get("command") for item in installed for f in item.found if f.event == "PreToolUse"]
    doctor_os_layer.check(report, root, env, claude_commands, others)
    _round_trip(report, installed, root, env)
    check_agents(report, root, env, others)
    from cupcake.cli.doctor_layers import check_layers

    check_layers(report, root, env, (["claude"] if installed else []) + list(dict.fromkeys(a for a, _s, _p in others)))
    return report


# -- hook entries ------------------------------------------------------------------------------------


def _check_settings(report: Report, root: str, env) -> list[Installed]:
    installed = []
    for scope in SCOPE_ORDER:
        path = _settings_path(scope, root, env)
        if path is None:
            continue
        label = scope_label(scope, path, root, env)
        fix_scope = "" if scope == "project" else f" --scope {scope}"
        try:
            loaded = settings_file.read(path, label)
            if not loaded.exists:
                continue
            doc = Document(loaded.text)
            found = find_cupcake(doc)
        except SettingsFileError as exc:
            report.add(
                "settings",
                PROBLEM,
                f"{label}: {exc.what}: Claude Code cannot use this file, nor any hook in it",
                f"fix {label} (valid JSON, no comments or trailing commas), then run `cupcake sync{fix_scope}`",
            )
            continue
        except (ShapeError, RecursionError) as exc:
            report.add("settings", PROBLEM, f"{label}: {exc}", f"fix {label}, then run `cupcake sync{fix_scope}`")
            continue
        if _disables_hooks(doc):
            report.add(
                "settings",
                PROBLEM,
                f'{label} sets "disableAllHooks": true: Claude Code runs no hooks at all',
                f'remove "disableAllHooks" from {label}',
            )
        if found:
            installed.append(Installed(scope, label, found))
            _check_handlers(report, label, fix_scope, found)
    return installed


def _settings_path(scope: str, root: str, env):
    if scope == "managed":
        from cupcake.agents.managed import managed_path

        return managed_path("claude", env)
    return entries.settings_path(scope, root, env)


def _check_handlers(report: Report, label: str, fix_scope: str, found) -> None:
    """One finding for the events covered; more for each handler that would not see or stop every call."""
    covered = {f.event for f in found if f.matches_all}
    missing = [e for e in entries.EVENTS if e not in covered]
    if missing:
        report.add(
            "hooks",
            PROBLEM,
            f"{label}: no Cupcake hook for {', '.join(missing)}: those events are never checked",
            f"run `cupcake sync{fix_scope}`",
        )
    else:
        report.add("hooks", OK, f"{label}: Cupcake's hook on all {len(entries.EVENTS)} events")
    for f in found:
        named = entries.split_command(f.value["command"])[0][3]
        if named != f.event:
            report.add(
                "hooks",
                PROBLEM,
                f"{label}: the hook listed under {f.event} runs `--event {named}`, "
                f"so {f.event} policies are never evaluated",
                f"run `cupcake sync{fix_scope}`",
            )
        if not f.matches_all:
            report.add(
                "hooks",
                WARNING,
                f"{label}: Cupcake's {f.event} hook runs only for matcher {f.matcher!r}",
                f'run `cupcake sync{fix_scope}` (it writes matcher "": every call)',
            )
        if f.value.get("async") is True:
            report.add(
                "hooks",
                PROBLEM,
                f"{label}: Cupcake's {f.event} hook is async, and an async hook cannot block",
                f"run `cupcake sync{fix_scope}`",
            )
        if "if" in f.value:
            report.add(
                "hooks",
                WARNING,
                f'{label}: Cupcake\'s {f.event} hook has an "if" filter ({f.value["if"]!r})',
                f"run `cupcake sync{fix_scope}`",
            )


def _disables_hooks(doc: Document) -> bool:
    members = doc.root.find("disableAllHooks") if doc.root.kind == "object" else []
    return bool(members) and doc.value(members[-1].value) is True


def _check_hooks_present(report: Report, installed: list[Installed], others: bool = False) -> None:
    if not installed:
        report.add(
            "hooks",
            WARNING if others else PROBLEM,  # another agent is configured: Claude Code may not be used here
            "Claude Code never calls Cupcake: no settings file has Cupcake's hooks",
            "run `cupcake sync` (the project's .claude/settings.json, shared with the team) "
            "or `cupcake sync --scope local` (only you)",
        )
        return
    commands: dict[str, dict[str | None, list[str]]] = {}  # event -> command -> where
    for item in installed:
        for f in item.found:
            commands.setdefault(f.event, {}).setdefault(f.value.get("command"), []).append(item.label)
    doubled = sorted(
        {
            label
            for by_command in commands.values()
            if len(by_command) > 1
            for labels in by_command.values()
            for label in labels
        }
    )
    if doubled:
        scopes = [item.scope for item in installed if item.label in doubled]  # in SCOPE_ORDER
        keep, drop = scopes[0], scopes[1:]
        kept = next(item.label for item in installed if item.scope == keep)
        removal = " and ".join(f"`cupcake sync --uninstall --scope {scope}`" for scope in drop)
        report.add(
            "hooks",
            WARNING,
            f"Cupcake runs more than once per event: different hook commands in {', '.join(doubled)}",
            f"keep the hooks in {kept} only: run {removal}",
        )


# -- the executable ----------------------------------------------------------------------------------


def resolve(executable: str, root: str, env):
    """Where the shell the agent starts finds ``executable``: a path (with the agent's project-directory
    variable and ``~`` expanded) or a name on PATH. None when nothing executable is there."""
    executable = probe.expand_project_dir(executable, root)
    if executable.startswith("~"):
        executable = entries.home_of(env) + executable[1:] if executable[:2] in ("~", "~/") else executable
    if "/" in executable:
        path = executable if os.path.isabs(executable) else os.path.join(root, executable)
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which(executable, path=env.get("PATH", os.defpath))


def _check_executables(report: Report, installed: list[Installed], root: str, env) -> None:
    seen: dict[str, list[str]] = {}  # executable -> where
    for item in installed:
        for f in item.found:
            exe = entries.executable_of(f.value["command"])
            seen.setdefault(exe, [])
            if item.label not in seen[exe]:
                seen[exe].append(item.label)
    mine = entries.installation_executable()
    for exe, labels in seen.items():
        where = ", ".join(labels)
        path = resolve(exe, root, env)
        if path is None:
            place = "on PATH" if "/" not in exe else "there"
            scopes = [item.scope for item in installed if item.label in labels]
            if "/" not in exe and mine and "project" in scopes:
                # the shared file names `cupcake`: writing a path elsewhere would only add a second hook
                fix = f"put {os.path.dirname(mine)} on the PATH Claude Code starts with"
            elif "/" not in exe and mine:
                fix = (
                    f"put {os.path.dirname(mine)} on the PATH Claude Code starts with, or run "
                    + " and ".join(f"`cupcake sync --scope {scope}`" for scope in scopes)
                    + " to write this installation's absolute path"
                )
            else:
                again = " and ".join(
                    f"`cupcake sync{'' if scope == 'project' else ' --scope ' + scope}`" for scope in scopes
                )
                writes = (
                    "`cupcake` by name, which must then be on PATH"
                    if scopes == ["project"]
                    else f"this installation's path ({mine})"
                )
                fix = f"install Cupcake there, or run {again} again: it writes {writes}"
            report.add(
                "executable",
                PROBLEM,
                f"`{exe}` (the hooks in {where}) is not found {place}: every hook fails, and Claude Code "
                "then lets every call through (or blocks it, where the command ends in `|| exit 2`)",
                fix,
            )
            continue
        version, problem = probe.version_of(path, env)
        if problem:
            report.add(
                "executable",
                PROBLEM,
                f"{problem} (the hooks in {where})",
                "reinstall Cupcake, or point the hooks at a working one with `cupcake sync --command <path>`",
            )
        elif not version.startswith("cupcake "):
            report.add(
                "executable",
                PROBLEM,
                f"`{exe}` is {path}, which is not Cupcake (`--version` printed {version[:80]!r})",
                "run `cupcake sync --scope local` to write this installation's absolute path",
            )
        elif version != f"cupcake {__version__}":
            report.add(
                "executable",
                WARNING,
                f"`{exe}` is {path} ({version}); this is cupcake {__version__}",
                "upgrade one of them, or point the hooks at this one with `cupcake sync --scope local`",
            )
        else:
            report.add("executable", OK, f"`{exe}` is {path} ({version})")


# -- policies, fail_mode, .cupcake ------------------------------------------------------------------


def _check_policies(report: Report, root: str, env):
    from cupcake.compile.compiler import compile_files  # cold: tomli, pydantic

    paths = list(policy_files(root, env))
    present = [p for p in paths if os.path.exists(p)]
    if not present:
        report.add(
            "policies",
            WARNING,
            "no policy file (cupcake.toml at the project root, ~/.claude/cupcake.toml): Cupcake has nothing to enforce",
            "write your policies in cupcake.toml",
        )
        return None
    compiled = compile_files(paths, root, env)
    for p in compiled["problems"]:
        where = f"{p['file']}:{p['line']}" if p["line"] else p["file"]
        who = f' policy "{p["policy"]}":' if p["policy"] else ""
        if p["severity"] == "error":
            report.add(
                "policies",
                PROBLEM,
                f"{where}:{who} {p['message']}",
                "fix it: until then what it names is out of service and every run reports it; `cupcake validate` lists every problem",
            )
        else:
            report.add("policies", WARNING, f"{where}:{who} {p['message']}", "see `cupcake validate`")
    from cupcake.stores.policies.loader import cache_disagreement

    cache_problem = cache_disagreement(root, env, compiled)
    if cache_problem:
        report.add(
            "policies",
            PROBLEM,
            f"the policy cache was NOT trusted: {cache_problem}",
            f"run `cupcake validate` (it removes the cache), and find out what wrote {WORK_DIR}/: "
            "`cupcake sync --sandbox` makes it read-only to the agent's commands",
        )
    if not compiled["out_of_service"]:
        names = ", ".join(scope_label("project", p, root, env) for p in present)
        count = len(compiled["policies"])
        report.add(
            "policies",
            OK,
            f"{count} {'policy' if count == 1 else 'policies'} in {names} {'loads' if count == 1 else 'load'} without errors",
        )
    return compiled


def _check_active(report: Report, hooked: bool, compiled) -> None:
    """Hooks that call Cupcake while no policy is in force: the user believes they are protected."""
    if not hooked or compiled is None or compiled["policies"] or compiled["out_of_service"]:
        return  # no file, or broken policies, are reported above
    report.add(
        "policies",
        WARNING,
        "the hooks are installed but no policy is active (every policy is commented out, or there is none): "
        "only self-protection is enforced",
        'turn on the recommended rules with imports = ["cupcake:recommended"] in cupcake.toml, or uncomment a policy',
    )


def _check_unhooked(report: Report, installed: list[Installed], compiled) -> None:
    """A policy on an event that no installed hook calls never runs."""
    if not installed or not compiled:
        return  # no hook at all is reported above
    hooked = {f.event for item in installed for f in item.found}
    shared = next((item.scope for item in installed if item.scope != "user"), None)
    for name, event, file, line in [(p[0], p[1], p[5], p[6]) for p in compiled.get("policies") or ()]:
        if event in hooked:
            continue
        if shared is not None:
            scope = shared
        else:
            scope = "user" if file.startswith("~/") else "local"
        fix = (
            "run `cupcake sync"
            + ("" if scope == "project" else f" --scope {scope}")
            + "`: it installs a hook for every event a policy names"
        )
        report.add(
            "hooks",
            PROBLEM,
            f'policy "{name}" ({file}:{line}) is on {event}, and no installed hook calls Cupcake on {event}: it never runs',
            fix,
        )


def _check_modes(report: Report, installed: list[Installed], root: str, env, compiled) -> None:
    from cupcake.compile.compiler import compile_files

    for item in installed:
        paths = applicable_policy_files(item.scope, root, env)
        if compiled is not None and item.scope != "user":
            settings = compiled["settings"]
        else:
            settings = compile_files(paths, root, env)["settings"]
        fix = "run `cupcake sync" + ("" if item.scope == "project" else f" --scope {item.scope}") + "`"
        closed = fail_mode_of(settings) == "closed"
        open_ended = [f.event for f in item.found if not entries.holds_closed(f.value["command"])]
        if closed and open_ended:
            report.add(
                "fail_mode",
                PROBLEM,
                f'fail_mode is "closed", but in {item.label} a missing or crashing cupcake lets the call through '
                f"(no `--fail-closed || exit 2` on {', '.join(open_ended)})",
                fix,
            )
        timeout = hook_timeout(settings)
        stale = [f.event for f in item.found if timeout is not None and f.value.get("timeout") != timeout]
        if stale:
            report.add(
                "fail_mode",
                WARNING,
                f"{item.label}: the hook timeout of {', '.join(stale)} is not hook_timeout_seconds ({timeout})",
                fix,
            )


def _check_workdir(report: Report, root: str) -> None:
    path = os.path.join(root, WORK_DIR)
    if os.path.lexists(path) and not os.path.isdir(path):
        report.add(
            WORK_DIR,
            PROBLEM,
            f"{WORK_DIR} is not a directory: Cupcake cannot keep its policy cache there",
            f"remove {path}; Cupcake creates the directory itself",
        )
        return
    if not os.path.isdir(path):
        if os.access(root, os.W_OK):
            report.add(WORK_DIR, OK, f"{WORK_DIR}/ does not exist yet; the first run creates it")
        else:
            report.add(
                WORK_DIR,
                PROBLEM,
                f"{root} is not writable, so {WORK_DIR}/ cannot be created",
                f"make {root} writable for this user, or create {path}/ writable",
            )
        return
    try:
        fd, probe_file = tempfile.mkstemp(prefix=".doctor-", dir=path)
        os.close(fd)
        os.unlink(probe_file)
    except OSError as exc:
        report.add(
            WORK_DIR,
            PROBLEM,
            f"{WORK_DIR}/ is not writable: {exc.strerror or exc}",
            f"make {path} writable for this user",
        )
        return
    report.add(WORK_DIR, OK, f"{WORK_DIR}/ is writable")


# -- the round trip ----------------------------------------------------------------------------------


def _round_trip(report: Report, installed: list[Installed], root: str, env) -> None:
    command, source = None, None
    for item in installed:
        hook = next((f for f in item.found if f.event == "PreToolUse" and f.matches_all), None)
        if hook is not None:
            command, source = hook.value["command"], f"the PreToolUse hook in {item.label}"
            break
    if command is None:
        mine = entries.installation_executable()
        if mine is None:
            report.add(
                "round trip",
                WARNING,
                "no hook command to try, and this installation's executable was not found",
                "run `cupcake sync`",
            )
            return
        command, source = (
            entries.hook_command(entries.command_word(mine), "PreToolUse", False),
            "this installation (no hook)",
        )
    payload = probe.sample_event(root)
    report.progress(f"sending a sample PreToolUse (Bash `echo cupcake doctor`) through {source} ...")
    first = probe.run_hook(command, root, env, payload)  # once: its policies' checks may be slow
    report.round_trip = {"command": command, "source": source, "runs": [first.as_dict()]}
    status, what, fix = _judge(first)
    report.add(
        "round trip",
        status,
        f"a sample PreToolUse (Bash `echo cupcake doctor`) through {source}: {what} ({first.seconds * 1000:.0f} ms)",
        fix,
    )
    if status == OK and first.seconds > SLOW_SECONDS:
        report.add(
            "round trip",
            WARNING,
            f"the sample took {first.seconds:.1f} s, and every tool call waits for its hook",
            "check for slow run_command checks or a slow `cupcake` on PATH (a version manager's shim?)",
        )


def _judge(outcome):
    """(status, what happened, fix) for the sample event's outcome."""
    tail = (outcome.stderr.strip().splitlines() or [""])[-1][:300]
    if outcome.error:
        return PROBLEM, outcome.error, "run the hook command by hand to see where it hangs"
    if outcome.exit_code == 2:
        return (
            PROBLEM,
            f"the hook exited 2 (cupcake missing or crashed, and `|| exit 2` blocks every call): {tail}",
            "fix the executable (see above), or run `cupcake sync` again",
        )
    if outcome.exit_code != 0:
        hint = " (command not found)" if outcome.exit_code == 127 else ""
        return (
            PROBLEM,
            f"the hook failed with exit {outcome.exit_code}{hint}, so Claude Code lets every call through: {tail}",
            "fix the executable (see above), or run `cupcake sync` again",
        )
    if not outcome.stdout.strip():
        return OK, "answered in time, no objection (it printed nothing)", None
    try:
        answer = json.loads(outcome.stdout)
    except ValueError:
        return (
            PROBLEM,
            f"printed something that is not JSON: {outcome.stdout[:200]!r}",
            "check what the hook command runs",
        )
    decision, reason, message = probe.read_answer(answer)
    if reason.startswith("Cupcake: ") or (message.startswith("Cupcake: ") and decision is None and not reason):
        first_line = (reason or message).splitlines()[0]
        return PROBLEM, f"Cupcake answered with a failure instead of a decision: {first_line}", "see the findings above"
    if decision:
        return OK, f"answered {decision}" + (f": {reason.splitlines()[0]}" if reason else ""), None
    return OK, "answered", None


# -- output ------------------------------------------------------------------------------------------


def doctor(env, cwd: str, json_out: bool = False, out=print, progress=None) -> int:
    """The findings as they are found (or, with ``json_out``, one JSON object at the end)."""
    if json_out:
        report = diagnose(env, cwd)
    else:

        def show(f) -> None:
            out(f"{f.status:<8} {f.check}: {f.message}")
            if f.fix and f.status != OK:
                out(f"{'':<8} fix: {f.fix}")

        def root_line(root) -> None:
            out(f"cupcake doctor: project root {root}")

        report = diagnose(env, cwd, on_add=show, progress=progress, on_root=root_line)
    problems = report.count(PROBLEM)
    if json_out:
        out(
            json.dumps(
                {
                    "root": report.root,
                    "ok": problems == 0,
                    "findings": [f.as_dict() for f in report.findings],
                    "round_trip": report.round_trip,
                    "policy_layers": getattr(report, "policy_layers", None),
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        warnings = report.count(WARNING)
        out(f"{problems} problem{'s' if problems != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}.")
    return 1 if problems else 0
