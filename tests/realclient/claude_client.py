"""The pinned Claude Code client: install it once into a cache, wire Cupcake in as its hooks, run it headless."""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import shutil
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cupcake.live.messages_api import ScriptedMessagesAPI, Text, ToolUse

CLAUDE_CODE_VERSION = "2.1.328"
CLAUDE_CODE_PACKAGE = f"@anthropic-ai/claude-code@{CLAUDE_CODE_VERSION}"


@contextmanager
def install_lock(prefix: Path):
    """Held while a client is checked and installed: test workers running in parallel (pytest-xdist)
    share the cache, and two npm installs into one prefix corrupt it."""
    prefix.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{prefix}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


class ClientUnavailable(Exception):
    """The client cannot be had on this machine (no node/npm, or the install failed)."""


def client_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "cupcake-tests" / f"claude-code-{CLAUDE_CODE_VERSION}"


def _version_of(claude: Path) -> str:
    try:
        done = subprocess.run([claude, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.split(" ", 1)[0].strip()  # "2.1.328 (Claude Code)"


def ensure_claude_client(cache_dir: Path | None = None) -> Path:
    """The path of the pinned `claude`, installed into the cache on first use."""
    cache_dir = cache_dir or client_cache_dir()
    with install_lock(cache_dir):
        return _ensure_claude_client(cache_dir)


def _ensure_claude_client(cache_dir: Path) -> Path:
    claude = cache_dir / "node_modules" / ".bin" / "claude"
    if claude.exists() and _version_of(claude) == CLAUDE_CODE_VERSION:
        return claude
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise ClientUnavailable("node and npm are needed to install the Claude Code client")
    cache_dir.mkdir(parents=True, exist_ok=True)
    command = [npm, "install", "--prefix", str(cache_dir), "--no-audit", "--no-fund", CLAUDE_CODE_PACKAGE]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        raise ClientUnavailable(f"`{shlex.join(command)}` did not finish in 15 minutes") from None
    version = _version_of(claude) if claude.exists() else ""
    if done.returncode != 0 or version != CLAUDE_CODE_VERSION:
        raise ClientUnavailable(
            f"`{shlex.join(command)}` exited {done.returncode}; `claude --version` printed {version!r}\n"
            f"{done.stderr[-2000:]}"
        )
    return claude


def find_cupcake() -> Path | None:
    """The installed `cupcake` console script: beside the running interpreter first, then on PATH."""
    beside = Path(sys.executable).parent / "cupcake"
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("cupcake")
    return Path(found).resolve() if found else None


def write_hook_settings(project: Path, home: Path, cupcake: Path, hook_executable: str) -> Path:
    """Hook Cupcake into the project the way users do: `cupcake sync`, calling ``hook_executable``.

    The end-to-end scenarios thereby prove that what sync writes is what the client honours."""
    command = [str(cupcake), "sync", "--scope", "project", "--command", hook_executable]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "CLAUDE_PROJECT_DIR": str(project)}
    done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise AssertionError(f"`{shlex.join(command)}` exited {done.returncode}\n{done.stdout}{done.stderr}")
    return project / ".claude" / "settings.json"


@dataclass
class ClientRun:
    """One finished `claude -p` session."""

    returncode: int
    stdout: str
    stderr: str
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def permission_denials(self) -> list[dict[str, Any]]:
        return self.result.get("permission_denials", [])


def run_claude(
    claude: Path,
    *,
    project: Path,
    home: Path,
    base_url: str,
    prompt: str,
    allowed_tools: list[str] | tuple[str, ...] = (),
    timeout: float = 120,
) -> ClientRun:
    """Run `claude -p <prompt> --output-format json` in `project`, talking only to `base_url`."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-ant-standin",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
    }
    command = [str(claude), "-p", prompt, "--output-format", "json"]
    if allowed_tools:
        command += ["--allowedTools", ",".join(allowed_tools)]
    done = subprocess.run(
        command, cwd=project, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
    )
    run = ClientRun(done.returncode, done.stdout, done.stderr)
    try:
        run.result = json.loads(done.stdout)
    except ValueError:
        pass
    return run


@dataclass
class Sandbox:
    """A throwaway project, HOME and a directory outside the project, plus how the client is set up."""

    claude: Path
    project: Path
    home: Path
    outside: Path
    cupcake: Path  # the installed `cupcake`, which runs `sync`
    hook_executable: str  # what the hooks call (the same, or a wrapper around it)
    allowed_tools: list[str] = field(default_factory=list)

    def expand(self, text: str) -> str:
        """Replace $PROJECT and $OUTSIDE in a step's text with the real directories."""
        return text.replace("$PROJECT", str(self.project)).replace("$OUTSIDE", str(self.outside))


SESSION_TIMEOUT_SECONDS = 120


@dataclass
class Session:
    """One finished headless session: the client's JSON result and everything the model was sent."""

    run: ClientRun
    api: ScriptedMessagesAPI

    def describe(self) -> str:
        return (
            f"claude exited {self.run.returncode}\nstdout: {self.run.stdout[-3000:]}\n"
            f"stderr: {self.run.stderr[-3000:]}\nrequests: {self.api.summary()}"
        )

    def tool_result_text(self) -> str:
        results = self.api.tool_results()
        assert results, f"the model was never shown a tool result\n{self.describe()}"
        return results[0].text


def run_session(sandbox: Sandbox, tool: str, tool_input: dict) -> Session:
    """One scripted session: the model calls `tool` once, then ends with a text."""
    return run_calls(sandbox, [(tool, tool_input)])


def run_calls(sandbox: Sandbox, calls: list[tuple[str, dict]]) -> Session:
    """One scripted session: the model makes `calls` one after another (each seeing the last result),
    then ends with a text."""
    write_hook_settings(sandbox.project, sandbox.home, sandbox.cupcake, sandbox.hook_executable)
    script = [ToolUse(tool, tool_input) for tool, tool_input in calls] + [Text("Done.")]
    with ScriptedMessagesAPI(script, max_lifetime=SESSION_TIMEOUT_SECONDS + 30) as api:
        run = run_claude(
            sandbox.claude,
            project=sandbox.project,
            home=sandbox.home,
            base_url=api.base_url,
            prompt="Please do the task.",
            allowed_tools=sandbox.allowed_tools,
            timeout=SESSION_TIMEOUT_SECONDS,
        )
    session = Session(run, api)
    assert run.returncode == 0 and run.result.get("type") == "result", session.describe()
    return session
