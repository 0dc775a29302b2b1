"""``cupcake doctor --live [--agent NAME]``: the agent the user has installed, run for real.

In a throwaway project and home (the user's own files are never touched): a cupcake.toml whose one
policy blocks a marked command, Cupcake's hooks written by ``cupcake sync`` as a user would, and a
scripted model on 127.0.0.1 that asks the agent's shell tool to run the marked command, then an
ordinary one. The check passes when the marked command did not run and the model was shown Cupcake's
reason, and the ordinary command ran. The agent's version is reported. No API key (a placeholder is
given), no network (the agent's model address is the stand-in's), bounded in time."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time

from cupcake.live import DEFAULT_TIMEOUT

MARK = "cupcake-live-deny"
REASON = "Blocked by cupcake doctor --live (a sample deny)."
DENIED = f"echo denied > denied.txt # {MARK}"
ALLOWED = "echo allowed > allowed.txt"
POLICY = f"""# Written by `cupcake doctor --live` in a throwaway project.
[settings]
approvals = "off"

[[policy]]
name = "doctor-live-deny"
matcher = "Bash"
conditions = [{{ type = "command_regex", value = "{MARK}" }}]
action = {{ type = "block_with_feedback", feedback_message = "{REASON}" }}
"""


class Outcome:
    """What one live check found: the agent's version and path, and each finding (status, message, fix)."""

    def __init__(self, agent: str, display: str):
        self.agent = agent
        self.display = display
        self.executable: str | None = None
        self.version: str | None = None
        self.findings: list[tuple[str, str, str | None]] = []
        self.seconds = 0.0

    def add(self, status: str, message: str, fix: str | None = None) -> None:
        self.findings.append((status, message, fix))

    @property
    def ok(self) -> bool:
        return all(status == "ok" for status, _m, _f in self.findings)

    def as_dict(self) -> dict:
        return {
            "agent": self.agent,
            "display": self.display,
            "executable": self.executable,
            "version": self.version,
            "ok": self.ok,
            "seconds": round(self.seconds, 1),
            "findings": [{"status": s, "message": m, "fix": f} for s, m, f in self.findings],
        }


def _runners() -> dict:
    """The agents the live check can run: each adapter that has a ``live`` module (its headless command,
    its environment, its stand-in)."""
    from cupcake import agents

    return {name: agents.live_runner(name) for name in agents.LIVE}


AGENTS = _runners()
_VERSION = re.compile(r"\d+\.\d+\.\d+")


def version_of(executable: str, env: dict) -> str | None:
    from cupcake.live.process import run_bounded

    try:
        code, out, err = run_bounded([executable, "--version"], env.get("HOME"), env, 60)
    except OSError:
        return None
    found = _VERSION.search(out or err or "")
    return found.group(0) if found and code == 0 else None


def check(agent: str, env, timeout: float = DEFAULT_TIMEOUT, executable: str | None = None, progress=None) -> Outcome:
    """The live check of ``agent`` (a key of AGENTS)."""
    from cupcake.agents.hook_command import installation_executable

    runner = AGENTS[agent]
    outcome = Outcome(agent, runner.display)
    path = executable or shutil.which(runner.program, path=env.get("PATH", os.defpath))
    if path is None:
        outcome.add(
            "problem",
            f"{runner.display} (`{runner.program}`) is not installed on this PATH",
            f"install it ({runner.install}), or pass --agent-path",
        )
        return outcome
    outcome.executable = path
    cupcake = installation_executable()
    if cupcake is None:
        outcome.add(
            "problem", "this installation's `cupcake` launcher was not found beside its Python", "reinstall Cupcake"
        )
        return outcome
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cupcake-live-") as scratch:
        project, home = os.path.join(scratch, "project"), os.path.join(scratch, "home")
        os.makedirs(project)
        os.makedirs(home)
        base = {"PATH": env.get("PATH", os.defpath), "HOME": home, "LANG": env.get("LANG", "C.UTF-8")}
        runner.prepare(home)
        outcome.version = version_of(path, base)
        if outcome.version is None:
            outcome.add(
                "problem", f"`{path} --version` did not print a version: this may not be {runner.display}", None
            )
            return outcome
        if progress:
            progress(f"running {runner.display} {outcome.version} ({path}) against a scripted model on 127.0.0.1 ...")
        with open(os.path.join(project, "cupcake.toml"), "w", encoding="utf-8") as f:
            f.write(POLICY)
        problem = _sync(agent, cupcake, project, base)
        if problem:
            outcome.add("problem", f"`cupcake sync` could not set the hooks up: {problem}", None)
            return outcome
        from cupcake.live.process import run_bounded

        with runner.standin([DENIED, ALLOWED]) as standin:
            environment = {**base, **runner.environment(standin.base_url)}
            code, out, err = run_bounded(
                runner.command(path, "Run the two commands, please."), project, environment, timeout
            )
            shown = runner.shown(standin)
            asked = len(standin.main_loop_requests)
        outcome.seconds = time.monotonic() - started
        denied_ran = os.path.exists(os.path.join(project, "denied.txt"))
        allowed_ran = os.path.exists(os.path.join(project, "allowed.txt"))
    _judge(outcome, runner, code, err, shown, asked, denied_ran, allowed_ran, timeout)
    return outcome


def _sync(agent: str, cupcake: str, project: str, env: dict) -> str | None:
    from cupcake.live.process import run_bounded

    command = [cupcake, "sync", "--command", cupcake, "--agent", agent]
    code, out, err = run_bounded(command, project, env, 60)
    return None if code == 0 else (err or out).strip()[-500:] or f"exit {code}"


def _judge(
    outcome: Outcome, runner, code, err: str, shown: list, asked: int, denied_ran: bool, allowed_ran: bool, timeout
) -> None:
    name = f"{runner.display} {outcome.version}"
    tail = (err or "").strip().splitlines()[-1:] or [""]
    if code is None:
        outcome.add(
            "problem",
            f"{name} did not finish within {timeout:g} s and was stopped: {tail[0][:300]}",
            "try again with --timeout, or run it by hand",
        )
    elif code != 0:
        outcome.add("problem", f"{name} exited {code}: {tail[0][:300]}", "run it by hand to see why")
    if not asked:
        outcome.add(
            "problem",
            f"{name} never asked the scripted model for a turn, so nothing was tried",
            "run it by hand to see why",
        )
        return
    reason_seen = bool(shown) and REASON in shown[0]
    if denied_ran:
        outcome.add(
            "problem",
            f"a sample deny did NOT block in {name}: the command ran (the model was shown {shown[0][:200]!r})"
            if shown
            else f"a sample deny did NOT block in {name}: the command ran",
            "run `cupcake doctor` for the hooks, and check the agent's version against Cupcake's supported ones",
        )
    elif not reason_seen:
        outcome.add(
            "problem",
            f"the sample deny stopped the command in {name}, but the model was not shown Cupcake's reason"
            + (f" (it was shown {shown[0][:200]!r})" if shown else " (it was shown no result at all)"),
            "run `cupcake doctor` for the hooks",
        )
    else:
        outcome.add(
            "ok", f"a sample deny blocked in {name}: the command did not run, and the model was shown Cupcake's reason"
        )
    if allowed_ran:
        outcome.add("ok", f"a sample allow ran in {name}: `{ALLOWED}` wrote its file")
    else:
        outcome.add(
            "problem",
            f"a sample allow did not run in {name}"
            + (f": the model was shown {shown[1][:200]!r}" if len(shown) > 1 else ""),
            "check the agent's own permission settings (`cupcake explain --agent " + runner.agent + "`)",
        )


def doctor_live(env, agents, timeout: float, executable=None, json_out: bool = False, out=print, progress=None) -> int:
    """Run the live check for each of ``agents`` (None: every supported agent installed here)."""
    chosen = (
        list(agents)
        if agents
        else [a for a, r in AGENTS.items() if shutil.which(r.program, path=env.get("PATH", os.defpath))]
    )
    if not chosen:
        names = ", ".join(f"{r.display} (`{r.program}`)" for r in AGENTS.values())
        if json_out:
            out(
                json.dumps(
                    {"ok": False, "agents": [], "problem": f"none of {names} is installed on this PATH"}, indent=2
                )
            )
        else:
            out(f"problem  live: none of {names} is installed on this PATH")
        return 1
    outcomes = [check(a, env, timeout, executable, progress) for a in chosen]
    if json_out:
        out(json.dumps({"ok": all(o.ok for o in outcomes), "agents": [o.as_dict() for o in outcomes]}, indent=2))
    else:
        for o in outcomes:
            head = f"{o.display} {o.version}" if o.version else o.display
            out(
                f"cupcake doctor --live: {head}"
                + (f" ({o.executable})" if o.executable else "")
                + (f", {o.seconds:.1f} s" if o.seconds else "")
            )
            for status, message, fix in o.findings:
                out(f"{status:<8} live {o.agent}: {message}")
                if fix and status != "ok":
                    out(f"{'':<8} fix: {fix}")
    return 0 if all(o.ok for o in outcomes) else 1
