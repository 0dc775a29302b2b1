"""What callers use: ``Script`` (every simple command that would run, what they write and read,
what the reader could not follow, whether the reading is complete), ``Command`` (one simple
command after unwrapping: program, subcommand, flags, arguments, redirections, the directory it
runs in, the wrappers it came through, its reading by the registry of programs), ``Redirect``,
``Opaque`` (code the reader does not follow: inline interpreter code, a script of unknown text),
``Write`` (a path a command would write, remove, move, link or re-mode, resolved the way the kernel
would), ``Read`` (a file whose content a command reads) and ``Unknown`` (a construct the reader
does not model, with how to write the command plainly).

And the tree a line is read into, at the end: the grammar's nodes (``Seq`` of ``AndOr`` chains of
``Pipeline`` of ``Simple`` and ``Compound`` commands, ``Redir``; see ``grammar``) and the lexer's
words (``RawWord``), with ``plain(text, budget)``, which reads a line of plain words into the very
tree the grammar makes of it without loading the lexer and the grammar: most lines an agent sends
that the quick pass does not let through are one program and its words (``rm -rf build``).
"""

from __future__ import annotations

from cupcake.shell.words import ANY, Word, basename_tokens, literal_ends, match, render

TYPE_CHECKING = False  # not typing's: the Bash reader is on the hot path
if TYPE_CHECKING:  # annotations only
    from cupcake.shell.words import Token

_WRITE_OPS = frozenset((">", ">>", ">|", "&>", "&>>", "<>"))


def value_options(program: str) -> frozenset:
    """The options of ``program`` (before its subcommand) that take a value (``git -C dir``)."""
    from cupcake.programs import value_options as of

    return of(program)


class Redirect:
    """``op`` (``>``, ``>>``, ``>|``, ``&>``, ``&>>``, ``<>``, ``<``, ``<<``, ``<<-``, ``<<<``, ``>&``,
    ``<&``), ``fd`` (int, a ``{name}`` string or None), ``target`` (Word; for ``<<`` the delimiter),
    ``body`` (here-document or here-string text, else None) and ``body_known``."""

    __slots__ = ("op", "fd", "target", "body", "body_known")

    def __init__(self, op: str, fd, target: Word, body=None, body_known: bool = True):
        self.op = op
        self.fd = fd
        self.target = target
        self.body = body
        self.body_known = body_known

    @property
    def writes(self) -> bool:
        """Whether this redirection opens its target for writing (``2>&1`` does not)."""
        if self.op in _WRITE_OPS:
            return True
        if self.op == ">&":
            value = self.target.value
            return not (self.target.known and (value.isdigit() or value in ("-", "")) or value.rstrip("-").isdigit())
        return False

    @property
    def reads(self) -> bool:
        """Whether this redirection opens its target for reading (``< file``, ``<> file``)."""
        return self.op in ("<", "<>") or (self.op == "<&" and not self.target.value.rstrip("-").isdigit())

    @property
    def feeds_stdin(self) -> bool:
        return self.op in ("<<", "<<-", "<<<") and self.fd in (None, 0)

    def __repr__(self) -> str:
        fd = "" if self.fd is None else str(self.fd)
        return f"Redirect({fd}{self.op} {self.target.value!r})"


class Opaque:
    """Code the reader does not follow. ``kind``: "inline code" (``python -c``, ``perl -e``, …),
    "stdin code" (an interpreter fed a here-document, here-string or pipe), "shell script" (a
    ``sh -c``/``eval`` text not fully known), "stdin script" (a shell reading a stdin whose text is
    unknown), "script file" (``python3 x.py``). ``language`` (``python``, ``perl``, ``sh``, …),
    ``text`` (the code when known, else what is known of it; None if nothing)."""

    __slots__ = ("kind", "language", "text", "known")

    def __init__(self, kind: str, language: str, text, known: bool = True):
        self.kind = kind
        self.language = language
        self.text = text
        self.known = known

    def __repr__(self) -> str:
        return f"Opaque({self.kind!r}, {self.language!r}, {self.text!r}{'' if self.known else ', unknown'})"


class Unknown:
    """Something the reader cannot follow, so it cannot say what the command does: ``what`` (a
    phrase: "`trap` runs code Cupcake cannot see"), ``how`` (how to write it plainly), ``command``
    (the Command it belongs to, if any)."""

    __slots__ = ("what", "how", "command")

    def __init__(self, what: str, how: str, command=None):
        self.what = what
        self.how = how
        self.command = command

    def __repr__(self) -> str:
        return f"Unknown({self.what!r})"


class Command:
    """One simple command that would run. See the attribute list in ``cupcake.shell``."""

    __slots__ = (
        "words",
        "redirects",
        "assignments",
        "cwd",
        "home",
        "via",
        "wrappers",
        "opaque",
        "stdin_from",
        "stdin_text",
        "extra_args",
        "reading",
        "reading_alone",
        "writes",
        "reads",
        "identified",
        "remapped",
        "fold",
        "batch",
        "_sub",
        "_flags",
    )

    def __init__(self, words, redirects=(), assignments=(), cwd=None, home=None, via=()):
        self.words = tuple(words)
        self.redirects = tuple(redirects)
        self.assignments = tuple(assignments)  # (name, Word or None for an array)
        self.cwd = cwd  # the directory it runs in; None: unknown
        self.home = home
        self.via = tuple(via)  # wrappers and contexts, outermost first: ("sudo", "sh -c")
        self.wrappers: tuple[tuple[str, ...], ...] = ()  # the wrappers' own argv tuples, outermost first
        self.opaque: tuple[Opaque, ...] = ()
        self.stdin_from = None  # the Command whose output it reads (a pipe), if any
        self.stdin_text = None  # (text, known) fed to stdin, when the reader knows it
        self.extra_args = False  # it receives further arguments the reader cannot see (xargs)
        self.reading = None  # its reading by the registry of programs (cupcake.programs), if known there
        # ``reading`` is what ``programs.read(words)`` answers (no arguments xargs adds, no nullglob
        # alternative read in): the rule packs' facts take it rather than read the words again
        self.reading_alone = False
        self.writes: list = []  # Write: what it changes (redirections included)
        self.reads: list = []  # Read: the files whose content it reads
        self.identified = True  # the program is the one its name says (not a copy, not a PATH of its own)
        self.remapped = False  # paths inside it name other files (chroot, bwrap)
        self.fold = False  # its globs match regardless of case (shopt -s nocaseglob)
        self.batch = 0  # xargs -n N: the arguments it adds go N at a time, each group a run of its own
        # (words, answer) of subcommand_index() and flags(): the packs ask them of the same command once
        # per condition, and the words are final once the reader has read the command
        self._sub: tuple | None = None
        self._flags: tuple | None = None

    # ## the words ##

    @property
    def argv(self) -> tuple:
        return tuple(w.value for w in self.words)

    @property
    def args(self) -> tuple:
        return tuple(w.value for w in self.words[1:])

    @property
    def program(self) -> str:
        """The program's name: basename, quotes and escapes removed (``/usr/bin/git`` -> ``git``)."""
        if not self.words:
            return ""
        value = self.words[0].value
        return value.rstrip("/").rsplit("/", 1)[-1] if "/" in value else value

    @property
    def known(self) -> bool:
        """Every word fully known (no variable, substitution or unknown extra argument)."""
        return all(w.known for w in self.words) and not self.extra_args

    def subcommand_index(self, global_options_taking_values=None):
        """The index in ``args`` of the subcommand (first non-option after global options), or None."""
        if global_options_taking_values is not None:
            return self._subcommand_index(global_options_taking_values)
        found = self._sub
        if found is None or found[0] is not self.words:
            found = self._sub = (self.words, self._subcommand_index(value_options(self.program)))
        return found[1]

    def _subcommand_index(self, table):
        args = self.args
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == "--":
                return i + 1 if i + 1 < len(args) else None
            if arg.startswith("-") and len(arg) > 1:
                i += 1 if "=" in arg or arg not in table else 2
                continue
            if arg.startswith("+") and self.program in ("cargo", "rustup"):
                i += 1
                continue
            return i
        return None

    def subcommand(self, global_options_taking_values=None):
        """``git -C x -c a=b push`` -> ``push`` (the registry knows each program's global options;
        pass a set of option names taking a value to override)."""
        i = self.subcommand_index(global_options_taking_values)
        return None if i is None else self.words[i + 1].value  # (``args[i]``)

    def after_subcommand(self, global_options_taking_values=None) -> tuple:
        i = self.subcommand_index(global_options_taking_values)
        return () if i is None else self.args[i + 1 :]

    def flags(self) -> frozenset:
        """Options, normalised: short clusters split (``-rf`` gives ``-r``, ``-f`` and ``-rf``),
        long forms kept (``--recursive``), ``--opt=value`` as ``--opt``; none after ``--``. The
        values of a program's global options are skipped."""
        found = self._flags
        if found is None or found[0] is not self.words:
            found = self._flags = (self.words, self._read_flags())
        return found[1]

    def _read_flags(self) -> frozenset:
        table = value_options(self.program)
        out = set()
        args = self.args
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "--":
                break
            if not arg.startswith("-") or arg == "-":
                continue
            if arg.startswith("--"):
                out.add(arg.split("=", 1)[0])
                continue
            name = arg.split("=", 1)[0]
            out.add(name)
            if arg in table:
                i += 1
            if len(name) > 2 and not name[1:].isdigit():
                out.update("-" + ch for ch in name[1:])
        return frozenset(out)

    def has_flag(self, *names) -> bool:
        """Whether any of ``names`` (``-f``, ``--force``, ``-rf``) is among ``flags()``."""
        flags = self.flags()
        return any(name in flags for name in names)

    def positional(self, takes_value=()) -> tuple:
        """Arguments that are not options (everything after ``--``); ``takes_value`` names options
        whose next argument is their value, not a positional one."""
        out = []
        args = self.args
        table = set(takes_value) | set(value_options(self.program))
        i = 0
        options = True
        while i < len(args):
            arg = args[i]
            i += 1
            if options and arg == "--":
                options = False
            elif options and arg.startswith("-") and arg != "-":
                if arg in table:
                    i += 1
            else:
                out.append(arg)
        return tuple(out)

    def __repr__(self) -> str:
        via = f" via {'/'.join(self.via)}" if self.via else ""
        return f"Command({list(self.argv)!r}{via} cwd={self.cwd!r})"


class Write:
    """A path a command would change. ``kind`` says how ("redirection", "rm", "mv", "cp onto",
    "ln", "tar -x", "git checkout", …); ``word`` is the word as given; ``path`` the absolute,
    normalised path when the word is exact and the directory known (else None); ``real`` the path
    the kernel would reach (symbolic links on disk followed), when known; ``recursive``: everything
    under the path may change too (``rm -r``, a ``mv`` of a directory, extraction, copying into
    it); ``worktree``: a git command that may rewrite any file of the worktree holding ``path``;
    ``command``: the ``Command`` it comes from; ``effect``: the registry's ``Effect`` it comes from
    (None for a redirection); ``fold``: its globs ignore case."""

    __slots__ = (
        "kind",
        "word",
        "path",
        "real",
        "tokens",
        "relative",
        "recursive",
        "worktree",
        "command",
        "effect",
        "fold",
        "_ends",
        "_shown",
    )

    def __init__(self, kind: str, word: Word, cwd, recursive: bool = False, worktree: bool = False, command=None):
        self.kind = kind
        self.word = word
        self.recursive = recursive
        self.worktree = worktree
        self.command = command
        self.effect = None
        self.fold = False
        self.path = None
        self.real = None
        self.relative = False  # a relative target whose directory is unknown
        self._ends: tuple | None = None  # (tokens, their literal_ends): could_be walks one pattern many times
        self._shown: tuple | None = None  # (tokens, render(tokens)): the packs' path conditions each ask
        if word.exact:
            value = word.value
            if value.startswith("/"):
                self.path = normpath(value)
            elif cwd is not None:
                self.path = normpath(cwd.rstrip("/") + "/" + value) if value else None
        if self.path is not None:
            self.tokens = list(self.path)
            return
        tokens = word.pattern()
        if tokens and tokens[0] == "/" or tokens and tokens[0] == ANY:
            pass
        elif cwd is not None:
            tokens = list(cwd.rstrip("/") + "/") + list(tokens)
        else:
            self.relative = True
            tokens = [ANY, "/"] + list(tokens)
        self.tokens = _normtokens(tokens)

    def unpin(self, tokens) -> None:
        """The kernel may reach another path than the one written (a link this command makes, a
        directory it moves): only ``tokens`` (a pattern) is known of it."""
        self.path = None
        self.real = None
        self.tokens = tokens

    @property
    def text(self) -> str:
        """The word as the reader understood it (unknown parts as written)."""
        return self.word.value

    @property
    def resolved(self) -> bool:
        return self.path is not None

    @property
    def removes(self) -> bool:  # the older reader's name
        return self.recursive

    @property
    def pattern(self) -> str:
        """A readable absolute pattern (``…`` for an unknown part)."""
        if self.path is not None:
            return self.path
        shown = self._shown
        if shown is None or shown[0] is not self.tokens:
            shown = self._shown = (self.tokens, render(self.tokens))
        return shown[1]

    def could_be(self, path: str, fold: bool = False) -> bool:
        """Whether this write could change the absolute, normalised ``path``: the target could be
        it (globs and unknown parts as wildcards, an unknown directory as any directory), or the
        target could be one of its directories and the write is recursive, or it is a worktree
        write (then always True: the caller knows which worktree holds ``path``)."""
        if self.worktree:
            return True
        fold = fold or self.fold
        known = self.path
        if known is not None:
            # Known: the tokens are its characters, and the walk below comes down to comparing strings
            # (a long line compares every command's paths with every earlier write: keep each cheap).
            if fold:
                known, path = known.lower(), path.lower()
            return known == path or self.recursive and above(known, path)
        tokens = self.tokens
        ends = self.literal_ends()
        if match(tokens, path, fold, ends=ends):
            return True
        if self.recursive:
            k = path.find("/", 1)
            while k > 0:
                if match(tokens, path[:k], fold, ends=ends):
                    return True
                k = path.find("/", k + 1)
            if match(tokens, "/", fold, ends=ends):
                return True
        return False

    def literal_ends(self) -> tuple:
        """``words.literal_ends`` of the target's pattern, for ``match(..., ends=)``: worked out once,
        and again when the pattern is replaced (``unpin`` and ``paths`` replace the list)."""
        ends = self._ends
        if ends is None or ends[0] is not self.tokens:
            ends = self._ends = (self.tokens, literal_ends(self.tokens))
        return ends[1]

    def could_name(self, name: str) -> bool:
        """Whether the target's last component could be ``name`` (e.g. ``cupcake.toml``)."""
        known = self.path
        if known is not None:  # its characters: compared as a string
            base = known[known.rfind("/") + 1 :]
            return base.lower() == name.lower() if self.fold else base == name
        return match(basename_tokens(self.tokens), name, self.fold)

    def forms(self):
        """The path as written (normalised) and, if different, the path the kernel would reach."""
        if self.path is None:
            return
        yield self.path
        if self.real is not None and self.real != self.path:
            yield self.real

    def __repr__(self) -> str:
        flags = (" recursive" if self.recursive else "") + (" worktree" if self.worktree else "")
        return f"Write({self.kind!r}, {self.pattern!r}{flags})"


class Read(Write):
    """A file (or, ``recursive``, a tree) whose content a command reads; resolved like a Write."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Read({self.kind!r}, {self.pattern!r}{' recursive' if self.recursive else ''})"


class Script:
    """The reading of one command line. ``commands``: every simple command that would run,
    nested ones included, in order; ``incomplete``: why the reading stopped early (None when it
    read everything); ``syntax_errors``: what bash would complain about; ``unknowns``: constructs
    the reader does not model (``Unknown``); ``functions``: names defined; ``redirect_only``:
    redirections outside any command (``> f``, ``{ …; } > f``); ``resolved``: the folders the reading
    resolved on disk (``cupcake.resolve``), for the checks of the same run."""

    __slots__ = (
        "text",
        "commands",
        "incomplete",
        "syntax_errors",
        "unknowns",
        "functions",
        "redirect_only",
        "resolved",
    )

    def __init__(self, text: str):
        self.text = text
        self.commands: list[Command] = []
        self.incomplete: str | None = None
        self.syntax_errors: list[str] = []
        self.unknowns: list[Unknown] = []
        self.functions: list[str] = []
        self.redirect_only: list[Command] = []  # Commands with no words, carrying redirections
        self.resolved: dict = {}

    @property
    def writes(self) -> list:
        """Every ``Write`` of every command, in order."""
        out: list[Write] = []
        for cmd in self.redirect_only:
            out.extend(cmd.writes)
        for cmd in self.commands:
            out.extend(cmd.writes)
        return out

    @property
    def reads(self) -> list:
        """Every ``Read`` of every command, in order."""
        out: list[Read] = []
        for cmd in self.redirect_only:
            out.extend(cmd.reads)
        for cmd in self.commands:
            out.extend(cmd.reads)
        return out

    @property
    def opaque(self) -> list:
        """Every ``Opaque`` piece of code, with the command it belongs to: [(Command, Opaque)]."""
        return [(cmd, o) for cmd in self.commands for o in cmd.opaque]

    @property
    def programs(self) -> list:
        return [cmd.program for cmd in self.commands]

    def unknown(self, what: str, how: str, command=None) -> None:
        if len(self.unknowns) < 16 and not any(u.what == what for u in self.unknowns):
            self.unknowns.append(Unknown(what, how, command))

    def __repr__(self) -> str:
        return f"Script({self.commands!r}, incomplete={self.incomplete!r})"


def above(directory: str, path: str) -> bool:
    """Whether ``directory`` is a directory above ``path`` (both absolute and normalised)."""
    return directory == "/" or path.startswith(directory + "/")


def normpath(path: str) -> str:
    """Lexical normalisation (``os.path.normpath`` for an absolute path, without importing more)."""
    out: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if out:
                out.pop()
            continue
        out.append(part)
    return "/" + "/".join(out)


def _normtokens(tokens) -> list:
    """``normpath`` over pattern tokens (a component holding a wildcard is kept as is). The components
    of the literal start are cut as one string (most targets are a known directory, then a pattern)."""
    head = 0
    n = len(tokens)
    while head < n and tokens[head].__class__ is str:
        head += 1
    text = "".join(tokens[:head])
    cut = len(text) if head == n else text.rfind("/") + 1  # whole literal components
    comps: list = text[:cut].split("/") if cut else [[]]  # str: a literal component; list: tokens
    if head < n or cut < len(text):
        if cut:
            comps.append([])
        for tok in list(text[cut:]) + list(tokens[head:]):
            if tok == "/" and tok.__class__ is str:
                comps.append([])
            else:
                comps[-1].append(tok)
    absolute = not comps[0]
    out: list = []
    for comp in comps[1:] if absolute else comps:
        if not comp or comp == "." or comp == ["."]:
            continue
        if comp == ".." or comp == [".", "."]:
            if out and out[-1] != [ANY]:
                out.pop()
            continue
        out.append(comp)
    result: list[Token] = []
    for k, comp in enumerate(out):
        if k or absolute:
            result.append("/")
        result.extend(comp)
    return result or ["/"]


# ## The tree a line is read into ########################################################


# A plain line: words of these characters, split by blanks. None of them quotes, expands (but a leading
# ``~``, which expansion reads from the word as the lexer gives it), globs, redirects, separates or
# starts a comment; a first word with ``=`` (an assignment) or a reserved word goes to the grammar.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t-_./:,@%+^=~")
_RESERVED = frozenset(("time", "if", "while", "until", "for", "select", "case", "function", "coproc"))
MAX_PLAIN = 4096  # longer lines go to the grammar (its bounds then apply)


def plain(text: str, budget):
    """The ``Seq`` the grammar reads from ``text`` when it is a line of plain words, paying ``budget``
    as the lexer and the grammar would; None for any other line (read it with the grammar)."""
    if len(text) > MAX_PLAIN or not _PLAIN.issuperset(text):
        return None
    found = text.split()
    if not found:
        return Seq([])
    if "=" in found[0] or found[0] in _RESERVED:
        return None
    words = []
    for word in found:
        budget.spend(len(word))  # (what the lexer pays for each word)
        words.append(RawWord([("u", word)], word))
    budget.spend(1)  # (what the grammar pays for each item of a list)
    return Seq([(AndOr(Pipeline([Simple([], words, [])]), []), False)])


class Seq:
    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items


class AndOr:
    __slots__ = ("first", "rest")

    def __init__(self, first, rest):
        self.first = first
        self.rest = rest


class Pipeline:
    __slots__ = ("cmds", "negated", "timed")

    def __init__(self, cmds, negated=False, timed=False):
        self.cmds = cmds
        self.negated = negated
        self.timed = timed


class Simple:
    __slots__ = ("assigns", "words", "redirs")

    def __init__(self, assigns, words, redirs):
        self.assigns = assigns
        self.words = words
        self.redirs = redirs


class Compound:
    """kind: subshell/group (a: Seq), if (a: [(cond, body)], b: else Seq|None), while/until
    (a: cond, b: body), for (a: name|None, b: [RawWord]|None, c: body; arithmetic for: a None and
    b the nodes inside ``((…))``), case (a: RawWord, b: [([RawWord], Seq)]), func (a: name, b: node),
    coproc (a: name|None, b: node), arith (a: raw text, b: nodes inside)."""

    __slots__ = ("kind", "a", "b", "c", "redirs")

    def __init__(self, kind, a=None, b=None, c=None):
        self.kind = kind
        self.a = a
        self.b = b
        self.c = c
        self.redirs = []


class Redir:
    """``fd`` (int, a ``{name}`` string, or None for the default), ``op``, ``word`` (RawWord),
    ``body`` (here-document parts, once read), ``delimiter``, ``quoted_delimiter``."""

    __slots__ = ("fd", "op", "word", "body", "delimiter", "quoted_delimiter")

    def __init__(self, fd, op, word):
        self.fd = fd
        self.op = op
        self.word = word
        self.body = None
        self.delimiter = ""
        self.quoted_delimiter = False


class RawWord:
    """A word as read: ``parts`` (see the module docstring) and ``raw`` source text."""

    __slots__ = ("parts", "raw")

    def __init__(self, parts: list, raw: str):
        self.parts = parts
        self.raw = raw

    def literal(self):
        """The text if the word has no expansion (quotes removed), else None."""
        out = []
        for part in self.parts:
            if part[0] not in "uq":
                return None
            out.append(part[1])
        return "".join(out)

    def unquoted(self) -> bool:
        return all(part[0] == "u" for part in self.parts)

    def __repr__(self) -> str:
        return f"RawWord({self.raw!r})"
