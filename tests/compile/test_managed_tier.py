"""The organisation's tier holds: whatever a project or user file says or does — switching self-protection
off, disabling a pack rule, opening fail_mode, an earlier approve, `agents = [...]`, a clashing name,
importing or linking the managed file, turning built-in systems off, lowering limits — a block of the
managed file stays a block, with its own reason. Each attempt runs as an agent would meet it: one event
through the run path, and the ones that matter most through the installed executable."""

from __future__ import annotations

import json
import subprocess

import pytest

import cupcake.project as project_module
from tests.conftest import cupcake_executable

MANAGED = """imports = ["cupcake:git"]

[settings]
audit_logging = true

[[policy]]
name = "no-prod-deploy"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "deploy.*--env prod" }]
action = { type = "block_with_feedback", feedback_message = "Production deploys go through the release pipeline." }

[[policy]]
name = "finish-with-tests"
hook_event = "Stop"
action = { type = "block_with_feedback", feedback_message = "Run the test suite before you stop." }
"""
DEPLOY = "./deploy.sh --env prod"
DEPLOY_REASON = "Operation blocked: Production deploys go through the release pipeline."


def deploy(project, process: bool = False):
    payload = project.tool_call("Bash", {"command": DEPLOY})
    return project.send_process(payload) if process else project.send(payload)


def denied_for(answer) -> str | None:
    spec = answer.specific
    return spec.get("permissionDecisionReason") if spec.get("permissionDecision") == "deny" else None


def validate(project) -> tuple[int, str]:
    done = subprocess.run(
        [cupcake_executable(), "validate"], cwd=project.root, env=project.env(), capture_output=True, text=True
    )
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def org(project):
    project.write_managed_policy(MANAGED)
    return project


def test_a_managed_block_holds_with_no_project_file_at_all(org):
    assert denied_for(deploy(org, process=True)) == DEPLOY_REASON


ATTEMPTS = {
    "an approve for every Bash call, earlier in the project file": """
[[policy]]
name = "trust-me"
matcher = "Bash"
action = { type = "approve", reason = "the project trusts its agent" }
""",
    "an approve only for this agent (agents = [...])": """
[[policy]]
name = "trust-claude"
matcher = "Bash"
agents = ["claude"]
action = { type = "approve" }
""",
    "an ask that would hand the decision to the user": """
[[policy]]
name = "ask-instead"
matcher = "Bash"
action = { type = "ask", reason = "the user decides" }
""",
    "a policy with the managed policy's name": """
[[policy]]
name = "no-prod-deploy"
matcher = "Bash"
action = { type = "approve" }
""",
    "fail_mode open and self-protection off": """
[settings]
fail_mode = "open"
self_protection = false
""",
    "[packs] disable and [packs.messages]": """
imports = ["cupcake:git"]

[packs]
disable = ["git.force-push"]

[packs.messages]
"git.force-push" = "go ahead"
""",
    "[packs.levels]: the managed pack rule moved to the warn lane": """
imports = ["cupcake:git"]

[packs.levels]
"git.force-push" = "warn"
""",
    "[packs] observe: the managed pack rule only observed": """
imports = ["cupcake:git"]

[packs]
observe = ["git.force-push", "cupcake:git"]
""",
    "a policy of the same reach in observe mode, and a shadow candidate without the managed rules": """
[shadow]
candidate = "cupcake.candidate.toml"

[[policy]]
name = "observe-deploys"
matcher = "Bash"
mode = "observe"
action = { type = "approve" }
""",
    "built-in systems turned off": """
[pipeline.systems]
audit_write = false
state_write = false
telemetry_spool = false
""",
    "importing the managed file itself": 'imports = ["{managed}"]\n',
    "a project file that is not valid TOML": "[[policy]\nname = ",
}


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_no_project_file_removes_or_weakens_a_managed_block(org, attempt):
    (org.root / "cupcake.candidate.toml").write_text('[[policy]]\nname = "c"\naction = { type = "approve" }\n')
    org.write_policy(ATTEMPTS[attempt].replace("{managed}", str(org.managed / "cupcake.toml")))
    assert denied_for(deploy(org)) == DEPLOY_REASON
    pushed = org.send(org.tool_call("Bash", {"command": "git push --force origin main"}))
    assert denied_for(pushed), f"the managed pack rule stopped holding: {pushed!r}"
    assert "go ahead" not in denied_for(pushed)


@pytest.mark.parametrize(
    "attempt", ["an approve for every Bash call, earlier in the project file", "fail_mode open and self-protection off"]
)
def test_no_user_file_weakens_a_managed_block_either(org, attempt):
    org.write_user_policy(ATTEMPTS[attempt])
    assert denied_for(deploy(org)) == DEPLOY_REASON


def test_the_managed_block_holds_through_the_installed_executable_against_every_attempt_at_once(org):
    everything = (
        ATTEMPTS["[packs] disable and [packs.messages]"]
        + ATTEMPTS["fail_mode open and self-protection off"]
        + ATTEMPTS["built-in systems turned off"]
        + ATTEMPTS["an approve for every Bash call, earlier in the project file"]
    )
    org.write_policy(everything)
    answer = deploy(org, process=True)
    assert (answer.code, denied_for(answer)) == (0, DEPLOY_REASON)
    assert (org.root / ".cupcake" / "audit.log").exists()  # audit_write = false did not hold


def test_validate_says_what_is_ignored_and_why(org):
    org.write_policy(
        ATTEMPTS["fail_mode open and self-protection off"].replace("[settings]", "[settings]\nstop_block_limit = 1")
        + ATTEMPTS["built-in systems turned off"]
    )
    code, out = validate(org)
    managed = org.managed / "cupcake.toml"
    assert code == 0, out  # warnings: what the project says is ignored, never silently
    assert (
        f"cupcake.toml:5: warning: settings: `self_protection` = False is ignored while the managed policy file "
        f"{managed} is in force (switched off, an agent could uninstall Cupcake and with it the organisation's "
        "rules); True applies"
    ) in out
    assert (
        f"cupcake.toml:3: warning: settings: `stop_block_limit` = 1 is ignored while the managed policy file {managed} "
        "is in force (a lower limit would lift a managed Stop block sooner); 5 applies"
    ) in out
    assert f'"audit_write" = false is ignored while the managed policy file {managed} is in force' in out


def test_a_name_clash_puts_the_projects_policy_out_of_service_never_the_managed_one(org):
    org.write_policy(ATTEMPTS["a policy with the managed policy's name"])
    code, out = validate(org)
    assert code == 1
    assert (
        f'cupcake.toml:3: error: policy "no-prod-deploy": duplicate policy name: also defined at {org.managed / "cupcake.toml"}:6'
        in out
    )


def test_self_protection_keeps_the_agent_off_the_managed_file_even_when_the_project_switches_it_off(org):
    org.write_policy(ATTEMPTS["fail_mode open and self-protection off"])
    managed = str(org.managed / "cupcake.toml")
    wrote = org.send(org.tool_call("Write", {"file_path": managed, "content": ""}))
    assert "a Cupcake policy file" in denied_for(wrote)
    emptied = org.send(org.tool_call("Bash", {"command": f"echo > '{managed}'"}))
    assert denied_for(emptied)
    uninstalled = org.send(org.tool_call("Bash", {"command": "pip uninstall -y cupcake"}))
    assert denied_for(uninstalled)


def test_a_project_file_linked_to_the_managed_file_is_read_once(org):
    (org.root / "cupcake.toml").symlink_to(org.managed / "cupcake.toml")
    code, out = validate(org)
    assert code == 0, out
    assert f"cupcake.toml: warning: the same file as {org.managed / 'cupcake.toml'}: read once" in out
    assert denied_for(deploy(org)) == DEPLOY_REASON


def test_a_project_cannot_lift_a_managed_stop_block_sooner(org):
    org.write_policy("[settings]\nstop_block_limit = 1\n")
    stop = org.payload("Stop", stop_hook_active=False)
    assert org.send(stop).json["decision"] == "block"
    again = org.payload("Stop", stop_hook_active=True)
    for _ in range(3):  # with the project's limit of 1 the second would already go through
        assert org.send(again).json["decision"] == "block"


def test_a_managed_file_that_says_closed_blocks_when_the_project_breaks(org):
    org.write_managed_policy(MANAGED.replace("[settings]", '[settings]\nfail_mode = "closed"'))
    org.write_policy('[settings]\nfail_mode = "open"\n\n[[policy]]\nname = "broken"\naction = { type = "nope" }\n')
    answer = org.send(org.tool_call("Bash", {"command": "ls"}))
    assert denied_for(answer) and "broken" in denied_for(answer)


def test_the_managed_tier_is_first_in_the_ordered_list(org):
    org.write_policy(
        '[[policy]]\nname = "project-block"\nmatcher = "Bash"\n'
        'action = { type = "block_with_feedback", feedback_message = "project says no" }\n'
    )
    org.write_user_policy(
        '[[policy]]\nname = "user-block"\nmatcher = "Bash"\n'
        'action = { type = "block_with_feedback", feedback_message = "user says no" }\n'
    )
    assert denied_for(deploy(org)) == DEPLOY_REASON
    assert denied_for(org.send(org.tool_call("Bash", {"command": "ls"}))) == "Operation blocked: project says no"


def test_without_the_marker_the_variable_moves_nothing(monkeypatch, tmp_path):
    """A release has no marker: an agent that starts another agent with CUPCAKE_TEST_SYSTEM_ROOT set does not
    move the organisation's file for that agent's hooks."""
    env = {project_module.SYSTEM_ROOT_VARIABLE: str(tmp_path)}
    assert project_module.managed_dir(env) == str(tmp_path / "etc" / "cupcake")  # this installation has the marker
    monkeypatch.setattr(project_module, "SYSTEM_ROOT_MARKER", "no-such-marker")
    assert project_module.managed_dir(env) == project_module.MANAGED_DIRS["linux"] == "/etc/cupcake"


def test_the_managed_policies_apply_in_any_directory(org, tmp_path):
    elsewhere = tmp_path / "scratch"
    elsewhere.mkdir()
    org.use_project_dir_env = False
    org.cwd = elsewhere
    assert denied_for(deploy(org, process=True)) == DEPLOY_REASON


def test_the_compiled_set_says_which_tier_each_policy_came_from(org):
    from cupcake.stores.policies.loader import load

    org.write_policy('[[policy]]\nname = "mine"\naction = { type = "provide_feedback", message = "hi" }\n')
    compiled = load(str(org.root), org.env(), use_cache=False).compiled
    tiers = dict(zip((p[0] for p in compiled["policies"]), compiled["tiers"], strict=True))
    assert tiers["no-prod-deploy"] == "managed" and tiers["git.force-push"] == "managed"
    assert tiers["mine"] == "project"
    assert json.dumps(compiled["tiers"])  # plain data: the cache keeps it


def test_the_test_marker_is_not_part_of_a_release():
    """Only the files package-data names are installed with the package: the marker is not among them."""
    import fnmatch

    import tomli

    from tests.conftest import REPO

    patterns = tomli.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["cupcake"]
    assert not any(fnmatch.fnmatch(project_module.SYSTEM_ROOT_MARKER, p) for p in patterns)


def test_a_managed_block_carries_no_persons_code_unless_the_managed_file_says_so(org):
    """A project rule's block offers the person a code (`cupcake allow`); the organisation's does not,
    and a grant met for it is not honoured, until the managed file sets approvals itself."""
    from tests.approvals.test_approvals import CODE, person

    org.write_policy(
        '[settings]\napprovals = "code"\n\n[[policy]]\nname = "project-rule"\nmatcher = "Bash"\n'
        'conditions = [{ type = "command_regex", value = "^make release" }]\n'
        'action = { type = "block_with_feedback", feedback_message = "Release from CI." }\n'
    )
    person(org, "validate")  # the per-user secret codes need
    project_block = org.send_process(org.tool_call("Bash", {"command": "make release"}))
    assert CODE.search(project_block.json["systemMessage"]), project_block
    managed_block = deploy(org, process=True)
    assert denied_for(managed_block) == DEPLOY_REASON
    assert not CODE.search((managed_block.json or {}).get("systemMessage", "")), managed_block
    org.write_managed_policy(MANAGED.replace("[settings]", '[settings]\napprovals = "code"'))
    opened = deploy(org, process=True)
    code = CODE.search(opened.json["systemMessage"]).group(1)
    person(org, "allow", code, check=True)
    assert deploy(org, process=True).specific["permissionDecision"] == "allow"


def test_approvals_ask_in_a_project_does_not_turn_a_managed_block_into_a_question(org):
    org.write_policy('[settings]\napprovals = "ask"\n')
    answer = org.send(org.tool_call("Bash", {"command": DEPLOY}))
    assert denied_for(answer) == DEPLOY_REASON
    copilot = org.send_process(
        {"sessionId": "s", "timestamp": 1, "cwd": str(org.root), "toolName": "bash", "toolArgs": {"command": DEPLOY}},
        args=["--agent", "copilot", "--event", "preToolUse"],
    )
    assert copilot.json["permissionDecision"] == "deny", copilot  # no user channel: "ask" would have asked
