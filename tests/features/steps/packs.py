"""Rule packs and testing policies: `cupcake packs`, Claude Code transcripts for `cupcake test`."""

from __future__ import annotations

import json

from pytest_bdd import given, parsers, then


@then(parsers.parse('the JSON output lists the pack "{name}" with the rule "{rule}"'))
def json_lists_pack(run, name, rule):
    """``cupcake packs --json``: a list of {name, description, rules}, the rule among the pack's."""
    packs = json.loads(run.answer.stdout)
    pack = next(p for p in packs if p["name"] == name)
    assert pack["description"]
    assert rule in [r["id"] for r in pack["rules"]]


@given(parsers.parse('a Claude Code transcript "{name}" with the Bash commands:'))
def transcript_with_commands(project, name, datatable):
    """A transcript ``.jsonl`` in the project: one assistant line with a Bash ``tool_use`` per row."""
    _header, *rows = datatable
    lines = []
    for n, (command,) in enumerate(rows):
        content = [{"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": command}}]
        lines.append(
            json.dumps(
                {
                    "type": "assistant",
                    "timestamp": f"2026-01-0{1 + n % 9}T10:00:00.000Z",
                    "cwd": str(project.root),
                    "message": {"role": "assistant", "content": content},
                }
            )
        )
    (project.root / name).write_text("\n".join(lines) + "\n")
