"""Every agent's hook file (a JSON settings file) read without trusting it and written without ever
losing it: what ``sync`` and ``doctor`` use for all six agents.

A file that is not valid JSON (or is empty: a truncated write?) is never overwritten: the error names
the file and the position. Writes go through Cupcake's one atomic writer (``stores/atomic_write.py``),
flushed to disk; the previous content is kept beside the file as ``<name>.bak``. A symlinked file
(dotfile managers do that) stays a symlink: the file it points at is the one replaced. ``Edits`` is one
sync's set of files: each read once, changed in memory by the agent's installer, written at the end.
"""

from __future__ import annotations

import json
import os

from cupcake.stores.atomic_write import mode_of, write_atomically


class SettingsFileError(Exception):
    """The file cannot be read or written safely: which file, what is wrong, and what to do."""

    def __init__(self, label: str, what: str, advice: str = ""):
        super().__init__(label, what, advice)
        self.label = label
        self.what = what
        self.advice = advice

    def __str__(self) -> str:
        return f"{self.label}: {self.what}" + (f". {self.advice}" if self.advice else "")


BACKUP_SUFFIX = ".bak"
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
    try:
        current = _read_bytes(target)
    except OSError as exc:
        raise SettingsFileError(loaded.label, f"cannot write it: {exc.strerror or exc}") from None
    if current != loaded.raw:
        raise SettingsFileError(
            loaded.label, "changed while Cupcake was editing it; nothing was written", "Run this again"
        )
    mode = mode_of(target)
    try:
        if backup and current is not None:
            write_atomically(target + BACKUP_SUFFIX, current, mode, durable=True)
        write_atomically(target, text.encode("utf-8"), mode, durable=True)
    except OSError as exc:
        raise SettingsFileError(loaded.label, f"cannot write it: {exc.strerror or exc}") from None


def _read_bytes(path: str):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def replace(path: str, data: bytes, mode=None) -> None:
    """Write a file of the agent's (beside its settings) through the one writer: durable, through a
    symlink, with the existing file's permissions (or a new file's under the umask) unless ``mode``."""
    write_atomically(path, data, mode_of(path) if mode is None else mode, follow_link=True, durable=True)


class Edits:
    """The files one ``sync`` changes: each read once (``text``), changed in memory (``set``), and
    written together at the end (``changed`` lists them); ``label`` names a path in messages."""

    def __init__(self, label):
        self.label = label
        self.loaded: dict[str, Loaded] = {}
        self.texts: dict[str, str] = {}
        self.then: list = []  # what to do once every file is written (a record of what was added)

    def after(self, action) -> None:
        self.then.append(action)

    def text(self, path: str) -> str:
        """The file's text as this sync leaves it so far ("" for a file that does not exist)."""
        if path not in self.loaded:
            self.loaded[path] = read(path, self.label(path))
        if path in self.texts:
            return self.texts[path]
        return self.loaded[path].text or ""

    def exists(self, path: str) -> bool:
        self.text(path)
        return self.loaded[path].exists

    def set(self, path: str, text: str) -> None:
        self.text(path)
        self.texts[path] = text

    def changed(self) -> list[tuple[Loaded, str]]:
        """(the file as read, its new text) of every file whose text changed, in the order first read."""
        return [
            (loaded, self.texts[path])
            for path, loaded in self.loaded.items()
            if path in self.texts and self.texts[path] != (loaded.text if loaded.exists else None)
        ]
