"""Mask values that look like secrets before they reach the audit log.

Keys and tokens are replaced by ``***`` (a recognisable prefix such as ``sk-`` or ``ghp_`` is kept,
so a reader still sees what kind of secret it was). A cheap scan for trigger words runs first: a
text without any of them is returned as is, and ``re`` is imported only when a pattern must run."""

from __future__ import annotations

MASK = "***"

# Lower-case fragments at least one of which every pattern below needs.
_TRIGGERS = (
    "key", "token", "secret", "passw", "pwd", "credential", "auth", "bearer", "sk-", "sk_", "rk_",
    "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "akia", "asia", "xox", "aiza",
    "eyj", "npm_", "-----begin", "-u", "--user",
)  # fmt: skip

_rules = None


def _compile():
    import re

    name = (
        r"[A-Za-z0-9_.-]*(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|passwd|pwd|access[_-]?key"
        r"|private[_-]?key|credentials?|auth[_-]?key|_key)[A-Za-z0-9_.-]*"
    )
    value = r"[^\s\"'`&;,|<>)]+"
    return (
        # PEM private keys, to their end (or the end of the text)
        (re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S),
         "-----BEGIN PRIVATE KEY-----" + MASK),
        # credentials in URLs: scheme://user:password@host
        (re.compile(r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:)[^@\s/]+@"), r"\1" + MASK + "@"),
        # Authorization headers and bare bearer tokens
        (re.compile(r"(?i)(\bauthorization\s*[:=]\s*(?:(?:bearer|basic|token|bot)\s+)?)" + value),
         r"\1" + MASK),
        (re.compile(r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{6,}"), r"\1" + MASK),
        # tokens recognisable by their prefix
        (re.compile(r"\b(sk-(?:ant-|proj-|live-|test-)?)[A-Za-z0-9_-]{12,}"), r"\1" + MASK),
        (re.compile(r"\b([sr]k_(?:live|test)_)[A-Za-z0-9]{8,}"), r"\1" + MASK),
        (re.compile(r"\b(gh[pousr]_)[A-Za-z0-9]{16,}"), r"\1" + MASK),
        (re.compile(r"\b(github_pat_)[A-Za-z0-9_]{16,}"), r"\1" + MASK),
        (re.compile(r"\b(glpat-)[A-Za-z0-9_-]{16,}"), r"\1" + MASK),
        (re.compile(r"\b(xox[abposr]-)[A-Za-z0-9-]{8,}"), r"\1" + MASK),
        (re.compile(r"\b(npm_)[A-Za-z0-9]{20,}"), r"\1" + MASK),
        (re.compile(r"\b(AIza)[0-9A-Za-z_-]{30,}"), r"\1" + MASK),
        (re.compile(r"\b(AKIA|ASIA|AROA|AIDA)[0-9A-Z]{16}\b"), r"\1" + MASK),
        (re.compile(r"\b(eyJ)[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}"), r"\1" + MASK),
        # user:password after curl's -u / --user
        (re.compile(r"((?:^|\s)(?:-u|--user)(?:\s+|=)[\"']?[^\s:\"']+:)" + value), r"\1" + MASK),
        # NAME=value, NAME: value, "name": "value", --name value for names that say secret
        (re.compile(r"(?i)((?<![A-Za-z0-9])" + name + r"[\"']?\s*[:=]\s*[\"']?)" + value), r"\1" + MASK),
        (re.compile(r"(?i)((?:^|\s)--?" + name + r"\s+[\"']?)" + value), r"\1" + MASK),
    )


def mask(text):
    """``text`` with every value that looks like a key, token or password replaced by ``***``."""
    if not text or not isinstance(text, str):
        return text
    low = text.lower()
    for trigger in _TRIGGERS:
        if trigger in low:
            break
    else:
        if "://" not in low or "@" not in low:
            return text
    global _rules
    if _rules is None:
        _rules = _compile()
    for pattern, replacement in _rules:
        text = pattern.sub(replacement, text)
    return text


def mask_cut(text, limit: int):
    """Masked, then cut to ``limit`` characters (with an ellipsis when cut). Only a bounded prefix is
    scanned, so a huge heredoc costs no more than a short command."""
    if not isinstance(text, str):
        return text
    masked = mask(text[: limit + 256])
    if len(masked) > limit or len(text) > limit + 256:
        return masked[:limit] + "…"
    return masked
