"""The secret patterns of the ``secret`` condition, taken from detect-secrets (Yelp, Apache-2.0), a
maintained scanner: the key formats of its regex-based detectors (AWS, GitHub, GitLab, Slack,
Stripe, private keys, JWTs, npm, PyPI, SendGrid, Twilio…), its keyword detector's assignment
patterns (``password = "…"``) and its high-entropy string settings (charset and limit).

Cold path only: detect-secrets costs about 100 ms to import, so it is read when a policy with a
``secret`` condition is compiled, and the patterns go into the policy cache as plain strings. A warm
run scans with the cached patterns (``cupcake.evaluate.secret_scan``) and never imports it."""

from __future__ import annotations

# Detectors left out: a public IP address is not a secret.
SKIPPED = frozenset(("IPPublicDetector",))
IGNORECASE, VERBOSE = 2, 64


def _inline(pattern: str, flags: int) -> str:
    prefix = ("i" if flags & IGNORECASE else "") + ("x" if flags & VERBOSE else "")
    return f"(?{prefix}){pattern}" if prefix else pattern


# A detector whose pattern needs one of these words matches only on a line that holds one: it is run
# on those lines alone (most of a large file is skipped). Checked against the pattern's text.
CONTEXT_WORDS = ("key", "pwd", "pw", "pass", "token", "secret")


def needs_context(pattern: str) -> bool:
    """Whether every match of ``pattern`` lies on a line holding one of ``CONTEXT_WORDS``: the
    detectors written as "<name> (key|pwd|password|pass|token) = <value>" (no match spans lines)."""
    body = pattern.lower()
    if "(?:key|pwd|pw|password|pass|token)" in body or "(?:key|pwd|password|pass|token)" in body:
        return "(?s" not in body and "\\n" not in body
    return "secret[-_]?(?:access)?[-_]?key" in body


# Key formats with no literal to start from, written so that the regex engine starts only at a rare
# character: each form matches a text exactly when the detector's pattern does (the scan only asks
# whether one matches; tests/evaluate/test_secret_forms.py compares both on hostile texts). A repeat
# of one class at the head needs only its fewest characters (more are the same match started later),
# and a character that cannot belong to the head's class ends it, so the head is checked from that
# character backwards (a look-behind). A detector whose pattern changes is searched as it is.
SEARCH_FORMS = {
    # Telegram: 8 to 10 digits, a colon. From each colon: were the 8 characters before it digits?
    r"\d{8,10}:[0-9A-Za-z_-]{35}": r":(?<=\d{8}:)[0-9A-Za-z_-]{35}",
    # Discord: M, N or O, 23 to 25 token characters, a dot (never a token character). From each dot.
    r"[MNO][a-zA-Z\d_-]{23,25}\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27}": (
        r"\.(?:(?<=[MNO][a-zA-Z\d_-]{23}\.)|(?<=[MNO][a-zA-Z\d_-]{24}\.)|(?<=[MNO][a-zA-Z\d_-]{25}\.))"
        r"[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27}"
    ),
}


def key_patterns() -> tuple:
    """((secret type, regex, whether it needs a keyword line), …) from every regex-based detector of
    detect-secrets (in its ``SEARCH_FORMS`` form where it has one)."""
    import importlib
    import inspect
    import pkgutil

    import detect_secrets.plugins as plugins
    from detect_secrets.plugins.base import RegexBasedDetector

    found = []
    for info in sorted(pkgutil.iter_modules(plugins.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"detect_secrets.plugins.{info.name}")
        for name, cls in sorted(inspect.getmembers(module, inspect.isclass)):
            if cls.__module__ != module.__name__ or name in SKIPPED:
                continue
            if not issubclass(cls, RegexBasedDetector) or inspect.isabstract(cls):
                continue
            for rx in cls.denylist:  # type: ignore[attr-defined]  # a class attribute on each detector
                pattern = _inline(rx.pattern, rx.flags)
                found.append((cls.secret_type, SEARCH_FORMS.get(pattern, pattern), needs_context(pattern)))
    return tuple(found)


def keyword_patterns() -> tuple:
    """((regex, group of the value), …) for code (quotes required) and for configuration files."""
    from detect_secrets.plugins import keyword

    code = tuple(
        (_inline(rx.pattern, rx.flags), group) for rx, group in keyword.QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP.items()
    )
    config = tuple(
        (_inline(rx.pattern, rx.flags), group) for rx, group in keyword.CONFIG_DENYLIST_REGEX_TO_GROUP.items()
    )
    return code, config


def entropy_settings() -> tuple:
    """((charset, limit), …) of detect-secrets' high-entropy string detectors (base64, hex)."""
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString

    return tuple(
        (plugin().charset, float(plugin().entropy_limit)) for plugin in (Base64HighEntropyString, HexHighEntropyString)
    )


def version() -> str:
    from importlib.metadata import version as of

    return of("detect-secrets")
