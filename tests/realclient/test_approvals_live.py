"""Approvals inside the real Claude Code client: the code reaches the person's channel and never the
model; the agent, even given the real code, cannot grant (the Bash command, a Write to the store, an
opaque script under the sandbox); the person can, and then the same call runs."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cupcake.live.messages_api import ScriptedMessagesAPI, Text, ToolUse

from .claude_client import SESSION_TIMEOUT_SECONDS, Sandbox, Session, run_claude, write_hook_settings
from .conftest import _unavailable

pytestmark = pytest.mark.real_client

MARK = "needs-a-person"
POLICY = f"""
[[policy]]
name = "hold-release"
matcher = "Bash"
conditions = [{{ type = "command_regex", value = "{MARK}" }}]
action = {{ type = "block_with_feedback", feedback_message = "Releases wait for a person." }}
"""
CALL = f"echo released > released.txt # {MARK}"
CODE = re.compile(r"cupcake allow ([0-9A-Z]{4}-[0-9A-Z]{4})")


def _session(sandbox: Sandbox, calls: list) -> Session:
    script = [ToolUse(tool, tool_input) for tool, tool_input in calls] + [Text("Done.")]
    with ScriptedMessagesAPI(script, max_lifetime=SESSION_TIMEOUT_SECONDS + 30) as api:
        run = run_claude(
            sandbox.claude,
            project=sandbox.project,
            home=sandbox.home,
            base_url=api.base_url,
            prompt="Please do the task.",
            allowed_tools=["Bash", "Write"],
            timeout=SESSION_TIMEOUT_SECONDS,
        )
    session = Session(run, api)
    assert run.returncode == 0 and run.result.get("type") == "result", session.describe()
    return session


def _users_channel(sandbox: Sandbox) -> list[str]:
    """What the client showed the user from hooks (the systemMessages it keeps in its transcripts)."""
    found = []
    for transcript in (sandbox.home / ".claude" / "projects").rglob("*.jsonl"):
        for line in transcript.read_text().splitlines():
            entry = json.loads(line)
            attachment = entry.get("attachment") or {}
            if attachment.get("type") == "hook_system_message":
                found.append(attachment["content"])
    return found


def _model_saw(session: Session) -> str:
    return json.dumps([r.body for r in session.api.requests])


def _person(sandbox: Sandbox, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(sandbox.home)}
    command = [str(sandbox.cupcake), *args]
    return subprocess.run(command, cwd=sandbox.project, env=env, capture_output=True, text=True, timeout=60)


def _grants(sandbox: Sandbox) -> list:
    store = sandbox.project / ".cupcake" / "approvals.json"
    return json.loads(store.read_text())["grants"] if store.exists() else []


def _blocked_once(sandbox: Sandbox) -> tuple[str, Session]:
    (sandbox.project / "cupcake.toml").write_text(POLICY)
    first = _session(sandbox, [("Bash", {"command": CALL})])
    assert first.tool_result_text() == "PreToolUse:Bash hook error: Operation blocked: Releases wait for a person."
    assert not (sandbox.project / "released.txt").exists()
    codes = [m.group(1) for text in _users_channel(sandbox) for m in [CODE.search(text)] if m]
    assert len(codes) == 1, _users_channel(sandbox)
    code = codes[0]
    assert code not in _model_saw(first) and code.replace("-", "") not in _model_saw(first)
    return code, first


def test_the_agent_cannot_grant_even_with_the_code_and_a_person_can(sandbox: Sandbox) -> None:
    write_hook_settings(sandbox.project, sandbox.home, sandbox.cupcake, sandbox.hook_executable)
    code, _ = _blocked_once(sandbox)
    store = str(sandbox.project / ".cupcake" / "approvals.json")
    forged = json.dumps({"v": 1, "pending": [], "grants": [{"rule": "hold-release", "scope": "always"}]})
    agent = _session(
        sandbox,
        [
            ("Bash", {"command": f"cupcake allow {code}"}),
            ("Bash", {"command": f"{sandbox.cupcake} allow {code} --always --reason agent"}),
            ("Write", {"file_path": store, "content": forged}),
            ("Bash", {"command": CALL}),
        ],
    )
    shown = [r.text for r in agent.api.tool_results()]
    assert len(shown) == 4, agent.describe()
    for text in shown[:2]:
        assert "only a person may grant" in text, agent.describe()
    # sync's permissions.deny rule stops the Write before the hook is asked (both layers say no)
    assert "denied by your permission settings" in shown[2] or ".cupcake/" in shown[2], agent.describe()
    assert "Releases wait for a person." in shown[3], agent.describe()
    assert _grants(sandbox) == [] and not (sandbox.project / "released.txt").exists()

    done = _person(sandbox, "allow", code)
    assert done.returncode == 0, done.stdout + done.stderr
    after = _session(sandbox, [("Bash", {"command": CALL})])
    assert (sandbox.project / "released.txt").read_text() == "released\n", after.describe()
    records = [json.loads(line) for line in (sandbox.project / ".cupcake" / "audit.log").read_text().splitlines()]
    assert [r["event"] for r in records] == ["ApprovalGranted", "PreToolUse"]


def test_an_opaque_script_under_the_sandbox_cannot_grant(sandbox: Sandbox, tmp_path: Path) -> None:
    if sys.platform.startswith("linux") and not (shutil.which("bwrap") and shutil.which("socat")):
        _unavailable("Claude Code's sandbox needs bubblewrap and socat (apt-get install bubblewrap socat)")
    (sandbox.project / "cupcake.toml").write_text(POLICY)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(sandbox.home)}
    command = [str(sandbox.cupcake), "sync", "--sandbox", "--command", sandbox.hook_executable]
    synced = subprocess.run(command, cwd=sandbox.project, env=env, capture_output=True, text=True, timeout=60)
    assert synced.returncode == 0, synced.stdout + synced.stderr
    code, _ = _blocked_once(sandbox)
    store = sandbox.project / ".cupcake" / "approvals.json"
    offers = sandbox.project / ".cupcake" / "approval-offers.jsonl"
    before = [line for line in offers.read_text().splitlines() if line]
    # An agent that somehow had the code, hidden where the hook cannot look: a script file.
    (sandbox.project / "x.py").write_text(
        "import subprocess, sys\n"
        f"done = subprocess.run([{str(sandbox.cupcake)!r}, 'allow', {code!r}], capture_output=True, text=True)\n"
        "print('allow exit', done.returncode, done.stderr.strip())\n"
        f"for path in ({str(store)!r}, {str(offers)!r}):\n"
        "    try:\n"
        "        open(path, 'a').write('{}')\n"
        "        print('store written')\n"
        "    except OSError as exc:\n"
        "        print('store write failed:', exc)\n"
    )
    agent = _session(sandbox, [("Bash", {"command": "python3 x.py"}), ("Bash", {"command": CALL})])
    shown = [r.text for r in agent.api.tool_results()]
    assert "allow exit 1" in shown[0] and "Read-only file system" in shown[0], agent.describe()
    assert "store write failed" in shown[0], agent.describe()
    assert "Releases wait for a person." in shown[1], agent.describe()
    # the hook (outside the sandbox) offered one more code for the second block; nothing else changed
    assert _grants(sandbox) == [] and [line for line in offers.read_text().splitlines() if line][:1] == before
    assert "store written" not in shown[0], agent.describe()
    assert not (sandbox.project / "released.txt").exists()
    done = _person(sandbox, "allow", code)  # the person, outside the agent's sandbox
    assert done.returncode == 0, done.stdout + done.stderr
