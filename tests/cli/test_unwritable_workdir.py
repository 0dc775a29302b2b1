"""A `.cupcake/` that cannot be written (issue 24, item 8): `cupcake audit` says what is wrong instead of
"turn it on", and the hook tells the user once per session and prompt, not on every tool call. Through
the installed executable, each run a fresh process."""

from __future__ import annotations

import subprocess

from tests.conftest import cupcake_executable, give_cache_secret

POLICY = """\
[settings]
audit_logging = true

[[policy]]
name = "No sudo"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "^sudo" }]
action = { type = "block_with_feedback", feedback_message = "No sudo" }
"""
STANDING = (
    "Cupcake: .cupcake/ cannot be written (.cupcake is not a directory; Cupcake does not write through it): no"
    " policy cache, session state or audit trail is kept until a person fixes it (`cupcake doctor` says how)."
    " The policies are still enforced."
)


def _cli(project, *args):
    return subprocess.run(
        [cupcake_executable(), *args], capture_output=True, text=True, cwd=project.root, env=project.env(), timeout=60
    )


def test_audit_says_what_is_wrong(project):
    project.write_policy(POLICY)
    done = _cli(project, "audit")
    assert (done.stdout, done.returncode) == ("", 1)
    assert done.stderr == (
        "No audit log at .cupcake/audit.log yet: audit_logging is on, and no run has been logged so far (a run is"
        " logged when a policy matched, a command ran or something failed; with audit_allows = true, every run is).\n"
    )
    (project.root / ".cupcake").write_text("a file where the folder should be")
    for command in (["audit"], ["audit", "stats"], ["audit", "verify"]):
        done = _cli(project, *command)
        assert (done.stdout, done.returncode) == ("", 1), command
        assert done.stderr.endswith(
            "No audit log at .cupcake/audit.log: audit_logging is on, but .cupcake/ cannot be written (.cupcake is"
            " not a directory; Cupcake does not write through it), so nothing can be logged. Make it a directory"
            " this user can write (`cupcake doctor` checks it).\n"
        ), command
    project.write_policy(POLICY.replace("audit_logging = true", "audit_logging = false"))
    done = _cli(project, "audit")
    assert done.stderr == (
        "No audit log at .cupcake/audit.log. Turn it on with `audit_logging = true` under [settings] in cupcake.toml.\n"
    )


def test_the_hook_tells_the_user_once_per_session_and_prompt_not_on_every_tool_call(project):
    give_cache_secret(project.home)  # as sync leaves it: the policy cache is written, and cannot be
    project.write_policy(POLICY)
    (project.root / ".cupcake").write_text("a file where the folder should be")
    started = project.send_process(project.payload("SessionStart", source="startup"))
    assert started.json == {"systemMessage": STANDING}
    for event in ("PreToolUse", "PostToolUse"):
        answer = project.send_process(project.tool_call("Bash", {"command": "ls"}, event=event))
        assert (answer.stdout, answer.code) == (b"", 0), event
    blocked = project.send_process(project.tool_call("Bash", {"command": "sudo ls"}))
    assert blocked.json == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "Operation blocked: No sudo",
        }
    }
    prompt = project.send_process(project.payload("UserPromptSubmit", prompt="go on"))
    assert prompt.json == {"systemMessage": STANDING}


def test_a_planted_link_is_still_told_on_every_call(project, tmp_path):
    project.write_policy(POLICY)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project.root / ".cupcake").symlink_to(elsewhere)
    answer = project.send_process(project.tool_call("Bash", {"command": "ls"}))
    assert "symbolic link" in answer.json["systemMessage"]
    assert list(elsewhere.iterdir()) == []
