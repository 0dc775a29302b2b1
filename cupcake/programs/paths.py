"""Small helpers the family handlers share: joining a directory and a name as words, a word's last
path component, and the copy rule (``SOURCE... DEST``: into DEST when it is a directory)."""

from __future__ import annotations

from cupcake.programs.spec import DELETES, INTO, LINKS, READS, WRITES
from cupcake.shell.words import ANY, Word, basename_tokens


def last(word):
    """The last path component of a word (``src/a.txt`` -> ``a.txt``)."""
    if word.exact:
        value = word.value.rstrip("/")
        return Word(value.rsplit("/", 1)[-1] if value else value)
    tokens = list(word.pattern())
    while len(tokens) > 1 and tokens[-1] == "/":
        tokens.pop()
    return Word(
        word.value.rstrip("/").rsplit("/", 1)[-1], word.raw, word.known, word.glob, word.quoted, basename_tokens(tokens)
    )


def join(directory, name):
    """``DIR/NAME`` as one word (patterns and unknown parts kept)."""
    value = directory.value.rstrip("/") + "/" + name.value
    if directory.exact and name.exact:
        return Word(value)
    tokens = list(directory.pattern())
    while tokens and tokens[-1] == "/":
        tokens.pop()
    tokens.append("/")
    tokens.extend(name.pattern())
    return Word(value, value, directory.known and name.known, directory.glob or name.glob, False, tokens)


def any_name() -> Word:
    """A name the reader cannot know (no slash in it? it may hold one: the safe reading)."""
    return Word("…", "…", known=False, tokens=[ANY])


def pours(source, slash_means_contents: bool = False) -> bool:
    """Whether copying ``source`` pours its contents into the destination (``src/.``, ``.``,
    rsync's ``src/``) rather than making ``DEST/<name>``."""
    value = source.value
    name = last(source).value
    return (
        value.endswith("/.")
        or value in (".", "..")
        or name in (".", "..", "")
        or (slash_means_contents and value.endswith("/"))
    )


def copy(
    reading, what: str, tree: bool, sources_effect=None, slash_means_contents: bool = False, pour: bool = True
) -> None:
    """``cp``/``mv``/``ln``/``install``/``rsync`` targets: ``-t DIR``, ``-T``, or SOURCE... DEST.
    ``pour``: a source such as ``src/.`` pours its contents (``ln`` never does: its link is named
    after the source as written, so ``ln -s . d`` makes ``d``, leading here)."""
    operands = reading.operands
    target = reading.get("-t", "--target-directory")
    into: bool | None
    if target is not None:
        sources, dest, into = operands, target, True
    elif len(operands) >= 2:
        sources, dest = operands[:-1], operands[-1]
        into = True if (len(sources) > 1 or dest.value.endswith("/")) else None
    else:
        return
    if sources_effect is not None:
        for word in sources:
            whole = sources_effect == DELETES or (sources_effect == READS and tree)
            reading.add(sources_effect, word, what + " source" if sources_effect == LINKS else what, tree=whole)
    if reading.has("-T", "--no-target-directory"):
        reading.add(WRITES, dest, what + " (onto)", tree=True)
        return
    if into is None and not (pour and pours(sources[0], slash_means_contents)):  # DEST, or DEST/<name>: both are said
        reading.add(WRITES, dest, what, tree=tree)
    for source in sources:
        if pour and pours(source, slash_means_contents):
            effect = reading.add(INTO, dest, what + " (into)", tree=True)
            effect.source = (source,)
            effect.language = "dir"
        elif last(source).value not in (".", "..", ""):  # (``ln -s .. d`` into a directory d fails)
            reading.add(WRITES, join(dest, last(source)), what, tree=tree)
