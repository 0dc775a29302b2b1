"""``find``: the roots it walks and what its expression does to what it finds (``-delete``, ``-exec``
and kin run a command on each path, ``-fprint`` writes a file, ``-files0-from`` reads one)."""

from __future__ import annotations

from cupcake.programs.spec import DELETES, READS, TOOL, WRITES, program
from cupcake.shell.words import ANY, SUB, Word, glob_tokens

_FIND_PRE = ("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3")

_FIND_VALUES = frozenset(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -user -group "
    "-uid -gid -perm -size -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -newerXY -maxdepth "
    "-mindepth -links -inum -samefile -fstype -context -used -printf -regextype -D".split()
)


def _find(r) -> None:
    """``find [ROOT...] EXPR``: ``-delete`` removes what it finds under the roots; ``-exec``/
    ``-execdir``/``-ok``/``-okdir`` run a command (``{}`` a path found under the root); ``-fprint``
    and ``-fls`` write a file; ``-files0-from`` reads one."""
    words = r.words
    i = 1
    while i < len(words) and words[i].known and (words[i].value in _FIND_PRE or words[i].value.startswith("-D")):
        i += 2 if words[i].value == "-D" else 1
    roots = []
    while i < len(words) and not (
        words[i].known and (words[i].value.startswith("-") or words[i].value in ("(", "!", ")", ","))
    ):
        roots.append(words[i])
        i += 1
    roots = roots or [Word(".")]
    name = None  # the -name every path found before this point has (a plain conjunction of tests only)
    plain = all(w.known and w.value not in _FIND_EITHER and "path" not in w.value for w in words[i:])
    while i < len(words):
        text = words[i].value
        if text in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(words) and not (words[j].known and words[j].value in (";", "+")):
                j += 1
            root = roots[0] if len(roots) == 1 else None
            same = text in ("-exec", "-ok")
            r.more.append(([_found(w, root if same else None, name) for w in words[i + 1 : j]], same))
            i = j + 1
            continue
        if text == "-name" and plain and name is None and i + 1 < len(words):
            name = words[i + 1].value
        if text == "-delete":
            for root in roots:
                r.add(DELETES, root, "find -delete", tree=True)
        elif text in ("-fprint", "-fprint0", "-fprintf", "-fls") and i + 1 < len(words):
            r.add(WRITES, words[i + 1], "find " + text)
            i += 3 if text == "-fprintf" else 2
            continue
        elif text == "-files0-from" and i + 1 < len(words):
            r.add(READS, words[i + 1], "find -files0-from")
        elif text in _FIND_VALUES:
            i += 2
            continue
        i += 1


# Words that make find's expression more than a conjunction of tests (then -name narrows nothing).
_FIND_EITHER = frozenset(("-o", "-or", "!", "-not", ",", "(", ")", "-regex", "-iregex"))


def _found(word, root, name=None) -> Word:
    """``{}`` in an ``-exec`` command: a path found under ``root`` (which one, unknown; it never climbs),
    whose last component matches ``name`` (``-name NAME`` tested before the ``-exec``) when given."""
    if "{}" not in word.value:
        return word
    prefix = list(root.value.rstrip("/") + "/") if root is not None and root.exact else []
    tokens: list = []
    for k, piece in enumerate(word.value.split("{}")):
        if k:
            if k == 1 and not tokens:
                tokens.extend(prefix)
            tokens.append(SUB if prefix else ANY)
            if prefix and name is not None:
                tokens.extend(glob_tokens(name))
        tokens.extend(piece)
    return Word(word.value, word.raw, False, False, word.quoted, tokens)


SPECS = (
    program(
        "find",
        TOOL,
        aliases=("gfind", "bfs"),
        handler=_find,
        examples=(
            "find . -name '*.pyc' -delete => deletes . (tree)",
            "find src -name x -fprint out.txt => writes out.txt",
            "find . -type f -exec rm {} ; => deletes {}",
            "find . -name __pycache__ -type d -exec rm -rf {} + => deletes {} (tree)",
            "find . -newer x -print => passes",
        ),
    ),
)
