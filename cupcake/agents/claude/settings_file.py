"""Reading a Claude Code settings file without trusting it, and writing one without ever losing it.

A file that is not valid JSON is never overwritten: the error names the file and the position.
Writes go to a temporary file in the same directory, are flushed to disk, and replace the file in
one rename; the previous content is kept beside it as ``<name>.bak``. A symlinked file (dotfile
managers do that) stays a symlink: the file it points at is the one replaced.
"""

from __future__ import annotations

import json
import os
import tempfile


class SettingsFileError(Exception):
    """The file cannot be read or written safely: which file, what is wrong, and what to do."""

    def __init__(self, label: str, what: str, advice: str = ""):
        super().__init__(label, what, advice)
        self.label = label
        self.what = what
        self.advice = advice

    def __str__(self) -> str:
        return f"{self.label}: {self.what}" + (f". {self.advice}" if self.advice else "")


_KEEP = "Cupcake leaves it as it is"
_NEVER = "Cupcake never overwrites a file it cannot read (comments and trailing commas are not JSON): fix it, then run this again"


class Loaded:
    """A settings file as read: its text (None when it does not exist) and the exact bytes."""

    __slots__ = ("path", "label", "text", "raw")

    def __init__(self, path: str, label: str, text, raw):
        self.path = path
        self.label = label
        self.text = text
        self.raw = raw

    @property
    def exists(self) -> bool:
        return self.raw is not None


def read(path: str, label: str) -> Loaded:
    """The file's text, checked to be a JSON object; SettingsFileError when it is not usable."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return Loaded(path, label, None, None)
    except OSError as exc:
        raise SettingsFileError(label, f"cannot read it: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SettingsFileError(label, f"not UTF-8 text (byte {exc.start + 1})", _KEEP) from None
    check_json(text, label)
    return Loaded(path, label, text, raw)


def check_json(text: str, label: str) -> None:
    """Raise SettingsFileError, with line and column, unless ``text`` is one JSON object."""
    if not text.strip():
        raise SettingsFileError(
            label,
            "the file is empty (a truncated write?), so it is not valid JSON",
            "Cupcake never overwrites it: write {} into it, or delete it, then run this again",
        )
    constants: list[str] = []
    try:
        value = json.loads(text, parse_constant=constants.append)
    except json.JSONDecodeError as exc:
        raise SettingsFileError(
            label, f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", _NEVER
        ) from None
    except RecursionError:
        raise SettingsFileError(label, "nested too deeply to read", _KEEP) from None
    if constants:  # NaN, Infinity: Python reads them, JSON (and Claude Code) does not
        line, column = _position_of_constant(text)
        raise SettingsFileError(
            label, f"not valid JSON at line {line}, column {column}: {constants[0]} is not a JSON value", _NEVER
        )
    if not isinstance(value, dict):
        raise SettingsFileError(label, f"the top level is a JSON {_kind(value)}, not an object", _KEEP)


def _position_of_constant(text: str):
    from cupcake.agents.jsonedit import Document

    doc = Document(text)
    stack = [doc.root]
    while stack:
        node = stack.pop()
        if (
            node.kind == "scalar"
            and text[node.start] in "NI-"
            and text[node.start : node.end].lstrip("-") in ("NaN", "Infinity")
        ):
            return doc.line_of(node.start), node.start - text.rfind("\n", 0, node.start)
        children = node.children() if node.kind != "scalar" else []
        stack.extend(reversed([getattr(c, "value", c) for c in children]))
    return 1, 1


def _kind(value) -> str:
    return {list: "array", str: "string", bool: "boolean", type(None): "null"}.get(type(value), "number")


def write(loaded: Loaded, text: str, backup: bool = True) -> None:
    """Replace the file with ``text`` atomically, keeping the previous content as ``<name>.bak``.

    Refuses when the file changed since it was read (another program wrote it meanwhile)."""
    target = os.path.realpath(loaded.path)
    directory = os.path.dirname(target)
    try:
        os.makedirs(directory, exist_ok=True)
        current = _read_bytes(target)
    except OSError as exc:
        raise SettingsFileError(loaded.label, f"cannot write it: {exc.strerror or exc}") from None
    if current != loaded.raw:
        raise SettingsFileError(
            loaded.label, "changed while Cupcake was editing it; nothing was written", "Run this again"
        )
    mode = _mode_of(target)
    try:
        if backup and current is not None:
            replace_atomically(target + ".bak", current, mode)
        replace_atomically(target, text.encode("utf-8"), mode)
    except OSError as exc:
        raise SettingsFileError(loaded.label, f"cannot write it: {exc.strerror or exc}") from None


def replace_atomically(path: str, data: bytes, mode=None) -> None:
    """Write ``data`` to a temporary file beside ``path``, fsync it, and rename it over ``path``
    (over the file a symlink points at, so the symlink stays)."""
    path = os.path.realpath(path)
    directory = os.path.dirname(path)
    if mode is None:
        mode = _mode_of(path)
    fd, temporary = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            os.fchmod(f.fileno(), mode)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def _read_bytes(path: str):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _mode_of(path: str) -> int:
    """The existing file's permissions, else what a new file gets under the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask
