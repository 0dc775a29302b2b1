"""Finding every CLAUDE.md that holds rules for this project, and where each came from.

- the current directory and every directory above it, up to the filesystem root;
- every subdirectory below the current directory, except ``.git``, ``node_modules``, virtualenvs,
  Cupcake's own ``.cupcake`` and whatever git ignores (asked of git, one call per directory level);
- ``~/.claude/CLAUDE.md``, the user's own rules (they become user policies);
- ``@path`` imports inside any of these, followed to ``MAX_IMPORT_DEPTH`` (see ``imports``).

In each directory both ``CLAUDE.md`` and ``.claude/CLAUDE.md`` count, as in Claude Code.
"""

from __future__ import annotations

import os

from cupcake.agents.catalog import memory_files
from cupcake.init.ignored import GitIgnore
from cupcake.init.imports import MAX_IMPORT_DEPTH, follow_imports
from cupcake.init.memory import PROJECT, USER, Finding, Memory, read_memory

MEMORY_NAMES, USER_MEMORY = memory_files()
SKIPPED_DIRS = frozenset({".git", "node_modules", ".cupcake", "__pycache__", ".hg", ".svn"})
MAX_DIRS = 20_000  # directories looked into below the current one before the search stops


class Discovery:
    """Everything found, in the order the agent reads it."""

    def __init__(self, cwd: str, root: str, home: str):
        self.cwd = cwd
        self.root = root
        self.home = home
        self.memories: list[Memory] = []
        self.findings: list[Finding] = []

    def shown(self, path: str) -> str:
        """A path for people: relative to the current directory when below it or in a directory
        above it, else ``~/…`` under HOME, else absolute."""
        if path.startswith(self.cwd.rstrip("/") + "/"):
            return path[len(self.cwd.rstrip("/")) + 1 :]
        if self.cwd.startswith(os.path.dirname(path).rstrip("/") + "/"):
            return os.path.relpath(path, self.cwd)  # ../CLAUDE.md, ../../CLAUDE.md
        if self.home and path.startswith(self.home.rstrip("/") + "/"):
            return "~/" + path[len(self.home.rstrip("/")) + 1 :]
        return path

    def origin_text(self, memory: Memory) -> str:
        if memory.imported_by is not None:
            return f"imported by {self.shown(memory.imported_by.path)}:{memory.line}"
        return {
            "user memory": "your own rules, for every project",
            "current directory": "the current directory",
            "parent directory": "a directory above this one",
            "subdirectory": "a subdirectory",
        }.get(memory.origin, memory.origin)

    def of_scope(self, scope: str) -> list[Memory]:
        return [m for m in self.memories if m.scope == scope]


def discover(cwd: str, root: str, env) -> Discovery:
    cwd = os.path.realpath(cwd)
    home = os.path.realpath(env.get("HOME") or os.path.expanduser("~"))
    found = Discovery(cwd, os.path.realpath(root), home)
    seen: set[str] = set()
    starts: list[Memory] = []

    def add(path: str, scope: str, origin: str) -> None:
        if not os.path.isfile(path):
            return
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            starts.append(Memory(real, scope, origin))

    add(os.path.join(home, USER_MEMORY), USER, "user memory")
    for directory, origin in _upwards(cwd):
        for name in MEMORY_NAMES:
            add(os.path.join(directory, name), PROJECT, origin)
    ignore = GitIgnore(env)
    for directory in _subdirectories(cwd, ignore, found):
        for name in MEMORY_NAMES:
            add(os.path.join(directory, name), PROJECT, "subdirectory")
    if ignore.problem:
        found.findings.append(Finding("", ignore.problem))

    included = set(seen)
    for memory in starts:
        read_memory(memory, found)
        found.memories.append(memory)
        for imported in follow_imports(memory, included, found, home):
            found.memories.append(imported)
    return found


def _upwards(cwd: str):
    """The current directory, then each one above it, nearest first."""
    yield cwd, "current directory"
    here = cwd
    while True:
        up = os.path.dirname(here)
        if up == here:
            return
        here = up
        yield here, "parent directory"


def _is_virtualenv(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "pyvenv.cfg")) or os.path.isdir(os.path.join(path, "conda-meta"))


def _subdirectories(cwd: str, ignore: GitIgnore, found: Discovery):
    """Every directory below ``cwd`` worth searching, level by level (one git call per level and
    repository), sorted within a level; symlinks are not followed."""
    repo_of = {cwd: _repository(cwd)}
    level = [cwd]
    visited = 0
    while level:
        candidates: list[str] = []
        for directory in level:
            try:
                entries = sorted(os.scandir(directory), key=lambda e: e.name)
            except OSError:
                continue
            own_repo = directory if os.path.exists(os.path.join(directory, ".git")) else repo_of[directory]
            for entry in entries:
                try:
                    if not entry.is_dir(follow_symlinks=False):
                        continue
                except OSError:
                    continue
                if entry.name in SKIPPED_DIRS or _is_virtualenv(entry.path):
                    continue
                repo_of[entry.path] = own_repo
                candidates.append(entry.path)
        by_repo: dict[str, list[str]] = {}
        for path in candidates:
            if repo_of[path] is not None:
                by_repo.setdefault(repo_of[path], []).append(path)
        ignored: set[str] = set()
        for repo, paths in by_repo.items():
            ignored |= ignore.ignored(repo, paths)
        level = []
        for path in candidates:
            if path in ignored:
                continue
            visited += 1
            if visited > MAX_DIRS:
                found.findings.append(
                    Finding(
                        "",
                        f"stopped searching subdirectories after {MAX_DIRS:,} directories; "
                        "run `cupcake init` from a smaller directory to search deeper",
                    )
                )
                return
            yield path
            level.append(path)


def _repository(directory: str):
    """The nearest directory at or above ``directory`` holding ``.git``, or None."""
    here = directory
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        up = os.path.dirname(here)
        if up == here:
            return None
        here = up


__all__ = ["Discovery", "Finding", "Memory", "MAX_IMPORT_DEPTH", "PROJECT", "USER", "discover"]
