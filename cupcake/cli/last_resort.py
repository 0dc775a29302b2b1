"""The answer when no policy could be evaluated because Cupcake itself broke: a note to the user, or,
with ``--fail-closed`` on the hook command line (fail_mode "closed"), a block (exit 2, the reason on
stderr). It uses nothing but the interpreter itself: it is what answers when the rest cannot."""

from __future__ import annotations

import sys


def last_resort(exc: BaseException, closed: bool):
    """(stdout, stderr, exit code) when no policy could be evaluated because Cupcake itself broke."""
    what = f"{type(exc).__name__}: {exc}".replace("\n", " ")[:2000]
    if closed:
        text = f'Cupcake: internal error, so this is blocked (fail_mode "closed"): {what}\n'
        return b"", text.encode("utf-8", "replace"), 2
    text = f'Cupcake: internal error, no policy was enforced for this event (fail_mode "open"): {what}'
    escaped = "".join(c if " " <= c and c not in '"\\' else f"\\u{ord(c):04x}" for c in text)
    return ('{"systemMessage":"' + escaped + '"}\n').encode("utf-8", "replace"), b"", 0


def answer_last_resort(exc: BaseException, closed: bool) -> int:
    stdout, stderr, code = last_resort(exc, closed)
    try:
        sys.stdout.buffer.write(stdout)
        sys.stdout.buffer.flush()
        sys.stderr.buffer.write(stderr)
        sys.stderr.buffer.flush()
    except (OSError, ValueError):
        pass
    return code
