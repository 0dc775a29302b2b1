"""What a Bash line hides one level further, for ``command_facts`` (loaded when a line holds one):
aliases defined on the line, words split by a changed ``IFS``, command substitutions inside
arithmetic subscripts, inline interpreter code (its shell commands and deletions), a script the line
writes and then runs, decoded data run as code, git settings that name a program, and the SQL a
database client would read. What it finds is read as a line of its own (``Facts.nested``)."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: on the warm path
if TYPE_CHECKING:  # annotations only
    from cupcake.evaluate.command_facts import Facts

MAX_SQL_FILE = 256 * 1024  # an SQL script read from disk (psql -f, < file): larger is unknown

# Programs that only transform data: their output run as code is code no one can read.
DECODERS = frozenset(
    ("base64", "base32", "basenc", "xxd", "openssl", "gunzip", "zcat", "gzip", "bzcat", "bunzip2", "xz", "unxz")
    + ("rev", "tr", "uudecode", "recode", "iconv", "od")
)

# git settings whose value is a command git runs.
GIT_RUNS = frozenset(
    (
        "core.pager",
        "core.editor",
        "core.sshcommand",
        "core.fsmonitor",
        "core.askpass",
        "sequence.editor",
        "diff.external",
        "gpg.program",
        "credential.helper",
        "pager.log",
        "pager.diff",
        "pager.show",
    )
)

PLAIN = "write the command out plainly, one program and its arguments, with no code built or decoded at run time"


class _Bare:
    """Where a line with no command runs (for reading what it hides)."""

    __slots__ = ("cwd", "home", "via")

    def __init__(self, root: str):
        self.cwd, self.home, self.via = root, None, ()


def git_config(facts: Facts, view, cmd, reading, word, depth: int) -> None:
    if reading.path[0] != "git":
        return
    if not word.known:
        facts.hidden.append(("a git setting Cupcake cannot see", PLAIN))
        return
    key, _, value = word.value.partition("=")
    key = key.strip().lower()
    if key.startswith("alias."):
        name = key[len("alias.") :]
        sub = cmd.subcommand()
        if sub is None or sub.lower() != name:
            return
        rest = " ".join(w.raw for w in _after_subcommand_words(cmd))
        if value.startswith("!"):
            facts.nested(view, value[1:] + " " + rest, cmd, depth, ("git alias " + name,))
        else:
            facts.nested(view, "git " + value + " " + rest, cmd, depth, ("git alias " + name,))
    elif key in GIT_RUNS or key.startswith("pager.") or key.startswith("filter."):
        text = value[1:] if value.startswith("!") else value
        if text.strip():
            facts.nested(view, text, cmd, depth, ("git -c " + key,))


def _after_subcommand_words(cmd) -> list:
    i = cmd.subcommand_index()
    return list(cmd.words[i + 2 :]) if i is not None else []


def define_aliases(cmd, aliases: dict) -> None:
    for word in cmd.words[1:]:
        if "=" not in word.value or word.value.startswith("-"):
            continue
        name, _, value = word.value.partition("=")
        if word.known:
            aliases[name] = value


def split_by_ifs(facts: Facts, view, cmd, ifs: str, depth: int) -> None:
    """Words made of one unquoted expansion are split on ``IFS`` by bash: read them again split."""
    changed = False
    words: list[str] = []
    for word in cmd.words:
        raw = word.raw
        if raw.startswith("$") and '"' not in raw and "'" not in raw and any(c in word.value for c in ifs):
            if not word.known:
                facts.hidden.append(("words split by a changed IFS", PLAIN))
                return
            parts = [p for p in _split(word.value, ifs) if p]
            words.extend(quote(p) for p in parts)
            changed = True
        else:
            words.append(word.raw)
    if changed:
        facts.nested(view, " ".join(words), cmd, depth, ("IFS",))


def _split(text: str, chars: str) -> list:
    out: list[str] = []
    current: list[str] = []
    for ch in text:
        if ch in chars:
            out.append("".join(current))
            current = []
        else:
            current.append(ch)
    out.append("".join(current))
    return out


def quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def subscripts(facts: Facts, view, script, depth: int) -> None:
    """A string holding ``a[$(…)]`` runs the substitution when bash does arithmetic on it
    (``$((x))``, ``[[ $x -eq 1 ]]``, ``let``), even inside single quotes: read what it would run."""
    value = script.text
    if "[$(" in value or "[`" in value:
        first = script.commands[0] if script.commands else None
        cmd = first if first is not None else _Bare(view.root)
        for opener in ("[$(", "[`"):
            at = value.find(opener)
            while at >= 0:
                inner = _substitution(value, at + 1)
                if inner is None:
                    facts.hidden.append(("a command substitution inside an array subscript", PLAIN))
                    break
                facts.nested(view, inner, cmd, depth, ("arithmetic subscript",))
                at = value.find(opener, at + 1)


def _substitution(text: str, at: int):
    """The command inside ``$(…)`` or ``` `…` ``` starting at ``at``, or None when it does not close."""
    if text.startswith("`", at):
        end = text.find("`", at + 1)
        return text[at + 1 : end] if end > 0 else None
    level = 0
    for k in range(at + 1, len(text)):
        ch = text[k]
        if ch == "(":
            level += 1
        elif ch == ")":
            level -= 1
            if level == 0:
                return text[at + 2 : k]
    return None


def opaque_code(facts: Facts, view, cmd, opaque, depth: int, script) -> None:
    kind = opaque.kind
    if kind in ("inline code", "stdin code"):
        if opaque.text is None or not opaque.known:
            if kind == "inline code" and opaque.text and not opaque.known:
                facts.hidden.append((f"{opaque.language} code built from values Cupcake cannot see", PLAIN))
            return
        interpreter_code(facts, view, cmd, opaque.language, opaque.text, depth)
        return
    if kind in ("shell script", "stdin script") and not opaque.known:
        decoders = [c.program for c in script.commands if c.program in DECODERS or _decoding_printf(c)]
        if decoders:
            facts.hidden.append(
                (f"shell code decoded at run time (through `{decoders[0]}`) and then run", PLAIN),
            )


def interpreter_code(facts: Facts, view, cmd, language: str, text: str, depth: int) -> None:
    """Inline interpreter code: the shell commands and deletions it makes, the paths it names, and
    whether it hides what it calls."""
    from cupcake.evaluate import inline_code  # only when a line holds inline code

    found = inline_code.read(language, text)  # None for a language not read there
    if found is None:
        return
    for reason in found.hidden:
        facts.hidden.append((f"{language} code that {reason}", _CODE_PLAIN))
    for line in found.shell:
        facts.nested(view, line, cmd, depth, (f"{cmd.program} code",))
    if found.paths:
        from cupcake.shell.model import Write
        from cupcake.shell.words import Word

        for path in found.paths:
            word = Word(path)
            facts.reads.append((word, cmd.cwd))
            if found.writes:
                facts.writes.append(Write(f"{cmd.program} code", word, cmd.cwd))


_CODE_PLAIN = (
    "call the functions by name with literal arguments (no getattr, eval, exec, decoding or names built at run time)"
)


def script_file(facts: Facts, view, cmd, opaque, text, depth: int) -> None:
    """A script the same line wrote and then runs (``text``: what it holds, None when the line does not
    show it): read what it holds, or refuse it."""
    if text is None:
        facts.hidden.append(("a script written earlier on the same line and then run", PLAIN))
    else:
        facts.nested(view, text, cmd, depth, (f"{cmd.program} {opaque.text}",))


def _decoding_printf(cmd) -> bool:
    """``printf '\\x72\\x6d'`` / ``echo -e '\\162'``: bytes spelled as escapes."""
    if cmd.program not in ("printf", "echo"):
        return False
    return any("\\x" in w.value or "\\0" in w.value or "\\1" in w.value for w in cmd.words[1:])


def stdin_of(cmd, root: str):
    """What a command reads on standard input: the text, None when it cannot be known, or False
    when there is none (nothing piped or redirected: a client waiting for a terminal reads nothing)."""
    for r in reversed(cmd.redirects):
        if r.feeds_stdin:
            return r.body if r.body_known else None
        if r.op in ("<", "<>") and r.fd in (None, 0):
            return read_sql(r.target, cmd.cwd, root)
    if cmd.stdin_text is not None:
        text, known = cmd.stdin_text
        return text if known else None
    source = cmd.stdin_from
    if source is not None:
        if source.program == "cat" and len(source.words) == 2:
            return read_sql(source.words[1], source.cwd, root)
        return None
    return False


def read_sql(word, cwd, root: str):
    """The text of an SQL script the client reads, or None when it cannot be read here (unknown
    name, not a regular file, too large). Opened without following the agent's FIFOs or devices."""
    import os
    import stat

    if word is None or not word.known or not word.value:
        return None
    path = word.value
    if path.startswith("~"):
        path = os.path.expanduser(path)
    if not path.startswith("/"):
        path = os.path.join(cwd or root, path)
    if path.startswith(("/dev/", "/proc/")):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SQL_FILE:
            return None
        data = os.read(fd, MAX_SQL_FILE + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data.decode("utf-8", "replace")
