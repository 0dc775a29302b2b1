"""Scanning written text for secrets with the patterns compiled from detect-secrets
(``cupcake.packs.secret_patterns``), on a warm run: imported only when text is actually scanned.

Bounded: at most ``MAX_SCAN`` characters of each text are read (the start and the end), and the
keyword and entropy checks look only at lines that could hold an assignment or a quoted string."""

from __future__ import annotations

from cupcake.evaluate.pack_prefilter import MAX_SCAN, MIN_ENTROPY_LENGTH, SECRET_WORDS
from cupcake.evaluate.patterns import folded

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


# Up to this length the regex engine finds a literal faster than ``str.find`` (over the bench's 100 KB:
# about 0.03 ms against 0.05 to 0.09 ms for two to seven characters; a long literal lets str.find skip).
# The policy cache holds the literal's program beside the patterns (``literal_patterns``).
SHORT_LITERAL = 8
# ... in a text this long at least: compiling the program (about 10 µs) costs more than it saves below.
REGEX_FIND_FROM = 32 * 1024
# A text shorter than this is searched for a literal at once, without looking for its rarest characters
# first (sorting them costs more than the search).
DIRECT_BELOW = 4096


def literal_pattern(literal: str) -> str:
    """The regex that matches ``literal`` and nothing else: every character but a letter or digit escaped."""
    return "".join(ch if ch.isalnum() else "\\" + ch for ch in literal)


def literal_patterns(cond) -> list:
    """The regexes of the short literals the scan of ``cond`` looks for (compiled into the policy cache)."""
    _kind, _kinds, keys, _code, _config, _entropy = cond
    found = [lit for _t, _p, _c, literals, _a, _f in keys for lit in literals]
    found += [anchor[0] for _t, _p, _c, _l, anchor, _f in keys if anchor]
    found += _WORDS
    return list(dict.fromkeys(literal_pattern(lit) for lit in found if len(lit) <= SHORT_LITERAL))


def finder(literal: str, patterns, size: int):
    """``str.find`` for ``literal`` in texts of ``size`` characters: through its regex when the literal is
    short, the text long and the cache holds its program."""
    if patterns is not None and len(literal) <= SHORT_LITERAL and size >= REGEX_FIND_FROM:
        pattern = literal_pattern(literal)
        if pattern in patterns.forms:
            search = patterns.regex(pattern).search

            def find(hay: str, start: int = 0) -> int:
                m = search(hay, start)
                return -1 if m is None else m.start()

            return find
    return lambda hay, start=0: hay.find(literal, start)


# Characters from the rarest in source text to the most common, roughly: a literal's two rarest are
# looked for alone first (one character is found with memchr, about 1 µs over 100 KB when it is absent,
# and at once when it is near the start), and a literal with one of them absent is absent.
_RARITY = "~^`|\\$@!?%&;QZJXKVYWGBFHUMCPDLNROISATE9876543210qzjxkvywgbfhumcpdlnroisate-/:=_.,()'\" \n"
_RANK = {ch: i for i, ch in enumerate(_RARITY)}


def _occurs(literal: str, hay: str, icase: bool, patterns, present: dict) -> bool:
    key = (literal, icase)
    found = present.get(key)
    if found is None:
        if len(hay) < DIRECT_BELOW:
            found = literal in hay
        else:
            rarest = sorted(set(literal), key=lambda ch: _RANK.get(ch, 0))[:2]
            found = all(ch in hay for ch in rarest) and finder(literal, patterns, len(hay))(hay) >= 0
        present[key] = found
    return found


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
            lowered = folded(text)
            present: dict = {}  # (literal, folded?) -> whether it occurs: patterns share literals
            for secret_type, pattern, needs_context, literals, anchor, fewest in keys:
                if len(text) < fewest:
                    continue  # shorter than any match of the pattern
                icase = pattern.startswith("(?i")
                hay = lowered if icase else text
                if literals and not all(_occurs(lit, hay, icase, patterns, present) for lit in literals):
                    continue  # every match holds these: skipped without running the pattern
                if anchor and len(hay) == len(text):
                    if anchored(patterns.regex(pattern), text, hay, anchor, finder(anchor[0], patterns, len(hay))):
                        return "key", secret_type
                elif needs_context:
                    context = keyword_lines(text, patterns)
                    if context and patterns.regex(pattern).search(context) is not None:
                        return "key", secret_type
                elif patterns.regex(pattern).search(text) is not None:
                    return "key", secret_type
        if "keyword" in kinds:
            context = keyword_lines(text, patterns)
            if context:
                hay = folded(context)
                for pattern, group, heads in config_keywords if config else code_keywords:
                    for m in matches(
                        patterns.regex(pattern), context, hay if pattern.startswith("(?i") else context, heads
                    ):
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


def matches(regex, text: str, hay: str, heads):
    """``regex.finditer(text)``, trying the pattern only where one of ``heads`` (literals one of which
    every match starts with) occurs in ``hay`` (``text`` or its folded form, of the same length):
    the same matches, since every match starts at such a place and the others are never tried. With
    more places than ``MAX_TRIES`` it is ``finditer`` itself."""
    if not heads or len(hay) != len(text):
        yield from regex.finditer(text)
        return
    places = _places(hay, heads)
    if places is None:
        yield from regex.finditer(text)
        return
    end = 0
    for at in places:
        if at < end:
            continue  # inside the last match: finditer goes on after it
        m = regex.match(text, at)
        if m is not None:
            yield m
            end = m.end()


_seen_places: dict = {}  # (id(hay), heads) -> (hay, places): the keyword patterns share their heads


def _places(hay: str, heads) -> list | None:
    """Where one of ``heads`` occurs in ``hay``, in order; None past ``MAX_TRIES`` places."""
    seen = _seen_places.get((id(hay), heads))
    if seen is not None and seen[0] is hay:
        return seen[1]
    found: set = set()
    places: list | None = None
    for head in heads:
        at = hay.find(head)
        while at >= 0 and len(found) <= MAX_TRIES:
            found.add(at)
            at = hay.find(head, at + 1)
    if len(found) <= MAX_TRIES:
        places = sorted(found)
    _seen_places.clear()
    _seen_places[(id(hay), heads)] = (hay, places)
    return places


MAX_TRIES = 4096  # anchored match attempts before the pattern is searched over the whole text instead


def anchored(regex, text: str, hay: str, anchor, find=None) -> bool:
    """Whether ``regex`` matches somewhere in ``text``, trying it only where a match can start: between
    ``most`` and ``fewest`` characters before an occurrence of the literal in ``hay`` (``text``, or
    its folded form, of the same length). The same answer as ``regex.search(text)``
    (tests/evaluate/test_secret_anchor.py); with more candidate starts than ``MAX_TRIES`` (a text
    made of the literal) it is that search, so a hostile text costs no more than before. ``find``:
    the literal's finder (``finder``), ``str.find`` by default."""
    literal, fewest, most = anchor
    if find is None:
        find = finder(literal, None, len(hay))
    at = find(hay)
    tried = -1  # the last start tried: overlapping leads are not tried twice
    tries = 0
    while at >= 0:
        for start in range(max(at - most, tried + 1), at - fewest + 1):
            tries += 1
            if tries > MAX_TRIES:
                return regex.search(text) is not None
            if regex.match(text, start) is not None:
                return True
            tried = start
        at = find(hay, at + 1)
    return False


_WORDS = SECRET_WORDS


_lines: dict = {}  # id(text) -> (text, its keyword lines): the rules of a run scan the same text


def keyword_lines(text: str, patterns=None) -> str:
    """The lines of ``text`` that hold a secret-sounding word in any case ``(?i)`` reads (found with
    ``str.find`` in its folded form, whose places are the text's), joined."""
    seen = _lines.get(id(text))
    if seen is not None and seen[0] is text:
        return seen[1]
    lowered = folded(text)
    spans = set()
    for word in _WORDS:
        find = finder(word, patterns, len(lowered))
        at = find(lowered)
        while at >= 0:
            start = lowered.rfind("\n", 0, at) + 1
            end = lowered.find("\n", at)
            end = len(lowered) if end < 0 else end
            spans.add((start, end))
            at = find(lowered, end)
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
    import math  # only for a quoted string that may be a key: no other module of a run loads it (0.2 ms)

    entropy = 0.0
    size = len(data)
    for ch in set(data):
        if ch in charset:
            p = data.count(ch) / size
            entropy -= p * math.log2(p)
    return entropy
