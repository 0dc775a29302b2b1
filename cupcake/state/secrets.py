"""Mask secret-looking values before anything the agent did is written to the session log.

Each pattern runs only when one of its trigger words occurs in the text (lower-cased), so an
ordinary command costs a few ``in`` tests. The patterns' SRE programs are compiled with the
policies (``PATTERNS`` is added to the cached forms), so masking needs no ``re`` import."""

from __future__ import annotations

MASK = "***"

# (pattern, triggers, groups kept in front of the mask)
PATTERNS = (
    # -----BEGIN RSA PRIVATE KEY----- ... -----END RSA PRIVATE KEY-----
    (r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|\Z)", ("private key",), 0),
    # Authorization: Bearer <token>, "token <token>"
    (r"(?i)\b((?:bearer|basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}", ("bearer", "basic", "token"), 1),
    # scheme://user:password@host
    (r"([A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]+:)[^@\s/]+(?=@)", ("://",), 1),
    # API_KEY=…, --password=…, "secret": "…", ?access_token=…
    (
        r"(?i)\b([A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key"
        r"|credentials?|auth)[A-Za-z0-9_.-]*[\"']?\s*[=:]\s*)(?!(?:bearer|basic|token)\s)"
        r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'&;|,}]+)",
        ("secret", "token", "pass", "pwd", "key", "cred", "auth"),
        1,
    ),
    # --password <value>, --token <value>
    (
        r"(?i)(\s--?[a-z0-9-]*(?:secret|token|passw(?:or)?d|api-?key|auth)[a-z0-9-]*\s+)(?:\"[^\"]*\"|'[^']*'|[^\s\"'-][^\s\"']*)",
        ("secret", "token", "pass", "key", "auth"),
        1,
    ),
    # well-known token shapes
    (
        r"\b(?:sk-(?:ant-|proj-|live-)?[A-Za-z0-9_-]{16,}|sk_(?:live|test)_[A-Za-z0-9]{8,}|gh[pousr]_[A-Za-z0-9]{20,}"
        r"|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,})",
        ("sk-", "sk_", "gh", "github_pat_", "xox", "akia", "aiza"),
        0,
    ),
)


def mask(text: str) -> str:
    """``text`` with every secret-looking value replaced by ``***``."""
    lowered = None
    for pattern, triggers, kept in PATTERNS:
        if lowered is None:
            lowered = text.lower()
        if not any(t in lowered for t in triggers):
            continue
        from cupcake.policy.conditions import regex

        replaced = regex(pattern).sub(_keep_group(kept), text)
        if replaced != text:
            text = replaced
            lowered = None
    return text


def _keep_group(kept: int):
    if kept:
        return lambda m: m.group(kept) + MASK
    return lambda m: MASK
