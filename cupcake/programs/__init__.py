"""The registry of programs: what each program Cupcake knows does with its arguments.

One module per family (``files``, ``text``, ``archives``, ``vcs``, ``network``, ``interpreters``,
``shells``, ``wrappers``, ``build``, ``packages``, ``containers``, ``databases``, ``readers``,
``system``, ``builtins``), one entry per program (``spec.program``), keyed by basename plus aliases
(``python3``, ``gtar``) and, for versioned names, the name with its version cut (``python3.12``).
Self-protection and the rule packs ask the same registry:

    from cupcake import programs
    reading = programs.read(["tar", "-xzf", "a.tgz", "-C", "out"])
    reading.path        # ("tar",)
    reading.effects     # [Effect('reads a.tgz'), Effect('into out (tree)')]

``lookup(name)`` gives the ``Spec``; ``read(words)`` reads a command with it (see ``reading``).
Adding a program is one ``program(...)`` entry in its family, with its examples; the tests run
every example (``tests/programs``) and the registry refuses a name declared twice.
"""

from __future__ import annotations

FAMILIES = (
    "builtins",
    "files",
    "text",
    "archives",
    "vcs",
    "network",
    "interpreters",
    "shells",
    "wrappers",
    "build",
    "packages",
    "containers",
    "databases",
    "readers",
    "system",
)

_index: dict | None = None  # name -> (declaration, family), every family loaded (``_load``)
_families: dict = {}  # family -> {name: declaration}, each family loaded when a name needs it
_built: dict = {}  # id(declaration) -> Spec
_value_options: dict = {}  # name -> the options before its subcommand that take a value


class DuplicateProgram(ValueError):
    """Two entries (or an entry and an alias) claim the same name."""


def _declarations(family: str) -> dict:
    found = _families.get(family)
    if found is None:
        module = __import__(f"cupcake.programs.{family}", fromlist=("SPECS",))
        found = {}
        for decl in module.SPECS:
            for key in (decl[0], *decl[2].get("aliases", ())):
                if key in found:
                    raise DuplicateProgram(f"{key!r} is declared twice in {family} ({found[key][0]}, {decl[0]})")
                found[key] = decl
        _families[family] = found
    return found


def _load() -> dict:
    """Every family, every name: refuses a name declared twice (what ``index.py`` is made from)."""
    global _index
    index: dict = {}
    for family in FAMILIES:
        for key, decl in _declarations(family).items():
            if key in index:
                other = index[key]
                raise DuplicateProgram(f"{key!r} is declared in {other[1]} ({other[0][0]}) and in {family} ({decl[0]})")
            index[key] = (decl, family)
    _index = index
    return index


def names() -> list:
    """Every name the registry answers to (aliases included), sorted."""
    return sorted(_index if _index is not None else _load())


def lookup(name: str):
    """The ``Spec`` of the program called ``name`` (a basename), or None if Cupcake does not know it.
    Only the family that declares it is imported (``index.NAMES`` says which)."""
    family = _family_of(name)
    if family is None:
        cut = name.rstrip("0123456789.")
        if cut == name or _family_of(cut, versioned=True) is None:
            return None
        name, family = cut, _family_of(cut)
    decl = _declarations(family).get(name)
    if decl is None:
        return None
    spec = _built.get(id(decl))
    if spec is None:
        from cupcake.programs.spec import Spec  # (not at import: the quick pass reads only the index)

        spec = _built[id(decl)] = Spec(decl[0], decl[1], decl[2], family=family)
    return spec


def _family_of(name: str, versioned: bool = False):
    """The family that declares ``name`` (with ``versioned``: only a name whose versions it takes too),
    from the index: one string searched, not a table built at every start."""
    from cupcake.programs.index import NAMES

    if "\n" in name or "\t" in name:
        return None
    at = NAMES.find("\n" + name + "\t")
    if at < 0:
        return None
    code = NAMES[at + len(name) + 2]
    if versioned and NAMES[at + len(name) + 3] != "v":
        return None
    return FAMILIES[ord(code) - 97]


def index_source() -> str:
    """The text of ``index.py`` for the registry as declared (``python -m cupcake.programs``): each
    name, a tab, its family's letter (``FAMILIES[ord(letter) - 97]``) and ``v`` when the name also
    answers with a version after it (``python3.12``)."""
    index = _load()
    lines = [
        '"""Which family declares each program name: made from the families by `python -m cupcake.programs`',
        "(a test fails when it is out of date). Lets ``lookup`` import only the family it needs: each line",
        "is a name, a tab, the family's letter (``FAMILIES[ord(letter) - 97]``) and ``v`` when versioned",
        'names (``python3.12``) are the same program. One string, searched: nothing is built at start."""',
        "",
        "NAMES = (",
    ]
    for name, (decl, family) in sorted(index.items()):
        versioned = decl[2].get("versioned") and (name == decl[0] or name in decl[2].get("aliases", ()))
        code = chr(97 + FAMILIES.index(family)) + ("v" if versioned else "")
        lines.append(f'    "\\n{name}\\t{code}"')
    lines.append('    "\\n"')
    lines.append(")")
    lines += [
        "",
        "# Single commands of plain words that need no reading (``protection.quick.quick_pass``): programs",
        "# that look at names only (readers whose operands are values, builtins the shell gives no meaning),",
        "# and git's reading subcommands; with the options that would make them read, write or run anything.",
        "QUICK = {",
    ]
    lines += [f"    {name!r}: {refused!r}," for name, refused in sorted(quick().items())]
    lines.append("}")
    return "\n".join(lines).replace("'", '"') + "\n"


def quick() -> dict:
    """name (``git status`` for a subcommand) -> the option spellings that take it out of the quick
    pass: a reader whose operands are only names, or a builtin the shell gives no meaning of its own
    (``echo``, ``true``), with no handler; its options that read, write or run are listed."""
    from cupcake.programs.builtins import MODELLED
    from cupcake.programs.spec import BUILTIN, READER, VALUE, Spec

    out = {}

    def plain(spec) -> bool:
        fields = (spec.handler, spec.preparse, spec.output, spec.default_sub)
        return all(f is None for f in fields) and all(tag == VALUE for tag in spec.operands)

    def refused(spec) -> tuple:
        return tuple(sorted(n for o in spec.options if o.effect not in (None, VALUE) for n in o.names))

    for name, (decl, family) in _load().items():
        spec = Spec(decl[0], decl[1], decl[2], family=family)  # (not ``lookup``: the index may be the old one)
        if spec.subcommands:
            if name == "git":
                for sub in sorted(spec.subcommands):
                    found = spec.sub(sub)
                    if found is not None and found.kind == READER and found.name == sub and plain(found):
                        out[f"git {sub}"] = refused(found)
            continue
        if (
            spec.kind == READER
            and plain(spec)
            or (spec.kind == BUILTIN and name not in MODELLED and plain(spec) and not refused(spec))
        ):
            out[name] = refused(spec)
    return out


def basename(text: str) -> str:
    return text.rstrip("/").rsplit("/", 1)[-1] if "/" in text else text


def read(words):
    """The ``Reading`` of a command given as words (``Word`` or str; ``words[0]`` the program, by
    name or path), or None when the program is not in the registry."""
    if not words:
        return None
    first = words[0]
    spec = lookup(basename(first if isinstance(first, str) else first.value))
    if spec is None:
        return None
    from cupcake.programs.reading import read as read_with

    return read_with(spec, words)


def reading_of(spec, words):
    """``words`` read with ``spec`` (see ``reading.read``)."""
    from cupcake.programs.reading import read as read_with

    return read_with(spec, words)


def value_options(name: str) -> frozenset:
    """The global options of a program with subcommands that take a value: what a rule needs to
    find the subcommand (``git -C dir push``). Empty for a program without subcommands. Made once per
    name (``_value_options``): the packs' conditions ask it of the same commands a hundred times a run."""
    found = _value_options.get(name)
    if found is None:
        spec = lookup(name)
        if spec is None or not spec.subcommands:
            found = frozenset()
        else:
            found = frozenset(n for opt in spec.options if opt.arg for n in opt.names)
        _value_options[name] = found
    return found
