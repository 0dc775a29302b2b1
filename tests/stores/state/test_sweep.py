"""Old state goes, at most one sweep a day, and nothing outside .cupcake/state is ever touched."""

from __future__ import annotations

import os
import time

from cupcake.stores.state import store, sweep

DAY = 86400


def aged(path, days):
    then = time.time() - days * DAY
    os.utime(path, (then, then), follow_symlinks=False)


def test_only_old_state_files_directly_in_the_directory_go(tmp_path):
    (tmp_path / ".cupcake").mkdir()
    fd = store.open_state_dir(str(tmp_path), create=True)
    directory = tmp_path / ".cupcake" / "state"
    outside = tmp_path / "precious.json"
    outside.write_text("{}")
    aged(outside, 30)
    names = ["old.json", "old.idx", "old.idx.123.tmp", "new.json", "notes.txt", "mine.json"]
    for name in names:
        (directory / name).write_text("x")
    (directory / "sub.json").mkdir()
    os.symlink(outside, directory / "link.json")
    for name in names + ["sub.json", "link.json"]:
        aged(directory / name, 10 if name != "new.json" else 1)
    try:
        removed = sweep.sweep(fd, 7 * DAY, time.time(), keep="mine")
    finally:
        os.close(fd)
    assert sorted(removed) == ["old.idx", "old.idx.123.tmp", "old.json"]
    assert sorted(os.listdir(directory)) == [
        ".last-sweep",
        "link.json",
        "mine.json",
        "new.json",
        "notes.txt",
        "sub.json",
    ]
    assert outside.read_text() == "{}"


def test_a_sweep_is_due_at_most_once_a_day(tmp_path):
    (tmp_path / ".cupcake").mkdir()
    fd = store.open_state_dir(str(tmp_path), create=True)
    try:
        now = time.time()
        assert sweep.due(fd, now)
        sweep.sweep(fd, 7 * DAY, now)
        assert not sweep.due(fd, now + DAY / 2)
        assert sweep.due(fd, now + DAY + 1)
        assert sweep.due(fd, now - 60)  # a clock set back: the stamp is in the future, sweep again
    finally:
        os.close(fd)


def test_the_ttl_comes_from_settings_with_a_safe_default():
    assert sweep.ttl_seconds({"state_ttl_days": 2}) == 2 * DAY
    assert sweep.ttl_seconds({"state_ttl_days": 0.5}) == DAY / 2
    for bad in (0, -1, True, "7", None):
        assert sweep.ttl_seconds({"state_ttl_days": bad}) == 7 * DAY
    assert sweep.ttl_seconds({}) == 7 * DAY
