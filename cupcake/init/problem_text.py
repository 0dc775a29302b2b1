"""A loader problem as one line, as `cupcake validate` prints it: ``file:line: policy "…": what``."""

from __future__ import annotations


def problem_line(problem: dict) -> str:
    where = f"{problem['file']}:{problem['line']}" if problem["line"] else problem["file"]
    who = f' policy "{problem["policy"]}":' if problem["policy"] else ""
    return f"{where}:{who} {problem['message']}"
