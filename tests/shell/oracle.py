"""Bash as the oracle: run a command in real bash, inside a bubblewrap jail (the host read-only, the
work directory writable, no network), with stub programs first on PATH that log their name, working
directory and arguments; then compare with what the reader claims. Every program bash ran must be
one the reader said would run, with those arguments, in that directory; every file bash wrote must
be one the reader said could be written. The reader may claim more (it is conservative); it may
say it cannot tell (an unknown, a syntax error, a bound passed), and then the hook denies anyway.
Wrappers (env, nice, timeout, xargs, find) are the real ones: they run the stubs in turn."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

STUBS = (
    "prog",
    "tool",
    "rm",
    "cp",
    "mv",
    "touch",
    "mkdir",
    "ln",
    "chmod",
    "tee",
    "git",
    "make",
    "python3",
    "cat",
    "ls",
    "sed",
    "awk",
    "grep",
    "sort",
    "curl",
    "node",
)
_FIELD, _RECORD = "\x1f", "\x1e"
STUB = """#!/bin/sh
r="${0##*/}$(printf '\\037')$(pwd -P)"
for a in "$@"; do r="$r$(printf '\\037')$a"; done
printf '%s\\036' "$r" >> "$ORACLE_LOG"
"""


def available() -> bool:
    if shutil.which("bwrap") is None or shutil.which("bash") is None:
        return False
    done = subprocess.run(["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--", "true"], capture_output=True)
    return done.returncode == 0


def stubs(base: Path) -> Path:
    directory = base / "stubs"
    directory.mkdir(exist_ok=True)
    for name in STUBS:
        path = directory / name
        path.write_text(STUB)
        path.chmod(0o755)
    return directory


def _snapshot(root: Path) -> dict:
    found = {}
    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".oracle"]
        for name in files + dirs:
            path = os.path.join(top, name)
            try:
                if os.path.islink(path) or os.path.isdir(path):
                    found[path] = "dir-or-link"
                else:
                    found[path] = hashlib.sha1(Path(path).read_bytes()).hexdigest()
            except OSError:
                found[path] = "unreadable"
    return found


def run(command: str, work: Path, stub_dir: Path, timeout: float = 10.0):
    """Run ``command`` in bash in the jail, from ``work``: (invocations, changed paths, exit code).
    An invocation is (program, physical cwd, [args])."""
    log = work / ".oracle" / "log"
    log.parent.mkdir(exist_ok=True)
    log.write_text("")
    before = _snapshot(work)
    home = work / "home"
    argv = [
        "bwrap",
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", "/tmp",
        "--bind", str(work), str(work),
        "--ro-bind", str(stub_dir), str(stub_dir),
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--chdir", str(work),
        "--clearenv",
        "--setenv", "PATH", f"{stub_dir}:/usr/bin:/bin",
        "--setenv", "HOME", str(home),
        "--setenv", "ORACLE_LOG", str(log),
        "--setenv", "LC_ALL", "C",
        "--",
        "bash", "-c", command,
    ]  # fmt: skip
    try:
        done = subprocess.run(argv, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
        code = done.returncode
    except subprocess.TimeoutExpired:
        code = None
    records = [r for r in log.read_text(errors="replace").split(_RECORD) if r]
    calls = []
    for record in records:
        fields = record.split(_FIELD)
        calls.append((fields[0], fields[1], fields[2:]))
    after = _snapshot(work)
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    return calls, changed, code


def args_match(words, actual: list, fold: bool = False) -> bool:
    """Whether the reader's words (patterns where it could not know) could be these arguments: an
    exact word is one argument; a glob or an unknown word any number of matching arguments."""
    return _match(list(words), 0, actual, 0, fold)


def _match(words, i: int, actual: list, j: int, fold: bool) -> bool:
    if i == len(words):
        return j == len(actual)
    word = words[i]
    if word.exact:
        return j < len(actual) and actual[j] == word.value and _match(words, i + 1, actual, j + 1, fold)
    for k in range(j, len(actual) + 1):  # a pattern or an unknown: zero or more arguments
        if all(_could(word, a, fold) for a in actual[j:k]) and _match(words, i + 1, actual, k, fold):
            return True
    return False


def _could(word, arg: str, fold: bool) -> bool:
    from cupcake.shell.words import match

    if not word.known:
        return True
    return match(word.pattern(), arg, fold) or arg == word.value
