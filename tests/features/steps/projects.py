"""The project on disk: its files, links, working directory and stand-in programs, and what is left in it."""

from __future__ import annotations

import os
import time

from pytest_bdd import given, parsers, then, when


@given(parsers.parse('the agent works in "{subdir}" without CLAUDE_PROJECT_DIR'))
def agent_in_subdir(project, subdir):
    """The agent's working directory is a subdirectory, and the hook gets no CLAUDE_PROJECT_DIR."""
    project.cwd = project.root / subdir
    project.cwd.mkdir(parents=True, exist_ok=True)
    project.use_project_dir_env = False


@given("the project is a git repository")
def plain_git_repository(project):
    """The project root holds a .git folder (the top of its worktree)."""
    (project.root / ".git").mkdir(exist_ok=True)


@given("the per-user secret exists, as `cupcake sync` leaves it")
def per_user_secret(project):
    """~/.cache/cupcake/cache-secret: without it no policy cache is written or trusted, and no approval code offered."""
    from tests.conftest import give_cache_secret

    give_cache_secret(project.home)


@given(".cupcake cannot be written")
def unwritable_workdir(project):
    """A file stands where the .cupcake directory should be, so nothing can be written there."""
    (project.root / ".cupcake").write_text("a file where the directory should be")


@given(parsers.parse('the project file "{path}" holds:'))
def project_file(project, path, docstring):
    """The file in the project holds the text, and a newline."""
    target = project.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(docstring + "\n")


@given(parsers.parse('the project file "{path}" holds a {size:d}-character text'))
def long_project_file(project, path, size):
    """Numbered lines of about ``size`` characters, ending with the line "THE LAST LINE"."""
    target = project.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(f"line {i:05d} " + "x" * 60 for i in range(size // 71)) + "\nTHE LAST LINE\n")


@given(parsers.parse('"{path}" is a symlink to a file outside the project holding "{text}"'))
def symlink_outside(project, path, text):
    """The project path is a symbolic link to a file outside the project holding the text."""
    outside = project.root.parent / "outside.txt"
    outside.write_text(text + "\n")
    link = project.root / path
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside)


def _program(project, name: str, text: str, code: int) -> None:
    """A stand-in program on the PATH Cupcake sees, printing ``text`` (on stderr when it fails)."""
    stream = "stdout" if code == 0 else "stderr"
    script = project.bin / name
    script.write_text(f"#!/usr/bin/env python3\nimport sys\nprint({text!r}, file=sys.{stream})\nsys.exit({code})\n")
    script.chmod(0o755)


@given(parsers.parse('the program "{name}" prints:'))
def program_prints(project, name, docstring):
    """A stand-in program on the PATH Cupcake sees, which prints the text and exits 0."""
    _program(project, name, docstring, 0)


@given(parsers.parse('the program "{name}" fails with:'))
def program_fails(project, name, docstring):
    """A stand-in program on the PATH Cupcake sees, which prints the text on stderr and exits 1."""
    _program(project, name, docstring, 1)


@given(parsers.parse('"{link}" is a symlink to "{target}"'))
def symbolic_link(project, link, target):
    """``link`` relative to the project root (``~/`` for the home); ``target`` as written."""
    path = project.place(link)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)


@given(parsers.parse('the file "{path}" exists'))
def file_exists(project, path):
    """The file exists (relative to the project, or under ``~/``): ``{}`` for JSON, a line of text otherwise."""
    target = project.place(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("{}\n" if path.endswith(".json") else "exists\n")


@when(parsers.parse('the file "{path}" is added:'))
def file_added(project, path, docstring):
    """A new file holding the text appears (relative to the project, or under ``~/``)."""
    target = project.place(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(docstring)


@when(parsers.parse('the file "{path}" is changed to:'))
def file_changed(project, path, docstring):
    """The file's content changes, and its modification time with it."""
    target = project.place(path)
    before = target.stat().st_mtime_ns
    target.write_text(docstring)
    if target.stat().st_mtime_ns == before:  # a coarse clock: make the change visible
        os.utime(target, ns=(before + 1_000_000, before + 1_000_000))


@then("Cupcake created no .cupcake directory")
def no_workdir(project):
    """Neither the project nor the working directory has a .cupcake directory."""
    assert not (project.root / ".cupcake").exists()
    assert not (project.cwd / ".cupcake").exists()


@then(parsers.parse('no file "{name}" was created'))
def no_file(project, name):
    """No file of that name was created in the project, the working directory or the home."""
    for place in (project.root, project.cwd, project.home):
        assert not (place / name).exists(), place / name


@then(parsers.parse('no process "{marker}" is left running'))
def no_process_left(marker):
    """No live process whose command line holds the marker (its whole process group was stopped)."""
    time.sleep(0.2)
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/stat") as f:
                zombie = f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            continue
        if marker in cmdline and not zombie:
            found.append(cmdline)
    assert not found, found


@then(parsers.parse('the project file "{path}" holds "{text}"'))
def project_file_holds(project, path, text):
    """A file a policy's command wrote in the project."""
    assert text in (project.root / path).read_text()
