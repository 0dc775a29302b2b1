"""Where a command runs (working_dir inside the root) and which file it executes."""

from __future__ import annotations

import os

from cupcake.run_command.errors import CommandSpecError


def resolve_working_dir(root: str, working_dir: str) -> str:
    """The directory to run in: ``root/working_dir``, normalised.

    Raises ``CommandSpecError`` when it resolves (symlinks followed) outside the root. Whether it exists
    is checked when the command starts.
    """
    root = os.path.abspath(root)
    path = os.path.normpath(os.path.join(root, working_dir))
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
        raise CommandSpecError(
            f"working_dir: {working_dir!r} resolves to {real}, which is outside the project root {real_root}"
        )
    return path


def place_name(root: str, directory: str) -> str:
    """How messages name a directory: ``the project root`` or its path relative to the root."""
    rel = os.path.relpath(directory, os.path.abspath(root))
    return "the project root" if rel == "." else rel


def find_executable(program: str, cwd: str, search_path: str | None, place: str) -> tuple[str | None, str | None]:
    """``(path, None)`` for the file to execute, or ``(None, reason)``.

    A bare name (no ``/``) is looked up on PATH only (``search_path``): never in ``cwd`` (the project the
    agent can write), and relative PATH entries (empty, ``.``, ``bin``) are skipped, so a file the agent
    planted in the project never runs in place of the program the policy names. A path with ``/`` is
    relative to ``cwd``: a script in the project is written as one (``./scripts/check.sh``). ``place``
    names ``cwd`` in messages.
    """
    if "/" in program:
        path = os.path.join(cwd, program)
        if not os.path.exists(path):
            return None, f"{program} does not exist in {place}" if not os.path.isabs(
                program
            ) else f"{program} does not exist"
        return _usable(program, path)
    for entry in safe_path_entries(search_path):
        candidate = os.path.join(entry, program)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate, None
    hint = ""
    if os.path.exists(os.path.join(cwd, program)):
        hint = f"; a program in the project is run only when written as a path (./{program})"
    return None, f"{program} was not found on PATH{hint}"


def safe_path_entries(search_path: str | None) -> list[str]:
    """The absolute entries of a PATH value, in order: relative ones name the working directory."""
    return [entry for entry in (search_path or "").split(os.pathsep) if os.path.isabs(entry)]


def _usable(program: str, path: str) -> tuple[str | None, str | None]:
    if os.path.isdir(path):
        return None, f"{program} is a directory"
    if not os.access(path, os.X_OK):
        return None, f"{program} is not executable (chmod +x {program})"
    return path, None
