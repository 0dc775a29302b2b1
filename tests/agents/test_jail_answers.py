"""The OS layer's answer in each agent's own shape (rewrite-verified.md): the shell call's whole input
repeated with ``command`` replaced by the jailed one, the decision as the policies took it (an explicit
allow where the agent applies a rewrite only with one: Codex, and Cursor as documented), blocks and
soft feedback unchanged, context and errors still said. Exact bytes for every decision, then the same
through a whole run of each agent's captured payload."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cupcake.agents import adapter
from cupcake.cli.run import execute
from cupcake.jail import unwrap
from cupcake.pipeline.response import Response

from .conftest import RESPONSES, lines, out

FIXTURES = Path(__file__).parent.parent / "fixtures" / "payloads"
JAILED = "'/usr/bin/python3' -I -S 'launch.py' 'spec' ff '/bin/bash' 'echo hi'"


def jailed(name: str) -> Response:
    r = RESPONSES[name]
    return Response(r.decision, r.text, r.soft_text, r.reason, r.context, r.fail_closed, JAILED)


def shell_payload(agent: str) -> dict:
    if agent == "claude":
        raw = json.loads((FIXTURES / "PreToolUse.Bash.json").read_text())
    elif agent == "cursor":
        raw = next(p for p in lines("cursor", "documented.jsonl") if p.get("tool_name") == "Shell")
    else:
        name = {"gemini": "BeforeTool", "copilot": "preToolUse"}.get(agent, "PreToolUse")
        raw = json.loads((FIXTURES / agent / f"{name}.json").read_text())
    event_arg = {"copilot": "preToolUse"}.get(agent)
    return adapter(agent).parse(raw, event_arg, {})[1]


def with_command(tool_input: dict) -> dict:
    return {**tool_input, "command": JAILED}


def answers(new: dict) -> dict:
    """{agent: {decision: what it prints}} with the jailed command's input ``new``: a decision an agent
    is missing from here is one it never gets with a rewrite (an ask: the OS layer blocks it instead)."""
    claude_like = {
        "none": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": new}},
        "approve": {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "trusted",
                "updatedInput": new,
            }
        },
        "context": {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "updatedInput": new,
                "additionalContext": "House rules",
            }
        },
        "error_open": {
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": new},
            "systemMessage": "Cupcake: broken",
        },
    }
    table = {
        "claude": {
            **claude_like,
            "ask": {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "ask",
                    "permissionDecisionReason": "confirm?",
                    "updatedInput": new,
                }
            },
        },
        "droid": {
            **claude_like,
            "context": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": new}},
        },
        "codex": {
            "none": {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "allow",
                    "updatedInput": new,
                }
            },
            "approve": {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "allow",
                    "updatedInput": new,
                }
            },
            "context": {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "allow",
                    "updatedInput": new,
                    "additionalContext": "House rules",
                }
            },
            "error_open": {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "allow",
                    "updatedInput": new,
                },
                "systemMessage": "Cupcake: broken",
            },
        },
        "gemini": {
            "none": {"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": new}},
            "approve": {
                "decision": "allow",
                "reason": "trusted",
                "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": new},
            },
            "context": {"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": new}},
            "error_open": {
                "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": new},
                "systemMessage": "Cupcake: broken",
            },
        },
        "copilot": {
            "none": {"modifiedArgs": new},
            "approve": {"permissionDecision": "allow", "permissionDecisionReason": "trusted", "modifiedArgs": new},
            "context": {"additionalContext": "House rules", "modifiedArgs": new},
            "error_open": ({"modifiedArgs": new}, "Cupcake: broken"),
        },
        "cursor": {
            "none": {"permission": "allow", "updated_input": new},
            "approve": {"permission": "allow", "updated_input": new},
            "context": {"permission": "allow", "updated_input": new},
            "error_open": {"permission": "allow", "updated_input": new, "user_message": "Cupcake: broken"},
        },
    }
    return table


def expected(agent: str, name: str, tool_input: dict):
    """What ``agent`` must print for decision ``name`` with the jailed command."""
    found = answers(with_command(tool_input))[agent][name]
    if isinstance(found, tuple):
        return out(found[0], err=found[1])
    return out(found)


AGENTS = ("claude", "codex", "gemini", "copilot", "droid", "cursor")
ALLOWING = ("none", "approve", "ask", "context", "error_open")
# Each agent with each decision it can carry with a rewrite; the others' asks are blocked (tested below).
CARRIED = [(agent, name) for agent in AGENTS for name in ALLOWING if name in answers({})[agent]]
NO_ASK_WITH_REWRITE = [agent for agent in AGENTS if "ask" not in answers({})[agent]]


def test_every_agent_carries_what_allows_a_call_except_an_ask():
    """Claude Code alone can ask the person and run the jailed command; the others block instead."""
    assert NO_ASK_WITH_REWRITE == ["codex", "gemini", "copilot", "droid", "cursor"]
    assert [(agent, name) for agent in AGENTS for name in ALLOWING if (agent, name) not in CARRIED] == [
        (agent, "ask") for agent in NO_ASK_WITH_REWRITE
    ]


@pytest.mark.parametrize("agent, name", CARRIED)
def test_a_jailed_call_in_the_agents_own_shape(agent, name):
    payload = shell_payload(agent)
    want = expected(agent, name, payload["tool_input"])
    assert adapter(agent).render("PreToolUse", payload, jailed(name), ()) == want


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("name", ["block", "soft", "error_closed"])
def test_what_blocks_stays_a_block_and_carries_no_rewrite(agent, name):
    payload = shell_payload(agent)
    with_rewrite = adapter(agent).render("PreToolUse", payload, jailed(name), ())
    without = adapter(agent).render("PreToolUse", payload, RESPONSES[name], ())
    assert with_rewrite == without
    assert b"JAILED" not in with_rewrite[0] and JAILED.encode() not in with_rewrite[0]


# ## A whole run, each agent's captured shell call ##################################################


def _run(agent, raw: dict, project, extra=("--jail",), policy: str | None = None):
    if policy is not None:
        project.write_policy(policy)
    event = {"gemini": "BeforeTool", "copilot": "preToolUse", "cursor": "preToolUse"}.get(agent, "PreToolUse")
    ctx = execute(json.dumps(raw).encode(), ["--event", event, "--agent", agent, *extra], project.env())
    return ctx.envelope


def _raw(agent: str, project) -> dict:
    if agent == "claude":
        text = (FIXTURES / "PreToolUse.Bash.json").read_text()
    elif agent == "cursor":
        text = json.dumps(next(p for p in lines("cursor", "documented.jsonl") if p.get("tool_name") == "Shell"))
        text = text.replace("<workspace>/proj", str(project.root)).replace("rm -rf build", "ls -la")
    else:
        name = {"gemini": "BeforeTool", "copilot": "preToolUse"}.get(agent, "PreToolUse")
        text = (FIXTURES / agent / f"{name}.json").read_text()
    text = text.replace("/home/dev/project", str(project.root)).replace("/home/dev", str(project.home))
    return json.loads(text)


def _rewritten_command(agent: str, stdout: bytes) -> str | None:
    answer = json.loads(stdout) if stdout.strip() else {}
    found = (
        answer.get("hookSpecificOutput", {}).get("updatedInput")
        or answer.get("hookSpecificOutput", {}).get("tool_input")
        or answer.get("modifiedArgs")
        or answer.get("updated_input")
    )
    return found.get("command") if found else None


@pytest.mark.skipif(shutil.which("bwrap") is None and not Path("/usr/bin/bwrap").exists(), reason="needs bubblewrap")
@pytest.mark.parametrize("agent", AGENTS)
def test_each_agents_shell_call_comes_back_jailed(agent, project):
    raw = _raw(agent, project)
    original = (raw.get("tool_input") or raw.get("toolArgs"))["command"]
    stdout, stderr, code = _run(agent, raw, project, policy="")
    assert code == 0, stderr
    command = _rewritten_command(agent, stdout)
    assert command is not None, stdout
    assert unwrap.inner(command, str(project.root)) == original
    assert f"--agent {agent} " in command
    again, _, _ = _run(agent, {**raw, **_with_input(agent, raw, command)}, project, policy=None)
    assert _rewritten_command(agent, again) is None  # asked again for the very same jail: left as it is


def _with_input(agent: str, raw: dict, command: str) -> dict:
    key = "toolArgs" if "toolArgs" in raw else "tool_input"
    return {key: {**raw[key], "command": command}}


@pytest.mark.parametrize("agent", NO_ASK_WITH_REWRITE)
def test_an_ask_the_agent_cannot_carry_with_a_rewrite_is_blocked(agent, project):
    policy = (
        '[[policy]]\nname = "confirm"\nmatcher = "Bash"\naction = { type = "ask", reason = "Deploys need a person" }\n'
    )
    stdout, _, _ = _run(agent, _raw(agent, project), project, policy=policy)
    text = stdout.decode()
    assert "Deploys need a person" in text
    assert "cannot ask and also run the command in Cupcake's jail, so it is blocked" in text
    assert _rewritten_command(agent, stdout) is None


def test_without_the_layer_nothing_is_rewritten(project):
    for agent in AGENTS:
        stdout, _, _ = _run(agent, _raw(agent, project), project, extra=(), policy="")
        assert _rewritten_command(agent, stdout) is None, agent
