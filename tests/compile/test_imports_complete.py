"""An import that cannot be read completely is an error, never a silent subset (issue 27, item 6)."""

from __future__ import annotations

import os

from cupcake.compile import imports
from cupcake.shell.globmatch import could_lead


def _expand(root, entries):
    errors, warnings = [], []
    found = imports.expand(
        str(root / "cupcake.toml"), entries, lambda m, n: errors.append(m), lambda m, n: warnings.append(m)
    )
    return found, errors, warnings


def test_a_folder_that_cannot_be_listed_is_an_error_and_the_rest_is_still_imported(tmp_path, monkeypatch):
    """chmod 000 as a user (root lists any folder, so the refusal is played by scandir here)."""
    for team in ("a", "b"):
        (tmp_path / "policies" / team).mkdir(parents=True)
        (tmp_path / "policies" / team / "rules.toml").write_text("")
    locked = str(tmp_path / "policies" / "b")
    real_scandir = os.scandir

    def scandir(path="."):
        if str(path) == locked:
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    real_lstat = os.lstat

    def lstat(path, *a, **k):
        if str(path).startswith(locked + "/"):
            raise PermissionError(13, "Permission denied")
        return real_lstat(path, *a, **k)

    monkeypatch.setattr(imports.os, "scandir", scandir)
    monkeypatch.setattr(imports.os, "lstat", lstat)
    for entry in ("policies/**/*.toml", "policies/*/rules.toml", "policies/b/*.toml"):
        found, errors, _warnings = _expand(tmp_path, [entry])
        assert errors == [
            f'"{entry}" cannot be read completely: the folder "policies/b" cannot be listed (Permission denied)'
        ], entry
        if entry != "policies/b/*.toml":
            assert [os.path.relpath(f.path, tmp_path) for f in found.files] == ["policies/a/rules.toml"], entry


def test_a_folder_that_does_not_exist_is_no_error(tmp_path):
    found, errors, warnings = _expand(tmp_path, ["policies/*.toml"])
    assert (found.files, errors) == ([], []) and warnings == ['"policies/*.toml" matches no file (yet)']


def test_too_many_files_is_an_error(tmp_path):
    (tmp_path / "policies").mkdir()
    for n in range(imports.MAX_FILES + 1):
        (tmp_path / "policies" / f"p{n}.toml").write_text("")
    found, errors, _warnings = _expand(tmp_path, ["policies/*.toml"])
    assert found.files == [] and errors == [
        f'"policies/*.toml" matches more than {imports.MAX_FILES} files; name fewer'
    ]


def test_a_glob_at_the_files_own_folder_is_warned_about(tmp_path):
    _found, _errors, warnings = _expand(tmp_path, ["**/*.toml"])
    assert any("each of them is then protected from the agent" in w for w in warnings), warnings


def test_which_folders_could_lead_to_an_imported_file():
    assert could_lead(["**", "*.toml"], ["d1"]) and could_lead(["**", "*.toml"], ["d1", "d2"])
    assert not could_lead(["**", "*.toml"], [".hidden"])  # ** never enters hidden folders
    assert could_lead(["*", "rules.toml"], ["team"]) and not could_lead(["*", "rules.toml"], ["team", "x"])
    assert not could_lead(["*.toml"], ["sub"])
