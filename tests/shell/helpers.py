"""Shared helpers for the Bash reader's tests: a project root, a home, and short views of a parse."""

from __future__ import annotations

from cupcake.shell import parse

ROOT = "/p"
HOME = "/h"
PROTECTED = ("/p/cupcake.toml", "/p/.cupcake/policy.cache", "/p/.claude/settings.json", "/p/.claude")


def read(command: str, cwd: str = ROOT, **kw):
    return parse(command, cwd, HOME, {"CLAUDE_PROJECT_DIR": ROOT}, check_dirs=False, **kw)


def programs(command: str, **kw):
    return [c.program for c in read(command, **kw).commands]


def hits(command: str, cwd: str = ROOT):
    """The protected paths some write of ``command`` could change."""
    script = read(command, cwd)
    return sorted({p for w in script.writes for p in PROTECTED if w.could_be(p)})
