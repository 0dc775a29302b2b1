"""One program's entry: its kind, how it reads its arguments, what each option's value and each
operand does, its subcommands, and the examples the tests run.

A family module declares entries with ``program(...)``: plain data (strings and tuples) that costs
almost nothing to import. The registry turns a declaration into a ``Spec`` the first time the
program is looked up, so only the programs a command names are ever built.

Options are written as one string, space-separated, each item
``NAMES[=ARITY][:EFFECT]``: ``NAMES`` are the spellings, comma-separated (``-o,--output``), the
first being the name handlers ask for; ``=`` alone means the option takes a value (attached,
``-ofile``/``--output=file``, or the next word), ``=?`` an optional value that must be attached
(``--backup[=CONTROL]``, ``-i[SUFFIX]``), ``=2`` two following words (``bwrap --bind SRC DEST``);
``EFFECT`` is one of the tags below and says what the value is. Operands are a space-separated list
of tags, the last one repeated when it ends in ``...`` (``"code reads..."``: the first operand is
code, every other one a file read).
"""

from __future__ import annotations

# ## What a program is (``kind``) ##

TOOL = "tool"  # does what its options and operands say (rm, cp, git, curl)
READER = "reader"  # only reads: its operands are files it reads (cat, grep, ls)
SHELL = "shell"  # runs a shell script: a -c text, a file, or its stdin
INTERPRETER = "interpreter"  # runs code of its own language (python, awk, sed, vim, sqlite3)
WRAPPER = "wrapper"  # runs another command given in its arguments (sudo, env, timeout, xargs)
EXTRACTOR = "extractor"  # writes the members of an archive (tar -x, unzip, ar x)
BUILTIN = "builtin"  # a bash builtin whose effect is on the shell itself (cd, read, trap)
KINDS = frozenset((TOOL, READER, SHELL, INTERPRETER, WRAPPER, EXTRACTOR, BUILTIN))

# ## What an option's value or an operand does (effect tags) ##

VALUE = "value"  # a value with no effect on files: a count, a pattern, a name
READS = "reads"  # a file whose content the program reads
WRITES = "writes"  # a file the program creates or replaces
DELETES = "deletes"  # a path the program removes
MODE = "mode"  # a path whose mode, owner or attributes the program changes
LINKS = "links"  # a path the program links to (a hard link shares the file)
INTO = "into"  # a directory the program writes files under (extraction, a target directory)
CHDIR = "chdir"  # the directory the program works in (relative paths after it resolve there)
RUNS = "runs"  # a command line the program runs through a shell
SCRIPT = "script"  # a file the program reads as code or commands (sed -f, make -f, curl -K)
CODE = "code"  # code in the program's own language (python -c, awk's program, psql -c)
STDIN_CODE = "stdin code"  # the program reads code from its standard input
CONFIG = "config"  # a setting that may name a program to run (git -c key=value)
COMMAND = "command"  # the words from here on are a command the program runs (wrappers)
ARGS = "args"  # the words from here on are arguments for the script, never options
# The words from here on are a command run somewhere else (a container, a pod, another host): not
# read by the Bash reader (its paths are not this machine's), but read by the rule packs.
ELSEWHERE = "elsewhere"
UNKNOWN = "unknown"  # the reader cannot tell what this does (an option it does not know)
EFFECTS = frozenset(
    (VALUE, READS, WRITES, DELETES, MODE, LINKS, INTO, CHDIR, RUNS, SCRIPT, CODE, STDIN_CODE, CONFIG, COMMAND, ARGS)
    + (ELSEWHERE, UNKNOWN)
)
# Effects that change files, and those that run code the reader must read or refuse.
CHANGES = frozenset((WRITES, DELETES, MODE, LINKS, INTO))
RUNS_CODE = frozenset((RUNS, SCRIPT, CODE, STDIN_CODE, CONFIG))
_EFFECTFUL = CHANGES | RUNS_CODE | {CHDIR}

# ## How a program reads its arguments (``style``) ##

GNU = "gnu"  # getopt_long: options anywhere before `--`, clusters, --long=value, unique prefixes
POSIX = "posix"  # options stop at the first operand (python, ssh, BSD tools)

OPTIONAL = -1  # an option whose value must be attached (`--backup=numbered`, `-i.bak`)


def program(name: str, kind: str = TOOL, **fields) -> tuple:
    """A declaration: ``name`` (the basename), ``kind`` and the fields of ``Spec`` (``options``,
    ``operands``, ``aliases``, ``subcommands``, ``handler``, ``examples``, …). Kept as data until
    looked up."""
    return (name, kind, fields)


class Opt:
    """One option: its spellings, whether and how it takes a value, and what the value does."""

    __slots__ = ("names", "arg", "effect")

    def __init__(self, names: tuple, arg: int, effect: str | None):
        self.names = names
        self.arg = arg  # 0 a flag, 1 a value, OPTIONAL an attached value only, 2+ that many words
        self.effect = effect

    @property
    def name(self) -> str:
        return self.names[0]

    def __repr__(self) -> str:
        return f"Opt({'/'.join(self.names)}{'=' if self.arg else ''}{':' + self.effect if self.effect else ''})"


def parse_options(text: str, program: str) -> list:
    """``"-o,--output=:writes -f"`` -> [Opt]; a malformed item raises ValueError naming it. (On the
    hot path: a spec is built the first time its program is met in a run.)"""
    out: list[Opt] = []
    append = out.append
    for item in text.split():
        names_part, _, effect = item.partition(":")
        arity = 0
        if "=" in names_part:
            names_part, _, how = names_part.partition("=")
            arity = OPTIONAL if how == "?" else int(how) if how.isdigit() else 1
        names = tuple(names_part.split(","))
        for n in names:
            if n[:1] not in ("-", "+"):
                raise ValueError(f"{program}: option {item!r} has a name that is not an option")
        if effect:
            if effect not in EFFECTS:
                raise ValueError(f"{program}: option {item!r} has an unknown effect {effect!r}")
            if arity == 0 and effect != UNKNOWN:
                raise ValueError(f"{program}: option {item!r} has an effect but takes no value")
            append(Opt(names, arity, effect))
        else:
            append(Opt(names, arity, VALUE if arity else None))
    return out


class Spec:
    """A program as the registry knows it. Built from a declaration (``program``) on first use."""

    __slots__ = (
        "name",
        "kind",
        "aliases",
        "style",
        "options",
        "exact",
        "longs",
        "operands",
        "repeat",
        "subcommands",
        "handler",
        "examples",
        "language",
        "complete",
        "numeric",
        "single_dash",
        "fold",
        "preparse",
        "output",
        "parent",
        "effectful",
        "summary",
        "family",
        "default_sub",
    )

    def __init__(self, name: str, kind: str, fields: dict, parent=None, family: str = ""):
        if kind not in KINDS:
            raise ValueError(f"{name}: unknown kind {kind!r}")
        unknown = set(fields) - _FIELDS
        if unknown:
            raise ValueError(f"{name}: unknown field(s) {', '.join(sorted(unknown))}")
        self.name = name
        self.kind = kind
        self.family = family
        self.parent = parent
        self.aliases = tuple(fields.get("aliases", ()))
        self.style = fields.get("style", GNU)
        self.options = parse_options(fields.get("options", ""), name)
        exact: dict[str, Opt] = {}
        count = 0
        for opt in self.options:
            count += len(opt.names)
            for n in opt.names:
                exact[n] = opt
        if len(exact) != count:
            names = [n for o in self.options for n in o.names]
            twice = next(n for n in names if names.count(n) > 1)
            raise ValueError(f"{name}: option {twice} declared twice")
        self.exact = exact
        self.longs = tuple(sorted(n for n in exact if n[:2] == "--"))
        tags = fields.get("operands", "").split()
        self.repeat = bool(tags) and tags[-1].endswith("...")
        self.operands = tuple(t.rstrip(".") for t in tags)
        for tag in self.operands:
            if tag not in EFFECTS:
                raise ValueError(f"{name}: unknown operand effect {tag!r}")
        self.subcommands = fields.get("subcommands") or {}
        self.default_sub = fields.get("default")  # the subcommand when none is given (git stash)
        self.handler = fields.get("handler")
        self.examples = tuple(fields.get("examples", ()))
        self.language = fields.get("language", parent.language if parent is not None else None)
        self.complete = fields.get("complete", True)  # every option that takes a value is listed
        self.numeric = fields.get("numeric", False)  # -NUM is an option (head -5, nice -5)
        self.single_dash = fields.get("single_dash", False)  # -name is one option (find, xxd, gdb)
        self.fold = fields.get("fold", False)  # option names are case-insensitive (PowerShell)
        self.preparse = fields.get("preparse")  # words -> words before reading (tar's old style)
        self.output = fields.get("output")  # Reading -> what it prints, when knowable (mktemp)
        self.summary = fields.get("summary", "")
        # Whether an option can change files, run code or move the program: an argument the reader
        # cannot see could then be one of them (reading a file is not counted: any operand may).
        self.effectful = any(o.effect in _EFFECTFUL for o in self.options)

    def option(self, name: str):
        """The option spelled exactly ``name``, else None."""
        return self.exact.get(name.lower() if self.fold else name)

    def abbreviation(self, name: str):
        """The long option ``name`` abbreviates (a unique prefix, as getopt_long accepts), or
        ("ambiguous", [names]) when several match, or None when none does."""
        found = [n for n in self.longs if n.startswith(name)]
        if not found:
            return None
        opts = {id(self.exact[n]): self.exact[n] for n in found}
        if len(opts) == 1:
            return next(iter(opts.values()))
        return ("ambiguous", found)

    def sub(self, word: str):
        """The subcommand ``word`` names (a Spec, built on first use), or None."""
        decl = self.subcommands.get(word)
        if decl is None:
            return None
        if isinstance(decl, Spec):
            return decl
        if isinstance(decl, str):  # an alias of another subcommand: "co" -> "checkout"
            return self.sub(decl)
        spec = Spec(decl[0], decl[1], decl[2], parent=self, family=self.family)
        self.subcommands[word] = spec
        return spec

    @property
    def path(self) -> tuple:
        """The program and subcommand names from the top (``("git", "stash", "pop")``)."""
        return (self.parent.path if self.parent is not None else ()) + (self.name,)

    @property
    def program(self) -> str:
        return self.path[0]

    def __repr__(self) -> str:
        return f"Spec({' '.join(self.path)!r}, {self.kind})"


_FIELDS = frozenset(
    (
        "aliases",
        "style",
        "options",
        "operands",
        "subcommands",
        "handler",
        "examples",
        "language",
        "complete",
        "numeric",
        "single_dash",
        "fold",
        "preparse",
        "output",
        "summary",
        "versioned",
        "default",
    )
)
