"""What a command's output becomes where the reader takes it in: ``printed(cmd, st)`` for a command
substitution (a pattern, ``$(mktemp)``: a new name under the temporary directory; clean, a number or
a directory the reader knows of; or tainted, data such as a file's content or a program's output),
and ``items(cmd)`` for the arguments ``xargs`` adds (the words ``echo`` prints, a path under
``find``'s roots…). Loaded for a line with a substitution or ``xargs``."""

from __future__ import annotations

from cupcake.shell.output import stdout
from cupcake.shell.words import SUB, GlobValue, Word

_ALNUM = (False, (("a", "z"), ("A", "Z"), ("0", "9")))


def printed(cmd, st):
    """A command substitution's value: GlobValue, True (clean), or False (tainted data)."""
    program = cmd.program
    if program == "mktemp":
        return _mktemp(cmd, st)
    if program in _NUMBERS or program in ("pwd", "date", "uname", "whoami", "id", "hostname", "nproc", "mktemp"):
        return True
    if program == "echo" or program == "printf":
        text = stdout(cmd)
        return bool(text and text[1])
    if program == "wc" or (program == "grep" and any(w.value in ("-c", "--count") for w in cmd.words)):
        return True
    if program == "git" and cmd.words[1:2] and cmd.words[1].value in ("rev-parse", "rev-list", "merge-base"):
        return True
    return False


_NUMBERS = frozenset(("expr", "seq", "getconf", "tput", "stat", "du", "df"))


def _mktemp(cmd, st):
    """``mktemp [-d] [-p DIR | -t] [TEMPLATE]``: a new name, X's replaced by letters and digits."""
    from cupcake.programs import read

    reading = read(cmd.words)
    template = next((w for w in reading.operands), None) if reading is not None else None
    directory = None
    if reading is not None:
        directory = reading.get("-p", "--tmpdir")
    if template is not None and not template.known or directory is not None and not directory.known:
        return False
    tmp = st.env.get("TMPDIR") if isinstance(st.env.get("TMPDIR"), str) else None
    if "TMPDIR" in st.env and tmp is None:
        return False
    tmp = tmp or "/tmp"
    text = template.value if template is not None else "tmp.XXXXXXXXXX"
    where = None
    if directory is not None:
        where = directory.value or tmp
    elif template is None or (reading is not None and reading.has("-t")):
        where = tmp
    elif "/" not in text:
        where = st.cwd
        if where is None:
            return False
    stem = text.rstrip("X")
    count = len(text) - len(stem)
    if count < 3 or ".." in text:
        return False
    prefix = (where.rstrip("/") + "/" if where is not None and not text.startswith("/") else "") + stem
    suffix = reading.get("--suffix") if reading is not None else None
    tokens = list(prefix) + [_ALNUM] * count + (list(suffix.value) if suffix is not None and suffix.known else [])
    return GlobValue(prefix + "X" * count, tokens, blank=any(c in prefix for c in " \t\n"))


def items(cmd):
    """What each line ``cmd`` prints could be, as Words (for ``xargs``): the words ``echo`` or
    ``printf`` print; a path under ``find``'s roots; a file ``grep -l`` was given; a commit id.
    None when the reader cannot tell (a file's content, names from a listing)."""
    if cmd is None or not cmd.words:
        return None
    text = stdout(cmd)
    if text is not None:
        return [Word(x) for x in text[0].split()] if text[1] else None
    program = cmd.program
    reading = cmd.reading
    if program == "find" and reading is not None:
        return _under_roots(cmd)
    if (
        program in ("grep", "egrep", "fgrep", "rg")
        and reading is not None
        and reading.has("-l", "-L", "--files-with-matches", "--files-without-match")
    ):
        files = [e.word for e in reading.effects if e.tag == "reads" and e.word is not None]
        if files and all(w.known or w.glob for w in files):
            tree = reading.has("-r", "-R", "--recursive") or program == "rg"
            return [_beneath(w) if tree else w for w in files]
        return None
    if program == "seq" or (program == "git" and reading is not None and _ids(reading)):
        return [Word("…", "…", known=False, tokens=[_HEX_WORD, SUB])]
    return None


_HEX_WORD = (False, (("0", "9"), ("a", "f")))


def _ids(reading) -> bool:
    """``git rev-list``/``git log --format=%H`` (only commit ids): clean items."""
    sub = reading.path[1] if len(reading.path) > 1 else None
    if sub == "rev-list" and not any(
        w.value.startswith("--format") or w.value.startswith("--pretty") for w in reading.words
    ):
        return True
    if sub == "log":
        formats = [
            w.value.split("=", 1)[1]
            for w in reading.words
            if w.value.startswith(("--format=", "--pretty=format:", "--pretty=tformat:"))
        ]
        return bool(formats) and all(
            f.replace("%H", "").replace("%h", "").replace("%T", "").replace("%t", "").strip() == "" for f in formats
        )
    return False


def _under_roots(cmd):
    words = cmd.words
    roots = []
    for word in words[1:]:
        if word.known and (word.value.startswith("-") or word.value in ("(", "!", ")")):
            break
        roots.append(word)
    return [_beneath(root) for root in roots or [Word(".")]]


def _beneath(word):
    """A path under ``word`` (find and grep -r print paths that start with what they were given)."""
    tokens = list(word.pattern()) + ["/", SUB]
    return Word(word.value.rstrip("/") + "/…", word.raw, False, word.glob, word.quoted, tokens)
