"""The cheap half of the packs' conditions (``pack_match``) on a Bash call: whether the line could hold
what a condition looks for, decided on its text alone (a path's literal pieces, the names of database
clients, a redirection or tee for written text, the markers of hidden code). A harmless call meets five
such conditions and none of them can hold, so ``pack_match`` and what it loads are loaded only when one
could (``conditions.holds`` asks here first). And the cheap half of the secret scan: whether a written
text could hold a secret at all, before ``secret_scan`` is loaded (``echo done > status.txt``)."""

from __future__ import annotations

from cupcake.evaluate.command_match import may_hold_names
from cupcake.evaluate.patterns import folded

MAX_SCAN = 512 * 1024  # the characters of a text the scan reads (its start and its end)
MIN_ENTROPY_LENGTH = 20  # shorter quoted strings are words and identifiers, not keys
# The words (folded as (?i) sees them) one of which a line must hold for the keyword patterns to look at
# it; "pw" stands for "pwd" too.
SECRET_WORDS = ("key", "pw", "pass", "token", "secret", "contras")

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


def may_hold_secret(cond, texts) -> bool:
    """False only when no text can hold what ``secret_scan.find`` looks for with the compiled ``secret``
    condition ``cond``: the checks it makes before running a pattern (a text shorter than any match, a
    literal every match holds missing, no secret-sounding word for the patterns that need one), without
    a pattern (tests/evaluate/test_secret_scan.py compares them)."""
    _kind, kinds, keys, _code, _config, _entropy = cond
    for text in texts:
        if not text:
            continue
        if len(text) > MAX_SCAN:
            return True  # the scan reads it cut in two: left to the scan
        low = folded(text)
        worded = any(word in low for word in SECRET_WORDS)
        if worded and "keyword" in kinds:
            return True
        if "entropy" in kinds and len(text) >= MIN_ENTROPY_LENGTH + 2 and ('"' in text or "'" in text):
            return True
        if "key" in kinds:
            for _type, pattern, needs_context, literals, _anchor, fewest in keys:
                if len(text) < fewest or (needs_context and not worded):
                    continue
                hay = low if pattern.startswith("(?i") else text
                if all(literal in hay for literal in literals):
                    return True
    return False
