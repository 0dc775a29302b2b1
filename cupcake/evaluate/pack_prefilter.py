"""The cheap half of the packs' conditions (``pack_match``) on a Bash call: whether the line could hold
what a condition looks for, decided on its text alone (a path's literal pieces, the names of database
clients, a redirection or tee for written text, the markers of hidden code). A harmless call meets five
such conditions and none of them can hold, so ``pack_match`` and what it loads are loaded only when one
could (``conditions.holds`` asks here first)."""

from __future__ import annotations

from cupcake.evaluate.command_match import may_hold_names

# The database clients a line must name for its SQL to be read (``sql``).
CLIENT_NAMES = ("psql", "mysql", "mariadb", "sqlite", "mongo", "redis", "clickhouse", "sqlcmd", "duckdb", "cockroach")


def writes_text(command: str) -> bool:
    """Whether a Bash line could send text into a file: a redirection, tee, a here-document."""
    return ">" in command or "tee" in command or "<<" in command


def may_hold(cond, view) -> bool:
    """False only when ``cond`` cannot hold on this event: a Bash call whose line holds none of what
    the condition looks for. Any other tool, and any other kind, is for ``pack_match`` to decide."""
    if view.tool != "Bash":
        return True
    line = view.line()
    if line is None:
        return True
    kind = cond[0]
    if kind == "path":
        return not cond[5] or may_hold_names(cond[5], *line)
    if kind == "hidden_code":
        return may_hold_names(cond[1], *line)
    if kind == "sql":
        return may_hold_names(CLIENT_NAMES, *line)
    if kind == "secret":
        return writes_text(view.command)
    return True
