"""Writing ``cupcake/modules.bundle`` when the wheel is built (``setup.py``): every module of the package,
compiled, in one file that ``cupcake/start.py`` serves a run's imports from (its docstring says why and
how). The same code, nothing else: the bundle is compiled from the very sources the wheel installs, it is
installed, recorded and removed with them (so self-protection's ``install`` set, the whole site-packages
folder, covers it like every module). An editable install never has one (``setup.py`` writes none for
it), so a developer's edits are what runs."""

from __future__ import annotations

import sys

from cupcake.start import BUNDLE_NAME, FORMAT, HEAD, entry_of

__all__ = ["BUNDLE_NAME", "build"]


# Modules whose docstrings are read at run time: typer's help text (the commands), pydantic's schema
# descriptions (the policy language's models). Everywhere else a docstring is text a run unmarshals and
# never reads (about a tenth of the code a Bash line loads), so the bundle leaves it out; the source
# files keep them, and so does any module imported from its source.
KEEP_DOCSTRINGS = ("cupcake/cli/", "cupcake/compile/")


def _compiled(source: bytes, relative: str):
    """The module's code as the bundle holds it: without its docstrings (the module's, each class's and
    function's; not under ``KEEP_DOCSTRINGS``), every other line where it was, and with postponed
    annotations set as a compiler flag instead of a ``from __future__ import annotations`` statement
    (the same code, without importing ``__future__`` at run time and looking it up in every module)."""
    import __future__

    import ast
    from os import sep

    tree = ast.parse(source, relative)
    flags = 0
    kept = []
    for statement in tree.body:
        if (
            isinstance(statement, ast.ImportFrom)
            and statement.module == "__future__"
            and [alias.name for alias in statement.names] == ["annotations"]
            and statement.names[0].asname is None
        ):
            flags |= __future__.annotations.compiler_flag
            continue
        kept.append(statement)
    tree.body = kept
    if not relative.replace(sep, "/").startswith(KEEP_DOCSTRINGS):
        _drop_docstrings(tree)
    return compile(tree, relative, "exec", flags=flags, dont_inherit=True)


def _drop_docstrings(tree) -> None:
    import ast

    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            if isinstance(body[0].value.value, str):
                doc = body.pop(0)
                if not body:  # a body that was only its docstring
                    body.append(ast.copy_location(ast.Pass(), doc))


def build(package_dir: str, out_path: str) -> int:
    """Write the bundle of every module under ``package_dir`` (the folder of the ``cupcake`` package, as
    the wheel installs it) to ``out_path``; returns how many modules it holds. Run by ``setup.py``."""
    import marshal
    import os

    codes: list[tuple[str, bool, bytes, int]] = []
    root = os.path.dirname(os.path.abspath(package_dir))
    for folder, dirs, files in os.walk(package_dir):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for file in sorted(files):
            if not file.endswith(".py"):
                continue
            path = os.path.join(folder, file)
            relative = os.path.relpath(path, root)
            is_package = file == "__init__.py"
            name = (os.path.dirname(relative) if is_package else relative[:-3]).replace(os.sep, ".")
            with open(path, "rb") as f:
                source = f.read()
            code = _compiled(source, relative)
            codes.append((name, is_package, marshal.dumps(code), len(source)))
    start = HEAD + 4  # where the first module goes: after the index, whose size depends on the offsets
    for _ in range(8):
        index, at = {}, start
        for name, is_package, data, size in codes:
            index[name] = entry_of(is_package, size, len(data), at)
            at += len(data)
        head = marshal.dumps(index)
        if HEAD + 4 + len(head) == start:
            break
        start = HEAD + 4 + len(head)
    else:
        raise RuntimeError("bundle index size changed while laying it out")
    magic = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER + FORMAT
    with open(out_path, "wb") as f:
        f.write(magic + len(head).to_bytes(4, "little") + head)
        for _, _, data, _ in codes:
            f.write(data)
    return len(codes)
