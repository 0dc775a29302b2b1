"""The project root, the policy files' locations, and how a path is shown to conditions."""

from __future__ import annotations

import sys

from cupcake import lean_os as os

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

PROJECT_FILE = "cupcake.toml"
# The user's policy file (under HOME), the same for every agent: Cupcake's contract, kept where it began,
# beside the default agent's (Claude Code's) user settings.
USER_FILE = ".claude/cupcake.toml"
WORK_DIR = ".cupcake"

# The organisation's tier: a policy file no project or user file can weaken, in a folder only an
# administrator can write. Cupcake runs on Linux and macOS; the Windows folder is where it would go.
MANAGED_FILE = "cupcake.toml"
MANAGED_DIRS = {
    "linux": "/etc/cupcake",
    "darwin": "/Library/Application Support/Cupcake",
    "win32": "C:\\ProgramData\\Cupcake",
}
# The tests put every system path Cupcake reads or writes (this folder, the agents' managed settings) under
# a stand-in root with this variable, but only an installation that carries the marker file below beside
# this module listens to it: the test suite writes the marker into the installation it tests while it
# runs, and removes it at the end; a release has none. Why not the variable alone: an agent cannot set the hook's environment, but it can start
# another agent with whatever environment it likes (`CUPCAKE_TEST_SYSTEM_ROOT=/tmp claude -p …`), and that
# agent's hooks would inherit it. Whoever can create the marker can rewrite this module too, so it opens
# nothing that was closed.
SYSTEM_ROOT_VARIABLE = "CUPCAKE_TEST_SYSTEM_ROOT"
SYSTEM_ROOT_MARKER = "_system_root_for_tests"
TIERS = ("managed", "project", "user")  # the order the policy files are evaluated in


def find_root(project_dir: str | None, cwd: object) -> str:
    """The project directory the agent names (``project_dir``, from its adapter), else the directory
    holding ``cupcake.toml`` found walking up from the agent's cwd (then the process's cwd), else the
    git top level, else the agent's cwd. Commands a person runs pass no ``project_dir``.

    Within a git worktree (up to the outermost folder holding ``.git`` below the home folder), the
    *outermost* ``cupcake.toml`` there is the project's: an agent that cannot name its project (Codex
    sends no project folder) and makes ``src/cupcake.toml`` (or ``src/.git``) replaces nothing.
    Elsewhere the nearest one walking up (a ``cupcake.toml`` below the root is a protected path).
    A ``.cupcake/`` directory is Cupcake's output, never a marker: ``mkdir -p src/.cupcake`` moves
    nothing."""
    given = project_dir
    if given:
        return os.path.realpath(given)
    starts = []
    if isinstance(cwd, str) and os.path.isabs(cwd):
        starts.append(cwd)
    starts.append(os.getcwd())
    home = os.path.realpath(os.path.expanduser("~"))
    git_top = None
    for n, start in enumerate(starts):
        here = os.path.realpath(start)
        tops = [d for d in walk_up(here, home) if os.path.lexists(os.path.join(d, ".git"))]
        holding = [d for d in walk_up(here, None) if os.path.isfile(os.path.join(d, PROJECT_FILE))]
        if n == 0 and tops:
            git_top = tops[0]
        if tops:
            worktree = tops[-1].rstrip("/") + "/"
            inside = [d for d in holding if (d + "/").startswith(worktree)]
            if inside:
                return inside[-1]
        if holding:
            return holding[0]
    return git_top or os.path.realpath(starts[0])


def walk_up(here: str, home: str | None) -> Iterator[str]:
    """``here`` and each folder above it; below ``home`` only, when given and ``here`` is under it."""
    stop = home if home and here.startswith(home.rstrip("/") + "/") else None
    while True:
        yield here
        up = os.path.dirname(here)
        if up == here or up == stop:
            return
        here = up


def user_policy_file(env: Mapping[str, str]) -> str:
    home = env.get("HOME") or os.path.expanduser("~")
    return os.path.join(home, USER_FILE)


def system_path(path: str, env: Mapping[str, str]) -> str:
    """A system-wide path (``/etc/…``), or the same path under the test suite's stand-in root."""
    root = env.get(SYSTEM_ROOT_VARIABLE) or os.environ.get(SYSTEM_ROOT_VARIABLE)
    if root and os.path.exists(os.path.join(os.path.dirname(__file__), SYSTEM_ROOT_MARKER)):
        return os.path.join(root, path.lstrip("/"))
    return path


def managed_dir(env: Mapping[str, str]) -> str:
    """The folder of the organisation's policy file on this system."""
    return system_path(MANAGED_DIRS.get(sys.platform, MANAGED_DIRS["linux"]), env)


def managed_policy_file(env: Mapping[str, str]) -> str:
    return os.path.join(managed_dir(env), MANAGED_FILE)


def policy_files(root: str, env: Mapping[str, str]) -> tuple[str, str, str]:
    """The organisation's file, then the project's, then the user's: one ordered list."""
    return managed_policy_file(env), os.path.join(root, PROJECT_FILE), user_policy_file(env)


def tier_of(path: str, env: Mapping[str, str]) -> str:
    """managed, user or project: which tier a top-level policy file belongs to."""
    if path == managed_policy_file(env):
        return "managed"
    if path == user_policy_file(env):
        return "user"
    return "project"


def shown_path(path: str, root: str, cwd: object = None) -> str:
    """A path as conditions see it: absolute, normalised, symlinks resolved; relative to the
    root with ``/`` separators when inside it, absolute otherwise."""
    if not os.path.isabs(path):
        path = os.path.join(cwd if isinstance(cwd, str) and os.path.isabs(cwd) else root, path)
    try:
        path = os.path.realpath(path)
    except ValueError:  # a lone surrogate or a NUL cannot name a file on disk: nothing to resolve
        path = os.path.normpath(path)
    if path == root:
        return "."
    if path.startswith(root.rstrip("/") + "/"):
        return path[len(root.rstrip("/")) + 1 :]
    return path


def label(path: str, root: str, env: Mapping[str, str]) -> str:
    """How a policy file is named in messages: relative to the root, or under ``~``."""
    home = env.get("HOME") or ""
    if path.startswith(root.rstrip("/") + "/"):
        return path[len(root.rstrip("/")) + 1 :]
    if home and path.startswith(home.rstrip("/") + "/"):
        return "~/" + path[len(home.rstrip("/")) + 1 :]
    return path


def file_identity(path: str) -> tuple:
    """What makes a cached compile valid for one file: its stat fields, or its absence."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return (path, None)
    except OSError as exc:
        return (path, f"unreadable: {exc.strerror}")
    return (path, st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
