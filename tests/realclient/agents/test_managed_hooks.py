"""`cupcake sync --scope managed` in the real clients: the hooks written where each agent reads its
managed or system settings run, with no project or user hook at all, and enforce the organisation's
policy file.

The clients read fixed paths under /etc, which a test must never write: each session runs in a mount
namespace (bubblewrap) where /etc is a copy of this machine's, holding the managed files sync wrote there
(through the tests' stand-in system root, see ``cupcake.project.system_path``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cupcake.live.messages_api import ScriptedMessagesAPI, Text, ToolUse
from cupcake.live.standin import Shell
from cupcake.live.standin import Text as AgentText

from ...conftest import cupcake_executable
from ..claude_client import ensure_claude_client

pytestmark = pytest.mark.real_client

TEAM = "The organisation does not allow rm -rf."
MANAGED = f"""[[policy]]
name = "no-rm-rf"
matcher = "Bash"
conditions = [{{ type = "command_regex", value = 'rm\\s+-rf' }}]
action = {{ type = "block_with_feedback", feedback_message = "{TEAM}" }}
"""


def system_root(tmp_path: Path) -> Path:
    """A stand-in for /: a copy of this machine's /etc, with the organisation's policy file in it."""
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is needed to give the client an /etc of the test's own")
    root = tmp_path / "system"
    shutil.copytree("/etc", root / "etc", symlinks=True, ignore_dangling_symlinks=True)
    (root / "etc" / "cupcake").mkdir(exist_ok=True)
    (root / "etc" / "cupcake" / "cupcake.toml").write_text(MANAGED)
    return root


def sync_managed(root: Path, agent: str, cwd: Path) -> str:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(cwd), "CUPCAKE_TEST_SYSTEM_ROOT": str(root)}
    args = [cupcake_executable(), "sync", "--scope", "managed", "--agent", agent, "--command", cupcake_executable()]
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def in_namespace(root: Path, command: list[str]) -> list[str]:
    """``command`` with /etc replaced by the stand-in's."""
    return ["bwrap", "--dev-bind", "/", "/", "--bind", str(root / "etc"), "/etc", "--", *command]


@pytest.mark.parametrize("agent", ["gemini", "codex", "copilot", "droid"])
def test_managed_hooks_enforce_the_organisations_file_in_the_real_client(agent_session, agent, tmp_path):
    session = agent_session(agent)
    root = system_root(tmp_path)
    sync_managed(root, agent, session.home)
    plain = session.command
    session.command = lambda prompt, base_url: in_namespace(root, plain(prompt, base_url))
    (session.project / "build").mkdir()
    run = session.run([Shell("echo allowed > allowed.txt"), Shell("rm -rf build"), AgentText("Done.")])
    assert run.returncode == 0, run.describe()
    assert (session.project / "allowed.txt").exists(), run.describe()
    assert (session.project / "build").is_dir(), run.describe()
    assert TEAM in run.tool_results[1].text, run.describe()
    assert not (session.project / ".codex").exists() and not (session.home / ".codex" / "hooks.json").exists()


def test_managed_hooks_enforce_the_organisations_file_in_claude_code(tmp_path):
    from ..claude_client import ClientUnavailable

    try:
        claude = ensure_claude_client()
    except ClientUnavailable as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true: {exc}", pytrace=False)
        pytest.skip(str(exc))
    root = system_root(tmp_path)
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    sync_managed(root, "claude", home)
    (project / "build").mkdir()
    script = [ToolUse("Bash", {"command": "rm -rf build"}), Text("Done.")]
    with ScriptedMessagesAPI(script, max_lifetime=200) as api:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "ANTHROPIC_BASE_URL": api.base_url,
            "ANTHROPIC_API_KEY": "sk-ant-standin",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
        command = in_namespace(root, [str(claude), "-p", "Please do the task.", "--output-format", "json"])
        done = subprocess.run(
            command, cwd=project, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (project / "build").is_dir(), done.stdout
    results = api.tool_results()
    assert results and TEAM in results[0].text, f"{done.stdout}\n{api.summary()}"
    assert not (project / ".claude").exists()  # no project hook: the managed drop-in alone
