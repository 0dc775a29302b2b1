"""``@path`` imports in CLAUDE.md files, followed as Claude Code follows them.

An import is ``@`` at the start of a line or after whitespace, then a path: relative to the importing
file, ``~/…`` under HOME, or absolute. Inside code spans and fenced code blocks it is text, not an
import. Imports are followed to ``MAX_IMPORT_DEPTH`` hops; a cycle is reported and not followed
again; a file reached twice is read once; a missing file is reported.
"""

from __future__ import annotations

import os
import re

from cupcake.init.memory import Finding, Memory, read_memory

MAX_IMPORT_DEPTH = 5

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_IMPORT = re.compile(r"(?:^|(?<=\s))@((?:[^\s\\]|\\ )+)")
_TRAILING = ".,;:!?)]}'\""


def import_references(text: str):
    """``(line number, path as written)`` for each import in ``text``."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        line = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        for match in _IMPORT.finditer(line):
            yield number, match.group(1).replace("\\ ", " ")


def _resolve(written: str, importer: str, home: str) -> str:
    if written.startswith("~/"):
        path = os.path.join(home, written[2:])
    else:
        path = os.path.join(os.path.dirname(importer), written)
    return os.path.realpath(path)


def follow_imports(start: Memory, included: set[str], found, home: str) -> list[Memory]:
    """The files ``start`` imports, directly or not, each right after its importer (depth first).
    ``included`` holds every file already given to the agent and grows as files are added."""
    out: list[Memory] = []

    def visit(memory: Memory, chain: list[str]) -> None:
        for line, written in import_references(memory.text):
            where = f"{found.shown(memory.path)}:{line}"
            path = _resolve(written, memory.path, home)
            if not os.path.exists(path):  # "See @docs/style.md." ends a sentence, not the path
                written = written.rstrip(_TRAILING) or written
                path = _resolve(written, memory.path, home)
                if not os.path.exists(path):
                    found.findings.append(Finding(where, f"@{written}: no such file (not imported)"))
                    continue
            if path in chain:
                loop = " → ".join(found.shown(p) for p in chain[chain.index(path) :] + [path])
                found.findings.append(Finding(where, f"@{written}: import cycle ({loop}); not followed again"))
                continue
            if os.path.isdir(path):
                found.findings.append(Finding(where, f"@{written}: is a directory (not imported)"))
                continue
            if path in included:
                continue
            if memory.depth + 1 > MAX_IMPORT_DEPTH:
                found.findings.append(
                    Finding(where, f"@{written}: not followed: imports go at most {MAX_IMPORT_DEPTH} levels deep")
                )
                continue
            included.add(path)
            child = Memory(path, memory.scope, "import", memory.depth + 1, imported_by=memory, line=line)
            read_memory(child, found)
            out.append(child)
            visit(child, chain + [path])

    visit(start, [start.path])
    return out
