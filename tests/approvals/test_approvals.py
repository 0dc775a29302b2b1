"""Approvals only a person can give, through the installed executable: the code goes to the user's
channel only, the store keeps no code, wrong codes are bounded, a grant covers exactly one call, and
what the agent can try (the command, a write to the store, a forged grant) fails."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.conftest import cupcake_executable

POLICY = """
[[policy]]
name = "no-force-push"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "git push --force" }]
action = { type = "block_with_feedback", feedback_message = "Push without --force." }
"""
CODE = re.compile(r"cupcake allow ([0-9A-Z]{4}-[0-9A-Z]{4})")


@pytest.fixture
def guarded(project):
    project.write_policy(POLICY)
    person(project, "validate")  # a person's command: it creates the per-user secret
    return project


def person(project, *args, check=False):
    """The person runs `cupcake …` in their own terminal (the installed executable)."""
    done = subprocess.run(
        [cupcake_executable(), *args], cwd=project.root, env=project.env(), capture_output=True, text=True, timeout=60
    )
    assert not check or done.returncode == 0, done
    return done


def blocked(project, command="git push --force", agent=None, cwd=None):
    payload = project.tool_call("Bash", {"command": command, "description": "push"})
    if cwd is not None:
        payload["cwd"] = str(cwd)
    args = ["--event", "PreToolUse"] + (["--agent", agent] if agent else [])
    return project.send_process(payload, args=args)


def offered(project) -> list:
    """The pending entries blocked calls appended to the offers file, one JSON object a line."""
    text = (project.root / ".cupcake" / "approval-offers.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def store_of(project) -> dict:
    path = project.root / ".cupcake" / "approvals.json"
    return json.loads(path.read_text()) if path.exists() else {"v": 1, "pending": [], "grants": [], "wrong": []}


def code_of(answer) -> str:
    found = CODE.search(answer.json["systemMessage"])
    assert found, answer
    return found.group(1)


def test_the_code_is_in_the_users_channel_and_never_in_what_the_model_reads(guarded):
    answer = blocked(guarded)
    code = code_of(answer)
    assert answer.specific == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "Operation blocked: Push without --force.",
    }
    assert code not in json.dumps(answer.specific) and code.replace("-", "") not in answer.stdout.decode().replace(
        code, ""
    )


def test_the_store_keeps_no_code_only_keyed_hashes(guarded):
    code = code_of(blocked(guarded))
    everything = b"".join(p.read_bytes() for p in (guarded.root / ".cupcake").rglob("*") if p.is_file())
    for form in (code, code.replace("-", ""), code.lower()):
        assert form.encode() not in everything


def test_a_person_lets_the_exact_call_through_once(guarded):
    code = code_of(blocked(guarded))
    done = person(guarded, "allow", code, check=True)
    assert "Allowed once: Bash `git push --force`, which no-force-push blocks" in done.stdout
    again = blocked(guarded)
    assert again.specific["permissionDecision"] == "allow"
    assert "let through by your approval (once) of no-force-push" in again.json["systemMessage"]
    assert blocked(guarded).specific["permissionDecision"] == "deny"  # once is once


def test_a_grant_covers_that_call_only(guarded):
    person(guarded, "allow", code_of(blocked(guarded)), "--for", "1h", check=True)
    assert blocked(guarded, "git push --force origin main").specific["permissionDecision"] == "deny"
    sub = guarded.root / "sub"
    sub.mkdir()
    assert blocked(guarded, cwd=sub).specific["permissionDecision"] == "deny"  # another directory, another call
    assert blocked(guarded).specific["permissionDecision"] == "allow"
    assert blocked(guarded).specific["permissionDecision"] == "allow"  # for an hour: again and again


def test_always_needs_a_reason_and_records_it(guarded):
    code = code_of(blocked(guarded))
    done = person(guarded, "allow", code, "--always")
    assert done.returncode == 1 and "--always needs --reason" in done.stderr
    person(guarded, "allow", code, "--always", "--reason", "the release job pushes tags", check=True)
    listed = json.loads(person(guarded, "allow", "--list", "--json", check=True).stdout)
    assert [(g["scope"], g["reason"]) for g in listed["grants"]] == [("always", "the release job pushes tags")]
    assert "seal" not in listed["grants"][0] and "code" not in json.dumps(listed["pending"])


def test_wrong_codes_are_bounded_then_every_pending_code_is_withdrawn(guarded):
    code = code_of(blocked(guarded))
    for n in range(5):
        done = person(guarded, "allow", f"ZZZZ-ZZZ{n}")
        assert done.returncode == 1 and "no pending approval has this code" in done.stderr
    assert "every pending code is withdrawn" in done.stderr
    done = person(guarded, "allow", code)
    assert done.returncode == 1 and "too many wrong codes" in done.stderr
    assert blocked(guarded).specific["permissionDecision"] == "deny"


def test_a_grant_written_without_the_secret_is_ignored(guarded):
    code_of(blocked(guarded))
    store = guarded.root / ".cupcake" / "approvals.json"
    data = store_of(guarded)
    forged = dict(offered(guarded)[0], scope="always", until=None, by="agent", at=0, reason="trust me")
    forged["seal"] = "0" * 64
    data["grants"].append(forged)
    store.write_text(json.dumps(data))
    assert blocked(guarded).specific["permissionDecision"] == "deny"


def test_forged_entries_carried_through_later_blocks_grant_nothing(guarded):
    """A blocked call adds its code without checking the others' seals (the hot path): what it carries
    along is still checked wherever it is used, by the hook and by `cupcake allow`."""
    code_of(blocked(guarded))
    store = guarded.root / ".cupcake" / "approvals.json"
    data = store_of(guarded)
    first = offered(guarded)[0]
    forged = dict(first, scope="always", until=None, by="agent", at=0, reason="trust me")
    forged["seal"] = "0" * 64
    data["grants"].append(forged)
    data["pending"] += [first, dict(first, id="f0f0f0", code="0" * 64, seal="0" * 64)]
    store.write_text(json.dumps(data))
    for _ in range(3):
        assert blocked(guarded).specific["permissionDecision"] == "deny"
    assert json.loads(store.read_text()) == data  # a blocked call only appends its code
    assert len(offered(guarded)) == 4  # the first, and 3 new codes
    done = person(guarded, "allow", "ZZZZ-ZZZZ")
    assert done.returncode == 1 and "no pending approval has this code" in done.stderr
    assert blocked(guarded).specific["permissionDecision"] == "deny"


def test_an_offered_code_moved_among_the_grants_grants_nothing(guarded):
    code_of(blocked(guarded))
    store = guarded.root / ".cupcake" / "approvals.json"
    data = store_of(guarded)
    first = offered(guarded)[0]
    data["grants"] = [dict(first, scope="once")] + [first]  # its own, valid seal
    store.write_text(json.dumps(data))
    assert blocked(guarded).specific["permissionDecision"] == "deny"


def test_every_grant_and_every_use_is_in_the_audit_trail_even_with_audit_logging_off(guarded):
    person(guarded, "allow", code_of(blocked(guarded)), check=True)
    blocked(guarded)
    records = [json.loads(line) for line in (guarded.root / ".cupcake" / "audit.log").read_text().splitlines()]
    assert [(r["event"], r["decision"], r["policy"]) for r in records] == [
        ("ApprovalGranted", "approve", "no-force-push"),
        ("PreToolUse", "approve", "cupcake allow"),
    ]
    assert "used a person's approval (once) of no-force-push" in records[1]["notes"]["cupcake.approvals"][0]
    assert person(guarded, "audit", "verify").returncode == 0


def test_the_agent_cannot_run_cupcake_allow_even_with_the_real_code(guarded):
    code = code_of(blocked(guarded))
    for command in (
        f"cupcake allow {code}",
        f"python3 -m cupcake allow {code} --always --reason x",
        f"env cupcake allow {code}",
    ):
        answer = blocked(guarded, command)
        assert answer.specific["permissionDecision"] == "deny", command
        assert "only a person may grant" in answer.specific["permissionDecisionReason"]
    assert blocked(guarded).specific["permissionDecision"] == "deny"


@pytest.mark.parametrize("name", ["approvals.json", "approval-offers.jsonl"])
def test_the_agent_cannot_write_the_store(guarded, name):
    code_of(blocked(guarded))
    store = str(guarded.root / ".cupcake" / name)
    write = guarded.send_process(guarded.tool_call("Write", {"file_path": store, "content": "{}"}))
    shell = blocked(guarded, f"echo '{{}}' > {store}")
    append = blocked(guarded, f"echo '{{}}' >> {store}")
    for answer in (write, shell, append):
        assert answer.specific["permissionDecision"] == "deny"
        assert "Cupcake's own data (.cupcake/)" in answer.specific["permissionDecisionReason"]


def test_an_agent_without_a_user_only_channel_gets_no_code(guarded):
    payload = {
        "sessionId": "s",
        "timestamp": 1,
        "cwd": str(guarded.root),
        "toolName": "bash",
        "toolArgs": {"command": "git push --force"},
    }
    answer = guarded.send_process(payload, args=["--agent", "copilot", "--event", "preToolUse"])
    assert answer.json == {
        "permissionDecision": "deny",
        "permissionDecisionReason": "Operation blocked: Push without --force.",
    }
    assert not (guarded.root / ".cupcake" / "approvals.json").exists()
    assert not (guarded.root / ".cupcake" / "approval-offers.jsonl").exists()


def test_approvals_ask_lets_the_person_decide_in_an_agent_without_a_channel(guarded):
    guarded.write_policy('[settings]\napprovals = "ask"\n' + POLICY)
    payload = {
        "sessionId": "s",
        "cwd": str(guarded.root),
        "toolName": "bash",
        "toolArgs": {"command": "git push --force"},
    }
    answer = guarded.send_process(payload, args=["--agent", "copilot", "--event", "preToolUse"])
    assert answer.json["permissionDecision"] == "ask"
    claude = blocked(guarded)  # an agent with a channel still gets the block and a code
    assert claude.specific["permissionDecision"] == "deny" and CODE.search(claude.json["systemMessage"])


@pytest.mark.parametrize("agent", ["gemini", "codex", "droid"])
def test_other_agents_with_a_user_only_channel_get_the_code_there(guarded, agent):
    from cupcake.agents.samples import sample_pre_tool

    event, payload = sample_pre_tool(agent, str(guarded.root))
    payload = json.loads(json.dumps(payload).replace("echo cupcake doctor", "git push --force"))
    answer = guarded.send_process(payload, args=["--agent", agent, "--event", event])
    code = code_of(answer)
    rest = dict(answer.json)
    rest.pop("systemMessage")
    assert code not in json.dumps(rest)


def test_approvals_off_offers_nothing(guarded):
    guarded.write_policy('[settings]\napprovals = "off"\n' + POLICY)
    assert "systemMessage" not in blocked(guarded).json


def test_without_the_per_user_secret_no_code_is_offered(project):
    project.write_policy(POLICY)
    answer = blocked(project)
    assert "systemMessage" not in answer.json
    assert not (project.root / ".cupcake" / "approvals.json").exists()
    assert not (project.root / ".cupcake" / "approval-offers.jsonl").exists()


def test_a_once_grant_is_not_used_up_when_another_rule_blocks_the_call(guarded):
    person(guarded, "allow", code_of(blocked(guarded)), check=True)
    guarded.write_policy(
        POLICY + '\n[[policy]]\nname = "no-push-at-all"\nmatcher = "Bash"\n'
        'conditions = [{ type = "command_regex", value = "git push" }]\n'
        'action = { type = "block_with_feedback", feedback_message = "No pushing today." }\n'
    )
    answer = blocked(guarded)
    assert answer.specific["permissionDecisionReason"] == "Operation blocked: No pushing today."
    guarded.write_policy(POLICY)
    assert blocked(guarded).specific["permissionDecision"] == "allow"  # the grant was still there


def test_two_identical_calls_at_once_share_one_once_grant(guarded):
    import concurrent.futures

    person(guarded, "allow", code_of(blocked(guarded)), check=True)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _n: blocked(guarded), range(4)))
    decisions = sorted(a.specific["permissionDecision"] for a in answers)
    assert decisions == ["allow", "deny", "deny", "deny"]


FORMS = [
    "cupcake allow K7QX-4M2P",
    "bash -c 'cupcake allow K7QX-4M2P'",
    "c=cupcake; $c allow K7QX-4M2P",
    "/usr/bin/env cupcake allow K7QX-4M2P",
    "\\cupcake allow K7QX-4M2P",
    "cupcake 'al'low K7QX-4M2P",
    "echo K7QX-4M2P | xargs cupcake allow",
    'eval "cupcake allow K7QX-4M2P"',
    "command cupcake allow K7QX-4M2P",
    "timeout 5 cupcake allow K7QX-4M2P",
    "cupcake --version; cupcake allow K7QX-4M2P --always --reason x",
    "cupcake shadow promote --yes",
]


@pytest.mark.parametrize("command", FORMS)
def test_every_form_bash_would_run_as_cupcake_allow_is_blocked(guarded, tmp_path, command):
    """Real bash is the oracle: with a stand-in `cupcake` first on PATH, the form does run `cupcake allow`
    (or `shadow promote`); the hook must block it."""
    fake = tmp_path / "fakebin"
    fake.mkdir(exist_ok=True)
    record = tmp_path / "argv"
    (fake / "cupcake").write_text(f'#!/bin/sh\nprintf "%s " "$@" >> {record}\necho >> {record}\n')
    (fake / "cupcake").chmod(0o755)
    subprocess.run(["bash", "-c", command], env={"PATH": f"{fake}:/usr/bin:/bin"}, cwd=tmp_path, timeout=10)
    ran = record.read_text() if record.exists() else ""
    assert "allow" in ran or "promote" in ran, (command, ran)
    answer = blocked(guarded, command)
    assert answer.specific["permissionDecision"] == "deny", (command, answer)
    assert "Cupcake self-protection" in answer.specific["permissionDecisionReason"]


def test_no_code_is_offered_when_self_protection_blocks_the_call_too(guarded):
    """The policy's text leads and self-protection's follows; the scan looks for no grant then (no person's
    code lifts self-protection), so a code would be a promise no grant keeps."""
    command = "git push --force; rm -rf ~"  # ~ holds the user's policy file
    answer = blocked(guarded, command)
    reason = answer.specific["permissionDecisionReason"]
    assert answer.specific["permissionDecision"] == "deny"
    assert reason.startswith("Operation blocked: Push without --force.") and "Cupcake self-protection" in reason
    assert not CODE.search(answer.stdout.decode()) and "cupcake allow" not in answer.stdout.decode()
    assert not (guarded.root / ".cupcake" / "approval-offers.jsonl").exists()
    code = code_of(blocked(guarded))  # the policy alone: a code, which lets that call through
    person(guarded, "allow", code, check=True)
    assert blocked(guarded).specific["permissionDecision"] == "allow"
    assert blocked(guarded, command).specific["permissionDecision"] == "deny"
