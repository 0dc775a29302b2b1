"""A session_id never names a path: plain ids are kept, anything else maps to a safe, distinct name."""

from __future__ import annotations

import pytest

from cupcake.stores.state.names import state_name

PLAIN = ["8f14e45f-ceea-467e-9e2e-2a1b3c4d5e6f", "abc", "A_b-9", "x" * 64]
HOSTILE = ["../../x", "/etc/passwd", "a\0b", ".", "..", "x" * 65, "x" * 100_000, "é", "a/b", "a.b", " ", "\ud800"]


@pytest.mark.parametrize("session_id", PLAIN)
def test_a_plain_id_is_its_own_name(session_id):
    assert state_name(session_id) == session_id


@pytest.mark.parametrize("session_id", HOSTILE)
def test_any_other_id_becomes_a_short_safe_name(session_id):
    name = state_name(session_id)
    assert name == state_name(session_id)  # stable: the same session finds its state again
    assert len(name) <= 49 and "/" not in name and "\0" not in name and name not in (".", "..")
    assert not name.startswith(".")
    assert set(name) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    assert "." in name  # never equal to a plain id, which has no "."


def test_distinct_ids_get_distinct_names():
    ids = HOSTILE + ["../../y", "x" * 66, "a\0c"]
    assert len({state_name(i) for i in ids}) == len(ids)


@pytest.mark.parametrize("session_id", [None, "", 42, ["x"], {"a": 1}])
def test_no_usable_id_names_no_state(session_id):
    assert state_name(session_id) is None
