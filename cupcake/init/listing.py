"""``cupcake init --list``: every file of rules found, whose rules they are and where each came from."""

from __future__ import annotations

import json


def listing_lines(discovery) -> list[str]:
    lines = [f"Project root: {discovery.root}"]
    if not discovery.memories:
        lines.append("No CLAUDE.md found: not in this directory, above it, below it, nor ~/.claude/CLAUDE.md.")
    else:
        lines.append("Rules found, in the order the agent reads them:")
        width = max(len(discovery.shown(m.path)) for m in discovery.memories)
        for memory in discovery.memories:
            shown = discovery.shown(memory.path)
            lines.append(f"  {memory.scope:<8} {shown:<{width}}  {discovery.origin_text(memory)}")
    if discovery.findings:
        lines.append("Noticed:")
        lines.extend(f"  {finding}" for finding in discovery.findings)
    return lines


def listing_json(discovery) -> str:
    files = [
        {
            "path": m.path,
            "shown": discovery.shown(m.path),
            "scope": m.scope,
            "origin": m.origin,
            "imported_by": m.imported_by.path if m.imported_by is not None else None,
            "line": m.line,
            "depth": m.depth,
        }
        for m in discovery.memories
    ]
    findings = [{"where": f.where, "message": f.message} for f in discovery.findings]
    return json.dumps({"root": discovery.root, "files": files, "findings": findings}, indent=2)
