"""Codex's own sandbox, where Cupcake's jail replaces it (``cupcake sync --agent codex --sandbox``).

Codex runs each command in a sandbox of its own (``sandbox_mode`` in its ``config.toml``). Its
workspace-write sandbox does not make ``cupcake.toml`` read-only, and it cannot hold Cupcake's jail: in
it bubblewrap cannot map the user into a new namespace (seen with Codex 0.169.0 as root: "setting up
uid map: Operation not permitted"), so every jailed command would be refused. Sync therefore sets
``sandbox_mode = "danger-full-access"`` in the scope's ``config.toml`` (the project's one is read in a
trusted project), and records the line it replaced beside it, so that ``--uninstall`` puts it back."""

from __future__ import annotations

import json
import os

from cupcake.agents.codex.home import codex_home

KEY = "sandbox_mode"
VALUE = "danger-full-access"
LINE = f"{KEY} = \"{VALUE}\"  # Cupcake's jail replaces Codex's sandbox (cupcake sync --agent codex --sandbox)"
RECORD = ".cupcake-sync.config.toml.json"
TRADE = (
    "Codex's own sandbox is off there: it cannot hold Cupcake's jail (a namespace inside it cannot map the "
    "user), and it does not keep cupcake.toml read-only. What this trades: Codex's own limits go, so commands "
    "may write outside the project and reach the network; `--unshare-net` keeps the jail off the network. "
    "Started with `--sandbox workspace-write` or `--full-auto`, Codex puts its sandbox back, and then every "
    "command is refused with the reason."
)


def config_path(scope: str, root: str, env) -> str:
    return (
        os.path.join(root, ".codex", "config.toml")
        if scope == "project"
        else os.path.join(codex_home(env), "config.toml")
    )


def _top_lines(text: str) -> tuple[list[str], int]:
    """The lines, and the index of the first table header (the top-level keys come before it)."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.lstrip().startswith("["):
            return lines, i
    return lines, len(lines)


def _key_line(lines: list[str], end: int):
    for i in range(end):
        stripped = lines[i].lstrip()
        if stripped.startswith(KEY) and stripped[len(KEY) :].lstrip().startswith("="):
            return i
    return None


def turned_off(text: str) -> tuple[str, str | None]:
    """(``text`` with Codex's sandbox off, the line it replaced or None)."""
    lines, end = _top_lines(text)
    found = _key_line(lines, end)
    if found is not None:
        previous = lines[found]
        if previous.rstrip("\n") == LINE:
            return text, None
        lines[found] = LINE + "\n"
        return "".join(lines), previous.rstrip("\n")
    return LINE + "\n" + ("\n" if text and not text.startswith("\n") else "") + text, None


def restored(text: str, previous: str | None) -> str:
    """``text`` with Cupcake's line replaced by ``previous`` (or removed)."""
    lines, end = _top_lines(text)
    found = _key_line(lines, end)
    if found is None or lines[found].rstrip("\n") != LINE:
        return text  # a person changed it since: theirs stands
    if previous is None:
        del lines[found]
        if found < len(lines) and lines[found] == "\n" and found == 0:
            del lines[found]
    else:
        lines[found] = previous + "\n"
    return "".join(lines)


def in_effect(root: str, env) -> tuple[str | None, str | None]:
    """(the ``sandbox_mode`` Codex reads for this project, the file that sets it): the user's config.toml,
    then the project's, which wins (in a trusted project); (None, None) when neither sets it."""
    mode, where = None, None
    for path in (os.path.join(codex_home(env), "config.toml"), os.path.join(root, ".codex", "config.toml")):
        lines, end = _top_lines(read(path))
        found = _key_line(lines, end)
        if found is not None:
            mode = lines[found].split("=", 1)[1].split("#", 1)[0].strip().strip("\"'")
            where = path
    return mode, where


def read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def record_path(path: str) -> str:
    return os.path.join(os.path.dirname(path), RECORD)


def recorded(path: str) -> dict | None:
    """What sync recorded when it turned the sandbox off: ``{"replaced": line or None, "created": bool}``."""
    try:
        with open(record_path(path), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    replaced = data.get("replaced")
    return {"replaced": replaced if isinstance(replaced, str) else None, "created": data.get("created") is True}


def write(path: str, text: str, replaced: str | None = None, turning_off: bool = True) -> None:
    """Write ``text``; turning the sandbox off, record what was there; putting it back, forget the record
    (and remove a file sync had created, when nothing else is left in it)."""
    from cupcake.stores.atomic_write import write_atomically

    existed = os.path.exists(path)
    record = recorded(path)
    if not turning_off and record and record["created"] and not text.strip():
        os.unlink(path)
        _forget(path)
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if existed:
        with open(path, "rb") as f, open(path + ".bak", "wb") as backup:
            backup.write(f.read())
    write_atomically(path, text.encode("utf-8"))
    if turning_off:
        data = {"replaced": replaced, "created": not existed}
        write_atomically(record_path(path), (json.dumps(data) + "\n").encode())
    else:
        _forget(path)


def _forget(path: str) -> None:
    try:
        os.unlink(record_path(path))
    except FileNotFoundError:
        pass
