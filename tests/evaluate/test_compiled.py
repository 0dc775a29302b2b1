"""The compiled form is read by name: the views name exactly the fields the compiler writes."""

from __future__ import annotations

from cupcake.compile.compiler import compile_files
from cupcake.evaluate.compiled import Action, Policy

POLICIES = """
[[policy]]
name = "No force push"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "push.*--force" }]
action = { type = "block_with_feedback", feedback_message = "Push without --force" }

[[policy]]
name = "Tests pass"
hook_event = "PostToolUse"
matcher = "Write|Edit"
action = { type = "run_command", command = "pytest -q", on_failure = "feedback", on_failure_feedback = "Fix: {{stderr}}" }

[[policy]]
name = "Style"
hook_event = "UserPromptSubmit"
action = { type = "inject_context", text = "Use pnpm." }
"""


def test_each_field_of_a_compiled_policy_and_its_action_by_name(tmp_path):
    (tmp_path / "cupcake.toml").write_text(POLICIES)
    compiled = compile_files([str(tmp_path / "cupcake.toml")], str(tmp_path), {"HOME": str(tmp_path)})
    block, check, context = (Policy(p) for p in compiled["policies"])
    assert (block.name, block.event, block.file, block.line) == ("No force push", "PreToolUse", "cupcake.toml", 2)
    assert block.tools == ("names", ("Bash",)) and len(block.conditions) == 1
    assert (block.action.kind, block.action.text, block.action.blocks) == ("block", "Push without --force", True)
    assert (check.event, check.action.kind, check.action.on_failure) == ("PostToolUse", "check", "feedback")
    assert check.action.spec["command"] == "pytest -q" and check.action.template == "Fix: {{stderr}}"
    assert check.action.blocks is False
    assert (context.action.kind, context.action.source, context.action.value) == ("context", "text", "Use pnpm.")


def test_a_view_is_the_tuple_the_cache_stores():
    stored = ("n", "PreToolUse", None, (), ("approve", ""), "cupcake.toml", 3)
    policy = Policy(stored)
    assert policy == stored and isinstance(policy.action, Action) and policy.action.kind == "approve"
