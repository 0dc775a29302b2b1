"""Reading settings files without trusting them; writing them atomically without losing anything."""

from __future__ import annotations

import os

import pytest

from cupcake import lean_os
from cupcake.agents import settings_file
from cupcake.agents.settings_file import SettingsFileError


def test_a_missing_file_reads_as_absent(tmp_path):
    loaded = settings_file.read(str(tmp_path / "settings.json"), "settings.json")
    assert not loaded.exists and loaded.text is None


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"", "the file is empty (a truncated write?)"),
        (b"  \n", "the file is empty"),
        (b'{"a": 1,}', "not valid JSON at line 1, column 9: Expecting property name"),
        (b"[1, 2]", "the top level is a JSON array, not an object"),
        (b'{"a": "\xff"}', "not UTF-8 text (byte 8)"),
        (b"\xef\xbb\xbf{}", "not valid JSON at line 1, column 1: Unexpected UTF-8 BOM"),
        (b'{"a": "NaN",\n "b": [1, NaN]}', "not valid JSON at line 2, column 11: NaN is not a JSON value"),
        (b'{"a": -Infinity}', "not valid JSON at line 1, column 7: -Infinity is not a JSON value"),
    ],
)
def test_unusable_files_are_refused_with_what_and_where(tmp_path, raw, message):
    path = tmp_path / "settings.json"
    path.write_bytes(raw)
    with pytest.raises(SettingsFileError) as caught:
        settings_file.read(str(path), ".claude/settings.json")
    assert str(caught.value).startswith(".claude/settings.json: " + message), str(caught.value)


def test_a_write_keeps_the_previous_file_and_its_permissions(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"old": true}\n')
    path.chmod(0o600)
    loaded = settings_file.read(str(path), "settings.json")
    settings_file.write(loaded, '{"new": true}\n')
    assert path.read_text() == '{"new": true}\n'
    assert (tmp_path / "settings.json.bak").read_text() == '{"old": true}\n'
    assert path.stat().st_mode & 0o777 == 0o600
    assert sorted(os.listdir(tmp_path)) == ["settings.json", "settings.json.bak"]


def test_a_file_changed_after_it_was_read_is_not_overwritten(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{}\n")
    loaded = settings_file.read(str(path), "settings.json")
    path.write_text('{"written by": "Claude Code meanwhile"}\n')
    with pytest.raises(SettingsFileError, match="changed while Cupcake was editing it"):
        settings_file.write(loaded, '{"hooks": {}}\n')
    assert path.read_text() == '{"written by": "Claude Code meanwhile"}\n'
    assert not (tmp_path / "settings.json.bak").exists()


def test_a_symlink_stays_a_symlink(tmp_path):
    target = tmp_path / "dotfiles" / "settings.json"
    target.parent.mkdir()
    target.write_text("{}\n")
    link = tmp_path / "settings.json"
    link.symlink_to(target)
    settings_file.write(settings_file.read(str(link), "settings.json"), '{"a": 1}\n')
    assert link.is_symlink() and target.read_text() == '{"a": 1}\n'


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "settings.json"
    path.write_text("{}\n")
    loaded = settings_file.read(str(path), "settings.json")

    def no_rename(src, dst, **_dir_fds):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(lean_os, "replace", no_rename)  # the os calls the write makes
    with pytest.raises(SettingsFileError, match="cannot write it: No space left on device"):
        settings_file.write(loaded, '{"a": 1}\n')
    assert path.read_text() == "{}\n"
    assert [n for n in os.listdir(tmp_path) if n.endswith(".tmp")] == []
