"""The layers that decide one tool call in an agent, besides Cupcake: the agent's own permission rules,
its permission mode, other hooks, managed (admin) settings. Agent-neutral data; each adapter's
``layers`` module reads its agent's files into these and combines them by that agent's documented
precedence (``cupcake.effective`` shows them, for ``explain`` and ``doctor``).

What a layer says about the call: ``ALLOW`` (runs without asking), ``DENY``, ``ASK`` (the person is
asked), ``NONE`` (no opinion: the next layer decides), ``UNKNOWN`` (it cannot be known without running
it, such as another hook, which is a program). Nothing is guessed: what is not known is said."""

from __future__ import annotations

import json
import os

ALLOW, DENY, ASK, NONE, UNKNOWN = "allow", "deny", "ask", "none", "unknown"


class Layer:
    __slots__ = ("kind", "where", "says", "why")

    def __init__(self, kind: str, where: str, says: str, why: str):
        self.kind = kind  # "Cupcake", "permission rule", "permission mode", "hook", "policy rule", "setting", …
        self.where = where  # the file (as shown to the person), or what it is
        self.says = says
        self.why = why  # the rule or setting, and what it means here

    def as_dict(self) -> dict:
        return {"kind": self.kind, "where": self.where, "says": self.says, "why": self.why}

    def __repr__(self) -> str:
        return f"Layer({self.kind!r}, {self.where!r}, {self.says!r}, {self.why!r})"


class Effective:
    """What the agent does with the call: ``decision`` (allow, deny, ask), the ``winner`` (the layer that
    decides, None when it is the agent's own default), ``precedence`` (the rule that picked it), and
    ``caveats`` (layers whose answer is not known and could change it)."""

    __slots__ = ("decision", "winner", "precedence", "caveats")

    def __init__(self, decision: str, winner, precedence: str, caveats=()):
        self.decision = decision
        self.winner = winner
        self.precedence = precedence
        self.caveats = list(caveats)

    def as_dict(self) -> dict:
        return {
            "decision": self.decision,
            "winner": self.winner.as_dict() if self.winner is not None else None,
            "precedence": self.precedence,
            "caveats": self.caveats,
        }


def read_json(path: str):
    """The file's JSON object, None when absent, or the string saying why it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read(4 << 20)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    try:
        value = json.loads(data)
    except ValueError as exc:
        return f"is not valid JSON ({exc})"
    return value if isinstance(value, dict) else "is not a JSON object"


def shown(path: str, root: str, home: str) -> str:
    """A file as the person knows it: relative to the project, under ``~``, or absolute."""
    if path.startswith(root.rstrip("/") + "/"):
        return path[len(root.rstrip("/")) + 1 :]
    if home and path.startswith(home.rstrip("/") + "/"):
        return "~/" + path[len(home.rstrip("/")) + 1 :]
    return path


def files_in(folder: str, suffix: str) -> list[str]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names if n.endswith(suffix)]


def foreign_hooks(hooks, events, tool: str | None, matches, is_cupcake, where: str) -> list[Layer]:
    """Every handler of ``events`` in a grouped ``hooks`` object (Claude Code's shape) whose matcher
    accepts ``tool`` and that is not Cupcake's: a program, so what it answers is not known."""
    found: list[Layer] = []
    if not isinstance(hooks, dict):
        return found
    for event in events:
        groups = hooks.get(event)
        for group in groups if isinstance(groups, list) else ():
            if not isinstance(group, dict):
                continue
            matcher = group.get("matcher")
            if tool is not None and not matches(matcher, tool):
                continue
            for handler in group.get("hooks") or ():
                if not isinstance(handler, dict):
                    continue
                command = handler.get("command") if isinstance(handler.get("command"), str) else handler.get("type")
                if is_cupcake(handler.get("command")):
                    continue
                found.append(
                    Layer(
                        "hook",
                        where,
                        UNKNOWN,
                        f"{event} hook `{str(command)[:200]}`"
                        + (f" (matcher {matcher!r})" if matcher not in (None, "", "*") else "")
                        + ": a program, so what it answers is not known without running it",
                    )
                )
    return found
