"""The policy cache's layout (a sealed head, then each regex's program under its own tag) against a
hostile writer: whatever is done to the programs, a run decides as it would from source.

A run authenticates only the head and reads a program when it first compiles that pattern; these are
the attacks that layout opens, in process (the reader) and through the installed executable (a run)."""

from __future__ import annotations

import marshal
import os

import pytest

from cupcake.project import policy_files
from cupcake.stores.policies import cache
from tests import cache_forgery
from tests.conftest import Project, give_cache_secret

POLICY = """
[[policy]]
name = "No sudo"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "^sudo" }]
action = { type = "block_with_feedback", feedback_message = "No sudo" }

[[policy]]
name = "No curl"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "curl" }]
action = { type = "block_with_feedback", feedback_message = "No curl" }
"""
HEAD_AT = cache_forgery.HEAD_AT


@pytest.fixture
def project(tmp_path):
    p = Project(tmp_path / "project", tmp_path / "home")
    p.root.mkdir()
    p.home.mkdir()
    give_cache_secret(p.home)
    p.write_policy(POLICY)
    assert _decision(p, "ls") == "allow"  # builds the cache
    return p


def _decision(project, command: str) -> str:
    answer = project.send_process(project.tool_call("Bash", {"command": command}))
    return "deny" if b'"deny"' in answer.stdout else "allow" if answer.stdout == b"" else answer.stdout.decode()


def _path(project):
    return project.root / ".cupcake" / "policy.cache"


def _layout(data: bytes):
    _key, _compiled, table, end = cache_forgery.parts(data)
    return end, table


def _read(project):
    """The cache as a run reads it, under the key it was written with (the test process's own key may
    differ: it can import the source checkout, not the installation the runs use)."""
    path = _path(project)
    if not path.exists():
        return None
    try:
        key = cache_forgery.parts(path.read_bytes())[0]
    except Exception:  # not even the layout: no key to read it under
        return None
    return cache.read(str(path), key, project.env())


def test_a_run_reads_only_the_programs_it_compiles_and_each_is_checked(project):
    compiled = _read(project)
    programs = compiled["sre"]
    assert isinstance(programs, cache.Programs) and "^sudo" in programs and len(programs) > 2
    assert marshal.loads(programs.get("^sudo"))  # the program, read back and checked
    assert programs.get("no such pattern") is None
    programs.close()


def test_a_program_swapped_with_another_is_not_used_and_the_run_still_denies(project):
    data = _path(project).read_bytes()
    end, table = _layout(data)
    (a_at, a_n, _), (b_at, b_n, _) = table["^sudo"], table["curl"]
    a, b = data[end + a_at : end + a_at + a_n], data[end + b_at : end + b_at + b_n]
    tail = bytearray(data[end:])
    # The two programs change places; each entry then points at the other one's bytes (or part of them).
    first, second = sorted([(a_at, a_n, b), (b_at, b_n, a)])
    tail[first[0] : first[0] + first[1]] = first[2]
    shift = len(first[2]) - first[1]
    tail[second[0] + shift : second[0] + shift + second[1]] = second[2]
    _path(project).write_bytes(data[:end] + bytes(tail))
    assert len(_path(project).read_bytes()) == len(data)  # the same size: the head still holds
    programs = _read(project)["sre"]
    assert programs.get("^sudo") is None and programs.get("curl") is None  # neither tag holds
    programs.close()
    _path(project).write_bytes(data[:end] + bytes(tail))  # the reader removed the damaged cache
    assert _decision(project, "sudo ls") == "deny"
    assert _decision(project, "curl x") == "deny"
    assert _decision(project, "ls") == "allow"


def test_a_damaged_program_is_not_used_the_run_still_denies_and_the_next_rebuilds(project):
    data = _path(project).read_bytes()
    end, table = _layout(data)
    at, n, _tag = table["^sudo"]
    damaged = bytearray(data)
    damaged[end + at + n // 2] ^= 0x20
    _path(project).write_bytes(bytes(damaged))
    assert _decision(project, "sudo ls") == "deny"  # compiled from the pattern's text instead
    assert not _path(project).exists()  # the run that met it removed it
    assert _decision(project, "sudo ls") == "deny"
    assert _read(project)["sre"].get("^sudo") is not None  # rebuilt whole


@pytest.mark.parametrize("cut", [1, 100, "all"])
def test_a_cut_tail_is_not_trusted_and_is_rebuilt(project, cut):
    data = _path(project).read_bytes()
    end, _table = _layout(data)
    _path(project).write_bytes(data[:end] if cut == "all" else data[:-cut])
    assert _read(project) is None
    assert _decision(project, "sudo ls") == "deny"
    assert _read(project) is not None  # rebuilt


def test_bytes_added_after_the_tail_are_not_trusted(project):
    _path(project).write_bytes(_path(project).read_bytes() + b"\0" * 64)
    assert _read(project) is None
    assert _decision(project, "sudo ls") == "deny"


def _resealed(project, change, secret=None):
    """The head's index changed by ``change(table)`` and sealed again (with the user's own secret unless given)."""
    data = _path(project).read_bytes()
    secret = secret or (project.home / ".cache" / "cupcake" / "cache-secret").read_bytes()
    _path(project).write_bytes(cache_forgery.with_table(data, secret, change(_layout(data)[1])))


def test_a_table_pointing_outside_the_file_gives_no_program(project):
    # Even sealed with the user's own secret (an agent that read it): the reader reads nothing outside.
    original = _path(project).read_bytes()
    size = len(original)
    for entry in [lambda e: (10**9, e[1], e[2]), lambda e: (e[0], 10**6, e[2]), lambda e: (e[0], 2**32 - 1, e[2]),
                  lambda e: (size, e[1], e[2]), lambda e: (e[0], 0, e[2]), lambda e: (0, e[1], b"x" * 16),
                  lambda e: (e[0] + 1, e[1], e[2])]:  # fmt: skip
        _path(project).write_bytes(original)
        _resealed(project, lambda t, entry=entry: dict(t, **{"^sudo": entry(t["^sudo"])}))
        assert _read(project)["sre"].get("^sudo") is None
        assert not _path(project).exists()  # removed: the next run rebuilds it
        _path(project).write_bytes(original)
        _resealed(project, lambda t, entry=entry: dict(t, **{"^sudo": entry(t["^sudo"])}))
        assert _decision(project, "sudo ls") == "deny"


def test_entries_exchanged_between_patterns_give_no_program(project):
    # Whole entries (offset, length, tag) moved to the other pattern: each tag names its own pattern.
    _resealed(project, lambda t: dict(t, **{"^sudo": t["curl"], "curl": t["^sudo"]}))
    programs = _read(project)["sre"]
    assert programs.get("^sudo") is None and programs.get("curl") is None
    programs.close()
    assert _decision(project, "sudo ls") == "deny"
    assert _decision(project, "curl x") == "deny"


def test_a_reordered_or_changed_table_without_the_secret_is_not_trusted(project):
    _resealed(project, lambda t: dict(reversed(list(t.items()))), secret=os.urandom(32))
    assert _read(project) is None
    assert _decision(project, "sudo ls") == "deny"


def test_validate_says_a_damaged_program_is_not_trusted(project):
    data = _path(project).read_bytes()
    end, table = _layout(data)
    at, n, _tag = table["^sudo"]
    _path(project).write_bytes(data[: end + at] + bytes([data[end + at] ^ 1]) + data[end + at + 1 :])
    from cupcake.compile.compiler import compile_files
    from cupcake.stores.policies.loader import cache_disagreement

    compiled = compile_files(policy_files(str(project.root), project.env()), str(project.root), project.env())
    said = cache_disagreement(str(project.root), project.env(), compiled)
    assert said and "not trusted" in said and "^sudo" in said, said


def test_an_index_out_of_order_or_cut_finds_nothing_wrong_and_decides_the_same(project):
    # Sealed with the user's own secret: entries in the wrong order, or an entry cut in the middle.
    data = _path(project).read_bytes()
    end = HEAD_AT + int.from_bytes(data[HEAD_AT - 4 : HEAD_AT], "big")
    key, compiled, index, names, tail = marshal.loads(data[HEAD_AT:end])
    secret = (project.home / ".cache" / "cupcake" / "cache-secret").read_bytes()
    entry = cache_forgery.ENTRY
    reordered = b"".join(reversed([index[i : i + entry] for i in range(0, len(index), entry)]))
    for changed in (reordered, index[:-5]):
        head = marshal.dumps((key, compiled, changed, names, tail))
        body = len(head).to_bytes(4, "big") + head
        _path(project).write_bytes(cache.MAGIC + cache.mac(secret, body) + body + data[end:])
        assert _decision(project, "sudo ls") == "deny"
        assert _decision(project, "curl x") == "deny"
        assert _decision(project, "ls") == "allow"


def test_validate_says_a_damaged_list_of_patterns_is_not_trusted(project):
    data = _path(project).read_bytes()
    _path(project).write_bytes(data[:-3] + bytes([data[-3] ^ 1]) + data[-2:])
    from cupcake.compile.compiler import compile_files
    from cupcake.stores.policies.loader import cache_disagreement

    compiled = compile_files(policy_files(str(project.root), project.env()), str(project.root), project.env())
    said = cache_disagreement(str(project.root), project.env(), compiled)
    assert said and "list of patterns" in said, said
    assert _decision(project, "sudo ls") == "deny"  # a run never reads the list
