"""``imports = ["policies/*.toml", "extra.toml"]``: the policy files a top-level policy file pulls in
(cold path).

Entries are read in list order, a glob's matches sorted by path. Every entry is relative to the
importing file's directory and must stay inside it: no absolute path, no ``..``, no symlink that
leads out, nothing under ``.cupcake/``. Besides the files found, the expansion returns the
identity (``project.file_identity``) of every directory it looked into and every literal path it
looked for, each taken just before looking, so the cache can tell when a new file starts matching a
glob: adding an entry to a directory changes that directory's mtime."""

from __future__ import annotations

import os
import stat

from cupcake.project import WORK_DIR, file_identity
from cupcake.shell.globmatch import has_magic, match_name

MAX_DIRS = 500  # a ``**`` that scans more than this is refused: every warm run would stat them all
MAX_FILES = 500  # files one entry imports: beyond, the entry is refused (each is read and compiled)


class Found:
    """One imported file: its path, the 0-based ``imports`` entry that named it."""

    __slots__ = ("path", "entry")

    def __init__(self, path: str, entry: int):
        self.path = path
        self.entry = entry


class Expansion:
    __slots__ = ("files", "watched", "patterns")

    def __init__(self):
        self.files: list[Found] = []
        self.watched: list = []  # identities of the directories scanned and literal paths looked for
        self.patterns: list[tuple[str, str]] = []  # (base directory, pattern) of each usable entry


def expand(importer: str, entries, report, warn) -> Expansion:
    """The files ``importer``'s ``imports`` names, in order. ``report(message, entry)`` records
    an error, ``warn(message, entry)`` a warning (``entry`` is the 0-based position, or None)."""
    out = Expansion()
    base = os.path.dirname(os.path.abspath(importer))
    real_base = os.path.realpath(base)
    real_importer = os.path.realpath(importer)
    if not isinstance(entries, list):
        report('`imports` must be an array of paths or globs, such as ["policies/*.toml"]', None)
        return out
    seen: dict[str, int] = {}
    for n, entry in enumerate(entries):
        if isinstance(entry, str) and entry.startswith("cupcake:"):
            continue  # a built-in rule pack (``cupcake.packs``), read by the compiler
        parts = _parts(entry, n, report)
        if parts is None:
            continue
        out.patterns.append((base, "/".join(parts)))  # protected even when it cannot be read
        if parts[0] == "**":
            warn(
                f'"{entry}" scans every folder beside this file: each of them is then protected from the agent '
                "(a new folder could change what is imported); name the folder the policies are in",
                n,
            )
        matches, watched, too_many, unreadable = _walk(base, parts)
        out.watched.extend(watched)
        if too_many:
            report(f'"{entry}" scans more than {MAX_DIRS} directories; name the directory the policies are in', n)
            continue
        for folder, why in unreadable:  # the files found elsewhere are still imported
            shown = os.path.relpath(folder, base)
            report(f'"{entry}" cannot be read completely: the folder "{shown}" cannot be listed ({why})', n)
        if len(matches) > MAX_FILES:
            report(f'"{entry}" matches more than {MAX_FILES} files; name fewer', n)
            continue
        if not matches:
            if has_magic(entry):
                warn(f'"{entry}" matches no file (yet)', n)
            else:
                report(f'imported file "{entry}" does not exist', n)
            continue
        for path in matches:
            shown = os.path.relpath(path, base)
            real = os.path.realpath(path)
            if real != real_base and not real.startswith(real_base.rstrip("/") + "/"):
                report(f'"{shown}" leads outside the importing file\'s directory (through a symbolic link): refused', n)
                continue
            if real.startswith(os.path.join(real_base, WORK_DIR) + "/"):
                report(f'"{shown}" leads into {WORK_DIR}/, which holds Cupcake\'s own data, never policies', n)
                continue
            if real == real_importer:
                report(f'"{shown}" is the importing file itself (an import cycle)', n)
                continue
            try:
                st = os.stat(real)
            except OSError as exc:
                report(f'cannot read the imported file "{shown}": {exc.strerror or exc}', n)
                continue
            if not stat.S_ISREG(st.st_mode):
                if has_magic(entry):
                    continue
                if stat.S_ISDIR(st.st_mode):
                    report(f'"{shown}" is a directory: to import the files in it, write "{shown}/*.toml"', n)
                else:
                    report(f'"{shown}" is not a regular file', n)
                continue
            if real in seen:
                if seen[real] != n:
                    warn(f'"{shown}" is already imported by entry {seen[real] + 1}; it is read once, there', n)
                continue
            seen[real] = n
            out.files.append(Found(path, n))
    return out


def _parts(entry, n: int, report):
    """The entry's path components, or None (reported) when it is not allowed."""
    if not isinstance(entry, str) or not entry.strip():
        report('each `imports` entry must be a non-empty string, such as "policies/*.toml"', n)
        return None
    if entry.startswith(("/", "~")):
        report(f'"{entry}" is not relative: imports must stay inside the project (paths relative to this file)', n)
        return None
    parts = [p for p in entry.split("/") if p not in ("", ".")]
    if ".." in parts:
        report(
            f'"{entry}" leads outside the project (".."): imports must stay inside the importing file\'s directory', n
        )
        return None
    if not parts:
        report(f'"{entry}" names no file', n)
        return None
    if parts[0] == WORK_DIR:
        report(f'"{entry}" is inside {WORK_DIR}/, which holds Cupcake\'s own data, never policies', n)
        return None
    return parts


def _walk(base: str, parts):
    """(files matching ``parts`` under ``base`` sorted by path, places looked at, too many dirs,
    [(folder, why)] of the folders that could not be listed)."""
    current = [base]
    watched: list = []
    matches: list[str] = []
    unreadable: list = []

    def entries(directory: str) -> list:
        listed, why = _entries(directory)
        if why is not None and (directory, why) not in unreadable:
            unreadable.append((directory, why))
        return listed

    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        following: list[str] = []
        if part == "**":
            for directory in current:
                for found in _below(directory, entries):
                    following.append(found)
                    watched.append(file_identity(found))
                    if len(watched) > MAX_DIRS:
                        return [], watched, True, unreadable
            following = list(dict.fromkeys(following))
            if last:  # "dir/**": every file below
                for directory in following:
                    for entry in entries(directory):
                        if not entry.name.startswith(".") and _is_file(entry):
                            matches.append(entry.path)
            current = following
            continue
        for directory in current:
            if has_magic(part):
                watched.append(file_identity(directory))  # before listing: a file added after is seen
                for entry in entries(directory):
                    if not match_name(part, entry.name):
                        continue
                    if last:
                        if _is_file(entry):
                            matches.append(entry.path)
                    elif _is_dir(entry):
                        following.append(entry.path)
            else:
                path = os.path.join(directory, part)
                watched.append(file_identity(path))
                kind = _kind(path, unreadable)
                if last:
                    if kind is not None:
                        matches.append(path)
                elif kind == "dir":
                    following.append(path)
        current = following
    matches = sorted(dict.fromkeys(matches), key=lambda p: os.path.relpath(p, base))
    return matches, list(dict.fromkeys(watched)), False, unreadable


def _entries(directory: str):
    """(the directory's entries sorted by name, None), or ([], why) when it cannot be listed; a
    directory that does not exist has no entries and is no error."""
    try:
        with os.scandir(directory) as it:
            return sorted(it, key=lambda e: e.name), None
    except FileNotFoundError:
        return [], None
    except OSError as exc:
        return [], exc.strerror or str(exc)


def _kind(path: str, unreadable: list):
    """ "dir", "other", or None when ``path`` does not exist; a path that cannot be looked at (a folder
    on the way without search permission) is recorded in ``unreadable``, never taken as absent."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        folder = os.path.dirname(path)
        why = exc.strerror or str(exc)
        if (folder, why) not in unreadable:
            unreadable.append((folder, why))
        return None
    if stat.S_ISLNK(st.st_mode):
        try:
            st = os.stat(path)
        except OSError:
            return "other"
    return "dir" if stat.S_ISDIR(st.st_mode) else "other"


def _below(directory: str, entries):
    """``directory`` and every directory below it (hidden ones and symlinks skipped)."""
    yield directory
    for entry in entries(directory):
        if not entry.name.startswith(".") and entry.is_dir(follow_symlinks=False):
            yield from _below(entry.path, entries)


def _is_file(entry) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _is_dir(entry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False
