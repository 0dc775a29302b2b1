"""Evaluating a compiled ``command`` condition on a warm run.

The compiled tuple: ``("command", programs, subcommands, flags, not_flags, args, args_regex,
path_outside, via, globs, piped)`` (see ``command_condition``; ``args``: the shapes of the ``globs``'
regexes, ``glob_shapes``; ``args_regex``: (pattern, the pieces every match holds)). The condition holds
when some simple command the line would run (``cupcake.shell``, imported only when the prefilter passes)
matches every field.

The prefilter is sound: a line can only run a program whose name it spells out. Quotes and
backslashes (``r''m``, ``\\rm``) split a name but keep its letters in order; expansions and globs
(``$``, backticks, ``*``, ``?``, ``[``, ``{a..z}``) can produce any name, so a line holding one is
always read. Names are compared case-insensitively (a case-insensitive file system runs ``RM``).
"""

from __future__ import annotations

from cupcake import lean_os as os  # loaded by every run already (cupcake.cli.run)
from cupcake.evaluate.glob_match import any_fits

_EXPANDS = "$`?*["  # may produce any name: always read the line
_SPLITS = "'\"\\{"  # may split a name, keeping its letters in order


def needles(cond) -> tuple:
    """The names one of which a line must spell out for the condition to hold (() = no prefilter)."""
    names = list(cond[1] or ())
    if not names and cond[8]:
        names = [v.split()[0].lower() for v in cond[8]]
    return tuple(names)


def _in_order(name: str, text: str) -> bool:
    at = 0
    for ch in name:
        at = text.find(ch, at)
        if at < 0:
            return False
        at += 1
    return True


def may_hold(cond, lowered: str) -> bool:
    """The prefilter over the lower-cased command text: False only when no reading could match."""
    return may_hold_names(needles(cond), lowered)


ANY_NAME, SPLIT, PLAIN = 0, 1, 2  # what a line's characters allow (``line_kind``)


def line_kind(lowered: str) -> int:
    """``ANY_NAME``: expansions or globs could produce any name; ``SPLIT``: quotes or backslashes could
    split a name, keeping its letters in order; ``PLAIN``: a name is spelled out whole or not at all.
    The same for every condition: worked out once per line (``EventView.line``)."""
    for ch in _EXPANDS:
        if ch in lowered:
            return ANY_NAME
    if "{" in lowered and ".." in lowered:
        return ANY_NAME
    for ch in _SPLITS:
        if ch in lowered:
            return SPLIT
    return PLAIN


def may_hold_names(names, lowered: str, kind: int | None = None) -> bool:
    """Whether a line (lower-cased; ``kind``: its ``line_kind`` when known) could spell one of
    ``names`` (program names, or pieces of words such as ``.env``; ``()``: always): the names appear,
    or their letters in order where quotes or backslashes could split them, and a line with
    expansions or globs always could."""
    if not names:
        return True
    if kind is None:
        kind = line_kind(lowered)
    if kind == ANY_NAME:
        return True
    if kind == SPLIT:
        return any(_in_order(name, lowered) for name in names)
    return any(name in lowered for name in names)


def holds(cond, view) -> bool:
    programs = cond[1]
    facts = view.made_facts
    if facts is not None and programs is not None:
        # The line is read: the answer of the loop below when no command could be one of the programs,
        # without its calls (a compound line meets some 150 command conditions, most naming other programs).
        named, other, incomplete = facts.by_program or _by_program(facts, view)
        if not other and not incomplete:
            for name in programs:
                if name in named:
                    break
            else:
                return False
    line = view.line()
    if line is None:
        return False
    lowered, kind = line
    if not may_hold_names(programs or needles(cond), lowered, kind):
        return False
    script = view.script()
    # nested commands too: a trap's action, a git alias, inline code's shell
    for cmd in candidates(view.facts(), programs, view):
        if command_matches(cond, cmd, view) is None:
            return True
    if script.incomplete:  # an unfinished reading: the condition may hold when the name is there
        names = needles(cond)
        if not names or any(_in_order(name, lowered) for name in names):
            view.guesses += 1  # a guess: the block says what could not be read (``unread_block``)
            return True
    return False


# ``ctx.ext`` key: policy index -> why the Bash line could not be read to the end, for the policies whose
# command conditions held only for that reason (their block then says so: ``unread_block``).
UNREAD = "cupcake.unread"


def unread_block(reason: str, text: str) -> str:
    """A rule's block when its command condition held only because the line could not be read to the end:
    what could not be read and how to write it, then the rule (its danger may not be there at all)."""
    return (
        f"Cupcake could not read all of this command ({reason}), and the part it could not read may be what "
        f"this rule stops, so it is blocked. Write it plainly so Cupcake can check it (split it into shorter "
        f"commands). The rule: {text}"
    )


def candidates(facts, programs, view=None) -> list:
    """The commands of ``facts`` that could be one of ``programs`` (all of them when None): those whose
    program is spelled out as one of the names, and every one whose program word is not plain (a glob,
    an unknown part), which ``command_matches`` then judges. The same answer as asking each command,
    without asking each: the packs hold some 150 command conditions, and a compound line a few dozen
    commands, on every Bash call."""
    if programs is None:
        return facts.commands
    named, other, _incomplete = facts.by_program or _by_program(facts, view)
    found = list(other)
    for name in programs:
        found.extend(named.get(name, ()))
    return found


def _by_program(facts, view) -> tuple:
    """``facts.by_program``: (the commands by their program's name when it is spelled out, the others,
    why the line could not be read to the end or None), made once per reading of the line."""
    named: dict = {}
    other: list = []
    for cmd in facts.commands:
        if not cmd.words:
            continue  # no program: no name matches it (``_program_is``)
        word = cmd.words[0]
        if word.known and not word.glob:
            named.setdefault(cmd.program.lower(), []).append(cmd)
        else:
            other.append(cmd)
    incomplete = view.script().incomplete if view is not None else None
    index = (named, other, incomplete)
    if view is not None:
        facts.by_program = index  # without a view the reading is not known: made again when a view asks
    return index


def command_matches(cond, cmd, view):
    """None when ``cmd`` matches every field of ``cond``; else the first field that does not, as a
    short reason (``explain`` shows it)."""
    _kind, programs, subcommands, flags, not_flags, args, args_regex, outside, via, _globs, piped = cond
    if programs is not None and not _program_is(cmd, programs):
        return f"program {cmd.program!r} is not {'/'.join(programs)}"
    if via is not None:
        through = {v.split()[0].lower() for v in cmd.via}
        if not any(v.split()[0].lower() in through for v in via):
            return f"does not run through {'/'.join(via)}"
    if piped is not None:
        source = cmd.stdin_from
        if source is None or source.program.lower() not in piped:
            return f"does not read the output of {'/'.join(piped)}"
    skip = 0
    if subcommands is not None:
        read = _read(cmd, view)
        skip = _subcommand_length(cmd, subcommands, read)
        if not skip:
            return f"subcommand {read[0]!r} is not {'/'.join(subcommands)}"
    if flags is not None or not_flags is not None:
        read = _read(cmd, view)
        present = read[1]
        if present is None:
            present = read[1] = cmd.flags()
        for alternatives in flags or ():
            if not any(a in present for a in alternatives):
                return f"no {'|'.join(alternatives)} flag"
        for alternatives in not_flags or ():
            for a in alternatives:
                if a in present:
                    return f"has {a}"
    if args is None and args_regex is None and outside is None:
        return None
    if cmd.extra_args:
        return None  # xargs hands it arguments no one can see: they could be anything
    words = _positional_words(cmd, skip)
    if args is not None:
        patterns = view.patterns
        if not any(any_fits(args, w.value, patterns) for w in words):
            return "no argument matches " + " / ".join(cond[9] or ())
    if args_regex is not None:
        pattern, pieces = args_regex
        patterns = view.patterns
        if not any(patterns.search(pattern, pieces, w.value) for w in words):
            return f"no argument matches /{pattern}/"
    if outside is not None:
        roots = _roots(outside, view.root)
        if not any(path_outside(w, cmd.cwd, roots) for w in words):
            return "no path argument outside " + ", ".join(outside)
    return None


def _program_is(cmd, programs) -> bool:
    if not cmd.words:
        return False
    name = cmd.program.lower()
    if name in programs:
        return True
    word = cmd.words[0]
    if word.known and not word.glob:
        return False
    tokens = word.pattern()
    if all(t.__class__ is not str for t in tokens):
        return False  # a wholly unknown program (``$X``): not taken to be any program in particular
    return any(word.could_name(p) for p in programs)


_UNREAD = object()


def _read(cmd, view) -> list:
    """[its subcommand, its flags] of ``cmd``, each worked out when first asked for, once per run: the
    packs ask the same few commands of a line about their subcommand and flags some fifty times."""
    read = view.per_command.get(cmd)  # keyed by the command itself: no other takes its place while it lives
    if read is None:
        read = view.per_command[cmd] = [_UNREAD, None]
    return read


def _subcommand_length(cmd, subcommands, read) -> int:
    """How many words the matching subcommand takes (``system prune`` is 2), or 0 when none matches."""
    sub = read[0]
    if sub is _UNREAD:
        sub = read[0] = cmd.subcommand()
    if sub is None:
        return 0
    rest = None
    n = len(sub)
    for entry in subcommands:
        if entry == sub:
            if sub.split() == [sub]:  # one word: a subcommand of several is never one word that holds spaces
                return 1
            continue
        if len(entry) <= n or not entry.startswith(sub) or not entry[n].isspace():
            continue  # not this subcommand, nor this subcommand and more words
        parts = entry.split()
        if rest is None:
            rest = [a for a in cmd.after_subcommand() if not a.startswith("-")]
        if rest[: len(parts) - 1] == parts[1:]:
            return len(parts)
    return 0


def _positional_words(cmd, skip: int) -> list:
    """The command's non-option words (the subcommand's ``skip`` words left out)."""
    from cupcake.programs import value_options

    table = value_options(cmd.program)
    out = []
    words = cmd.words[1:]
    i = 0
    options = True
    while i < len(words):
        word = words[i]
        value = word.value
        i += 1
        if options and value == "--":
            options = False
        elif options and value.startswith("-") and value != "-":
            if value in table:
                i += 1
        else:
            out.append(word)
    return out[skip:] if skip else out


def _roots(outside, project: str) -> tuple:
    from cupcake.shell.model import normpath  # the reader is loaded: this runs on parsed commands

    home = os.path.expanduser("~")
    found = []
    for root in outside:
        if root == "{project}":
            root = project
        elif root.startswith("~"):
            root = home + root[1:]
        if not root:
            continue
        if root == "$TMPDIR":
            found.append(root)
            continue
        root = normpath(root)
        found.append(root)
        real = os.path.realpath(root)
        if real != root:
            found.append(real)
    return tuple(found)


_TMPDIR_FORMS = ("$TMPDIR/", "${TMPDIR}/", "${TMPDIR:-/tmp}/", "${TMPDIR:-/tmp/}/")


def _in_tmpdir(word) -> bool:
    """``$TMPDIR/x``, ``"${TMPDIR}/x"``, ``${TMPDIR:-/tmp}/x``: a path under the temporary directory."""
    raw = word.raw.replace('"', "")
    return raw.startswith(_TMPDIR_FORMS) and ".." not in raw and "$" not in raw[raw.index("/") :]


def _inside(path: str, roots) -> bool:
    for root in roots:
        if root == "/" or path == root or path.startswith(root + "/"):
            return True
    return False


def path_outside(word, cwd, roots) -> bool:
    """Whether the argument ``word`` could name a path outside every root (unknown parts could be anything)."""
    from cupcake.shell.model import normpath  # the reader is loaded: this runs on parsed commands
    from cupcake.shell.words import ANY, match

    if "$TMPDIR" in roots and _in_tmpdir(word):
        return False
    tokens = word.pattern()
    literal = []
    for t in tokens:
        if t.__class__ is not str:
            break
        literal.append(t)
    text = "".join(literal)
    if len(literal) < len(tokens):
        if word.raw == "{}" and text.endswith("/") and tokens[len(literal) :] == [ANY]:
            pass  # ``find ROOT -exec … {}``: a path find found under ROOT (the reader knows ROOT)
        elif ANY in tokens:
            return True  # an unknown part may hold "../" or a whole path
        else:
            component: list = []
            for t in tokens + ["/"]:
                if t == "/" and t.__class__ is str:
                    if component and component[0] == "." and match(component, ".."):
                        return True  # ``.*`` can name ``..`` (``*`` alone never names a dot file)
                    component = []
                else:
                    component.append(t)
        text = text[: text.rfind("/") + 1] if "/" in text else ""
    if text.startswith("~"):
        if text == "~" or text.startswith("~/"):
            text = os.path.expanduser("~") + text[1:]
        else:
            return True  # another user's home
    if not text.startswith("/"):
        if cwd is None:
            return True
        text = cwd.rstrip("/") + "/" + text
    path = normpath(text)
    if not _inside(path, roots):
        return True
    real = os.path.realpath(path)
    return real != path and not _inside(real, roots)
