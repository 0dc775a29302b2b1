"""Binds features/first_hour.feature; its own steps are below (the shared ones are in conftest)."""

from __future__ import annotations

from pytest_bdd import given, parsers, scenarios

scenarios("first_hour.feature")


@given(parsers.parse('the project file "{path}" starts with a byte order mark and holds:'))
def file_with_bom(project, path, docstring):
    """The text as UTF-8, after the three bytes of a byte order mark (as some Windows editors write)."""
    target = project.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"\xef\xbb\xbf" + docstring.encode() + b"\n")
