"""Mask values that look like secrets before they reach the audit log, and the masked summary of a tool
call's input that the audit trail and an approval code keep (``summarize_input``: a blocked call that
offers a code imports this module alone of the audit trail's).

Keys and tokens are replaced by ``***`` (a recognisable prefix such as ``sk-`` or ``ghp_`` is kept,
so a reader still sees what kind of secret it was). A cheap scan for trigger words runs first: a
text without any of them is returned as is. The patterns are built from the compiled programs the
policy cache holds (``use_forms``), so masking imports ``re`` only when the cache has none."""

from __future__ import annotations

MASK = "***"

SESSION_CHARS = 128
INPUT_CHARS = 500
PROMPT_CHARS = 200

# What stands for a tool call in the log: (key in tool_input, name in the record, limit).
_INPUT_KEYS = (
    ("command", "command", INPUT_CHARS),
    ("file_path", "file_path", INPUT_CHARS),
    ("notebook_path", "file_path", INPUT_CHARS),
    ("path", "path", INPUT_CHARS),
    ("pattern", "pattern", PROMPT_CHARS),
    ("url", "url", INPUT_CHARS),
    ("query", "query", PROMPT_CHARS),
    ("subagent_type", "subagent_type", PROMPT_CHARS),
    ("description", "description", PROMPT_CHARS),
)

# Lower-case fragments at least one of which every pattern below needs.
_TRIGGERS = (
    "key",
    "token",
    "secret",
    "passw",
    "pwd",
    "credential",
    "auth",
    "bearer",
    "sk-",
    "sk_",
    "rk_",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "akia",
    "asia",
    "xox",
    "aiza",
    "eyj",
    "npm_",
    "-----begin",
    "-u",
    "--user",
)

_NAME = (
    r"[A-Za-z0-9_.-]*(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|passwd|pwd|access[_-]?key"
    r"|private[_-]?key|credentials?|auth[_-]?key|_key)[A-Za-z0-9_.-]*"
)
_VALUE = r"[^\s\"'`&;,|<>)]+"
_PEM = "-----BEGIN PRIVATE KEY-----" + MASK

# (pattern, what replaces a match: None = group 1 and the mask; a str = that text). Flags are written
# inline, so that the policy cache can hold each pattern's compiled program (see ``sre_forms``).
RULES = (
    # PEM private keys, to their end (or the end of the text)
    (r"(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", _PEM),
    # credentials in URLs: scheme://user:password@host
    (r"(\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:)[^@\s/]+(?=@)", None),
    # Authorization headers and bare bearer tokens
    (r"(?i)(\bauthorization\s*[:=]\s*(?:(?:bearer|basic|token|bot)\s+)?)" + _VALUE, None),
    (r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{6,}", None),
    # tokens recognisable by their prefix
    (r"\b(sk-(?:ant-|proj-|live-|test-)?)[A-Za-z0-9_-]{12,}", None),
    (r"\b([sr]k_(?:live|test)_)[A-Za-z0-9]{8,}", None),
    (r"\b(gh[pousr]_)[A-Za-z0-9]{16,}", None),
    (r"\b(github_pat_)[A-Za-z0-9_]{16,}", None),
    (r"\b(glpat-)[A-Za-z0-9_-]{16,}", None),
    (r"\b(xox[abposr]-)[A-Za-z0-9-]{8,}", None),
    (r"\b(npm_)[A-Za-z0-9]{20,}", None),
    (r"\b(AIza)[0-9A-Za-z_-]{30,}", None),
    (r"\b(AKIA|ASIA|AROA|AIDA)[0-9A-Z]{16}\b", None),
    (r"\b(eyJ)[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}", None),
    # user:password after curl's -u / --user
    (r"((?:^|\s)(?:-u|--user)(?:\s+|=)[\"']?[^\s:\"']+:)" + _VALUE, None),
    # NAME=value, NAME: value, "name": "value", --name value, for names that say secret
    (r"(?i)((?<![A-Za-z0-9])" + _NAME + r"[\"']?\s*[:=]\s*[\"']?)" + _VALUE, None),
    (r"(?i)((?:^|\s)--?" + _NAME + r"\s+[\"']?)" + _VALUE, None),
)

_compiled = None
_forms: dict = {}


def use_forms(forms) -> None:
    """The compiled programs the policy cache holds for ``RULES`` (then masking needs no ``re``)."""
    global _forms
    _forms = forms or {}


def sre_forms() -> dict:
    """Each rule's compiled program, for the policy cache (cold path)."""
    from cupcake.speedups import sre_form

    return {pattern: form for pattern, _r in RULES if (form := sre_form(pattern)) is not None}


def _keep_first(match) -> str:
    return match.group(1) + MASK


def _rules():
    global _compiled
    if _compiled is None:
        from cupcake.speedups import compile_pattern

        # Callables, not "\\1" templates: a template makes ``sub`` import ``re``.
        _compiled = tuple(
            (compile_pattern(pattern, _forms), _keep_first if text is None else (lambda _m, t=text: t))
            for pattern, text in RULES
        )
    return _compiled


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
    for pattern, replace in _rules():
        text = pattern.sub(replace, text)
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


def summarize_input(event) -> dict:
    """A compact, masked summary of what the agent asked for (the canonical ``event``): never whole file contents."""
    out = {}
    tool_input = event.tool_input if event is not None else None
    if tool_input:
        for key, name, limit in _INPUT_KEYS:
            value = tool_input.get(key)
            if isinstance(value, str) and name not in out:
                out[name] = mask_cut(value, limit)
        if "command" in out and "description" in out:
            del out["description"]  # Bash's description repeats the command in words
    prompt = event.prompt if event is not None else None
    if prompt is not None:
        out["prompt"] = mask_cut(prompt, PROMPT_CHARS)
    return out
