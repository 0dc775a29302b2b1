"""The package's compiled modules in one file, ``cupcake/modules.bundle``, written when the wheel is built.

Every ``cupcake run`` imports about 80 of Cupcake's modules, and each import through the ordinary
machinery (path finder, ``stat`` calls, opening and checking its ``.pyc``, the loader's Python code)
costs about 50 µs before the module's own code runs: 4 ms of a 9 ms interpreter floor. This finder,
first on ``sys.meta_path``, serves them from one open file instead: an index read once, then one
``pread`` and ``marshal.loads`` per module a run actually imports (measured: 80 modules 1.2 ms against
4.9 ms; see docs/performance.md).

The same code, nothing else: the bundle is compiled by ``setup.py`` from the very sources the wheel
installs, it is installed, recorded and removed with them (so self-protection's ``install`` set, the
whole site-packages folder, covers it like every module), and each module keeps its ``__file__``,
``__path__`` and the file names in its tracebacks. A bundle this interpreter cannot read (another
Python's bytecode, a damaged file) is not used: the ordinary imports run. An editable install never
has one (``setup.py`` writes none for it), so a developer's edits are what runs.

File layout: ``MAGIC`` (the interpreter's bytecode magic, then ``FORMAT``), the index's length (4 bytes,
little-endian), the index (marshal: module name -> (is a package, offset, length, the source's size)),
then each module's marshalled code object at its offset. A module is served from the bundle only while
its source file is the one bundled, as Python checks a ``.pyc``: the same size, and not changed since
pip wrote the install record (which it writes after every file); otherwise its ordinary import runs."""

# No `from __future__ import annotations` here: this module is imported the ordinary way, before the bundle
# serves the rest, and nothing else a run loads imports `__future__` (its annotations are all valid at run time).
import sys
from marshal import loads
from os import pread, stat

BUNDLE_NAME = "modules.bundle"
FORMAT = b"CCB1"
_HEAD = 8  # the interpreter's magic (4 bytes) and FORMAT
_CODE = sys._getframe().f_code.__class__  # the code object type (``types`` costs an import)


def install(package_dir: str = "") -> bool:
    """Put the bundle's finder first on ``sys.meta_path`` if ``package_dir`` (by default this package's
    folder) holds a bundle this interpreter can read; False (nothing changed) otherwise."""
    from _imp import _fix_co_filename  # type: ignore[attr-defined]  # importlib's own, not in typeshed
    from posix import O_CLOEXEC, O_RDONLY, close, open

    package_dir = package_dir or __file__.rpartition("/")[0]
    root = package_dir.rpartition("/")[0]
    try:  # pip writes the install record after every file: a module changed since is newer than it
        installed = stat(f"{root}/cupcake-{sys.modules['cupcake'].__version__}.dist-info/RECORD").st_mtime_ns
    except (OSError, KeyError, AttributeError):
        return False  # not an installed wheel (a checkout, a copy without its record): ordinary imports
    magic = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER + FORMAT
    try:
        fd = open(package_dir + "/" + BUNDLE_NAME, O_RDONLY | O_CLOEXEC)
    except OSError:
        return False
    try:
        head = pread(fd, 1 << 16, 0)
        size = int.from_bytes(head[_HEAD : _HEAD + 4], "little")
        if head[:_HEAD] != magic:
            raise ValueError("another interpreter's bundle")
        start = _HEAD + 4
        index = loads(head[start : start + size] if start + size <= len(head) else pread(fd, size, start))
        if not isinstance(index, dict):
            raise ValueError("not a bundle")
    except (OSError, ValueError, EOFError, TypeError):
        close(fd)
        return False
    sys.meta_path.insert(0, _Finder(fd, index, root, installed, _fix_co_filename, package_dir + "/" + BUNDLE_NAME))
    return True


class _Finder:
    """Finds and loads the modules the bundle holds (``importlib``'s finder and loader protocols)."""

    def __init__(self, fd: int, index: dict, root: str, installed: int, fix, path: str) -> None:
        self._fd, self._index, self._root, self._installed, self._fix = fd, index, root, installed, fix
        self._path = path
        self._spec = sys.modules["_frozen_importlib"].ModuleSpec

    def find_spec(self, name, path=None, target=None):
        entry = self._index.get(name)
        if entry is None:
            return None
        relative = name.replace(".", "/")
        origin = f"{self._root}/{relative}/__init__.py" if entry[0] else f"{self._root}/{relative}.py"
        try:  # as Python checks a .pyc against its source: the source as bundled, or its own import
            st = stat(origin)
        except OSError:
            return None
        if st.st_size != entry[3] or st.st_mtime_ns > self._installed:
            return None
        spec = self._spec(name, self, origin=origin, is_package=entry[0])
        if entry[0]:
            spec.submodule_search_locations = [origin.rpartition("/")[0]]
        spec.has_location = True  # __file__ is the module's source file, as with the ordinary loader
        spec.cached = self._path  # where its compiled code comes from (and importlib computes no .pyc name)
        return spec

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module) -> None:
        spec = module.__spec__
        _, offset, length, _ = self._index[spec.name]
        try:
            code = loads(pread(self._fd, length, offset))
            if code.__class__ is not _CODE:
                raise ValueError("not a code object")
        except (OSError, ValueError, EOFError, TypeError):  # a damaged bundle: this module from its source
            source_loader = sys.modules["_frozen_importlib_external"].SourceFileLoader
            source_loader(spec.name, spec.origin).exec_module(module)
            return
        self._fix(code, spec.origin)  # tracebacks name the installed file
        exec(code, module.__dict__)


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
    index, offset = {}, 0
    for name, is_package, data, size in codes:
        index[name] = (is_package, offset, len(data), size)
        offset += len(data)
    head = marshal.dumps(index)
    start = _HEAD + 4 + len(head)
    index = {name: (is_pkg, start + at, length, size) for name, (is_pkg, at, length, size) in index.items()}
    head = marshal.dumps(index)
    if _HEAD + 4 + len(head) != start:  # the offsets' sizes changed the index's own size
        raise RuntimeError("bundle index size changed while laying it out")
    magic = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER + FORMAT
    with open(out_path, "wb") as f:
        f.write(magic + len(head).to_bytes(4, "little") + head)
        for _, _, data, _ in codes:
            f.write(data)
    return len(codes)
