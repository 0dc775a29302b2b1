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
_CONFIG_SUFFIXES = (".yaml", ".yml", ".ini", ".cfg", ".conf", ".properties", ".toml", ".env")


def bounded(text: str) -> str:
    if len(text) <= MAX_SCAN:
        return text
    half = MAX_SCAN // 2
    return text[:half] + "\n" + text[-half:]


# A quoted run of key-like characters (the entropy check's candidates), one pattern per quote: each
# starts with its quote, which the regex engine finds far faster than a choice of two (0.49 ms for the
# choice over the bench's 100 KB, 0.09 ms for both). The same runs as ``(['"])(…)\1``: a run holds no
# quote, so a run in one kind of quotes never overlaps one in the other (tests/evaluate/test_secret_scan.py).
_RUN = "([A-Za-z0-9+/=_\\-]{%d,})" % MIN_ENTROPY_LENGTH
QUOTED = ('"' + _RUN + '"', "'" + _RUN + "'")


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
        context = None  # the lines that hold a secret-sounding word, joined
        if "key" in kinds:
            lowered = text.lower()
            for secret_type, pattern, needs_context, literals, anchor in keys:
                icase = pattern.startswith("(?i")
                if literals and not all(lit in (lowered if icase else text) for lit in literals):
                    continue  # every match holds these: skipped without running the pattern
                if anchor and (not icase or text.isascii()):
                    if anchored(patterns.regex(pattern), text, lowered if icase else text, anchor):
                        return "key", secret_type
                elif needs_context:
                    if context is None:
                        context = keyword_lines(text)
                    if not context:
                        continue
                    if patterns.regex(pattern).search(context) is not None:
                        return "key", secret_type
                elif patterns.regex(pattern).search(text) is not None:
                    return "key", secret_type
        if "keyword" in kinds:
            if context is None:
                context = keyword_lines(text)
            for pattern, group in config_keywords if config else code_keywords:
                for m in patterns.regex(pattern).finditer(context):
                    if _real(m.group(group)):
                        return "keyword", "a secret assigned in the code"
        if "entropy" in kinds:
            for quoted in QUOTED:
                for m in patterns.regex(quoted).finditer(text):
                    value = m.group(1)
                    if not _real(value):
                        continue
                    for charset, limit in entropy:
                        if all(c in charset for c in value) and shannon(value, charset) > limit:
                            return "entropy", "a high-entropy string"
    return None


MAX_TRIES = 4096  # anchored match attempts before the pattern is searched over the whole text instead


def anchored(regex, text: str, hay: str, anchor) -> bool:
    """Whether ``regex`` matches somewhere in ``text``, trying it only where a match can start: between
    ``most`` and ``fewest`` characters before an occurrence of the literal in ``hay`` (``text``, or
    its lower-cased form of the same length). The same answer as ``regex.search(text)``
    (tests/evaluate/test_secret_anchor.py); with more candidate starts than ``MAX_TRIES`` (a text
    made of the literal) it is that search, so a hostile text costs no more than before."""
    literal, fewest, most = anchor
    tried = -1  # the last start tried: overlapping leads are not tried twice
    tries = 0
    at = hay.find(literal)
    while at >= 0:
        for start in range(max(at - most, tried + 1), at - fewest + 1):
            tries += 1
            if tries > MAX_TRIES:
                return regex.search(text) is not None
            if regex.match(text, start) is not None:
                return True
            tried = start
        at = hay.find(literal, at + 1)
    return False


_WORDS = ("key", "pwd", "pw", "pass", "token", "secret", "contras")


_lines: dict = {}  # id(text) -> (text, its keyword lines): the rules of a run scan the same text


def keyword_lines(text: str) -> str:
    """The lines of ``text`` that hold a secret-sounding word, joined (found with ``str.find``)."""
    seen = _lines.get(id(text))
    if seen is not None and seen[0] is text:
        return seen[1]
    lowered = text.lower()
    spans = set()
    for word in _WORDS:
        at = lowered.find(word)
        while at >= 0:
            start = lowered.rfind("\n", 0, at) + 1
            end = lowered.find("\n", at)
            end = len(lowered) if end < 0 else end
            spans.add((start, end))
            at = lowered.find(word, end)
    found = "\n".join(text[a:b] for a, b in sorted(spans))
    _lines.clear()
    _lines[id(text)] = (text, found)
    return found


def _real(value) -> bool:
    if not value or len(value) < 4:
        return False
    lowered = value.lower()
    if any(p in lowered for p in PLACEHOLDERS):
        return False
    return len(set(value)) > 2  # "aaaa", "1111": not a secret


def shannon(data: str, charset: str) -> float:
    entropy = 0.0
    size = len(data)
    for ch in set(data):
        if ch in charset:
            p = data.count(ch) / size
            entropy -= p * math.log2(p)
    return entropy
