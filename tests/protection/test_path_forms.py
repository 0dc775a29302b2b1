"""A protected path's forms: as written (normalised) and resolved, each listed once."""

from __future__ import annotations

from cupcake.protection.path_forms import forms


def test_forms_lists_each_path_as_written_and_resolved(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    path = str(tmp_path / "link" / "file")
    assert forms([path, path]) == [path, str(tmp_path / "real" / "file")]
