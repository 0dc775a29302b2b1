"""One policy, every agent: the same cupcake.toml decides the same way whichever agent calls the hook.

Each agent's payload is built in its own words (its event and tool names, its fields); the run goes
through the whole pipeline (``cupcake.cli.run.execute``) with ``--agent NAME``."""

from __future__ import annotations

import json
import textwrap

import pytest

from cupcake.agents import NAMES

AGENTS = NAMES  # claude, codex, gemini, copilot, droid, cursor
SESSION = "5e1f0c2a-1111-4a4a-9b9b-0123456789ab"


class Wire:
    """How one agent says "run this shell command", "write this file", "the shell command ran"."""

    def __init__(self, project, agent: str):
        self.project, self.agent = project, agent

    def _base(self) -> dict:
        cwd = str(self.project.cwd)  # the project root, unless the session started in a subfolder
        if self.agent == "copilot":
            return {"sessionId": SESSION, "timestamp": 1795329833163, "cwd": cwd}
        if self.agent == "cursor":
            return {"conversation_id": SESSION, "generation_id": "g-1", "workspace_roots": [cwd], "cwd": cwd}
        return {"session_id": SESSION, "cwd": cwd, "transcript_path": "/dev/null"}

    def event(self, canonical: str) -> str:
        return {
            "gemini": {"PreToolUse": "BeforeTool", "PostToolUse": "AfterTool", "UserPromptSubmit": "BeforeAgent"},
            "copilot": {
                "PreToolUse": "preToolUse",
                "PostToolUse": "postToolUse",
                "UserPromptSubmit": "userPromptSubmitted",
            },
            "cursor": {
                "PreToolUse": "preToolUse",
                "PostToolUse": "postToolUse",
                "UserPromptSubmit": "beforeSubmitPrompt",
            },
        }.get(self.agent, {}).get(canonical, canonical)

    def tool(self, kind: str) -> str:
        return {
            "claude": {"shell": "Bash", "write": "Write"},
            "codex": {"shell": "Bash", "write": "apply_patch"},
            "gemini": {"shell": "run_shell_command", "write": "write_file"},
            "copilot": {"shell": "bash", "write": "create"},
            "droid": {"shell": "Execute", "write": "Create"},
            "cursor": {"shell": "Shell", "write": "Write"},
        }[self.agent][kind]

    def _tool_call(self, canonical_event: str, kind: str, tool_input: dict, extra=None) -> dict:
        payload = self._base()
        event = self.event(canonical_event)
        tool = self.tool(kind)
        if self.agent == "copilot":
            payload.update(toolName=tool, toolArgs=tool_input)
        else:
            payload.update(hook_event_name=event, tool_name=tool, tool_input=tool_input)
        payload.update(extra or {})
        return payload

    def shell(self, command: str, event: str = "PreToolUse", **extra) -> dict:
        tool_input = {"command": command}
        if self.agent == "droid":
            tool_input.update(summary="x", riskLevel="low", riskLevelReason="x")
        return self._tool_call(event, "shell", tool_input, extra)

    def write(self, path: str, content: str) -> dict:
        if self.agent == "codex":
            patch = f"*** Begin Patch\n*** Add File: {path}\n" + "".join(f"+{line}\n" for line in content.splitlines())
            tool_input = {"command": patch + "*** End Patch\n"}
        elif self.agent == "copilot":
            tool_input = {"path": path, "file_text": content}
        elif self.agent == "cursor":
            tool_input = {"file_path": path, "contents": content}
        else:
            tool_input = {"file_path": path, "content": content}
        return self._tool_call("PreToolUse", "write", tool_input)

    def prompt(self, text: str) -> dict:
        payload = self._base()
        if self.agent != "copilot":
            payload["hook_event_name"] = self.event("UserPromptSubmit")
        payload["prompt"] = text
        return payload

    def send(self, payload: dict, canonical_event: str = "PreToolUse"):
        from cupcake.cli.run import execute

        from ..conftest import Answer

        env = self.project.env()
        env.pop("CLAUDE_PROJECT_DIR", None)  # each agent names its project its own way (or by cwd)
        args = ["--agent", self.agent, "--event", self.event(canonical_event)]
        ctx = execute(json.dumps(payload).encode(), args, env)
        answer = Answer(*ctx.envelope)
        answer.ctx = ctx
        return answer


def shown(answer, agent: str) -> str:
    """Everything the agent is told (stdout and stderr), for checks on the team's words."""
    return answer.stdout.decode() + answer.stderr.decode()


def blocked(answer, agent: str) -> bool:
    """Whether the answer blocks the tool call in that agent's own terms."""
    data = answer.json or {}
    if answer.code == 2:
        return True
    if agent in ("claude", "codex", "droid"):
        return data.get("hookSpecificOutput", {}).get("permissionDecision") == "deny"
    if agent == "gemini":
        return data.get("decision") == "deny"
    if agent == "copilot":
        return data.get("permissionDecision") == "deny"
    return data.get("permission") == "deny"  # cursor


@pytest.fixture
def wire(project):
    return lambda agent: Wire(project, agent)


POLICY = """
[[policy]]
name = "no-rm-rf"
matcher = "Bash"
conditions = [{ type = "command_regex", value = 'rm\\s+-rf' }]
action = { type = "block_with_feedback", feedback_message = "The team does not allow rm -rf." }
"""


@pytest.mark.parametrize("agent", AGENTS)
def test_a_bash_policy_blocks_each_agents_shell_tool_with_the_teams_message(project, wire, agent):
    project.write_policy(POLICY)
    w = wire(agent)
    answer = w.send(w.shell("rm -rf build"))
    assert blocked(answer, agent), answer
    assert "The team does not allow rm -rf." in shown(answer, agent)
    calm = w.send(w.shell("ls -la"))
    assert not blocked(calm, agent) and calm.stdout == b"", calm


@pytest.mark.parametrize("agent", ["gemini", "copilot", "droid", "cursor"])
def test_the_agents_own_tool_name_matches_too(project, wire, agent):
    w = wire(agent)
    own = w.tool("shell")
    project.write_policy(POLICY.replace('matcher = "Bash"', f'matcher = "{own}"').replace("no-rm-rf", "own-name"))
    assert blocked(w.send(w.shell("rm -rf build")), agent)
    # and the agent's name matches nothing in another agent's calls
    other = wire("claude")
    assert not blocked(other.send(other.shell("rm -rf build")), "claude") or own == "Bash"


@pytest.mark.parametrize("agent", AGENTS)
def test_write_edit_matches_each_agents_file_tools(project, wire, agent):
    project.write_policy(
        textwrap.dedent(
            """
            [[policy]]
            name = "no-env-files"
            matcher = "Write|Edit"
            conditions = [{ type = "filepath_regex", value = '\\.env$' }]
            action = { type = "block_with_feedback", feedback_message = "Secrets stay out of .env files." }
            """
        )
    )
    w = wire(agent)
    answer = w.send(w.write(".env", "KEY=1\n"))
    assert blocked(answer, agent), answer
    assert "Secrets stay out of .env files." in shown(answer, agent)
    assert not blocked(w.send(w.write("notes.md", "hello\n")), agent)


def test_agents_restricts_a_policy_to_the_agents_it_names(project, wire):
    project.write_policy(POLICY.replace('matcher = "Bash"', 'matcher = "Bash"\nagents = ["codex", "gemini"]'))
    for agent in AGENTS:
        w = wire(agent)
        assert blocked(w.send(w.shell("rm -rf build")), agent) == (agent in ("codex", "gemini")), agent


def test_an_unknown_agent_name_is_an_error_naming_the_nearest(project):
    from cupcake.compile.compiler import compile_files

    path = project.write_policy(POLICY.replace('matcher = "Bash"', 'matcher = "Bash"\nagents = ["codx"]'))
    compiled = compile_files([str(path)], str(project.root), project.env())
    messages = [p["message"] for p in compiled["problems"] if p["severity"] == "error"]
    assert any('unknown agent "codx"' in m and 'did you mean "codex"' in m for m in messages), messages


@pytest.mark.parametrize("agent", AGENTS)
def test_session_state_is_kept_per_session_for_every_agent(project, wire, agent):
    project.write_policy(
        textwrap.dedent(
            """
            [[policy]]
            name = "tests-before-push"
            matcher = "Bash"
            conditions = [
              { type = "command_regex", value = "git push" },
              { type = "state_missing", tool = "Bash", command = "pytest" },
            ]
            action = { type = "block_with_feedback", feedback_message = "Run pytest before pushing." }
            """
        )
    )
    w = wire(agent)
    assert blocked(w.send(w.shell("git push")), agent)
    ran = w.send(w.shell("pytest -q", event="PostToolUse", tool_response="ok"), "PostToolUse")
    assert ran.code == 0, ran
    assert not blocked(w.send(w.shell("git push")), agent)
    state = project.root / ".cupcake" / "state"
    assert any(SESSION in p.name for p in state.iterdir()), list(state.iterdir())


@pytest.mark.parametrize("agent", AGENTS)
def test_run_command_placeholders_see_each_agents_command(project, wire, agent, tmp_path):
    seen = tmp_path / f"seen-{agent}.txt"
    project.write_policy(
        textwrap.dedent(
            f"""
            [[policy]]
            name = "log-commands"
            hook_event = "PostToolUse"
            matcher = "Bash"
            action = {{ type = "run_command", command = "sh -c 'printf %s \\"$1\\" > {seen}' x {{{{command}}}}" }}
            """
        )
    )
    w = wire(agent)
    answer = w.send(w.shell("make lint", event="PostToolUse", tool_response="ok"), "PostToolUse")
    assert answer.code == 0, answer
    assert seen.read_text() == "make lint"


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini", "copilot", "droid", "cursor"])
def test_inject_context_reaches_each_agent_where_it_takes_context(project, wire, agent):
    from cupcake.agents import adapter

    project.write_policy(
        textwrap.dedent(
            """
            [[policy]]
            name = "house-rules"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", text = "House rule: small commits." }
            """
        )
    )
    w = wire(agent)
    answer = w.send(w.prompt("hello"), "UserPromptSubmit")
    if adapter(agent).action_supported("context", "UserPromptSubmit"):
        assert "House rule: small commits." in shown(answer, agent), answer
    else:  # the agent cannot take context there: nothing pretends it did
        assert "additionalContext" not in shown(answer, agent)


@pytest.mark.parametrize("agent", AGENTS)
def test_self_protection_stops_each_agents_shell_writing_the_policy_file(project, wire, agent):
    project.write_policy(POLICY)
    w = wire(agent)
    answer = w.send(w.shell("echo '[[policy]]' > cupcake.toml"))
    assert blocked(answer, agent), answer
    assert "Cupcake self-protection" in shown(answer, agent)


@pytest.mark.parametrize("agent", AGENTS)
def test_self_protection_stops_each_agents_file_tool_on_the_policy_file(project, wire, agent):
    project.write_policy(POLICY)
    w = wire(agent)
    answer = w.send(w.write("cupcake.toml", "# gone\n"))
    assert blocked(answer, agent), answer
    assert "Cupcake self-protection" in shown(answer, agent)


CONFIGS = {
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
    "copilot": ".github/hooks/cupcake.json",
    "droid": ".factory/settings.json",
    "cursor": ".cursor/hooks.json",
}


@pytest.mark.parametrize("owner", sorted(CONFIGS))
@pytest.mark.parametrize("agent", ["codex", "gemini", "claude"])
def test_no_agent_may_rewrite_any_agents_hook_configuration(project, wire, agent, owner):
    project.write_policy(POLICY)
    w = wire(agent)
    by_shell = w.send(w.shell(f"echo '{{}}' > {CONFIGS[owner]}"))
    assert blocked(by_shell, agent) and "hook configuration" in shown(by_shell, agent), by_shell
    by_tool = w.send(w.write(CONFIGS[owner], "{}\n"))
    assert blocked(by_tool, agent) and "hook configuration" in shown(by_tool, agent), by_tool


def test_a_codex_patch_touching_the_policy_file_second_is_blocked(project, wire):
    project.write_policy(POLICY)
    w = wire("codex")
    patch = (
        "*** Begin Patch\n*** Update File: README.md\n@@\n-a\n+b\n"
        "*** Update File: cupcake.toml\n@@\n-[[policy]]\n+# gone\n*** End Patch\n"
    )
    payload = w._tool_call("PreToolUse", "write", {"command": patch})
    answer = w.send(payload)
    assert blocked(answer, "codex") and "cupcake.toml" in shown(answer, "codex"), answer


def test_a_cursor_delete_of_the_policy_file_is_blocked(project, wire):
    project.write_policy(POLICY)
    w = wire("cursor")
    payload = w._base()
    payload.update(hook_event_name="preToolUse", tool_name="Delete", tool_input={"path": "cupcake.toml"})
    answer = w.send(payload)
    assert blocked(answer, "cursor"), answer


@pytest.mark.parametrize("agent", AGENTS)
def test_the_audit_record_names_the_agent(project, wire, agent):
    project.write_policy("[settings]\naudit_logging = true\n" + POLICY)
    w = wire(agent)
    w.send(w.shell("rm -rf build"))
    lines = (project.root / ".cupcake" / "audit.log").read_text().splitlines()
    assert json.loads(lines[-1])["agent"] == agent
