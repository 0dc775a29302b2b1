"""One headless session of a real agent CLI, offline, against a scripted model, with our hook command.

    session = make_session("codex", executable, tmp_path)
    session.write_hooks(["/path/to/hook", "arg"])              # every event the agent has, project scope
    run = session.run([Shell("echo hi > out.txt"), Text("Done.")])
    run.returncode, run.shown_after_tool, run.new_files, run.requests ...

Each session has its own throwaway HOME and project directory, and the agent runs with a minimal
environment (PATH, HOME, LANG and what the agent needs), never the real HOME.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from cupcake.live.gemini_api import GeminiStandin
from cupcake.live.process import run_bounded
from cupcake.live.standin import RecordedRequest, ScriptedModel, ToolCall, ToolResult, Turn

from . import codex_trust
from .chat_api import ChatCompletionsStandin
from .install import runtime_cache
from .responses_api import ResponsesStandin

# What a hook runs: a command string, an argv list, or a function of the agent's event name giving either.
HookCommand = str | Sequence[str] | Callable[[str], "str | Sequence[str]"]

# The generic event names a test may use; each agent maps them to its own.
GENERIC_EVENTS = ("session_start", "prompt_submit", "before_tool", "after_tool", "stop", "session_end")

DEFAULT_TIMEOUT = 90.0
STANDIN_KEY = "standin-key-5f0c"  # Copilot masks the key everywhere in its output: a string found nowhere else


def _command_text(command: str | Sequence[str]) -> str:
    return command if isinstance(command, str) else shlex.join([str(part) for part in command])


def _write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _files_under(root: Path, skip: frozenset[str]) -> set[str]:
    found = set()
    for dirpath, dirnames, filenames in os.walk(root):
        if Path(dirpath) == root:
            dirnames[:] = [d for d in dirnames if d not in skip]
        rel = Path(dirpath).relative_to(root)
        found.update(str(rel / name) for name in filenames)
    return found


@dataclass
class AgentRun:
    """One finished headless session."""

    agent: str
    command: list[str]
    returncode: int | None  # None: killed at the time-out
    stdout: str
    stderr: str
    elapsed: float  # seconds, the agent process only
    requests: list[RecordedRequest]  # everything the stand-in received, in order
    tool_results: list[ToolResult]  # what the model was shown after each tool call, first seen first
    new_files: list[str]  # files that appeared in the project during the run (relative; config dirs left out)
    project: Path
    home: Path
    main_loop_requests: list[RecordedRequest] = field(default_factory=list)

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    @property
    def shown_after_tool(self) -> str:
        """The text the model was shown for the first tool call ("" if it never saw one)."""
        return self.tool_results[0].text if self.tool_results else ""

    @property
    def output_json(self) -> list[Any]:
        """The agent's JSON output: the whole stdout as one document, or one per line (JSONL)."""
        try:
            return [json.loads(self.stdout)]
        except ValueError:
            pass
        found = []
        for line in self.stdout.splitlines():
            try:
                found.append(json.loads(line))
            except ValueError:
                continue
        return found

    @property
    def last_model_input(self) -> str:
        """The body of the last main-loop request, as JSON text: everything the model was last shown
        (system prompt, history, tool results, context a hook added)."""
        return json.dumps(self.main_loop_requests[-1].body, ensure_ascii=False) if self.main_loop_requests else ""

    def describe(self) -> str:
        requests = ", ".join(f"{r.method} {r.path}" for r in self.requests)
        return (
            f"{self.agent} exited {self.returncode} after {self.elapsed:.1f}s\n$ {shlex.join(self.command)}\n"
            f"stdout: {self.stdout[-3000:]}\nstderr: {self.stderr[-3000:]}\nrequests: {requests}\n"
            f"tool results: {self.tool_results}\nnew files: {self.new_files}"
        )


class AgentSession:
    """The common part; one subclass per agent."""

    agent: ClassVar[str]
    events: ClassVar[dict[str, str]]  # generic name -> the agent's event name
    tool_events: ClassVar[frozenset[str]]  # the agent's events that take a tool matcher
    all_tools_matcher: ClassVar[str] = ".*"
    config_dirs: ClassVar[frozenset[str]] = frozenset({".git"})
    standin_class: ClassVar[type[ScriptedModel]]

    def __init__(self, executable: Path, root: Path, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.executable = Path(executable)
        self.root = Path(root).resolve()  # agents report resolved paths
        self.home = self.root / "home"
        self.project = self.root / "project"
        self.timeout = timeout
        self.home.mkdir(parents=True, exist_ok=True)
        self.project.mkdir(parents=True, exist_ok=True)
        self.configure_user()

    # -- to be provided by each agent --------------------------------------------------

    def configure_user(self) -> None:
        """Write the user-level settings the agent needs to run headless and offline."""

    def shell_call(self, command: str) -> ToolCall:
        raise NotImplementedError

    def hook_file(self, scope: str) -> Path:
        raise NotImplementedError

    def hook_entry(self, event: str, command: str, matcher: str | None, timeout: int) -> Any:
        raise NotImplementedError

    def hooks_document(self, existing: dict[str, Any], hooks: dict[str, list[Any]], scope: str) -> dict[str, Any]:
        return dict(existing, hooks=hooks)

    def command(self, prompt: str, base_url: str) -> list[str]:
        raise NotImplementedError

    def environment(self, base_url: str) -> dict[str, str]:
        return {}

    def before_run(self, base_url: str) -> None:
        """Last preparations once the stand-in's address is known."""

    # -- hooks ------------------------------------------------------------------------

    def native_event(self, event: str) -> str:
        return self.events.get(event, event)

    def write_hooks(
        self,
        command: HookCommand,
        *,
        events: Sequence[str] = GENERIC_EVENTS,
        tool_matcher: str | None = None,
        timeout: int = 30,
        scope: str = "project",
    ) -> Path:
        """Hook ``command`` into ``events`` (generic or the agent's own names); returns the file written.

        ``tool_matcher`` is the agent's matcher for its tool events (None: every tool); ``timeout``
        is in seconds whatever unit the agent uses; ``scope`` is "project" or "user"."""
        assert scope in ("project", "user"), scope
        hooks: dict[str, list[Any]] = {}
        for event in events:
            native = self.native_event(event)
            text = _command_text(command(native) if callable(command) else command)
            matcher = (tool_matcher or self.all_tools_matcher) if native in self.tool_events else None
            hooks.setdefault(native, []).append(self.hook_entry(native, text, matcher, timeout))
        path = self.hook_file(scope)
        return _write_json(path, self.hooks_document(_read_json(path), hooks, scope))

    # -- a session --------------------------------------------------------------------

    def base_environment(self) -> dict[str, str]:
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home), "LANG": "C.UTF-8"}

    def run(
        self,
        script: list[Turn],
        *,
        prompt: str = "Please do the task.",
        timeout: float | None = None,
        env: dict[str, str] | None = None,
    ) -> AgentRun:
        """Run the agent once on ``prompt`` while the stand-in plays ``script``."""
        timeout = timeout or self.timeout
        skip = self.config_dirs
        before = _files_under(self.project, skip)
        with self.standin_class(script, shell=self.shell_call, max_lifetime=timeout + 30) as standin:
            self.before_run(standin.base_url)
            command = self.command(prompt, standin.base_url)
            environment = {**self.base_environment(), **self.environment(standin.base_url), **(env or {})}
            started = time.monotonic()
            returncode, stdout, stderr = run_bounded(command, self.project, environment, timeout)
            elapsed = time.monotonic() - started
        return AgentRun(
            agent=self.agent,
            command=command,
            returncode=returncode,
            stdout=stdout,
            stderr=stderr,
            elapsed=elapsed,
            requests=standin.requests,
            tool_results=standin.tool_results(),
            new_files=sorted(_files_under(self.project, skip) - before),
            project=self.project,
            home=self.home,
            main_loop_requests=standin.main_loop_requests,
        )


# -- Gemini CLI --------------------------------------------------------------------------


class GeminiSession(AgentSession):
    agent = "gemini"
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "BeforeAgent",
        "before_tool": "BeforeTool",
        "after_tool": "AfterTool",
        "stop": "AfterAgent",
        "session_end": "SessionEnd",
    }
    tool_events = frozenset({"BeforeTool", "AfterTool"})
    config_dirs = frozenset({".git", ".gemini"})
    standin_class = GeminiStandin
    shell_tool = "run_shell_command"

    def configure_user(self) -> None:
        path = self.home / ".gemini" / "settings.json"
        _write_json(
            path,
            dict(
                _read_json(path),
                privacy={"usageStatisticsEnabled": False},
                general={"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
                # Only the base URL set makes the CLI pick auth type "gateway", which headless mode rejects (exit 41).
                security={"auth": {"selectedType": "gemini-api-key"}},
            ),
        )

    def shell_call(self, command: str) -> ToolCall:
        return ToolCall("run_shell_command", {"command": command, "description": "scripted command"})

    def hook_file(self, scope: str) -> Path:
        return (self.project if scope == "project" else self.home) / ".gemini" / "settings.json"

    def hook_entry(self, event: str, command: str, matcher: str | None, timeout: int) -> Any:
        hook = {"name": f"hook-{event.lower()}", "type": "command", "command": command, "timeout": timeout * 1000}
        return {"matcher": matcher or "*", "hooks": [hook]}

    def command(self, prompt: str, base_url: str) -> list[str]:
        # Without yolo the shell tool is not even offered to the model in headless mode.
        return [str(self.executable), "-p", prompt, "--output-format", "json", "--approval-mode", "yolo"]

    def environment(self, base_url: str) -> dict[str, str]:
        return {"GEMINI_CLI_TRUST_WORKSPACE": "true", "GOOGLE_GEMINI_BASE_URL": base_url, "GEMINI_API_KEY": STANDIN_KEY}


# -- OpenAI Codex ------------------------------------------------------------------------


class CodexSession(AgentSession):
    agent = "codex"
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "UserPromptSubmit",
        "before_tool": "PreToolUse",
        "after_tool": "PostToolUse",
        "stop": "Stop",
        "session_end": "SessionEnd",
    }
    tool_events = frozenset({"PreToolUse", "PostToolUse", "PermissionRequest"})
    config_dirs = frozenset({".git", ".codex"})
    standin_class = ResponsesStandin

    @property
    def codex_home(self) -> Path:
        return self.home / ".codex"

    def configure_user(self) -> None:
        self.codex_home.mkdir(parents=True, exist_ok=True)
        # The base URL is given per run with -c, so that the hook trust written into this file stays.
        (self.codex_home / "config.toml").write_text(
            "\n".join(
                [
                    'model = "gpt-5.5"',
                    'model_provider = "standin"',
                    'approval_policy = "never"',
                    'sandbox_mode = "danger-full-access"',
                    "check_for_update_on_startup = false",
                    "",
                    "[model_providers.standin]",
                    'name = "Scripted stand-in"',
                    'base_url = "http://127.0.0.1:9/v1"',
                    'wire_api = "responses"',
                    'env_key = "STANDIN_OPENAI_KEY"',
                    "",
                    "[features]",
                    "enable_request_compression = false",
                    "",
                    "[analytics]",
                    "enabled = false",
                    "",
                    f"[projects.{json.dumps(str(self.project))}]",
                    'trust_level = "trusted"',
                    "",
                ]
            )
        )

    def shell_call(self, command: str) -> ToolCall:
        return ToolCall("exec_command", {"cmd": command})

    def hook_file(self, scope: str) -> Path:
        return self.project / ".codex" / "hooks.json" if scope == "project" else self.codex_home / "hooks.json"

    def hook_entry(self, event: str, command: str, matcher: str | None, timeout: int) -> Any:
        if event == "SessionEnd":  # Codex clamps it to 3 s and says so in its output
            timeout = min(timeout, 3)
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": timeout}]}
        if matcher is not None:
            group = {"matcher": matcher, **group}
        return group

    def write_hooks(self, command: HookCommand, **options: Any) -> Path:
        path = super().write_hooks(command, **options)
        self.trust_hooks()
        return path

    def trust_hooks(self) -> list[str]:
        """Trust every hook Codex finds for the project (untrusted hooks are skipped silently)."""
        return codex_trust.trust_all_hooks(self.executable, self.project, self.base_environment() | self.codex_env())

    def codex_env(self) -> dict[str, str]:
        return {"CODEX_HOME": str(self.codex_home), "STANDIN_OPENAI_KEY": STANDIN_KEY}

    def command(self, prompt: str, base_url: str) -> list[str]:
        override = f"model_providers.standin.base_url={json.dumps(base_url + '/v1')}"
        return [str(self.executable), "exec", "--json", "--skip-git-repo-check", "-c", override, prompt]

    def environment(self, base_url: str) -> dict[str, str]:
        return self.codex_env()


# -- GitHub Copilot CLI ------------------------------------------------------------------


class CopilotSession(AgentSession):
    agent = "copilot"
    events = {
        "session_start": "sessionStart",
        "prompt_submit": "userPromptSubmitted",
        "before_tool": "preToolUse",
        "after_tool": "postToolUse",
        "stop": "agentStop",
        "session_end": "sessionEnd",
    }
    tool_events = frozenset()  # Copilot hooks have no matcher: a tool hook sees every tool
    config_dirs = frozenset({".git", ".github"})
    standin_class = ChatCompletionsStandin
    hook_file_name = "hooks.json"

    def shell_call(self, command: str) -> ToolCall:
        return ToolCall("bash", {"command": command, "description": "scripted command"})

    def hook_file(self, scope: str) -> Path:
        if scope == "project":
            return self.project / ".github" / "hooks" / self.hook_file_name
        return self.home / ".copilot" / "settings.json"

    def hook_entry(self, event: str, command: str, matcher: str | None, timeout: int) -> Any:
        return {"type": "command", "bash": command, "timeoutSec": timeout}

    def hooks_document(self, existing: dict[str, Any], hooks: dict[str, list[Any]], scope: str) -> dict[str, Any]:
        # A repo hook file is versioned; the user's settings.json just has a "hooks" key.
        return {"version": 1, "hooks": hooks} if scope == "project" else dict(existing, hooks=hooks)

    def command(self, prompt: str, base_url: str) -> list[str]:
        return [str(self.executable), "-p", prompt, "--output-format", "json", "--disable-client-telemetry"]

    def environment(self, base_url: str) -> dict[str, str]:
        return {
            "COPILOT_OFFLINE": "true",
            "COPILOT_PROVIDER_BASE_URL": base_url + "/v1",
            "COPILOT_PROVIDER_API_KEY": STANDIN_KEY,
            "COPILOT_MODEL": ChatCompletionsStandin.model_id,
            # Exactly "true": approves every tool AND trusts the folder, without which repo hooks are ignored.
            "COPILOT_ALLOW_ALL": "true",
            "COPILOT_AUTO_UPDATE": "false",
            # Shared between runs: else every throwaway HOME gets its own 235 MB unpacked runtime (+1.5 s).
            "XDG_CACHE_HOME": str(runtime_cache(self.executable)),
        }


# -- Factory droid -----------------------------------------------------------------------


class DroidSession(AgentSession):
    agent = "droid"
    events = {
        "session_start": "SessionStart",
        "prompt_submit": "UserPromptSubmit",  # not fired by `droid exec`
        "before_tool": "PreToolUse",
        "after_tool": "PostToolUse",
        "stop": "Stop",
        "session_end": "SessionEnd",
    }
    tool_events = frozenset({"PreToolUse", "PostToolUse"})
    all_tools_matcher = "*"
    config_dirs = frozenset({".git", ".factory"})
    standin_class = ChatCompletionsStandin
    model_name = "Standin"

    def before_run(self, base_url: str) -> None:
        path = self.home / ".factory" / "settings.json"
        model = {
            "model": ChatCompletionsStandin.model_id,
            "displayName": self.model_name,
            "baseUrl": base_url + "/v1",
            "apiKey": STANDIN_KEY,
            "provider": "generic-chat-completion-api",
            "maxOutputTokens": 4096,
        }
        _write_json(path, dict(_read_json(path), customModels=[model]))

    def shell_call(self, command: str) -> ToolCall:
        arguments = {
            "command": command,
            "summary": "scripted command",
            "riskLevelReason": "scripted",
            "riskLevel": "low",
        }
        return ToolCall("Execute", arguments)

    def hook_file(self, scope: str) -> Path:
        return (self.project if scope == "project" else self.home) / ".factory" / "settings.json"

    def hook_entry(self, event: str, command: str, matcher: str | None, timeout: int) -> Any:
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": timeout}]}
        if matcher is not None:
            group = {"matcher": matcher, **group}
        return group

    def command(self, prompt: str, base_url: str) -> list[str]:
        # A BYOK custom model needs no login; --auto high lets Execute run (exec mode is read-only by default).
        model = f"custom:{self.model_name}-0"
        return [str(self.executable), "exec", "-m", model, "--auto", "high", "-o", "json", prompt]

    def environment(self, base_url: str) -> dict[str, str]:
        return {"FACTORY_AIRGAP_ENABLED": "true"}  # else about 6 s of offline time-outs at exit


SESSIONS: dict[str, type[AgentSession]] = {
    cls.agent: cls for cls in (GeminiSession, CodexSession, CopilotSession, DroidSession)
}


def make_session(agent: str, executable: Path, root: Path, **options: Any) -> AgentSession:
    return SESSIONS[agent](executable, root, **options)
