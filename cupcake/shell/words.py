"""Words after expansion, and the patterns they may stand for.

A word read by the lexer is a list of parts (unquoted text, quoted text, ``$NAME``, ``$(…)``,
``$((…))``, ``<(…)``). ``expand`` turns one into the fields the command would receive, as bash
would: brace expansion (``braces``, loaded for a word that has some), tilde, parameters the caller or the script made
known, command substitutions (read as commands that run, through a callback), quote removal and
field splitting of known unquoted values. A field is a ``Word``: its text, whether every part of
it is known, whether it is an active glob, and a pattern (``match``) in which a glob character is
a wildcard and an unknown part matches anything, slashes included. ``could_match(glob, name)``
answers "could this glob, as written, name that file?" for callers holding protected names.
"""

from __future__ import annotations

from cupcake.shell.limits import MAX_PATTERN

TYPE_CHECKING = False  # not typing's: the Bash reader is on the hot path
if TYPE_CHECKING:  # annotations only
    from typing import TypeAlias

    # A pattern token: a character, STAR / ONE / ANY, or a bracket class (negated, ((low, high), ...)).
    Token: TypeAlias = "str | int | tuple[bool, tuple[tuple[str, str], ...]]"

# Pattern tokens: `*`, `?`, an unknown part (matches anything, `/` and `..` too: the kernel may then
# reach any path), and an unknown part below a known directory (anything, but it never climbs out:
# a path find found under its root).
STAR, ONE, ANY, SUB = 1, 2, 3, 4
_BLANK = " \t\n"


class Word:
    """One field of a command line: ``value`` (quotes removed; an unknown part stays as written),
    ``raw`` (the source text), ``known`` (no unknown part), ``glob`` (an unquoted ``*``, ``?`` or
    ``[…]`` makes it a pattern), ``quoted`` (some part was quoted or escaped), ``tainted`` (an
    unknown part comes from data the command reads: a file, a program's output, input)."""

    __slots__ = ("value", "raw", "known", "glob", "quoted", "tokens", "tainted")

    def __init__(
        self, value: str, raw: str = "", known: bool = True, glob: bool = False, quoted: bool = False, tokens=None
    ):
        self.value = value
        self.raw = raw or value
        self.known = known
        self.glob = glob
        self.quoted = quoted
        self.tokens = tokens  # pattern tokens, or None when the value is a plain literal
        self.tainted = False

    @property
    def exact(self) -> bool:
        """Known and not a pattern: ``value`` is exactly what the command receives."""
        return self.known and not self.glob

    def pattern(self):
        """The pattern tokens (a literal word gives one token per character)."""
        return self.tokens if self.tokens is not None else list(self.value)

    def matches(self, text: str) -> bool:
        """Whether this word could expand to ``text`` (globs and unknown parts as wildcards)."""
        return match(self.pattern(), text)

    def could_name(self, name: str) -> bool:
        """Whether the last path component of this word could be ``name``."""
        return match(basename_tokens(self.pattern()), name)

    def __repr__(self) -> str:
        flags = ("" if self.known else " unknown") + (" glob" if self.glob else "")
        return f"Word({self.value!r}{flags})"

    def __eq__(self, other):
        if isinstance(other, str):
            return self.value == other
        return isinstance(other, Word) and self.value == other.value and self.known == other.known

    def __hash__(self):
        return hash(self.value)


# ## Patterns #####################################################################################


def match(tokens, text: str, fold: bool = False, prefix: bool = False, ends=None) -> bool:
    """Whether ``text`` matches pattern ``tokens``. ``*``/``?``/classes do not cross ``/``; an
    unknown part does. A pattern too long to walk is said to match (the safe answer). With
    ``prefix``: whether a text that begins with ``text`` could match (a leading part of the pattern
    matches ``text`` whole; what follows can always be met), in the same one walk. ``ends``:
    ``literal_ends(tokens)``, for a caller that matches the same pattern against many texts."""
    if len(tokens) > MAX_PATTERN:
        return True
    if fold:
        text = text.lower()
    decided, tokens, text = (
        _literal_head(tokens, text, fold, ends) if prefix else _literal_ends(tokens, text, fold, ends)
    )
    if decided is not None:
        return decided
    n = len(text)
    reach = [False] * (n + 1)
    reach[0] = True
    for tok in tokens:
        nxt = [False] * (n + 1)
        any_reach = False
        if tok.__class__ is str:
            if fold:
                tok = tok.lower()
            for i in range(n):
                if reach[i] and text[i] == tok:
                    nxt[i + 1] = any_reach = True
        elif tok == STAR:
            on = False
            for i in range(n + 1):
                if reach[i]:
                    on = True
                if on:
                    nxt[i] = any_reach = True
                    if i < n and text[i] == "/":
                        on = False
        elif tok == ANY or tok == SUB:
            for i in range(n + 1):
                if reach[i]:
                    for j in range(i, n + 1):
                        nxt[j] = True
                    any_reach = True
                    break
        elif tok == ONE:
            for i in range(n):
                if reach[i] and text[i] != "/":
                    nxt[i + 1] = any_reach = True
        else:  # a class: (negated, items)
            for i in range(n):
                if reach[i] and text[i] != "/" and _in_class(tok, text[i], fold):
                    nxt[i + 1] = any_reach = True
        if not any_reach:
            return False
        reach = nxt
        if prefix and reach[n]:
            return True
    return reach[n]


def _literal_head(tokens, text: str, fold: bool, ends=None):
    """``_literal_ends`` for a prefix: the literal characters a pattern starts with, compared as one
    string (a prefix has no literal end). The walk over them gives the same answer: a text no longer
    than them matches when it is their start (and not empty), a longer one must start with them all and
    the rest of the pattern is walked over the rest of it. (Not folded: a character may lower to two.)
    ``ends``: ``literal_ends(tokens)``."""
    head, literal = (ends or literal_ends(tokens))[:2]
    if not head or fold:
        return None, tokens, text
    if len(text) <= head:
        return bool(text) and literal.startswith(text), tokens, text
    if not text.startswith(literal):
        return False, tokens, text
    return None, tokens[head:], text[head:]


def literal_ends(tokens) -> tuple:
    """(the number of literal characters ``tokens`` starts with, them as one string, the number it ends
    with, them as one string): what ``_literal_ends`` compares first (``match(..., ends=)``)."""
    head = 0
    for tok in tokens:
        if tok.__class__ is not str:
            break
        head += 1
    tail = 0
    if head < len(tokens):
        for tok in reversed(tokens):
            if tok.__class__ is not str:
                break
            tail += 1
    return head, "".join(tokens[:head]), tail, "".join(tokens[len(tokens) - tail :]) if tail else ""


def _literal_ends(tokens, text: str, fold: bool, ends=None):
    """(a decided answer or None, the tokens and text left to walk). The literal characters a pattern
    starts and ends with are compared as strings: most patterns are known paths (literal throughout),
    and the walk costs the pattern's length times the text's. ``ends``: ``literal_ends(tokens)``."""
    head, prefix, tail, suffix = ends or literal_ends(tokens)
    if head:
        if fold:
            prefix = prefix.lower()
        if head == len(tokens):
            return text == prefix, tokens, text
        if not text.startswith(prefix):
            return False, tokens, text
        tokens, text = tokens[head:], text[head:]
    if tail and not text.endswith(suffix.lower() if fold else suffix):
        return False, tokens, text
    return None, tokens, text


def _in_class(klass, ch: str, fold: bool) -> bool:
    negated, items = klass
    found = False
    for item in items:
        lo, hi = item
        if fold:
            if lo.lower() <= ch <= hi.lower() or lo.upper() <= ch.upper() <= hi.upper():
                found = True
                break
        elif lo <= ch <= hi:
            found = True
            break
    return found != negated


_NAMED = {
    "alpha": (("a", "z"), ("A", "Z")),
    "digit": (("0", "9"),),
    "alnum": (("a", "z"), ("A", "Z"), ("0", "9")),
    "upper": (("A", "Z"),),
    "lower": (("a", "z"),),
    "space": ((" ", " "), ("\t", "\r")),
    "punct": (("!", "/"), (":", "@"), ("[", "`"), ("{", "~")),
    "xdigit": (("0", "9"), ("a", "f"), ("A", "F")),
    "word": (("a", "z"), ("A", "Z"), ("0", "9"), ("_", "_")),
    "blank": ((" ", " "), ("\t", "\t")),
    "print": ((" ", "~"),),
    "graph": (("!", "~"),),
    "cntrl": (("\0", "\x1f"),),
}


def parse_class(text: str, i: int):
    """Read a ``[…]`` class starting at ``text[i] == '['``: (token, end index) or None if it is not one."""
    j = i + 1
    negated = False
    if j < len(text) and text[j] in "!^":
        negated, j = True, j + 1
    items: list[tuple[str, str]] = []
    first = True
    while j < len(text):
        ch = text[j]
        if ch == "]" and not first:
            return (negated, tuple(items)), j + 1
        first = False
        if ch == "[" and text.startswith("[:", j):
            end = text.find(":]", j + 2)
            if end > 0:
                items.extend(_NAMED.get(text[j + 2 : end], ()))
                j = end + 2
                continue
        if ch == "\\" and j + 1 < len(text):
            ch, j = text[j + 1], j + 1
        if j + 2 < len(text) and text[j + 1] == "-" and text[j + 2] != "]":
            items.append((ch, text[j + 2]))
            j += 3
        else:
            items.append((ch, ch))
            j += 1
    return None


def glob_tokens(text: str):
    """Tokens for a glob written as text (``\\`` escapes the next character)."""
    out: list[Token] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if ch == "*":
            if not out or out[-1] != STAR:
                out.append(STAR)
        elif ch == "?":
            out.append(ONE)
        elif ch == "[":
            klass = parse_class(text, i)
            if klass is not None:
                out.append(klass[0])
                i = klass[1]
                continue
            out.append(ch)
        else:
            out.append(ch)
        i += 1
    return out


def could_match(glob: str, name: str, fold: bool = False) -> bool:
    """Whether the glob ``glob`` (as written, e.g. ``[c]upcake.t?ml``) could name ``name``."""
    return match(glob_tokens(glob), name, fold)


def basename_tokens(tokens):
    """The tokens of the last path component (an unknown part may hold the last slash)."""
    for k in range(len(tokens) - 1, -1, -1):
        tok = tokens[k]
        if tok == "/" and tok.__class__ is str:
            return tokens[k + 1 :]
        if tok == ANY or tok == SUB:
            return tokens[k:]
    return tokens


def render(tokens) -> str:
    """A readable form of a pattern: unknown parts shown as ``…``."""
    out = []
    for tok in tokens:
        if tok.__class__ is str:
            out.append(tok)
        elif tok == STAR:
            out.append("*")
        elif tok == ONE:
            out.append("?")
        elif tok == ANY or tok == SUB:
            out.append("…")
        else:
            out.append("[" + ("!" if tok[0] else "") + "".join(a if a == b else f"{a}-{b}" for a, b in tok[1]) + "]")
    return "".join(out)


# ## Expansion ####################################################################################


class GlobValue:
    """A variable's value that is one of the names a pattern matches: the variable of
    ``for f in *.py`` holds some file name ``*.py`` matches (``value`` is the pattern as written);
    also a value known only as a pattern (``$(mktemp)``: ``/tmp/tmp.??????????``). ``blank``:
    whether the value may hold blanks (then unquoted it may split into several words)."""

    __slots__ = ("value", "tokens", "blank")

    def __init__(self, value: str, tokens, blank: bool = True):
        self.value = value
        self.tokens = tokens
        self.blank = blank


class _Field:
    __slots__ = ("value", "tokens", "known", "glob", "quoted", "raw", "some", "tainted")

    def __init__(self, raw: str):
        self.value: list[str] = []
        self.tokens: list[Token] = []
        self.known = True
        self.glob = False
        self.quoted = False
        self.raw = raw
        self.some = False  # anything at all was put in (an empty "" is a field)
        self.tainted = False

    def literal(self, text: str) -> None:
        self.value.append(text)
        self.tokens.extend(text)
        self.some = True

    def active(self, text: str) -> None:
        """Unquoted text: its glob characters are live."""
        self.value.append(text)
        self.some = True
        i = 0
        tokens = self.tokens
        while i < len(text):
            ch = text[i]
            if ch == "*":
                self.glob = True
                if not tokens or tokens[-1] != STAR:
                    tokens.append(STAR)
            elif ch == "?":
                self.glob = True
                tokens.append(ONE)
            elif ch == "[":
                klass = parse_class(text, i)
                if klass is not None:
                    self.glob = True
                    tokens.append(klass[0])
                    i = klass[1]
                    continue
                tokens.append(ch)
            else:
                tokens.append(ch)
            i += 1

    def matched(self, value: GlobValue) -> None:
        """One of the names ``value``'s pattern matches (a pattern, never taken literally)."""
        self.value.append(value.value)
        self.tokens.extend(value.tokens)
        self.glob = True
        self.some = True

    def unknown(self, raw: str, tainted: bool = False) -> None:
        self.value.append(raw)
        self.known = False
        self.some = True
        self.tainted = self.tainted or tainted
        if not self.tokens or self.tokens[-1] != ANY:
            self.tokens.append(ANY)

    def word(self) -> Word:
        tokens = self.tokens if (self.glob or not self.known) else None
        word = Word("".join(self.value), self.raw, self.known, self.glob, self.quoted, tokens)
        word.tainted = self.tainted
        return word


def expand(parts, raw: str, ctx, assignment: bool = False) -> list:
    """The fields one word expands to. ``ctx`` gives ``lookup(name) -> str | None`` (None:
    unknown), ``run(node, label)`` (a substitution's commands run) and ``budget``."""
    if len(parts) == 1:  # the common case: one plain or one quoted literal
        kind, text = parts[0][0], parts[0][1]
        if kind == "q":
            return [Word(text, raw, quoted=True)]
        if kind == "u" and text and not ("{" in text or "~" in text or "*" in text or "?" in text or "[" in text):
            return [Word(text, raw)]
    if _has_brace(parts) and not assignment:
        from cupcake.shell.braces import expand_braces  # only for a word with braces

        alternatives = expand_braces(parts, ctx)
    else:
        alternatives = [parts]
    fields: list[Word] = []
    for alt in alternatives:
        field = _Field(raw)
        for k, part in enumerate(alt):
            kind = part[0]
            if kind == "u":
                text = part[1]
                if k == 0 and text.startswith("~"):
                    text = _tilde(text, field, ctx, alt, k)
                    if text is None:
                        continue
                if assignment and "~" in text:
                    text = text.replace(":~/", ":" + (ctx.lookup("HOME") or "~") + "/")
                field.active(text) if not assignment else field.literal(text)
            elif kind == "q":
                field.literal(part[1])
                field.quoted = True
            elif kind == "$":
                field = _parameter(part, field, fields, raw, ctx, assignment)
            elif kind == "c":
                clean = ctx.run(part[1], "$(…)")
                if clean.__class__ is GlobValue:
                    field.matched(clean)
                else:
                    field.unknown(part[2], not clean)
                field.quoted = field.quoted or part[3]
            elif kind == "a":
                for node in part[2]:
                    ctx.run(node, "$(…)")
                ctx.arith(part[1], part[2])
                field.unknown(part[1])
            elif kind == "p":
                ctx.run(part[1], part[2][:1] + "(…)")
                field.unknown(part[2])
            else:  # "g": an extended glob group
                field.unknown(part[1])
                field.glob = True
        if field.some and (field.value != [""] or field.quoted or not field.known):
            fields.append(field.word())
        elif field.quoted:
            fields.append(field.word())
        ctx.budget.spend(sum(len(v) for v in field.value) + 1)
    return fields


def _parameter(part, field: _Field, fields: list, raw: str, ctx, assignment: bool) -> _Field:
    """A ``$name``/``${…}`` part: its value added to ``field`` (or split into ``fields``)."""
    if part[4] is not None:
        _run_inner(part[4], ctx)
    if part[5] is None and part[1] in ("@", "*") and not assignment and ctx.lookup("#") is not None:
        return _positional(part, field, fields, raw, ctx)
    if part[5] is not None:
        value, tainted = ctx.param(part)
    else:
        value = ctx.lookup(part[1]) if part[1] is not None else None
        tainted = value is None and ctx.tainted(part[1])
    if part[3]:
        field.quoted = True
    if value.__class__ is GlobValue:
        if part[3] or assignment or not value.blank:  # "$f": one name the pattern matches
            field.matched(value)
        else:  # $f: the name split on blanks, each piece could be anything
            field.unknown(part[2])
    elif value is None:
        field.unknown(part[2], tainted)
    elif part[3] or assignment:
        field.literal(value)
    else:  # unquoted: split on IFS, globs live
        field = _split_into(value, field, fields, raw, ctx)
    return field


def _positional(part, field: _Field, fields: list, raw: str, ctx) -> _Field:
    """``$@``/``$*``: each positional parameter a field of its own ("$@"), joined by IFS's first
    character ("$*"), or each one split (unquoted)."""
    args = ctx.args()
    quoted = part[3]
    if quoted and part[1] == "*":
        ifs = ctx.lookup("IFS")
        field.literal((ifs[:1] if ifs is not None else " ").join(args))
        field.quoted = True
        return field
    for k, arg in enumerate(args):
        if k:
            fields.append(field.word())
            field = _Field(raw)
        if quoted:
            field.literal(arg)
            field.quoted = True
        else:
            field = _split_into(arg, field, fields, raw, ctx)
    return field


def _run_inner(parts, ctx) -> None:
    for part in parts:
        if part[0] == "c":
            ctx.run(part[1], "$(…)")
        elif part[0] == "a":
            for node in part[2]:
                ctx.run(node, "$(…)")
            ctx.arith(part[1], part[2])
        elif part[0] == "p":
            ctx.run(part[1], part[2][:1] + "(…)")
        elif part[0] == "$" and part[4] is not None:
            _run_inner(part[4], ctx)


def _split_into(value: str, field: _Field, fields: list, raw: str, ctx=None) -> _Field:
    ifs = ctx.lookup("IFS") if ctx is not None else " \t\n"
    if ifs is None:
        field.unknown(value, True)  # IFS holds what Cupcake cannot see: the splitting is unknown
        return field
    if ifs != " \t\n":
        return _split_ifs(value, ifs, field, fields, raw)
    pieces = value.split() if value.strip(_BLANK) or not value else []
    if not pieces:
        if value and value[0] in _BLANK and field.some:
            fields.append(field.word())
            return _Field(raw)
        return field
    if value[0] in _BLANK and field.some:
        fields.append(field.word())
        field = _Field(raw)
    for n, piece in enumerate(pieces):
        if n:
            fields.append(field.word())
            field = _Field(raw)
        field.active(piece)
    if value[-1] in _BLANK:
        fields.append(field.word())
        field = _Field(raw)
    return field


def _split_ifs(value: str, ifs: str, field: _Field, fields: list, raw: str) -> _Field:
    """Field splitting with a known IFS: runs of its blanks separate like spaces, each other
    character of it ends a field (``a::b`` is three); an empty IFS does not split."""
    pieces = ifs_fields(value, ifs) if ifs else [value]
    for n, piece in enumerate(pieces):
        if n:
            fields.append(field.word())
            field = _Field(raw)
        field.active(piece)
    return field


def ifs_fields(value: str, ifs: str) -> list:
    white = [c for c in ifs if c in _BLANK]
    out: list[str] = []
    current: list[str] = []
    i, n = 0, len(value)
    while i < n and value[i] in white:
        i += 1
    while i < n:
        ch = value[i]
        if ch in ifs:
            j = i
            while j < n and value[j] in white:
                j += 1
            if j < n and value[j] in ifs and value[j] not in white:
                j += 1
                while j < n and value[j] in white:
                    j += 1
            out.append("".join(current))
            current = []
            i = j
            continue
        current.append(ch)
        i += 1
    if current:
        out.append("".join(current))
    return out


def _tilde(text: str, field: _Field, ctx, alt, k):
    """Expand a leading ``~``, ``~user``, ``~+``, ``~-``; return the rest of the text."""
    end = text.find("/")
    if end < 0:
        if len(alt) > k + 1 and alt[k + 1][0] != "u":
            return text  # ~"x": quoted, not a tilde prefix
        end = len(text)
    name = text[1:end]
    if name == "":
        value = ctx.lookup("HOME")
    elif name == "+":
        value = ctx.lookup("PWD")
    elif name == "-":
        value = ctx.lookup("OLDPWD")
    else:
        value = None
    if value is None:
        field.unknown(text[:end])
    else:
        field.literal(value)
    return text[end:]


# ## Brace expansion ##############################################################################


def _has_brace(parts) -> bool:
    for part in parts:
        if part[0] == "u" and "{" in part[1] and "}" in part[1]:
            return True
    return False
