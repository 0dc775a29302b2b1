"""``cupcake doctor``: what a user needs to answer "why didn't it block?", for every agent the same way.

Each check gives findings: ok, warning, or problem (exit code 1), and every finding that is not ok
says how to fix it. The checks, in the order a hook call depends on them: Cupcake's hook entries in
each agent's files (every scope), the executable they name (on this PATH and on a fresh login
shell's), the policy files, `.cupcake/`, and a sample event sent through each agent's hook command
itself, timed. What only one agent has (Claude Code's switch that turns every hook off, Codex's trust)
its installer says (``file_findings``, ``doctor_findings``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile

from cupcake import __version__
from cupcake.agents import DEFAULT, NAMES, adapter, probe, project_dir_in
from cupcake.agents import hook_command as hooks
from cupcake.agents.installers import canonical_event, display_name, installer
from cupcake.agents.settings_file import SettingsFileError
from cupcake.agents.settings_file import read as read_file
from cupcake.cli.sync import applicable_policy_files, hook_timeout, scope_label
from cupcake.evaluate.settings import fail_mode_of
from cupcake.project import USER_FILE, WORK_DIR, find_root, policy_files

OK, WARNING, PROBLEM = "ok", "warning", "problem"
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
    """Cupcake's hooks found in one agent's file for one scope: (its event, command, timeout) each."""

    __slots__ = ("agent", "scope", "path", "label", "hooks")

    def __init__(self, agent: str, scope: str, path: str, label: str, found):
        self.agent = agent
        self.scope = scope
        self.path = path
        self.label = label
        self.hooks = found

    @property
    def display(self) -> str:
        return display_name(self.agent)

    def sync_again(self, uninstall: bool = False) -> str:
        """The command that rewrites (or removes) these hooks."""
        return sync_command(self.agent, self.scope, uninstall)

    def parsed(self):
        """(its event, command, parsed command, timeout) of each hook."""
        return [(event, command, hooks.parse(command), timeout) for event, command, timeout in self.hooks]


def sync_command(agent: str, scope: str = "project", uninstall: bool = False) -> str:
    """`cupcake sync` for an agent's scope, as the person types it (the defaults left out)."""
    named = "" if agent == DEFAULT else f" --agent {agent}"
    return (
        f"cupcake sync{named}"
        + (" --uninstall" if uninstall else "")
        + ("" if scope == "project" else f" --scope {scope}")
    )


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
    _check_hooks_present(report, installed)
    _check_executables(report, installed, root, env)
    compiled = _check_policies(report, root, env)
    _check_active(report, bool(installed), compiled)
    _check_unhooked(report, installed, compiled)
    _check_modes(report, installed, root, env, compiled)
    _check_workdir(report, root)
    from cupcake.cli.doctor_fleet import check_policy_layers, check_telemetry

    check_policy_layers(report, root, env, compiled)
    check_telemetry(report, root, env, compiled)
    _check_agents(report, installed, root, env)
    _round_trip(report, installed, root, env)
    from cupcake.cli.doctor_layers import check_layers

    check_layers(report, root, env, list(dict.fromkeys(item.agent for item in installed)))
    return report


# -- hook entries ------------------------------------------------------------------------------------


def _check_settings(report: Report, root: str, env) -> list[Installed]:
    installed = []
    for agent in NAMES:
        install = installer(agent)
        for scope, path in _hook_files(agent, root, env):
            if not os.path.lexists(path):
                continue
            label = scope_label(scope, path, root, env)
            item = Installed(agent, scope, path, label, [])
            try:
                loaded = read_file(path, label)
                found = install.hooks_in(loaded.text)
                findings = install.file_findings(loaded.text)
            except SettingsFileError as exc:
                report.add(
                    "settings",
                    PROBLEM,
                    f"{label}: {exc.what}: {item.display} cannot use this file, nor any hook in it",
                    f"fix {label} (valid JSON, no comments or trailing commas), then run `{item.sync_again()}`",
                )
                continue
            except (ValueError, RecursionError) as exc:
                report.add("settings", PROBLEM, f"{label}: {exc}", f"fix {label}, then run `{item.sync_again()}`")
                continue
            for status, message, fix in findings:
                report.add(
                    "settings" if status == PROBLEM else "hooks",
                    status,
                    message.replace("{file}", label),
                    (fix or f"run `{item.sync_again()}`").replace("{file}", label),
                )
            if found:
                item.hooks = found
                installed.append(item)
                _check_handlers(report, item)
    return installed


def _hook_files(agent: str, root: str, env) -> list[tuple[str, str]]:
    """(scope, path) of every file the agent reads hooks from: its managed settings first (the
    organisation's, ``sync --scope managed``), then its own scopes."""
    from cupcake.agents.managed import managed_path
    from cupcake.cli.sync import MANAGED

    install = installer(agent)
    managed = managed_path(agent, env)
    return ([(MANAGED, managed)] if managed else []) + [(s, install.config_path(s, root, env)) for s in install.SCOPES]


def _agent_events(agent: str, canonical) -> list[str]:
    """The agent's own names for canonical events (its first name for each, in order)."""
    capabilities = adapter(agent).CAPABILITIES
    return [capabilities[e]["agent_events"][0] if e in capabilities else e for e in canonical]


def _check_handlers(report: Report, item: Installed) -> None:
    """One finding for the events covered; one more for each hook that runs another event."""
    expected = _agent_events(item.agent, installer(item.agent).hook_events(None))
    covered = {event for event, _c, _t in item.hooks}
    missing = [e for e in expected if e not in covered]
    if missing:
        report.add(
            "hooks",
            PROBLEM,
            f"{item.label}: no Cupcake hook for {', '.join(missing)}: those events are never checked",
            f"run `{item.sync_again()}`",
        )
    else:
        report.add("hooks", OK, f"{item.label}: Cupcake's hook on all {len(expected)} events")
    for event, _command, parsed, _timeout in item.parsed():
        if parsed.event != event:
            report.add(
                "hooks",
                PROBLEM,
                f"{item.label}: the hook listed under {event} runs `--event {parsed.event}`, "
                f"so {event} policies are never evaluated",
                f"run `{item.sync_again()}`",
            )


def _check_hooks_present(report: Report, installed: list[Installed]) -> None:
    if not installed:
        report.add(
            "hooks",
            PROBLEM,
            "no agent calls Cupcake: no agent's hook settings hold Cupcake's hooks",
            "run `cupcake sync` (Claude Code: the project's file, shared with the team), "
            "`cupcake sync --scope local` (only you), or `cupcake sync --agent NAME` for another agent",
        )
        return
    for agent in dict.fromkeys(item.agent for item in installed):
        mine = [item for item in installed if item.agent == agent]
        commands: dict[str, dict[str, list[str]]] = {}  # event -> command -> where
        for item in mine:
            for event, command, _timeout in item.hooks:
                commands.setdefault(event, {}).setdefault(command, []).append(item.label)
        doubled = sorted(
            {label for by in commands.values() if len(by) > 1 for labels in by.values() for label in labels}
        )
        if doubled:
            keep = next(item for item in mine if item.label in doubled)
            drop = [item for item in mine if item.label in doubled and item is not keep]
            removal = " and ".join(f"`{item.sync_again(uninstall=True)}`" for item in drop)
            report.add(
                "hooks",
                WARNING,
                f"Cupcake runs more than once per event: different hook commands in {', '.join(doubled)}",
                f"keep the hooks in {keep.label} only: run {removal}",
            )


# -- the executable ----------------------------------------------------------------------------------


def resolve(executable: str, root: str, env, agent: str = DEFAULT):
    """Where the shell the agent starts finds ``executable``: a path (with the agent's project-directory
    variable and ``~`` expanded) or a name on PATH. None when nothing executable is there."""
    executable = probe.expand_project_dir(executable, root, adapter(agent).PROJECT_DIR_ENV)
    if executable.startswith("~"):
        home = env.get("HOME") or os.path.expanduser("~")
        executable = home + executable[1:] if executable[:2] in ("~", "~/") else executable
    if "/" in executable:
        path = executable if os.path.isabs(executable) else os.path.join(root, executable)
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which(executable, path=env.get("PATH", os.defpath))


def _check_executables(report: Report, installed: list[Installed], root: str, env) -> None:
    seen: dict[str, list[Installed]] = {}  # executable -> where
    for item in installed:
        for _event, _command, parsed, _timeout in item.parsed():
            users = seen.setdefault(parsed.executable, [])
            if item not in users:
                users.append(item)
    mine = hooks.installation_executable()
    for exe, items in seen.items():
        where = ", ".join(item.label for item in items)
        displays = " and ".join(dict.fromkeys(item.display for item in items))
        path = resolve(exe, root, env, items[0].agent)
        if path is None:
            place = "on PATH" if "/" not in exe else "there"
            report.add(
                "executable",
                PROBLEM,
                f"`{exe}` (the hooks in {where}) is not found {place}: every hook fails, and {displays} "
                + (
                    "then blocks every call it could stop (the hook says why)"
                    if _guarded(items)
                    else "then lets every call through"
                ),
                _missing_fix(exe, items, mine),
            )
            continue
        version, problem = probe.version_of(path, env)
        again = " and ".join(f"`{item.sync_again()}`" for item in items)
        if problem:
            report.add(
                "executable",
                PROBLEM,
                f"{problem} (the hooks in {where})",
                "reinstall Cupcake, or point the hooks at a working one with `cupcake sync --command <path>`",
            )
            continue
        if not version.startswith("cupcake "):
            report.add(
                "executable",
                PROBLEM,
                f"`{exe}` is {path}, which is not Cupcake (`--version` printed {version[:80]!r})",
                f"install Cupcake where every shell finds it, or point the hooks at it: {again} with --command <path>",
            )
            continue
        if version != f"cupcake {__version__}":
            report.add(
                "executable",
                WARNING,
                f"`{exe}` is {path} ({version}); this is cupcake {__version__}",
                "upgrade one of them, or point the hooks at this one with `cupcake sync --scope local`",
            )
        else:
            report.add("executable", OK, f"`{exe}` is {path} ({version})")
        if "/" not in exe:
            _check_login_shell(report, exe, path, where, displays, env)


def _guarded(items: list[Installed]) -> bool:
    """Every hook that could stop a call blocks when its executable cannot start."""
    return all(
        parsed.blocks_when_missing
        for item in items
        for event, _c, parsed, _t in item.parsed()
        if canonical_event(item.agent, event) in hooks.BLOCKING_EVENTS
    )


def _missing_fix(exe: str, items: list[Installed], mine) -> str:
    if "/" not in exe:
        shared = any(item.scope in hooks.SHARED_SCOPES for item in items)
        fix = "install Cupcake where every shell finds it (`pipx install .` or `uv tool install .` from its source)"
        if mine and shared:
            # the shared file names `cupcake`: writing a path elsewhere would only add a second hook
            return f"{fix}, or put {os.path.dirname(mine)} on the PATH the agent starts with"
        if mine:
            again = " and ".join(f"`{item.sync_again()}`" for item in items)
            return f"{fix}, or run {again} to write this installation's absolute path"
        return fix
    again = " and ".join(f"`{item.sync_again()}`" for item in items)
    return f"install Cupcake there, or run {again} again"


def _check_login_shell(report: Report, exe: str, path: str, where: str, displays: str, env) -> None:
    """An agent started from the desktop or a new terminal has a login shell's PATH, not this one's."""
    found, problem = probe.login_shell_finds(exe, env)
    if problem:
        report.add("executable", WARNING, f"could not ask a fresh login shell where `{exe}` is: {problem}", None)
    elif found is None:
        report.add(
            "executable",
            WARNING,
            f"a fresh login shell does not find `{exe}` (only this shell's PATH does): {displays} started from "
            f"the desktop or a new terminal would block every call it could stop (the hooks in {where})",
            "install Cupcake where every shell finds it (`pipx install .` or `uv tool install .` from its source), "
            f"or add {os.path.dirname(path)} to PATH in your shell's profile",
        )
    elif os.path.realpath(found) != os.path.realpath(path):
        report.add(
            "executable",
            WARNING,
            f"a fresh login shell finds `{exe}` at {found}, not {path}: an agent started from there runs that one",
            "keep one Cupcake on PATH (installed with pipx or uv tool)",
        )
    else:
        report.add("executable", OK, f"a fresh login shell finds `{exe}` there too")


# -- policies, fail_mode, .cupcake ------------------------------------------------------------------


def _check_policies(report: Report, root: str, env):
    from cupcake.compile.compiler import compile_files  # cold: tomli, pydantic

    paths = list(policy_files(root, env))
    present = [p for p in paths if os.path.exists(p)]
    if not present:
        report.add(
            "policies",
            WARNING,
            f"no policy file (cupcake.toml at the project root, ~/{USER_FILE}): Cupcake has nothing to enforce",
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
    hooked = {canonical_event(item.agent, event) for item in installed for event, _c, _t in item.hooks}
    shared = next((item for item in installed if item.scope != "user"), None)
    for name, event, file, line in [(p[0], p[1], p[5], p[6]) for p in compiled.get("policies") or ()]:
        if event in hooked:
            continue
        if shared is not None:
            again = shared.sync_again()
        else:
            again = "cupcake sync --scope " + ("user" if file.startswith("~/") else "local")
        report.add(
            "hooks",
            PROBLEM,
            f'policy "{name}" ({file}:{line}) is on {event}, and no installed hook calls Cupcake on {event}: it never runs',
            f"run `{again}`: it installs a hook for every event a policy names",
        )


def _check_modes(report: Report, installed: list[Installed], root: str, env, compiled) -> None:
    from cupcake.compile.compiler import compile_files

    for item in installed:
        if compiled is not None and item.scope != "user":
            settings = compiled["settings"]
        else:
            settings = compile_files(applicable_policy_files(item.scope, root, env), root, env)["settings"]
        fix = f"run `{item.sync_again()}`"
        closed = fail_mode_of(settings) == "closed"
        stopping = [
            (event, parsed, timeout)
            for event, _c, parsed, timeout in item.parsed()
            if canonical_event(item.agent, event) in hooks.BLOCKING_EVENTS
        ]
        open_ended = [event for event, parsed, _t in stopping if not parsed.holds_closed]
        unguarded = [event for event, parsed, _t in stopping if not parsed.blocks_when_missing]
        if closed and open_ended:
            report.add(
                "fail_mode",
                PROBLEM,
                f'fail_mode is "closed", but in {item.label} a missing or crashing cupcake lets the call through '
                f"(no closed-mode guard on {', '.join(open_ended)})",
                fix,
            )
        elif unguarded:
            report.add(
                "hooks",
                PROBLEM,
                f"{item.label}: if cupcake cannot start, {item.display} lets the call through (a shell's exit 127 is "
                f"not a block) on {', '.join(unguarded)}",
                fix + ": its hooks block with the reason instead",
            )
        timeout = hook_timeout(settings)
        stale = [event for event, _p, seconds in stopping if timeout is not None and seconds != timeout]
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


def _check_agents(report: Report, installed: list[Installed], root: str, env) -> None:
    """Which layer guards Cupcake's files from each agent's shell commands, and what its installer knows
    to check beside its hooks (the default agent's even when no agent has hooks: its protection level
    is what a first sync will set up)."""
    from cupcake.cli import doctor_os_layer

    agents = list(dict.fromkeys(item.agent for item in installed)) or [DEFAULT]
    for agent in agents:
        mine = [item for item in installed if item.agent == agent]
        jail = hooks.jail_of(command for item in mine for _event, command, _timeout in item.hooks)
        if mine:
            doctor_os_layer.check(report, root, env, agent, jail)  # which layer guards Cupcake's files
        for check, status, message, fix in installer(agent).doctor_findings(root, env, [i.path for i in mine], jail):
            report.add(check, status, message, fix)


# -- the round trip ----------------------------------------------------------------------------------


def _round_trip(report: Report, installed: list[Installed], root: str, env) -> None:
    """A sample before-tool event through each agent's hook command (the first scope that has one)."""
    from cupcake.agents.samples import sample_pre_tool, sample_tool

    tried = set()
    for item in installed:
        if item.agent in tried:
            continue
        event, payload = sample_pre_tool(item.agent, root)
        tool = sample_tool(item.agent)
        command = next((c for e, c, _t in item.hooks if e == event), None)
        if command is None:
            continue
        tried.add(item.agent)
        _send(report, item.agent, (event, payload, tool), command, f"the {event} hook in {item.label}", root, env)
    for agent in dict.fromkeys(item.agent for item in installed):
        if agent not in tried:
            report.add(
                "round trip",
                WARNING,
                f"{display_name(agent)}: no before-tool hook, so tool calls are not checked",
                f"run `{sync_command(agent)}`",
            )
    if installed:
        return
    mine = hooks.installation_executable()
    if mine is None:
        report.add(
            "round trip",
            WARNING,
            "no hook command to try, and this installation's executable was not found",
            "run `cupcake sync`",
        )
        return
    sample = (*sample_pre_tool(DEFAULT, root), sample_tool(DEFAULT))
    command = hooks.build(hooks.command_word(mine), DEFAULT, sample[0], True)
    _send(report, DEFAULT, sample, command, "this installation (no hook)", root, env)


def _send(report: Report, agent: str, sample_event, command: str, source: str, root: str, env) -> None:
    event, payload, tool = sample_event
    sample = f"a sample {event} ({tool} `echo cupcake doctor`)"
    report.progress(f"sending {sample} through {source} ...")
    outcome = probe.run_hook(command, root, env, payload, adapter(agent).PROJECT_DIR_ENV)  # once: checks may be slow
    if report.round_trip is None:
        report.round_trip = {"command": command, "source": source, "runs": [outcome.as_dict()]}
    status, what, fix = _judge(outcome, display_name(agent))
    report.add("round trip", status, f"{sample} through {source}: {what} ({outcome.seconds * 1000:.0f} ms)", fix)
    if status == OK and outcome.seconds > SLOW_SECONDS:
        report.add(
            "round trip",
            WARNING,
            f"the sample took {outcome.seconds:.1f} s, and every tool call waits for its hook",
            "check for slow run_command checks or a slow `cupcake` on PATH (a version manager's shim?)",
        )


def _judge(outcome, display: str):
    """(status, what happened, fix) for the sample event's outcome."""
    from cupcake.agents.samples import read_decision

    tail = (outcome.stderr.strip().splitlines() or [""])[-1][:300]
    if outcome.error:
        return PROBLEM, outcome.error, "run the hook command by hand to see where it hangs"
    if outcome.exit_code == 2:
        return (
            PROBLEM,
            f"the hook exited 2, which blocks every call (cupcake missing or crashed): {tail}",
            "fix the executable (see above), or run `cupcake sync` again",
        )
    if outcome.exit_code != 0:
        hint = " (command not found)" if outcome.exit_code == 127 else ""
        return (
            PROBLEM,
            f"the hook failed with exit {outcome.exit_code}{hint}, so {display} lets every call through: {tail}",
            "fix the executable (see above), or run `cupcake sync` again",
        )
    if not outcome.stdout.strip():
        return OK, "answered in time, no objection (it printed nothing)", None
    try:
        decision, reason, message = read_decision(outcome.stdout)
    except ValueError:
        return (
            PROBLEM,
            f"printed something that is not JSON: {outcome.stdout[:200]!r}",
            "check what the hook command runs",
        )
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
