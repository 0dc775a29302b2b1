"""What callers use: ``Script`` (every simple command that would run, what it writes, whether the
reading is complete), ``Command`` (one simple command after unwrapping: program, subcommand, flags,
arguments, redirections, the directory it runs in, the wrappers it came through), ``Redirect``,
``Opaque`` (code the reader cannot follow: inline interpreter code, a script of unknown text) and
``Write`` (a path a command would write, remove, move, link or re-mode, resolved when possible).
"""

from __future__ import annotations

from cupcake.shell.words import ANY, Word, basename_tokens, match, render

TYPE_CHECKING = False  # not typing's: the Bash reader is on the hot path
if TYPE_CHECKING:  # annotations only
    from cupcake.shell.words import Token

_WRITE_OPS = frozenset((">", ">>", ">|", "&>", "&>>", "<>"))

# Global options that take a value, per program: the subcommand is the first non-option after them.
GLOBAL_OPTIONS = {
    "git": frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env")),
    "docker": frozenset(
        ("-c", "--context", "--config", "-H", "--host", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey")
    ),
    "podman": frozenset(("-c", "--connection", "--root", "--runroot", "--url", "--identity", "--log-level")),
    "kubectl": frozenset(
        (
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "--token",
            "--as",
            "--as-group",
            "--as-uid",
            "--request-timeout",
            "--cache-dir",
            "--certificate-authority",
            "--client-certificate",
            "--client-key",
            "--tls-server-name",
            "-v",
            "--v",
            "--profile",
            "--username",
            "--password",
        )
    ),
    "helm": frozenset(("-n", "--namespace", "--kube-context", "--kubeconfig", "--registry-config")),
    "npm": frozenset(("--prefix", "-w", "--workspace", "--registry", "--userconfig", "--cache", "--loglevel")),
    "pnpm": frozenset(("-C", "--dir", "-F", "--filter", "-w", "--workspace-root")),
    "yarn": frozenset(("--cwd",)),
    "cargo": frozenset(("-C", "--config", "-Z", "--color", "--manifest-path")),
    "terraform": frozenset(),
    "pip": frozenset(("--python", "--log", "--proxy", "--cert", "--client-cert", "--cache-dir", "--timeout")),
}


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
    def feeds_stdin(self) -> bool:
        return self.op in ("<<", "<<-", "<<<") and self.fd in (None, 0)

    def __repr__(self) -> str:
        fd = "" if self.fd is None else str(self.fd)
        return f"Redirect({fd}{self.op} {self.target.value!r})"


class Opaque:
    """Code the reader does not follow. ``kind``: "inline code" (``python -c``, ``perl -e``, …),
    "stdin code" (an interpreter fed a here-document, here-string or pipe), "shell script" (a
    ``sh -c``/``eval`` text not fully known), "stdin script" (a shell reading a stdin whose text is
    unknown), "script file" (``bash x.sh``), "sourced file". ``language`` (``python``, ``perl``,
    ``sh``, …), ``text`` (the code when known, else what is known of it; None if nothing)."""

    __slots__ = ("kind", "language", "text", "known")

    def __init__(self, kind: str, language: str, text, known: bool = True):
        self.kind = kind
        self.language = language
        self.text = text
        self.known = known

    def mentions(self, name: str) -> bool:
        """Whether ``name`` appears in the code (unknown code: True, it may)."""
        return (not self.known) or self.text is None or name in self.text

    def __repr__(self) -> str:
        return f"Opaque({self.kind!r}, {self.language!r}, {self.text!r}{'' if self.known else ', unknown'})"


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
    )

    def __init__(self, words, redirects=(), assignments=(), cwd=None, home=None, via=()):
        self.words = tuple(words)
        self.redirects = tuple(redirects)
        self.assignments = tuple(assignments)  # (name, Word or None for an array)
        self.cwd = cwd  # the directory it runs in; None: unknown
        self.home = home
        self.via = tuple(via)  # wrappers and contexts, outermost first: ("sudo", "sh -c")
        self.wrappers = ()  # the wrappers' own argv tuples, outermost first
        self.opaque = ()
        self.stdin_from = None  # the Command whose output it reads (a pipe), if any
        self.stdin_text = None  # (text, known) fed to stdin, when the reader knows it
        self.extra_args = False  # it receives further arguments the reader cannot see (xargs)

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

    def _globals(self, table):
        if table is None:
            table = GLOBAL_OPTIONS.get(self.program, frozenset())
        return table

    def subcommand_index(self, global_options_taking_values=None):
        """The index in ``args`` of the subcommand (first non-option after global options), or None."""
        table = self._globals(global_options_taking_values)
        args = self.args
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == "--":
                return i + 1 if i + 1 < len(args) else None
            if arg.startswith("-") and len(arg) > 1:
                if "=" in arg:
                    i += 1
                elif arg in table:
                    i += 2
                else:
                    i += 1
                continue
            if arg.startswith("+") and self.program in ("cargo", "rustup"):
                i += 1
                continue
            return i
        return None

    def subcommand(self, global_options_taking_values=None):
        """``git -C x -c a=b push`` -> ``push``. Built-in knowledge of the global options of git,
        docker, podman, kubectl, helm, npm, pnpm, yarn, cargo, terraform, pip; pass a set of
        option names taking a value to override."""
        i = self.subcommand_index(global_options_taking_values)
        return None if i is None else self.args[i]

    def after_subcommand(self, global_options_taking_values=None) -> tuple:
        i = self.subcommand_index(global_options_taking_values)
        return () if i is None else self.args[i + 1 :]

    def flags(self) -> frozenset:
        """Options, normalised: short clusters split (``-rf`` gives ``-r``, ``-f`` and ``-rf``),
        long forms kept (``--recursive``), ``--opt=value`` as ``--opt``; none after ``--``. The
        values of a program's known global options are skipped."""
        table = GLOBAL_OPTIONS.get(self.program, ())
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
        table = set(takes_value) | set(GLOBAL_OPTIONS.get(self.program, ()))
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

    @property
    def writes(self) -> list:
        """The paths this command would change (see ``Write``)."""
        from cupcake.shell.writes import writes_of

        return writes_of(self)

    def __repr__(self) -> str:
        via = f" via {'/'.join(self.via)}" if self.via else ""
        return f"Command({list(self.argv)!r}{via} cwd={self.cwd!r})"


class Write:
    """A path a command would change. ``kind`` says how ("redirection", "rm", "mv", "cp onto",
    "ln", "tar -x", "git checkout", …); ``word`` is the word as given; ``path`` the absolute,
    normalised path when the word is exact and the directory known (else None); ``recursive``:
    everything under the path may change too (``rm -r``, a ``mv`` of a directory, extraction,
    copying into it); ``worktree``: a git command that may rewrite any file of the worktree holding
    ``path`` (the directory git ran in); ``command``: the ``Command`` it comes from."""

    __slots__ = ("kind", "word", "path", "tokens", "relative", "recursive", "worktree", "command")

    def __init__(self, kind: str, word: Word, cwd, recursive: bool = False, worktree: bool = False, command=None):
        self.kind = kind
        self.word = word
        self.recursive = recursive
        self.worktree = worktree
        self.command = command
        self.path = None
        self.relative = False  # a relative target whose directory is unknown
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
        return self.path if self.path is not None else render(self.tokens)

    def could_be(self, path: str, fold: bool = False) -> bool:
        """Whether this write could change the absolute, normalised ``path``: the target could be
        it (globs and unknown parts as wildcards, an unknown directory as any directory), or the
        target could be one of its directories and the write is recursive, or it is a worktree
        write (then always True: the caller knows which worktree holds ``path``)."""
        if self.worktree:
            return True
        if match(self.tokens, path, fold):
            return True
        if self.recursive:
            k = path.find("/", 1)
            while k > 0:
                if match(self.tokens, path[:k], fold):
                    return True
                k = path.find("/", k + 1)
            if match(self.tokens, "/", fold):
                return True
        return False

    def could_name(self, name: str) -> bool:
        """Whether the target's last component could be ``name`` (e.g. ``cupcake.toml``)."""
        return match(basename_tokens(self.tokens), name)

    def forms(self):
        """The path and, if different, the path with symlinks resolved (known paths only)."""
        if self.path is None:
            return
        yield self.path
        import os

        try:
            real = os.path.realpath(self.path)
        except (OSError, ValueError):
            return
        if real != self.path:
            yield real

    def __repr__(self) -> str:
        flags = (" recursive" if self.recursive else "") + (" worktree" if self.worktree else "")
        return f"Write({self.kind!r}, {self.pattern!r}{flags})"


class Script:
    """The reading of one command line. ``commands``: every simple command that would run,
    nested ones included, in order; ``incomplete``: why the reading stopped early (None when it
    read everything); ``syntax_errors``: what bash would complain about; ``functions``: names
    defined; ``redirect_only``: redirections outside any command (``> f``, ``{ …; } > f``)."""

    __slots__ = ("text", "commands", "incomplete", "syntax_errors", "functions", "redirect_only", "_writes")

    def __init__(self, text: str):
        self.text = text
        self.commands: list[Command] = []
        self.incomplete: str | None = None
        self.syntax_errors: list[str] = []
        self.functions: list[str] = []
        self.redirect_only: list[Command] = []  # Commands with no words, carrying redirections
        self._writes: list[Write] | None = None

    @property
    def writes(self) -> list:
        """Every ``Write`` of every command, in order."""
        if self._writes is None:
            from cupcake.shell.writes import writes_of

            out: list[Write] = []
            for cmd in self.redirect_only:
                out.extend(writes_of(cmd))
            for cmd in self.commands:
                out.extend(writes_of(cmd))
            self._writes = out
        return self._writes

    @property
    def opaque(self) -> list:
        """Every ``Opaque`` piece of code, with the command it belongs to: [(Command, Opaque)]."""
        return [(cmd, o) for cmd in self.commands for o in cmd.opaque]

    @property
    def programs(self) -> list:
        return [cmd.program for cmd in self.commands]

    def __repr__(self) -> str:
        return f"Script({self.commands!r}, incomplete={self.incomplete!r})"


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
    """``normpath`` over pattern tokens (a component holding a wildcard is kept as is)."""
    comps: list[list[Token]] = [[]]
    for tok in tokens:
        if tok == "/" and tok.__class__ is str:
            comps.append([])
        else:
            comps[-1].append(tok)
    absolute = not comps[0]
    out: list[list[Token]] = []
    for comp in comps[1:] if absolute else comps:
        if not comp or comp == ["."]:
            continue
        if comp == [".", "."]:
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
