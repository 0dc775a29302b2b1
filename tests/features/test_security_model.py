import fcntl
import os

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

scenarios("security_model.feature")


@given(parsers.parse("the user policy file is {kind}"))
def user_policy_file_is(project, kind):
    path = project.home / ".claude" / "cupcake.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "a directory":
        path.mkdir()
    elif kind == "a FIFO":
        os.mkfifo(path)
    else:
        raise AssertionError(kind)


@pytest.fixture
def lock_holder():
    held = {}
    yield held
    if "fd" in held:
        os.close(held.pop("fd"))


@given("another process holds the audit lock")
def holds_audit_lock(project, lock_holder):
    work = project.root / ".cupcake"
    work.mkdir(exist_ok=True)
    fd = os.open(work / "audit.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another open file description: it conflicts like another process
    lock_holder["fd"] = fd


@when("the other process lets the audit lock go")
def lets_lock_go(lock_holder):
    os.close(lock_holder.pop("fd"))


@given(parsers.parse('the folder "{name}" exists'))
def folder_exists(project, name):
    project.place(name).mkdir(parents=True, exist_ok=True)


@then(parsers.parse('the folder "{name}" is still empty'))
def folder_still_empty(project, name):
    assert list(project.place(name).iterdir()) == []


@when(parsers.parse('Claude Code reports that "{command}" failed'))
def reports_failure(project, run, command):
    from tests.features.steps.helpers import _send

    payload = project.tool_call("Bash", {"command": command}, event="PostToolUseFailure")
    payload.update(error="Exit code 1\n3 failed", is_interrupt=False)
    _send(project, run, payload)


@given(parsers.parse('"{link}" is a hard link to "{target}"'))
def hard_link(project, link, target):
    os.link(project.place(target), project.place(link))
