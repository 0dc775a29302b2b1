"""The registry of programs: what each program Cupcake knows does with its arguments.

One module per family (``files``, ``finding``, ``filesystem``, ``text``, ``archives``, ``vcs``,
``network``, ``interpreters``, ``shells``, ``wrappers``, ``build``, ``packages``, ``containers``,
``databases``, ``readers``, ``system``, ``builtins``), one entry per program (``spec.program``),
keyed by basename plus aliases (``python3``, ``gtar``) and, for versioned names, the name with its
version cut (``python3.12``). A line imports only the families of the programs it names, so a family
holds programs that are used together.
Self-protection and the rule packs ask the same registry:

    from cupcake import programs
    reading = programs.read(["tar", "-xzf", "a.tgz", "-C", "out"])
    reading.path        # ("tar",)
    reading.effects     # [Effect('reads a.tgz'), Effect('into out (tree)')]

``lookup(name)`` gives the ``Spec``; ``read(words)`` reads a command with it (see ``reading``).
Adding a program is one ``program(...)`` entry in its family, with its examples; the tests run
every example (``tests/programs``) and the registry refuses a name declared twice. The whole
registry at once (every name, the index made from it) is ``catalogue``'s, never a run's.
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
    "finding",
    "filesystem",
)

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


def lookup(name: str):
    """The ``Spec`` of the program called ``name`` (a basename), or None if Cupcake does not know it.
    Only the family that declares it is imported (``program_index.NAMES`` says which)."""
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
    from cupcake.program_index import NAMES

    if "\n" in name or "\t" in name:
        return None
    at = NAMES.find("\n" + name + "\t")
    if at < 0:
        return None
    code = NAMES[at + len(name) + 2]
    if versioned and NAMES[at + len(name) + 3] != "v":
        return None
    return FAMILIES[ord(code) - 97]


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
