import fcntl
import os

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

scenarios("security_model.feature")


@given(parsers.parse("the user policy file is {kind}"))
def user_policy_file_is(project, kind):
    """The user's policy file is in the state named (for example writable by others)."""
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
    """Another process takes the audit log's lock and keeps it."""
    work = project.root / ".cupcake"
    work.mkdir(exist_ok=True)
    fd = os.open(work / "audit.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another open file description: it conflicts like another process
    lock_holder["fd"] = fd


@when("the other process lets the audit lock go")
def lets_lock_go(lock_holder):
    """The other process releases the audit log's lock."""
    os.close(lock_holder.pop("fd"))


@given(parsers.parse('the folder "{name}" exists'))
def folder_exists(project, name):
    """The folder exists in the project."""
    project.place(name).mkdir(parents=True, exist_ok=True)


@then(parsers.parse('the folder "{name}" is still empty'))
def folder_still_empty(project, name):
    """Nothing was written into the folder."""
    assert list(project.place(name).iterdir()) == []


@given(parsers.parse('"{link}" is a hard link to "{target}"'))
def hard_link(project, link, target):
    """``link`` is a hard link to ``target``."""
    os.link(project.place(target), project.place(link))
