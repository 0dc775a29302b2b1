"""Reading one command's words with its program's ``Spec``: options (clusters, ``--long=value``,
unique prefixes of long options, values in the next word), operands, subcommands, the command a
wrapper runs, and the effects all of these have (``Effect``). ``read(spec, words)`` never raises;
what it cannot tell is listed in ``Reading.unknown`` (an option it does not know, an argument it
cannot see that could be an option), so each caller decides: self-protection refuses, a rule asks.

Words are ``cupcake.shell.words.Word`` objects (plain strings are accepted and wrapped).
"""

from __future__ import annotations

from cupcake.programs.spec import (
    ARGS,
    CHANGES,
    CHDIR,
    COMMAND,
    ELSEWHERE,
    OPTIONAL,
    POSIX,
    RUNS_CODE,
    VALUE,
)
from cupcake.shell.words import Word


class Effect:
    """What one word of a command does: ``tag`` (see ``spec``), ``word`` (the path, text or
    command), ``what`` (how a message names it: "rm", "sed -i", "tar -x"), ``tree`` (everything
    under the path too), ``base`` (directories, in order, a relative path is taken from: ``-C``),
    ``language`` (for code; for an ``into`` effect, the form of what is poured in: "tar", "zip",
    "patch", "git", "dir"…), ``source`` (the Words of what is poured in: the archive extracted, the
    directory copied; empty for standard input)."""

    __slots__ = ("tag", "word", "what", "tree", "base", "language", "source", "operand")

    def __init__(self, tag: str, word, what: str, tree: bool = False, base=(), language=None, source=()):
        self.operand = False  # given by the operand tags of the spec (a handler may replace these)
        self.tag = tag
        self.word = word
        self.what = what
        self.tree = tree
        self.base = base
        self.language = language
        self.source = source

    def render(self) -> str:
        """``deletes build (tree)``: the form the specs' examples are written in."""
        value = self.word.value if self.word is not None else ""
        return f"{self.tag} {value}".rstrip() + (" (tree)" if self.tree else "")

    def __repr__(self) -> str:
        return f"Effect({self.render()!r}, {self.what!r})"


class Reading:
    """The words of one command read with its spec. ``spec``: the innermost (sub)command's spec;
    ``path``: the program and subcommand names (``("git", "stash", "pop")``); ``opts``: [(Opt,
    value Word or None, word index)] in order; ``operands``: the operand Words; ``inner``: the
    command a wrapper runs (Words) or None, with ``env`` (variables it sets for it), ``extra`` (it
    appends arguments the reader cannot see) and ``remap`` (paths inside it name other files);
    ``elsewhere``: a command run in a container, a pod or on another host (Words; not this machine's
    paths, so the Bash reader leaves it to the rule packs) or None; ``effects``: [Effect]; ``unknown``: what the reading could not tell, as phrases."""

    __slots__ = (
        "spec",
        "top",
        "words",
        "path",
        "opts",
        "operands",
        "where",
        "chdirs",
        "inner",
        "elsewhere",
        "effects",
        "unknown",
        "env",
        "extra",
        "remap",
        "more",
    )

    def __init__(self, spec, words):
        self.spec = spec
        self.top = spec
        self.words = words
        self.path: tuple[str, ...] = (spec.name,)
        self.opts: list = []
        self.operands: list = []
        self.where: list = []  # the word index of each operand
        self.chdirs: list = []  # (word index, Word) of each option that changes directory
        self.inner = None
        self.elsewhere = None  # the command run in a container, a pod or on another host (Words), if any
        self.effects: list = []
        self.unknown: list = []
        self.env: list = []  # (name, Word) a wrapper sets for the command it runs (env X=1 cmd)
        self.extra = False  # the wrapped command gets further arguments the reader cannot see (xargs)
        self.remap = False  # paths inside the wrapped command mean other files (chroot, bwrap)
        self.more: list = []  # further commands it runs: (Words, True when in its own directory) (find -exec)

    # ## questions handlers and rules ask ##

    @property
    def called(self) -> str:
        """The name the program was called by (an alias of its entry: ``tail``, ``gtar``)."""
        first = self.words[0] if self.words else None
        value = getattr(first, "value", first)
        name = value.rstrip("/").rsplit("/", 1)[-1] if isinstance(value, str) and value else ""
        return name if name and getattr(first, "known", True) else self.path[0]

    def has(self, *names) -> bool:
        """Whether any option spelled as one of ``names`` (any of its spellings) was given."""
        return any(self._named(opt, names) for opt, _v, _i in self.opts)

    def get(self, *names):
        """The value Word of the last such option given with a value, else None."""
        found = None
        for opt, value, _i in self.opts:
            if value is not None and self._named(opt, names):
                found = value
        return found

    def values(self, *names) -> list:
        return [value for opt, value, _i in self.opts if value is not None and self._named(opt, names)]

    @staticmethod
    def _named(opt, names) -> bool:
        return any(n in opt.names for n in names)

    @property
    def subcommand(self):
        """The first subcommand's name (``git -C x stash pop`` -> ``stash``), or None."""
        return self.path[1] if len(self.path) > 1 else None

    def base(self, index: int) -> tuple:
        """The directories (``-C``) in force at word ``index``."""
        return tuple(word for at, word in self.chdirs if at < index)

    def add(self, tag: str, word, what: str | None = None, tree: bool = False, index: int | None = None) -> Effect:
        if what is None:  # the program as it was called (``tail``, not the ``head`` entry it shares)
            what = " ".join((self.called,) + self.path[1:])
        effect = Effect(tag, word, what, tree, self.base(index) if index is not None else (), None)
        if tag in ("code", "runs", "stdin code", "script"):
            effect.language = self.spec.language
        self.effects.append(effect)
        return effect

    def drop(self, *tags, options: bool = False) -> None:
        """Forget the effects the spec's operand tags gave (``options``: those of options too)."""
        self.effects = [e for e in self.effects if e.tag not in tags or not (e.operand or options)]

    def of(self, *tags) -> list:
        return [e for e in self.effects if e.tag in tags]

    def __repr__(self) -> str:
        return f"Reading({' '.join(self.path)!r}, {self.effects!r})"


def literal_prefix(word) -> str:
    """The part of a word's text the reader knows for certain, from its start."""
    if word.known:
        return word.value
    out = []
    for tok in word.pattern():
        if tok.__class__ is not str:
            break
        out.append(tok)
    return "".join(out)


def could_be_option(word) -> bool:
    """Whether a word whose start is not known could start with ``-`` (a class without it cannot)."""
    tokens = word.pattern()
    if not tokens:
        return False
    first = tokens[0]
    if first.__class__ is str:
        return first == "-"
    if first.__class__ is tuple:
        negated, items = first
        inside = any(lo <= "-" <= hi for lo, hi in items)
        return inside != negated
    return True


def tail(word, n: int):
    """The word with its first ``n`` (literal) characters cut off: ``--output=FILE`` -> ``FILE``."""
    if word.tokens is None:
        return Word(word.value[n:], word.value[n:], word.known, word.glob, word.quoted)
    tokens = word.tokens[n:]
    return Word(word.value[n:], word.raw, word.known, word.glob, word.quoted, tokens or [""])


def as_words(words) -> list:
    return [w if isinstance(w, Word) else Word(str(w)) for w in words]


def read(spec, words):
    """Read ``words`` (``words[0]`` the program) with ``spec``; see ``Reading``."""
    words = as_words(words)
    if spec.preparse is not None:
        words = spec.preparse(words)
    reading = Reading(spec, words)
    current = spec
    options = True
    slot = 0
    i = 1
    n = len(words)
    while i < n:
        word = words[i]
        text = word.value
        lead = literal_prefix(word)
        if options and word.known and text == "--":
            options = False
            i += 1
            continue
        if options and _is_option(current, lead, text):
            i = _option(current, reading, words, i, lead)
            continue
        if options and not lead and current.effectful and could_be_option(word):
            reading.unknown.append(f"an argument of `{current.program}` Cupcake cannot see could be one of its options")
        if current.subcommands and slot == 0 and not reading.operands:
            sub = current.sub(text) if word.known else None
            if sub is not None:
                current = reading.spec = sub
                reading.path += (sub.name,)
                options = True
                i += 1
                continue
            if not word.known:
                reading.unknown.append(f"the subcommand of `{current.program}` is not written out")
        tag = _slot(current, slot)
        if tag == COMMAND:
            reading.inner = words[i:]
            break
        if tag == ELSEWHERE:
            rest = words[i:]
            reading.elsewhere = rest[1:] if rest and rest[0].known and rest[0].value == "--" else rest
            break
        if tag == ARGS:
            options = False
            tag = VALUE
        reading.operands.append(word)
        reading.where.append(i)
        if current.style == POSIX:
            options = False
        slot += 1
        i += 1
    if current.default_sub is not None and len(reading.path) == len(current.path) and not reading.operands:
        sub = current.sub(current.default_sub)
        if sub is not None:
            reading.spec = sub
            reading.path += (sub.name,)
            current = sub
    _effects(reading)
    chain = []
    spec_at = current
    while spec_at is not None:
        chain.append(spec_at)
        spec_at = spec_at.parent
    for each in reversed(chain):  # the program's handler first, then each subcommand's
        if each.handler is not None:
            each.handler(reading)
    return reading


def _slot(spec, slot: int):
    tags = spec.operands
    if not tags:
        return VALUE
    if slot < len(tags):
        return tags[slot]
    return tags[-1] if spec.repeat else VALUE


def _is_option(spec, lead: str, text: str) -> bool:
    if len(lead) < 2 or lead[0] not in "-+":
        return False
    if lead[0] == "+":
        return spec.option("+" + lead[1:2]) is not None or spec.option(lead.split("=", 1)[0]) is not None
    return True


def _lookup(spec, name: str):
    """The option ``name`` of the (sub)command or, failing that, of the commands above it."""
    while spec is not None:
        opt = spec.option(name)
        if opt is not None:
            return opt
        spec = spec.parent
    return None


def _option(spec, reading: Reading, words, i: int, lead: str) -> int:
    """Read the option word at ``i`` (and its value); the index after it."""
    word = words[i]
    text = lead
    if text.startswith("--") or (spec.single_dash and len(text) > 2) or (text[0] == "+" and len(text) > 2):
        return _long(spec, reading, words, i, text)
    if spec.numeric and text[1:].isdigit():
        return i + 1
    whole = _lookup(spec, text.split("=", 1)[0])
    if whole is not None and len(text) > 2:  # -TT, -O2, -Wall: one option, not a cluster
        return _long(spec, reading, words, i, text)
    k = 1
    while k < len(text):
        name = text[0] + text[k]
        opt = _lookup(spec, name)
        if opt is None:
            _unknown(spec, reading, name)
            k += 1
            continue
        if opt.arg == 0:
            _record(reading, opt, None, i)
            k += 1
            continue
        if opt.arg == OPTIONAL:
            _record(reading, opt, tail(word, k + 1) if k + 1 < len(word.value) else None, i)
            return i + 1
        if k + 1 < len(word.value):
            _record(reading, opt, tail(word, k + 1), i)
            return i + 1
        return _following(reading, opt, words, i)
    return i + 1


def _long(spec, reading: Reading, words, i: int, lead: str) -> int:
    word = words[i]
    name, eq, _value = lead.partition("=")
    if not word.known and not eq and lead == word.value[: len(lead)] and len(lead) < len(word.value):
        reading.unknown.append(f"an option of `{spec.program}` is not written out ({word.value})")
        return i + 1
    opt = _lookup(spec, name)
    if opt is None and name[:1] == "-":
        found = _abbreviation(spec, name)
        if isinstance(found, tuple):
            reading.unknown.append(f"`{name}` could be any of {', '.join(found[1])} (`{spec.program}` refuses it)")
            return i + 1
        opt = found
    if opt is None:
        _unknown(spec, reading, name)
        return i + 1
    if opt.arg == 0:
        _record(reading, opt, None, i)
        return i + 1
    if eq:
        _record(reading, opt, tail(word, len(name) + 1), i)
        return i + 1
    if opt.arg == OPTIONAL:
        _record(reading, opt, None, i)
        return i + 1
    return _following(reading, opt, words, i)


def _abbreviation(spec, name: str):
    while spec is not None:
        found = spec.abbreviation(name)
        if found is not None:
            return found
        spec = spec.parent
    return None


def _following(reading: Reading, opt, words, i: int) -> int:
    """An option whose value is the next word(s); a missing value is recorded as None."""
    values = words[i + 1 : i + 1 + max(opt.arg, 1)]
    if not values:
        _record(reading, opt, None, i)
    for value in values:
        _record(reading, opt, value, i)
    return i + 1 + len(values)


def _record(reading: Reading, opt, value, i: int) -> None:
    reading.opts.append((opt, value, i))
    if opt.effect == CHDIR and value is not None:
        reading.chdirs.append((i, value))


def _unknown(spec, reading: Reading, name: str) -> None:
    """An option the spec does not list: said when the spec is not complete and its operands or
    options change files or run code (a value it takes could hide an operand that matters)."""
    if not spec.complete and (
        spec.effectful or spec.handler is not None or any(t in CHANGES or t in RUNS_CODE for t in spec.operands)
    ):
        reading.unknown.append(f"`{spec.program}` option `{name}` is not one Cupcake knows")


def _effects(reading: Reading) -> None:
    """The effects the spec's tags give: option values, then operands."""
    spec = reading.spec
    what = " ".join((reading.called,) + reading.path[1:])
    for opt, value, i in reading.opts:
        if value is not None and opt.effect not in (None, VALUE, CHDIR):
            effect = reading.add(opt.effect, value, f"{what} {opt.name}", index=i)
            effect.language = spec.language
    for k, word in enumerate(reading.operands):
        tag = _slot(spec, k)
        if tag not in (VALUE, ARGS, COMMAND):
            reading.add(tag, word, what, index=reading.where[k]).operand = True
