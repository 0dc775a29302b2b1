"""What a Bash line would do, for the rule packs: every command that would run — those the Bash
reader finds, and those hidden one level further in code the registry of programs says is run
(``trap ACTION``, ``git -c alias.x='!…' x``, git settings that name a program, ``mapfile -C``,
``sed e``, an alias defined on the line, words split by a changed ``IFS``, command substitutions
inside arithmetic subscripts, shell commands and file deletions inside inline interpreter code) —
the SQL each database client would run, the paths read, and what the reader could not see through
(``hidden``: code built at run time, decoded data run as code).

Built once per run (``EventView.facts``), on the warm path but only after a condition's prefilter
passed; the Bash reader is already loaded then. Warm: no ``re`` beyond the run's cached patterns."""

from __future__ import annotations

MAX_DEPTH = 4  # nested readings (a trap inside an alias inside inline code…): deeper is hidden
MAX_NESTED = 64  # nested readings per line
MAX_SQL_FILE = 256 * 1024  # an SQL script read from disk (psql -f, < file): larger is unknown

SQL_LANGUAGES = frozenset(("sql", "psql", "mysql", "sqlite", "mongo", "redis"))
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


class Facts:
    __slots__ = ("commands", "hidden", "sql", "reads", "writes", "contents", "full", "_nested", "by_program")

    def __init__(self, full: bool = False):
        self.full = full  # every command read with the registry (reads and SQL known), not only those that nest
        self.commands: list = []  # every Command, nested ones included (their ``via`` says through what)
        self.hidden: list = []  # (what, how to write it plainly)
        self.sql: list = []  # (text or None when it cannot be seen, what runs it)
        self.reads: list = []  # (Word, cwd): files read
        self.writes: list = []  # Write: paths changed (the reader's)
        self.contents: list = []  # texts written into files (here-documents, echo > f)
        self._nested = 0
        self.by_program = None  # ``command_match.candidates``' index of the commands, made on first use


# Programs whose arguments name paths without reading what is in them.
NAMES_ONLY = frozenset(
    ("echo", "printf", "ls", "stat", "test", "[", "[[", "mkdir", "touch", "basename", "dirname", "realpath")
    + ("readlink", "which", "type", "command", "cd", "pushd", "export", "unset", "alias", "ssh-keygen", "du")
)
# Programs whose arguments may hold commands the Bash reader does not follow: read with the registry
# even when only the commands are asked for.
NESTING = frozenset(
    ("python", "python3", "perl", "ruby", "node", "php", "bun", "deno")
    + ("trap", "mapfile", "readarray", "compgen", "sed", "gsed", "git", "watch", "flock", "docker", "podman", "kubectl")
    + ("ssh", "parallel", "entr", "nodemon")
)


def of(view, full: bool = False):
    """The ``Facts`` of the event's Bash line (``view.script()``). ``full``: every command read with
    the registry (the files read, the SQL run), not only the programs that can nest commands."""
    script = view.script()
    facts = Facts(full)
    _walk(facts, script, view, 0, ())
    return facts


def _walk(facts: Facts, script, view, depth: int, via: tuple) -> None:
    facts.writes.extend(script.writes)
    if script.incomplete and depth:
        facts.hidden.append((f"code Cupcake could not read to the end ({script.incomplete})", _PLAIN))
    aliases: dict = {}
    written: dict = {}  # path -> the text a here-document wrote there earlier on the line
    ifs = _ifs(script.text)
    _subscripts(facts, view, script, depth)
    for cmd in list(script.commands):
        if via:
            cmd.via = via + tuple(cmd.via)
        facts.commands.append(cmd)
        called = _as_called(cmd)
        if called is not None:
            facts.commands.append(called)
        program = cmd.program
        if program == "alias":
            _define_aliases(cmd, aliases)
            continue
        if program in aliases:
            rest = " ".join(w.raw for w in cmd.words[1:])
            _nested(facts, view, aliases[program] + " " + rest, cmd, depth, ("alias " + program,))
        if ifs:
            _split_by_ifs(facts, view, cmd, ifs, depth)
        read_by_registry = False
        if facts.full or program in NESTING:
            read_by_registry = _registry(facts, view, cmd, depth)
        if facts.full and not read_by_registry and program not in NAMES_ONLY:
            # a program that takes a file by name may read it (scp, tar, zip, openssl…): what the
            # registry does not list as read is counted too, so a credential file is never missed
            facts.reads.extend((w, cmd.cwd) for w in cmd.words[1:] if w.known and not w.value.startswith("-"))
        for opaque in cmd.opaque:
            if opaque.kind == "script file":
                _script_file(facts, view, cmd, opaque, written, depth)
            else:
                _opaque(facts, view, cmd, opaque, depth, script)
        _contents(facts, cmd)
        _remember_written(cmd, written)


def _as_called(cmd):
    """``python3 -m http.server 8000`` is read as the module's own program run through python; a
    rule written with the interpreter's words (``program = "python3", args = ["http.server"]``)
    must match it too: the command as it was called, or None when no interpreter ran it."""
    if not cmd.wrappers or not cmd.words:
        return None
    called = cmd.wrappers[-1]
    if len(called) < 2 or called[-2] != "-m":
        return None
    from cupcake import programs
    from cupcake.shell.model import Command
    from cupcake.shell.words import Word

    spec = programs.lookup(programs.basename(called[0]))
    if spec is None or spec.kind != "interpreter":
        return None
    out = Command([Word(v) for v in called] + list(cmd.words[1:]), cmd.redirects, (), cmd.cwd, cmd.home, cmd.via[:-1])
    out.stdin_from = cmd.stdin_from
    return out


_PLAIN = "write the command out plainly, one program and its arguments, with no code built or decoded at run time"


def _nested(facts: Facts, view, text: str, cmd, depth: int, via: tuple) -> None:
    if depth + 1 > MAX_DEPTH or facts._nested >= MAX_NESTED:
        facts.hidden.append(("commands nested too deep to read", _PLAIN))
        return
    facts._nested += 1
    sub = view.patterns.parsed(text, cmd.cwd or view.root, cmd.home, {})
    _walk(facts, sub, view, depth + 1, tuple(cmd.via) + via)


class _Bare:
    """Where a line with no command runs (for reading what it hides)."""

    __slots__ = ("cwd", "home", "via")

    def __init__(self, root: str):
        self.cwd, self.home, self.via = root, None, ()


# ## the registry ##


def _registry(facts: Facts, view, cmd, depth: int) -> bool:
    """Read ``cmd`` with the registry; whether it said which files the command reads or writes."""
    from cupcake import programs

    if not cmd.words or not cmd.words[0].known:
        return False
    try:
        reading = programs.read(cmd.words)
    except Exception:  # a reading that fails is the registry's bug: the line is still read by the reader
        return False
    if reading is None:
        return False
    language = reading.spec.language or reading.top.language
    if reading.elsewhere:
        # a command run in a container, a pod or on another host (docker exec c CMD, ssh host CMD): the
        # Bash reader leaves it (not this machine's files), the packs judge what it does there
        text = " ".join(_quote(w.value) if w.exact else w.raw for w in reading.elsewhere)
        _nested(facts, view, text, cmd, depth, (" ".join(reading.path),))
    for effect in reading.effects:
        tag = effect.tag
        word = effect.word
        if tag == "config" and word is not None:
            _git_config(facts, view, cmd, reading, word, depth)
        elif tag in ("reads", "script") and word is not None:
            facts.reads.append((word, cmd.cwd))
            if tag == "script" and language in SQL_LANGUAGES:
                facts.sql.append((_read_sql(word, cmd.cwd, view.root), effect.what))
        elif tag == "code" and language in SQL_LANGUAGES and word is not None:
            facts.sql.append((word.value if word.known else None, effect.what))
        elif tag == "code" and word is not None and word.known:
            _code(facts, view, cmd, language, word.value, depth)
        elif tag == "stdin code" and language in SQL_LANGUAGES:
            fed = stdin_of(cmd, view.root)
            if fed is not False:
                facts.sql.append((fed, " ".join(reading.path) + " (standard input)"))
    for redirect in cmd.redirects:
        if redirect.op in ("<", "<>") and redirect.fd in (None, 0):
            facts.reads.append((redirect.target, cmd.cwd))
    return any(e.tag in FILE_EFFECTS for e in reading.effects)


FILE_EFFECTS = frozenset(("reads", "script", "writes", "deletes", "into", "mode", "links"))


def _git_config(facts: Facts, view, cmd, reading, word, depth: int) -> None:
    if reading.path[0] != "git":
        return
    if not word.known:
        facts.hidden.append(("a git setting Cupcake cannot see", _PLAIN))
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
            _nested(facts, view, value[1:] + " " + rest, cmd, depth, ("git alias " + name,))
        else:
            _nested(facts, view, "git " + value + " " + rest, cmd, depth, ("git alias " + name,))
    elif key in GIT_RUNS or key.startswith("pager.") or key.startswith("filter."):
        text = value[1:] if value.startswith("!") else value
        if text.strip():
            _nested(facts, view, text, cmd, depth, ("git -c " + key,))


def _after_subcommand_words(cmd) -> list:
    i = cmd.subcommand_index()
    return list(cmd.words[i + 2 :]) if i is not None else []


# ## what the line itself hides ##


def _define_aliases(cmd, aliases: dict) -> None:
    for word in cmd.words[1:]:
        if "=" not in word.value or word.value.startswith("-"):
            continue
        name, _, value = word.value.partition("=")
        if word.known:
            aliases[name] = value


def _ifs(text: str):
    """The characters ``IFS`` is set to on this line (a word split by them is re-read), or None."""
    at = text.find("IFS=")
    if at < 0:
        return None
    value = text[at + 4 :]
    if not value or value[0] in " \t;\n&|)":
        return None  # ``IFS= read -r line``: splitting switched off, nothing re-split
    if value.startswith("$'"):
        body = value[2 : value.find("'", 2)] if "'" in value[2:] else ""
        return body.replace("\\n", "\n").replace("\\t", "\t") or None
    if value[0] in "'\"":
        end = value.find(value[0], 1)
        return value[1:end] if end > 0 else None
    out = []
    for ch in value:
        if ch in " \t;\n&|)":
            break
        out.append(ch)
    return "".join(out) or None


def _split_by_ifs(facts: Facts, view, cmd, ifs: str, depth: int) -> None:
    """Words made of one unquoted expansion are split on ``IFS`` by bash: read them again split."""
    changed = False
    words: list[str] = []
    for word in cmd.words:
        raw = word.raw
        if raw.startswith("$") and '"' not in raw and "'" not in raw and any(c in word.value for c in ifs):
            if not word.known:
                facts.hidden.append(("words split by a changed IFS", _PLAIN))
                return
            parts = [p for p in _split(word.value, ifs) if p]
            words.extend(_quote(p) for p in parts)
            changed = True
        else:
            words.append(word.raw)
    if changed:
        _nested(facts, view, " ".join(words), cmd, depth, ("IFS",))


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


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _subscripts(facts: Facts, view, script, depth: int) -> None:
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
                    facts.hidden.append(("a command substitution inside an array subscript", _PLAIN))
                    break
                _nested(facts, view, inner, cmd, depth, ("arithmetic subscript",))
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


def _opaque(facts: Facts, view, cmd, opaque, depth: int, script) -> None:
    kind = opaque.kind
    if kind in ("inline code", "stdin code"):
        if opaque.text is None or not opaque.known:
            if kind == "inline code" and opaque.text and not opaque.known:
                facts.hidden.append((f"{opaque.language} code built from values Cupcake cannot see", _PLAIN))
            return
        _code(facts, view, cmd, opaque.language, opaque.text, depth)
        return
    if kind in ("shell script", "stdin script") and not opaque.known:
        decoders = [c.program for c in script.commands if c.program in DECODERS or _decoding_printf(c)]
        if decoders:
            facts.hidden.append(
                (f"shell code decoded at run time (through `{decoders[0]}`) and then run", _PLAIN),
            )


def _code(facts: Facts, view, cmd, language: str, text: str, depth: int) -> None:
    """Inline interpreter code: the shell commands and deletions it makes, the paths it names, and
    whether it hides what it calls."""
    from cupcake.evaluate import inline_code  # only when a line holds inline code

    found = inline_code.read(language, text)  # None for a language not read there
    if found is None:
        return
    for reason in found.hidden:
        facts.hidden.append((f"{language} code that {reason}", _CODE_PLAIN))
    for line in found.shell:
        _nested(facts, view, line, cmd, depth, (f"{cmd.program} code",))
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


def _remember_written(cmd, written: dict) -> None:
    """``cat > x.sh <<EOF … EOF``: the text now in ``x.sh`` (None when it cannot be known)."""
    for r in cmd.redirects:
        if r.writes and r.target.known:
            path = _absolute(r.target.value, cmd.cwd)
            body = next((b.body for b in cmd.redirects if b.feeds_stdin and b.body_known), None)
            if cmd.program == "echo" and all(w.known for w in cmd.words[1:]):
                body = " ".join(w.value for w in cmd.words[1:] if w.value not in ("-n", "-e", "-E"))
            written[path] = body if cmd.program in ("cat", "tee", "echo") else None


def _script_file(facts: Facts, view, cmd, opaque, written: dict, depth: int) -> None:
    """A script the same line wrote and then runs: read what it holds, or refuse it."""
    if not opaque.known or opaque.text is None:
        return
    path = _absolute(opaque.text, cmd.cwd)
    if path not in written:
        return
    text = written[path]
    if text is None:
        facts.hidden.append(("a script written earlier on the same line and then run", _PLAIN))
    else:
        _nested(facts, view, text, cmd, depth, (f"{cmd.program} {opaque.text}",))


def _absolute(value: str, cwd) -> str:
    import os

    from cupcake.shell.model import normpath

    value = os.path.expanduser(value)
    return normpath(value if value.startswith("/") else (cwd or "/").rstrip("/") + "/" + value)


def _decoding_printf(cmd) -> bool:
    """``printf '\\x72\\x6d'`` / ``echo -e '\\162'``: bytes spelled as escapes."""
    if cmd.program not in ("printf", "echo"):
        return False
    return any("\\x" in w.value or "\\0" in w.value or "\\1" in w.value for w in cmd.words[1:])


# ## standard input and files ##


def stdin_of(cmd, root: str):
    """What a command reads on standard input: the text, None when it cannot be known, or False
    when there is none (nothing piped or redirected: a client waiting for a terminal reads nothing)."""
    for r in reversed(cmd.redirects):
        if r.feeds_stdin:
            return r.body if r.body_known else None
        if r.op in ("<", "<>") and r.fd in (None, 0):
            return _read_sql(r.target, cmd.cwd, root)
    if cmd.stdin_text is not None:
        text, known = cmd.stdin_text
        return text if known else None
    source = cmd.stdin_from
    if source is not None:
        if source.program == "cat" and len(source.words) == 2:
            return _read_sql(source.words[1], source.cwd, root)
        return None
    return False


def _read_sql(word, cwd, root: str):
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


def _contents(facts: Facts, cmd) -> None:
    """Text a command writes into a file: a here-document or here-string fed to a writer, the words
    of ``echo``/``printf`` sent to a file."""
    writes_file = any(r.writes for r in cmd.redirects) or cmd.program in ("tee", "dd", "cp", "install")
    if not writes_file:
        return
    for r in cmd.redirects:
        if r.feeds_stdin and r.body:
            facts.contents.append(r.body)
    if cmd.program in ("echo", "printf"):
        facts.contents.append(" ".join(w.value for w in cmd.words[1:]))
    if cmd.stdin_text is not None and cmd.stdin_text[0]:
        facts.contents.append(cmd.stdin_text[0])
