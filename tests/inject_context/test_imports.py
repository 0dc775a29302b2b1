"""Context and evaluator feedback keep the warm path lean: a run that needs neither imports neither."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import give_cache_secret

POLICY = """
[settings.eval_feedback]
events = ["SessionStart"]
blocking = true

[[policy]]
name = "Rules"
hook_event = "UserPromptSubmit"
action = { type = "inject_context", text = "Use pnpm." }

[[policy]]
name = "Docs"
hook_event = "PostToolUse"
action = { type = "inject_context", file = "docs/rules.md" }
"""

# The checker (`run_command.check`) is on the warm path; the executor is not.
WATCHED = (
    "cupcake.inject_context",
    "cupcake.evaluator_findings",
    "cupcake.run_command.execute",
    "cupcake.run_command.argv",
    "subprocess",
)


def warm_run(project, payload: dict) -> tuple[str, list[str]]:
    """The answer of a warm run in a fresh interpreter, and which watched modules it imported."""
    raw = json.dumps(payload).encode()
    event = payload["hook_event_name"]
    project.send_process(payload)  # builds the policy cache
    probe = (
        "import sys, os; from cupcake.cli.run import execute; "
        f"ctx = execute({raw!r}, ['--event', {event!r}], dict(os.environ)); "
        "print(ctx.envelope[0].decode().strip() or '-'); "
        f"print(' '.join(sorted(m for m in sys.modules if m.startswith({WATCHED!r}))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=project.env(), timeout=30, cwd=project.root
    )  # imports the installed Cupcake, as the executable does
    lines = done.stdout.splitlines()
    assert len(lines) == 2, done.stderr
    return lines[0], lines[1].split()


@pytest.fixture
def configured(project):
    give_cache_secret(project.home)  # as sync leaves it: the runs are warm
    project.write_policy(POLICY)
    (project.root / "logs" / "evals").mkdir(parents=True)
    (project.root / "logs" / "evals" / "eval-1.json").write_text('{"integration_quality": "major_issues"}')
    return project


def test_a_run_with_nothing_to_inject_imports_nothing_new(configured):
    answer, imported = warm_run(configured, configured.tool_call("Bash", {"command": "ls"}))
    assert answer == "-"
    assert imported == []


def test_a_text_context_is_injected_without_importing_anything_new(configured):
    answer, imported = warm_run(configured, configured.payload("UserPromptSubmit", prompt="hi"))
    assert "Use pnpm." in answer
    assert imported == []


def test_the_blocking_gate_is_read_only_for_tools_that_write(configured):
    answer, imported = warm_run(configured, configured.tool_call("Write", {"file_path": "a.ts", "content": ""}))
    assert '"permissionDecision":"deny"' in answer
    assert [m for m in imported if m.startswith("cupcake.evaluator_findings")], imported
    assert "subprocess" not in imported
