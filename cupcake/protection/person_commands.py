"""Cupcake's own commands that only a person may run: run through an agent's tools they are blocked
by self-protection (``cupcake.protection.bash``), and the operating-system layer keeps what they
write read-only to the agent. Data, so the reader needs no list of its own: the subcommand, the word
after it that makes it so (None: any), and what it does."""

from __future__ import annotations

PERSON_ONLY = {
    "init": (None, "replaces Cupcake's policies and hooks"),
    "sync": (None, "removes or replaces Cupcake's hooks"),
    "allow": (None, "lets through a call a policy blocked, which only a person may grant"),
    "shadow": ("promote", "replaces the enforced policies with the shadow candidate"),
}


def person_only(args: list) -> tuple[str, str] | None:
    """(the command as shown, what it does) when ``args`` (after ``cupcake``) is one of them, else None."""
    words = [a for a in args if not a.startswith("-")]
    if not words or words[0] not in PERSON_ONLY:
        return None
    second, what = PERSON_ONLY[words[0]]
    if second is not None and (len(words) < 2 or words[1] != second):
        return None
    start = args.index(words[0])
    return " ".join(["cupcake", *args[start:]]), what
