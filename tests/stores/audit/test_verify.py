"""What `cupcake audit verify` says about each way a trail can be broken."""

from __future__ import annotations

import json

import pytest

from cupcake.stores.audit.chain import SEAL_LENGTH, seal
from cupcake.stores.audit.verify import verify
from cupcake.stores.audit.writer import append


@pytest.fixture
def trail(tmp_path):
    for n in range(4):
        append(str(tmp_path), json.dumps({"n": n}, separators=(",", ":")))
    return tmp_path / "audit.log"


def rewrite(path, change):
    lines = path.read_bytes().splitlines()
    change(lines)
    path.write_bytes(b"".join(line + b"\n" for line in lines))


def test_an_intact_trail(trail):
    verdict = verify(str(trail))
    assert verdict.ok and verdict.text() == "Audit trail intact: 4 lines in 1 file, seq 1 to 4."


@pytest.mark.parametrize(
    ("change", "at", "problem"),
    [
        (
            lambda ls: ls.__setitem__(1, ls[1].replace(b'"n":1', b'"n":7')),
            "audit.log line 2",
            "the line was changed after it was written: its content no longer matches its own `hash`",
        ),
        (lambda ls: ls.pop(2), "audit.log line 3", "seq jumps from 2 (audit.log line 2) to 4: 1 line is missing"),
        (
            lambda ls: ls.insert(2, ls[1]),
            "audit.log line 3",
            "seq 2 follows seq 2 (audit.log line 2): a line was inserted, repeated or moved",
        ),
        (
            lambda ls: ls.__setitem__(0, seal(ls[0][:-SEAL_LENGTH].replace(b'"prev":"0', b'"prev":"1'))),
            "audit.log line 1",
            "the first line of the trail (seq 1) must have a `prev` of 64 zeros",
        ),
        (
            lambda ls: ls.__setitem__(0, ls[0].replace(b'"prev":"0', b'"prev":"1')),
            "audit.log line 1",
            "its content no longer matches its own `hash`",
        ),
        (
            lambda ls: ls.__setitem__(1, ls[1][:-SEAL_LENGTH] + b"}"),
            "audit.log line 2",
            "the line does not end with its own `hash`",
        ),
        (lambda ls: ls.__setitem__(2, ls[2][:-1]), "audit.log line 3", "the line is not valid JSON"),
        (lambda ls: ls.__setitem__(2, b""), "audit.log line 3", "the line is empty"),
        (
            lambda ls: ls.__setitem__(1, ls[1].replace(b'"v":1', b'"v":9')),
            "audit.log line 2",
            "written with audit schema v9; this Cupcake knows v1",
        ),
        (
            lambda ls: ls.__setitem__(1, ls[1].replace(b'"seq":2', b'"seq":"2"')),
            "audit.log line 2",
            "`seq` is '2', not a line number",
        ),
    ],
    ids=[
        "edited",
        "removed",
        "repeated",
        "genesis",
        "genesis-edited",
        "unsealed",
        "cut",
        "emptied",
        "newer-schema",
        "bad-seq",
    ],
)
def test_the_first_broken_link_is_named(trail, change, at, problem):
    rewrite(trail, change)
    verdict = verify(str(trail))
    assert not verdict.ok
    assert verdict.broken_at == at
    assert problem in verdict.problem, verdict.problem


def test_the_newest_line_is_covered_by_its_own_hash(trail):
    rewrite(trail, lambda ls: ls.__setitem__(3, ls[3].replace(b'"n":3', b'"n":9')))
    verdict = verify(str(trail))
    assert verdict.broken_at == "audit.log line 4"
    assert verdict.problem == "the line was changed after it was written: its content no longer matches its own `hash`"


def test_an_edit_with_a_recomputed_own_hash_is_caught_by_the_next_line(trail):
    from cupcake.stores.audit.chain import SEAL_LENGTH, seal

    def forge(lines):
        lines[1] = seal(lines[1][:-SEAL_LENGTH].replace(b'"n":1', b'"n":7'))

    rewrite(trail, forge)
    verdict = verify(str(trail))
    assert verdict.broken_at == "audit.log line 3"
    assert verdict.problem.startswith("audit.log line 2 was changed after it was written: its hash is ")


def test_an_empty_log_has_nothing_to_verify(tmp_path):
    (tmp_path / "audit.log").write_bytes(b"")
    verdict = verify(str(tmp_path / "audit.log"))
    assert not verdict.ok and verdict.text() == "The audit log is empty: nothing to verify."


def test_json_verdict(trail):
    rewrite(trail, lambda ls: ls.pop(1))
    assert verify(str(trail)).as_dict() == {
        "ok": False,
        "lines": 1,
        "files": ["audit.log"],
        "first_seq": 1,
        "last_seq": 1,
        "broken": {"at": "audit.log line 2", "problem": "seq jumps from 1 (audit.log line 1) to 3: 1 line is missing"},
    }
