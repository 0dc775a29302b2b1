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

from cupcake.programs.spec import Spec

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
    Only the family that declares it is imported (``index.FAMILY`` says which)."""
    from cupcake.programs.index import FAMILY, VERSIONED

    family = FAMILY.get(name)
    if family is None:
        cut = name.rstrip("0123456789.")
        if cut == name or cut not in VERSIONED:
            return None
        name, family = cut, FAMILY[cut]
    decl = _declarations(family).get(name)
    if decl is None:
        return None
    spec = _built.get(id(decl))
    if spec is None:
        spec = _built[id(decl)] = Spec(decl[0], decl[1], decl[2], family=family)
    return spec


def index_source() -> str:
    """The text of ``index.py`` for the registry as declared (``python -m cupcake.programs``)."""
    index = _load()
    lines = [
        '"""Which family declares each program name: made from the families by `python -m cupcake.programs`',
        '(a test fails when it is out of date). Lets ``lookup`` import only the family it needs."""',
        "",
        "FAMILY = {",
    ]
    lines += [f"    {name!r}: {family!r}," for name, (_decl, family) in sorted(index.items())]
    lines.append("}")
    versioned = sorted(
        name
        for name, (decl, _f) in index.items()
        if decl[2].get("versioned")
        and name == decl[0]
        or decl[2].get("versioned")
        and name in decl[2].get("aliases", ())
    )
    lines.append("VERSIONED = frozenset((" + ", ".join(repr(v) for v in versioned) + ",))")
    return "\n".join(lines) + "\n"


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


def value_options(name: str) -> frozenset:
    """The options of program ``name`` (before any subcommand) that take a value: what a rule
    needs to find the subcommand (``git -C dir push``)."""
    spec = lookup(name)
    if spec is None:
        return frozenset()
    return frozenset(n for opt in spec.options if opt.arg for n in opt.names)
