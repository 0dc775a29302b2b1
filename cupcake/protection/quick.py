"""The quick pass of self-protection for Bash: a command the hook lets through without reading it, and
without importing the Bash reader or the rest of ``protection.bash`` (a harmless ``ls -la`` or
``git status`` is most of an agent's calls)."""

from __future__ import annotations

# Characters after which bash does nothing but split words: no quoting, expansion, globbing,
# redirection, separator, comment or tilde. A command made only of these is one simple command of
# literal words.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_./:,@%+^")


def quick_pass(command: str) -> bool:
    """Whether ``command`` is one simple command of plain words (no quoting, expansion, glob,
    redirection or separator) whose program the registry lists as needing no reading
    (``program_index.QUICK``: it looks at names only, or is ``git status``-like), with none of the
    options that would make it read, write or run anything, and no word naming Cupcake's cache.
    Sound by construction; anything else is read."""
    if len(command) > 512 or not _PLAIN.issuperset(command) or "cupcake" in command or ".cache" in command:
        return False
    words = command.split()
    if not words or "/" in words[0]:
        return False
    from cupcake.program_index import QUICK  # (outside the registry's package: none of it is imported)

    name, rest = words[0], words[1:]
    if name == "git":
        if not rest:
            return False
        name, rest = "git " + rest[0], rest[1:]
    refused = QUICK.get(name)
    if refused is None:
        return False
    return not refused or not any(_could_be_one_of(word, refused) for word in rest if word.startswith("-"))


def _could_be_one_of(word: str, options: tuple) -> bool:
    """Whether an option word could be (spell, abbreviate, or hold in a cluster) one of ``options``."""
    if word == "--":
        return False
    head = word.split("=", 1)[0]
    for opt in options:
        if opt.startswith("--"):
            if head.startswith("--") and (opt.startswith(head) or head.startswith(opt)):
                return True
        elif not head.startswith("--") and opt[1:] in word[1:]:
            return True
    return False
