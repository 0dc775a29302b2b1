"""What a Bash line would do, for the rule packs: every command that would run — those the Bash
reader finds, and those hidden one level further in code the registry of programs says is run
(``trap ACTION``, ``git -c alias.x='!…' x``, git settings that name a program, ``mapfile -C``,
``sed e``, an alias defined on the line, words split by a changed ``IFS``, command substitutions
inside arithmetic subscripts, shell commands and file deletions inside inline interpreter code) —
the SQL each database client would run, the paths read, and what the reader could not see through
(``hidden``: code built at run time, decoded data run as code). What a line hides is read in
``hidden_code``, loaded when the line holds some.

Built once per run (``EventView.facts``), on the warm path but only after a condition's prefilter
passed; the Bash reader is already loaded then. Warm: no ``re`` beyond the run's cached patterns."""

from __future__ import annotations

from cupcake import lean_os as os  # loaded by every run already (cupcake.cli.run)

MAX_DEPTH = 4  # nested readings (a trap inside an alias inside inline code…): deeper is hidden
MAX_NESTED = 64  # nested readings per line

SQL_LANGUAGES = frozenset(("sql", "psql", "mysql", "sqlite", "mongo", "redis"))


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

    def nested(self, view, text: str, cmd, depth: int, via: tuple) -> None:
        """``text``, which ``cmd`` runs (``via``: through what), read as a line of its own one level deeper."""
        if depth + 1 > MAX_DEPTH or self._nested >= MAX_NESTED:
            from cupcake.evaluate.hidden_code import PLAIN

            self.hidden.append(("commands nested too deep to read", PLAIN))
            return
        self._nested += 1
        sub = view.patterns.parsed(text, cmd.cwd or view.root, cmd.home, {})
        _walk(self, sub, view, depth + 1, tuple(cmd.via) + via)


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
        from cupcake.evaluate.hidden_code import PLAIN

        facts.hidden.append((f"code Cupcake could not read to the end ({script.incomplete})", PLAIN))
    aliases: dict = {}
    written: dict = {}  # path -> the text a here-document wrote there earlier on the line
    ifs = _ifs(script.text)
    if "[$(" in script.text or "[`" in script.text:
        from cupcake.evaluate.hidden_code import subscripts

        subscripts(facts, view, script, depth)
    for cmd in list(script.commands):
        if via:
            cmd.via = via + tuple(cmd.via)
        facts.commands.append(cmd)
        called = _as_called(cmd)
        if called is not None:
            facts.commands.append(called)
        program = cmd.program
        if program == "alias":
            from cupcake.evaluate.hidden_code import define_aliases

            define_aliases(cmd, aliases)
            continue
        if program in aliases:
            rest = " ".join(w.raw for w in cmd.words[1:])
            facts.nested(view, aliases[program] + " " + rest, cmd, depth, ("alias " + program,))
        if ifs:
            from cupcake.evaluate.hidden_code import split_by_ifs

            split_by_ifs(facts, view, cmd, ifs, depth)
        read_by_registry = False
        if facts.full or program in NESTING:
            read_by_registry = _registry(facts, view, cmd, depth)
        if facts.full and not read_by_registry and program not in NAMES_ONLY:
            # a program that takes a file by name may read it (scp, tar, zip, openssl…): what the
            # registry does not list as read is counted too, so a credential file is never missed
            facts.reads.extend((w, cmd.cwd) for w in cmd.words[1:] if w.known and not w.value.startswith("-"))
        for opaque in cmd.opaque:
            from cupcake.evaluate.hidden_code import opaque_code, script_file

            if opaque.kind != "script file":
                opaque_code(facts, view, cmd, opaque, depth, script)
            elif opaque.known and opaque.text is not None:
                path = _absolute(opaque.text, cmd.cwd)
                if path in written:  # a script the same line wrote and then runs
                    script_file(facts, view, cmd, opaque, written[path], depth)
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


# ## the registry ##


def _registry(facts: Facts, view, cmd, depth: int) -> bool:
    """Read ``cmd`` with the registry; whether it said which files the command reads or writes."""
    from cupcake import programs

    if not cmd.words or not cmd.words[0].known:
        return False
    if cmd.reading_alone:  # the reader's own reading of these words: the same one
        reading = cmd.reading
    else:
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
        from cupcake.evaluate.hidden_code import quote

        text = " ".join(quote(w.value) if w.exact else w.raw for w in reading.elsewhere)
        facts.nested(view, text, cmd, depth, (" ".join(reading.path),))
    for effect in reading.effects:
        tag = effect.tag
        word = effect.word
        if tag == "config" and word is not None:
            from cupcake.evaluate.hidden_code import git_config

            git_config(facts, view, cmd, reading, word, depth)
        elif tag in ("reads", "script") and word is not None:
            facts.reads.append((word, cmd.cwd))
            if tag == "script" and language in SQL_LANGUAGES:
                from cupcake.evaluate.hidden_code import read_sql

                facts.sql.append((read_sql(word, cmd.cwd, view.root), effect.what))
        elif tag == "code" and language in SQL_LANGUAGES and word is not None:
            facts.sql.append((word.value if word.known else None, effect.what))
        elif tag == "code" and word is not None and word.known:
            from cupcake.evaluate.hidden_code import interpreter_code

            interpreter_code(facts, view, cmd, language, word.value, depth)
        elif tag == "stdin code" and language in SQL_LANGUAGES:
            from cupcake.evaluate.hidden_code import stdin_of

            fed = stdin_of(cmd, view.root)
            if fed is not False:
                facts.sql.append((fed, " ".join(reading.path) + " (standard input)"))
    for redirect in cmd.redirects:
        if redirect.op in ("<", "<>") and redirect.fd in (None, 0):
            facts.reads.append((redirect.target, cmd.cwd))
    return any(e.tag in FILE_EFFECTS for e in reading.effects)


FILE_EFFECTS = frozenset(("reads", "script", "writes", "deletes", "into", "mode", "links"))


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


def _remember_written(cmd, written: dict) -> None:
    """``cat > x.sh <<EOF … EOF``: the text now in ``x.sh`` (None when it cannot be known)."""
    for r in cmd.redirects:
        if r.writes and r.target.known:
            path = _absolute(r.target.value, cmd.cwd)
            body = next((b.body for b in cmd.redirects if b.feeds_stdin and b.body_known), None)
            if cmd.program == "echo" and all(w.known for w in cmd.words[1:]):
                body = " ".join(w.value for w in cmd.words[1:] if w.value not in ("-n", "-e", "-E"))
            written[path] = body if cmd.program in ("cat", "tee", "echo") else None


def _absolute(value: str, cwd) -> str:
    from cupcake.shell.model import normpath

    value = os.path.expanduser(value)
    return normpath(value if value.startswith("/") else (cwd or "/").rstrip("/") + "/" + value)


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
