"""Scanning written text for secrets with the patterns compiled from detect-secrets
(``cupcake.packs.secret_patterns``), on a warm run: imported only when text is actually scanned.

Bounded: at most ``MAX_SCAN`` characters of each text are read (the start and the end), and the
keyword and entropy checks look only at lines that could hold an assignment or a quoted string."""

from __future__ import annotations

import math

MAX_SCAN = 512 * 1024
MIN_ENTROPY_LENGTH = 20  # shorter quoted strings are words and identifiers, not keys
# Values that stand for a secret without being one (detect-secrets' own filters, in short).
PLACEHOLDERS = (
    "example",
    "changeme",
    "change_me",
    "placeholder",
    "your",
    "xxx",
    "***",
    "redacted",
    "dummy",
    "sample",
    "<",
    "${",
    "{{",
    "%(",
    "process.env",
    "os.environ",
    "getenv",
    "env(",
    "env[",
    "secrets.",
    "vault",
    "none",
    "null",
    "true",
    "false",
    "undefined",
    "todo",
)
_KEYWORDS = ("key", "pass", "pwd", "secret", "contras", "token")
_CONFIG_SUFFIXES = (".yaml", ".yml", ".ini", ".cfg", ".conf", ".properties", ".toml", ".env")


def bounded(text: str) -> str:
    if len(text) <= MAX_SCAN:
        return text
    half = MAX_SCAN // 2
    return text[:half] + "\n" + text[-half:]


def find(cond, texts, patterns, path: str = ""):
    """The first secret found in ``texts``: (kind, what) or None. ``cond`` is the compiled
    ``secret`` condition: ("secret", kinds, keys, code_keywords, config_keywords, entropy)."""
    _kind, kinds, keys, code_keywords, config_keywords, entropy = cond
    name = path.rsplit("/", 1)[-1].lower()
    config = name.startswith(".env") or name.endswith(_CONFIG_SUFFIXES)
    for text in texts:
        if not text:
            continue
        text = bounded(text)
        if "key" in kinds:
            for secret_type, pattern in keys:
                if patterns.regex(pattern).search(text) is not None:
                    return "key", secret_type
        lines = None
        if "keyword" in kinds:
            lines = text.splitlines()
            candidates = [line for line in lines if _has_keyword(line)]
            for pattern, group in config_keywords if config else code_keywords:
                rx = patterns.regex(pattern)
                for line in candidates:
                    m = rx.search(line)
                    if m is not None and _real(m.group(group)):
                        return "keyword", "a secret assigned to " + line.strip()[:40].split("=")[0].split(":")[0].strip()
        if "entropy" in kinds:
            if lines is None:
                lines = text.splitlines()
            for line in lines:
                if '"' not in line and "'" not in line:
                    continue
                for value in _quoted(line):
                    if len(value) < MIN_ENTROPY_LENGTH or not _real(value):
                        continue
                    for charset, limit in entropy:
                        if all(c in charset for c in value) and shannon(value, charset) > limit:
                            return "entropy", "a high-entropy string"
    return None


def _has_keyword(line: str) -> bool:
    lowered = line.lower()
    return any(k in lowered for k in _KEYWORDS)


def _real(value) -> bool:
    if not value or len(value) < 4:
        return False
    lowered = value.lower()
    if any(p in lowered for p in PLACEHOLDERS):
        return False
    return len(set(value)) > 2  # "aaaa", "1111": not a secret


def _quoted(line: str):
    for quote in ('"', "'"):
        parts = line.split(quote)
        yield from parts[1::2]


def shannon(data: str, charset: str) -> float:
    entropy = 0.0
    size = len(data)
    for ch in set(data):
        if ch in charset:
            p = data.count(ch) / size
            entropy -= p * math.log2(p)
    return entropy
