"""Shared helpers for the Bash reader's tests: a project root, a home, and short views of a parse."""

from __future__ import annotations

import pathlib
import tomllib

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


def corpus_commands() -> list:
    """Every Bash line of the test corpora (tests/corpus and tests/shell/corpus), in file order."""
    tests = pathlib.Path(__file__).resolve().parents[1]
    found: list = []

    def collect(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "command" and isinstance(value, str):
                    found.append(value)
                else:
                    collect(value)
        elif isinstance(node, list):
            for item in node:
                collect(item)

    for path in sorted((tests / "corpus").rglob("*.toml")) + sorted((tests / "shell" / "corpus").rglob("*.toml")):
        collect(tomllib.loads(path.read_text(encoding="utf-8")))
    return found
