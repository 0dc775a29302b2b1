"""Layer 1 of self-protection inside the real client: with `cupcake sync --sandbox`, Claude Code's
sandbox keeps every Bash write away from Cupcake's files, whatever the shell syntax, while an ordinary
write in the project works and Cupcake's hooks (outside the sandbox) still write `.cupcake/`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from cupcake.live.messages_api import ScriptedMessagesAPI, Text, ToolUse

from .claude_client import SESSION_TIMEOUT_SECONDS, Sandbox, Session, run_claude
from .conftest import _unavailable

pytestmark = pytest.mark.real_client

POLICY = '[[policy]]\nname = "no curl"\nconditions = [{ type = "command_regex", value = "curl" }]\naction = { type = "block_with_feedback", feedback_message = "no curl" }\n'

# The Bash writes of issue 15 that the old reader did not see, one session each batch.
HOSTILE = [
    "echo x > cup''cake.toml",
    "rm cup''cake.toml",
    "sed -i d cup\\cake.toml",
    "echo x > [c]upcake.toml",
    "echo x > $'\\x63upcake.toml'",
    "echo x > .cup''cake/forged",
    "rm -rf .cup''cake",
    "mv .cl''aude x",
    "echo '{}' > .cl''aude/settings.local.json",
    "python3 -c \"open('cup'+'cake.toml','w').write('')\"",
]


def _sync_sandboxed(sandbox: Sandbox) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(sandbox.home),
        "CLAUDE_PROJECT_DIR": str(sandbox.project),
    }
    command = [str(sandbox.cupcake), "sync", "--sandbox", "--command", sandbox.hook_executable]
    done = subprocess.run(command, cwd=sandbox.project, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def _snapshot(sandbox: Sandbox) -> dict:
    out = {}
    for base in (sandbox.project / "cupcake.toml", sandbox.project / ".claude", sandbox.project / ".cupcake"):
        paths = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        for path in paths:
            if path.name in ("audit.log", "policy.cache") or path.parent.name in ("state", "jail"):
                continue  # the hook's own bookkeeping grows during the session
            out[str(path.relative_to(sandbox.project))] = path.read_bytes()
    return out


def test_the_sandbox_keeps_bash_from_writing_protected_files(sandbox: Sandbox) -> None:
    if sys.platform.startswith("linux") and not (shutil.which("bwrap") and shutil.which("socat")):
        _unavailable("Claude Code's sandbox needs bubblewrap and socat (apt-get install bubblewrap socat)")
    (sandbox.project / "cupcake.toml").write_text(POLICY)
    (sandbox.project / ".cupcake").mkdir()
    (sandbox.project / ".cupcake" / "keep").write_text("kept\n")
    _sync_sandboxed(sandbox)
    before = _snapshot(sandbox)
    assert "cupcake.toml" in before and ".claude/settings.json" in before
    # Self-protection's hook is switched off here, so only the sandbox stands between Bash and the files.
    (sandbox.project / "cupcake.toml").write_text(POLICY + "\n[settings]\nself_protection = false\n")
    before["cupcake.toml"] = (sandbox.project / "cupcake.toml").read_bytes()
    calls = [ToolUse("Bash", {"command": c + " ; true"}) for c in HOSTILE]
    calls.append(ToolUse("Bash", {"command": "echo ok > fine.txt"}))
    with ScriptedMessagesAPI(calls + [Text("Done.")], max_lifetime=SESSION_TIMEOUT_SECONDS + 60) as api:
        run = run_claude(
            sandbox.claude,
            project=sandbox.project,
            home=sandbox.home,
            base_url=api.base_url,
            prompt="Please do the task.",
            allowed_tools=["Bash"],
            timeout=SESSION_TIMEOUT_SECONDS + 30,
        )
    session = Session(run, api)
    assert run.returncode == 0, session.describe()
    assert (sandbox.project / "fine.txt").read_text() == "ok\n", session.describe()
    after = _snapshot(sandbox)
    assert after == before, f"protected files changed: {set(after) ^ set(before)}\n{session.describe()}"
    assert not (sandbox.project / "x").exists(), session.describe()
    assert (sandbox.project / ".cupcake" / "state").is_dir() or (sandbox.project / ".cupcake" / "policy.cache").exists()


def test_cupcakes_jail_does_the_same_for_who_does_not_run_claude_codes_sandbox(sandbox: Sandbox) -> None:
    """`cupcake sync --jail`: Claude Code's sandbox stays off; each Bash call Cupcake allows comes back
    rewritten into Cupcake's jail (updatedInput), and the same writes fail while the ordinary one works."""
    if not sys.platform.startswith("linux") or not os.path.exists("/usr/bin/bwrap"):
        _unavailable("Cupcake's jail needs bubblewrap at /usr/bin/bwrap")
    (sandbox.project / "cupcake.toml").write_text(POLICY)
    (sandbox.project / ".cupcake").mkdir()
    (sandbox.project / ".cupcake" / "keep").write_text("kept\n")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(sandbox.home),
        "CLAUDE_PROJECT_DIR": str(sandbox.project),
    }
    command = [str(sandbox.cupcake), "sync", "--jail", "--command", sandbox.hook_executable]
    done = subprocess.run(command, cwd=sandbox.project, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OS layer: jailed" in done.stdout
    before = _snapshot(sandbox)
    (sandbox.project / "cupcake.toml").write_text(POLICY + "\n[settings]\nself_protection = false\n")
    before["cupcake.toml"] = (sandbox.project / "cupcake.toml").read_bytes()
    calls = [ToolUse("Bash", {"command": c + " ; true"}) for c in HOSTILE]
    calls.append(ToolUse("Bash", {"command": "echo ok > fine.txt; exit 3"}))
    with ScriptedMessagesAPI(calls + [Text("Done.")], max_lifetime=SESSION_TIMEOUT_SECONDS + 60) as api:
        run = run_claude(
            sandbox.claude,
            project=sandbox.project,
            home=sandbox.home,
            base_url=api.base_url,
            prompt="Please do the task.",
            allowed_tools=["Bash"],
            timeout=SESSION_TIMEOUT_SECONDS + 30,
        )
    session = Session(run, api)
    assert run.returncode == 0, session.describe()
    assert (sandbox.project / "fine.txt").read_text() == "ok\n", session.describe()
    after = _snapshot(sandbox)
    assert after == before, f"protected files changed: {set(after) ^ set(before)}\n{session.describe()}"
    assert not (sandbox.project / "x").exists(), session.describe()
    shown = [r.text for r in api.tool_results()]
    assert len(shown) == len(calls), session.describe()
    assert sum("Read-only file system" in text for text in shown) >= 5, shown  # they ran, jailed, and failed
    assert "Exit code 3" in shown[-1], shown
