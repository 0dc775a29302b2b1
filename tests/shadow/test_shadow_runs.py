"""Shadow runs through the installed executable: the candidate and observed policies change nothing the
agent gets, are recorded where they differ, never break the enforced set, and cost nothing when absent."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import cupcake_executable, give_cache_secret

ENFORCED = """
[[policy]]
name = "no-force-push"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "git push --force" }]
action = { type = "block_with_feedback", feedback_message = "Push without --force." }
"""

SHADOW = '[shadow]\ncandidate = "cupcake.candidate.toml"\n'


def _log(project) -> list[dict]:
    path = project.root / ".cupcake" / "shadow.log"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_the_agent_gets_the_same_bytes_with_or_without_a_candidate(project):
    commands = ["git push --force", "git reset --hard HEAD~1", "ls", "git clean -fdx && rm -rf /tmp/x"]
    project.write_policy(ENFORCED)
    without = [project.send_process(project.tool_call("Bash", {"command": c})) for c in commands]
    project.write_policy(SHADOW + ENFORCED)
    (project.root / "cupcake.candidate.toml").write_text('imports = ["cupcake:recommended"]\n')
    shadowed = [project.send_process(project.tool_call("Bash", {"command": c})) for c in commands]
    assert [(a.stdout, a.stderr, a.code) for a in shadowed] == [(a.stdout, a.stderr, a.code) for a in without]
    recorded = _log(project)
    assert [r["input"]["command"] for r in recorded] == [c for c in commands if c != "ls"]  # "ls": alike
    assert recorded[0]["enforced"] == {"decision": "block", "policy": "no-force-push", "matched": ["no-force-push"]}
    assert recorded[0]["candidate"]["policy"] == "git.force-push"


def test_a_broken_candidate_never_puts_an_enforced_policy_out_of_service(project):
    project.write_policy(SHADOW + ENFORCED)
    (project.root / "cupcake.candidate.toml").write_text('[[policy]]\nname = "x"\naction = { type = "nope" }\n')
    answer = project.send_process(project.tool_call("Bash", {"command": "git push --force"}))
    assert answer.specific["permissionDecisionReason"] == "Operation blocked: Push without --force."
    assert "systemMessage" not in answer.json  # no out-of-service report: the candidate is not enforced
    done = subprocess.run(
        [cupcake_executable(), "validate"], cwd=project.root, env=project.env(), capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "cupcake.candidate.toml" in done.stdout and "(shadow candidate)" in done.stdout


def test_a_missing_candidate_is_an_error_of_cupcake_toml_that_enforces_nothing_less(project):
    project.write_policy(SHADOW + ENFORCED)
    answer = project.send_process(project.tool_call("Bash", {"command": "git push --force"}))
    assert answer.specific["permissionDecisionReason"] == "Operation blocked: Push without --force."
    done = subprocess.run(
        [cupcake_executable(), "validate"], cwd=project.root, env=project.env(), capture_output=True, text=True
    )
    assert "cupcake.toml:2: error: [shadow]: the candidate cupcake.candidate.toml does not exist" in done.stdout


def test_what_a_shadow_evaluation_cannot_know_is_said_not_guessed(project):
    project.write_policy(SHADOW + ENFORCED)
    (project.root / "cupcake.candidate.toml").write_text(
        '[[policy]]\nname = "tests-pass"\nmatcher = "Bash"\n'
        'action = { type = "run_command", command = "false", on_failure = "block" }\n'
    )
    answer = project.send_process(project.tool_call("Bash", {"command": "echo hi"}))
    assert answer.stdout == b""
    [line] = _log(project)
    assert line["unknown"] == ["tests-pass: its run_command is not run in a shadow evaluation"]
    assert not (project.root / "ran").exists()


def test_observed_policies_of_every_kind_are_recorded_never_answered(project):
    project.write_policy(
        "\n".join(
            f'[[policy]]\nname = "{kind}"\nmode = "observe"\nmatcher = "Bash"\naction = {action}\n'
            for kind, action in (
                ("ask", '{ type = "ask", reason = "sure?" }'),
                ("approve", '{ type = "approve" }'),
                ("feedback", '{ type = "provide_feedback", message = "hm" }'),
            )
        )
    )
    answer = project.send_process(project.tool_call("Bash", {"command": "echo hi"}))
    assert answer.stdout == b"" and answer.code == 0
    assert _log(project)[-1]["observed"] == {"ask": "ask", "approve": "approve", "feedback": "feedback"}


def test_a_changed_candidate_is_read_again(project):
    project.write_policy(SHADOW + ENFORCED)
    candidate = project.root / "cupcake.candidate.toml"
    candidate.write_text('imports = ["cupcake:git"]\n')
    project.send_process(project.tool_call("Bash", {"command": "git reset --hard"}))
    assert len(_log(project)) == 1
    candidate.write_text("# nothing yet\n")
    os.utime(candidate, ns=(1, 1))  # the same size is no excuse: the cache watches the file's identity
    project.send_process(project.tool_call("Bash", {"command": "git push --force"}))
    assert _log(project)[-1]["candidate"] == {"decision": "allow", "policy": None, "matched": []}


def test_no_candidate_means_the_shadow_code_is_never_loaded_by_a_warm_run(project):
    give_cache_secret(project.home)  # as sync leaves it: without it no run is warm
    project.write_policy(ENFORCED)
    project.send_process(project.tool_call("Bash", {"command": "ls"}))  # the cold run builds the cache
    payload = json.dumps(project.tool_call("Bash", {"command": "git push --force"}))
    code = (
        "import sys, json\n"
        "from cupcake.cli.run import execute\n"
        f"ctx = execute({payload!r}.encode(), ['--event', 'PreToolUse'], {project.env()!r})\n"
        "print(json.dumps([ctx.envelope[0].decode(), sorted(m for m in sys.modules if 'shadow' in m)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=project.root, timeout=60)
    answer, loaded = json.loads(done.stdout)
    assert "Push without --force." in answer
    assert loaded == []


def test_the_shadow_log_stays_bounded(project, monkeypatch):
    from cupcake.shadow import log

    monkeypatch.setattr(log, "MAX_BYTES", 400)
    for n in range(12):
        log.append(str(project.root), json.dumps({"n": n, "pad": "x" * 50}))
    current = project.root / ".cupcake" / "shadow.log"
    assert current.stat().st_size <= 400 and (project.root / ".cupcake" / "shadow.log.1").stat().st_size <= 400
    assert [r["n"] for r in log.read(str(project.root))][-1] == 11


def test_the_shadow_evaluation_is_a_built_in_that_can_be_turned_off(project):
    """It has its place in the order table: `shadow_evaluation = false` turns it off, and with no
    candidate (nothing planned it) the same line changes nothing."""
    off = "[pipeline.systems]\nshadow_evaluation = false\n"
    project.write_policy(off + ENFORCED)
    answer = project.send_process(project.tool_call("Bash", {"command": "git push --force"}))
    assert answer.specific["permissionDecisionReason"] == "Operation blocked: Push without --force."
    assert "systemMessage" not in answer.json
    project.write_policy(SHADOW + off + ENFORCED)
    (project.root / "cupcake.candidate.toml").write_text('imports = ["cupcake:recommended"]\n')
    answer = project.send_process(project.tool_call("Bash", {"command": "git push --force"}))
    assert answer.specific["permissionDecisionReason"] == "Operation blocked: Push without --force."
    assert "systemMessage" not in answer.json
    assert _log(project) == []
    project.write_policy(SHADOW + ENFORCED)
    project.send_process(project.tool_call("Bash", {"command": "git push --force"}))
    assert [r["candidate"]["policy"] for r in _log(project)] == ["git.force-push"]
