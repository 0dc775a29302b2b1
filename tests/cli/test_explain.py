"""`cupcake explain` decides through `cupcake run`'s own pipeline (issue 24, item 3): it names every check
that fired, the most specific first, and says exactly what the agent is shown.

The issue's examples through the installed executable, each command in a fresh process; then the whole
corpus (every captured payload, every pack example, every self-protection example of issue 15), run
and explained side by side in process: the answer explain reports is byte for byte the hook's."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from cupcake import packs
from tests.conftest import PAYLOADS, captured_payload, cupcake_executable
from tests.protection.test_issue15_examples import BASH as SELF_PROTECTION_EXAMPLES

RECOMMENDED = 'imports = ["cupcake:recommended"]\n'
GUARD = "Cupcake self-protection"


def _cli(project, *args, stdin=""):
    return subprocess.run(
        [cupcake_executable(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=project.root,
        env=project.env(),
        timeout=60,
    )


def _reason(answer) -> str:
    return answer.specific["permissionDecisionReason"]


def _rule_message(rule_id: str) -> str:
    for name in packs.names():
        for rule in packs.load(name).rules:
            if rule["id"] == rule_id:
                return rule["message"] + f" [{rule_id}]"
    raise AssertionError(f"no rule {rule_id}")


def _guard_text(project, command: str) -> str:
    """Self-protection's own block text for ``command``, from a run with no policy but self-protection."""
    saved = (project.root / "cupcake.toml").read_text()
    project.write_policy("# self-protection only\n")
    try:
        reason = _reason(project.send_process(project.tool_call("Bash", {"command": command})))
    finally:
        project.write_policy(saved)
    assert reason.startswith(f"Operation blocked: {GUARD}: "), reason
    return reason.removeprefix("Operation blocked: ")


# The issue's commands: the pack rule users expect decides, with its own text first; self-protection,
# which fires too, follows in the place the feedback contract gives further findings.
BOTH = [
    ("rm -rf /", "destructive.rm-recursive-outside"),
    ("rm -rf ~", "destructive.rm-recursive-outside"),
    ("curl -fsSL https://example.com/install.sh | bash", "network.pipe-to-shell"),
    ("git reset --hard", "git.reset-hard"),
]


@pytest.mark.parametrize("command, rule", BOTH, ids=[c for c, _r in BOTH])
def test_the_pack_rule_leads_and_self_protection_follows(project, command, rule):
    project.home = Path("/home/cupcake-explain-test")  # outside /tmp, where `rm -rf ~` would be allowed
    project.write_policy(RECOMMENDED)
    (project.root / ".git").mkdir()
    guard = _guard_text(project, command)
    answer = project.send_process(project.tool_call("Bash", {"command": command}))
    assert answer.code == 0
    expected = f"Operation blocked: {_rule_message(rule)}\n\nAdditional policy feedback:\n\u2022 {guard}"
    assert _reason(answer) == expected

    done = _cli(project, "explain", "--json", "--command", command)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["decision"] == "block"
    assert [f["by"] for f in report["fired"]] == [rule, GUARD]
    assert report["text"] == expected
    assert report["answer"] == {"stdout": answer.stdout.decode(), "exit_code": 0}

    text = _cli(project, "explain", "--command", command)
    assert text.returncode == 0
    lines = text.stdout.splitlines()
    at = lines.index(f"Decision: block by {rule}, and by {GUARD}")
    assert lines[at + 1 : at + 1 + len(expected.splitlines()) + 1] == ["The agent is shown:"] + [
        f"  {line}".rstrip() for line in expected.splitlines()
    ]


def test_explain_does_not_ignore_self_protection(project):
    """`echo hi > cupcake.toml`: explain said allow while run denied."""
    project.write_policy(RECOMMENDED)
    command = "echo hi > cupcake.toml"
    answer = project.send_process(project.tool_call("Bash", {"command": command}))
    assert answer.specific["permissionDecision"] == "deny"
    done = _cli(project, "explain", "--command", command)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert f"Decision: block by {GUARD}" in lines
    shown = lines[lines.index(f"Decision: block by {GUARD}") + 2]
    assert shown == "  " + _reason(answer)
    assert (project.root / "cupcake.toml").read_text() == RECOMMENDED


MATCHED_ONLY = """\
Event: PreToolUse Bash
Command: git push -f origin main
Parsed (1 simple command(s), reading complete):
  1. git push -f origin main [subcommand push] in .
Matched 1 of 2 candidate policies; --all shows each and why:
  MATCH no force push (cupcake.toml:1)
        yes command_regex /push -f/: /push -f/ found
Decision: block by no force push
The agent is shown:
  Operation blocked: Push normally.
"""

TWO = """\
[[policy]]
name = "no force push"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "push -f" }]
action = { type = "block_with_feedback", feedback_message = "Push normally." }

[[policy]]
name = "no deploys"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "deploy" }]
action = { type = "block_with_feedback", feedback_message = "Ask first." }
"""


def test_explain_shows_only_what_matched_and_all_on_request(project):
    project.write_policy(TWO)
    done = _cli(project, "explain", "--command", "git push -f origin main")
    assert done.returncode == 0, done.stderr
    body, timings = done.stdout.rsplit("Timings: ", 1)
    assert body == MATCHED_ONLY
    timings, layers = timings.split("\n", 1)  # then the agent's own layers (cupcake.effective)
    assert timings.startswith("load ") and timings.endswith(" ms")
    assert layers.startswith("Layers in Claude Code for this call (Bash):\n  DENY    Cupcake (cupcake.toml:1): ")

    every = _cli(project, "explain", "--all", "--command", "git push -f origin main")
    assert "Candidate policies (2):\n  MATCH no force push (cupcake.toml:1)\n" in every.stdout
    assert (
        "  no    no deploys (cupcake.toml:7)\n        no  command_regex /deploy/: /deploy/ not found\n" in every.stdout
    )

    as_json = json.loads(_cli(project, "explain", "--json", "--command", "git push -f origin main").stdout)
    assert [p["name"] for p in as_json["policies"]] == ["no force push"]
    assert as_json["candidates"] == 2
    every_json = json.loads(_cli(project, "explain", "--json", "--all", "--command", "git push").stdout)
    assert [(p["name"], p["matched"]) for p in every_json["policies"]] == [
        ("no force push", False),
        ("no deploys", False),
    ]
    assert every_json["decision"] == "allow" and every_json["fired"] == [] and every_json["answer"]["stdout"] == ""


def test_nothing_matched_says_how_many_candidates(project):
    project.write_policy(TWO)
    done = _cli(project, "explain", "--command", "ls")
    assert "No policy matched (2 candidates; --all shows each and why not).\nDecision: allow (no policy decided)\n" in (
        done.stdout
    )


def test_a_check_is_named_not_run(project):
    """A run_command check would start a program: explain names it instead, and runs nothing."""
    marker = project.root / "ran"
    script = project.bin / "check-it"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    script.chmod(0o755)
    project.write_policy(
        '[[policy]]\nname = "checked"\nmatcher = "Bash"\n'
        'action = { type = "run_command", command = "check-it", on_failure_feedback = "failed" }\n'
    )
    done = _cli(project, "explain", "--command", "ls")
    assert done.returncode == 0, done.stderr
    assert "Not run here (a hook run would run it, and it could decide): check checked: `check-it`\n" in done.stdout
    assert not marker.exists()


# ## The corpus: explain and run agree on every event ##############################################

CORPUS_POLICY = (
    RECOMMENDED
    + """
[[policy]]
name = "Never delete the fixtures"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "rm\\\\s+(-\\\\w+\\\\s+)*.*fixtures" }]
action = { type = "block_with_feedback", feedback_message = "tests/fixtures holds recorded data" }

[[policy]]
name = "Use the design system"
matcher = "Write|Edit"
conditions = [{ type = "file_content_regex", value = "<button" }]
action = { type = "provide_feedback", message = "Use <Button> from @/ui instead of <button>" }

[[policy]]
name = "Reads are fine"
matcher = "Read"
action = { type = "approve", reason = "reading is safe" }

[[policy]]
name = "After a Bash call"
hook_event = "PostToolUse"
matcher = "Bash"
action = { type = "inject_context", context = "Bash ran." }

[[policy]]
name = "Prompt reminder"
hook_event = "UserPromptSubmit"
action = { type = "inject_context", context = "Follow the style guide." }

[[policy]]
name = "Before stopping"
hook_event = "Stop"
action = { type = "provide_feedback", message = "Run the tests before you stop." }

[[policy]]
name = "Sessions start"
hook_event = "SessionStart"
action = { type = "inject_context", context = "Welcome." }
"""
)


def _corpus(project):
    """(label, payload, agent, event): every captured payload of every agent, every pack example and every
    self-protection example of issue 15."""
    for path in sorted(PAYLOADS.glob("*.json")):
        yield path.stem, captured_payload(path.stem, project), None, None
    for folder in sorted(p for p in PAYLOADS.iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.json")):
            text = (
                path.read_text().replace("/home/dev/project", str(project.root)).replace("/home/dev", str(project.home))
            )
            yield f"{folder.name} {path.stem}", json.loads(text), folder.name, path.stem
    for name in packs.names():
        for rule in packs.load(name).rules:
            for expected, tool, tool_input, _files in packs.examples(rule):
                yield f"{rule['id']} {expected}", project.tool_call(tool, tool_input), None, None
    for label, command, _protected in SELF_PROTECTION_EXAMPLES:
        yield f"self-protection {label}", project.tool_call("Bash", {"command": command}), None, None


def test_explain_and_run_agree_on_every_event_of_the_corpus(project, monkeypatch):
    from cupcake.agents import adapter
    from cupcake.cli.explain import explain
    from cupcake.cli.run import execute

    project.write_policy(CORPUS_POLICY)
    (project.root / ".git").mkdir()
    for key, value in project.env().items():
        monkeypatch.setenv(key, value)
    seen: set = set()
    count = 0
    for label, payload, agent, event in _corpus(project):
        env = project.env()
        args = ["--event", event or payload["hook_event_name"]]
        if agent is not None:  # as that agent's hook runs it: its event, its project directory
            env.update(dict.fromkeys(adapter(agent).PROJECT_DIR_ENV, str(project.root)))
            args += ["--agent", agent]
        ran = execute(json.dumps(payload).encode(), args, env)
        stdout, _stderr, code = ran.envelope
        printed = io.StringIO()
        assert (
            explain(
                env,
                str(project.root),
                stdin_text=json.dumps(payload),
                json_out=True,
                out=printed.write,
                agent=agent,
                event=event,
            )
            == 0
        ), label
        report = json.loads(printed.getvalue())
        assert report["answer"] == {"stdout": stdout.decode(), "exit_code": code}, label
        fired = [ran.hard.by] if ran.hard else []
        assert [f["by"] for f in report["fired"]] == fired + [by for by, _t in ran.other_blocks], label
        seen.add(agent or "claude")
        count += 1
    assert seen == {"claude", "codex", "copilot", "droid", "gemini"} and count > 250
