"""The whole registry at once, for the tests and for ``python -m cupcake.programs`` (never a run's:
a run looks up the names its line needs, ``programs.lookup``): every family loaded and every name
checked to be declared once (``load``), the names (``names``), and the text of ``program_index.py``
(``index_source``) with the quick pass's list (``quick``)."""

from __future__ import annotations

from cupcake import programs


def load() -> dict:
    """Every family, every name: refuses a name declared twice (what ``program_index.py`` is made from)."""
    index: dict = {}
    for family in programs.FAMILIES:
        for key, decl in programs._declarations(family).items():
            if key in index:
                other = index[key]
                raise programs.DuplicateProgram(
                    f"{key!r} is declared in {other[1]} ({other[0][0]}) and in {family} ({decl[0]})"
                )
            index[key] = (decl, family)
    return index


def names() -> list:
    """Every name the registry answers to (aliases included), sorted."""
    return sorted(load())


def index_source() -> str:
    """The text of ``cupcake/program_index.py`` for the registry as declared (``python -m
    cupcake.programs``): each name, a tab, its family's letter (``FAMILIES[ord(letter) - 97]``) and
    ``v`` when the name also answers with a version after it (``python3.12``); then the quick pass's
    list (``quick``)."""
    index = load()
    lines = [
        '"""Which family declares each program name: made from the families by `python -m cupcake.programs`',
        "(a test fails when it is out of date). Lets ``programs.lookup`` import only the family it needs, and the",
        "quick pass take a harmless command without importing the registry (``protection.quick``): each line",
        "is a name, a tab, the family's letter (``FAMILIES[ord(letter) - 97]``) and ``v`` when versioned",
        'names (``python3.12``) are the same program. One string, searched: nothing is built at start."""',
        "",
        "NAMES = (",
    ]
    for name, (decl, family) in sorted(index.items()):
        versioned = decl[2].get("versioned") and (name == decl[0] or name in decl[2].get("aliases", ()))
        code = chr(97 + programs.FAMILIES.index(family)) + ("v" if versioned else "")
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

    for name, (decl, family) in load().items():
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
