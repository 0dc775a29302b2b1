"""What the launcher (``bin/cupcake``) runs once it has found the package: the interpreter's prefix, the
finder that serves the package's modules from ``cupcake/modules.bundle``, the console script's ``main``,
and the end of a hook call.

The launcher's own Python part is compiled on every start (a script never is cached): about 4 µs a
line, 0.3 ms for the 45 it had. This module is compiled once, by pip, and is the only one of the
package a run imports the ordinary way; it imports nothing of Cupcake's until the bundle's finder is in
place. What it raises, the launcher answers (a broken installation still answers a hook call, and
blocks if closed).

The bundle (written by ``cupcake/bundle.py`` when the wheel is built): every ``cupcake run`` imports
about 80 of Cupcake's modules, and each import through the ordinary machinery (path finder, ``stat``
calls, opening and checking its ``.pyc``, the loader's Python code) costs about 50 µs before the module's
own code runs: 4 ms of a 9 ms interpreter floor. The finder, first on ``sys.meta_path``, serves them
from one open file instead: an index read once, then one ``pread`` and ``marshal.loads`` per module a
run actually imports (measured: 80 modules 1.2 ms against 4.9 ms; see docs/performance.md). A bundle
this interpreter cannot read (another Python's bytecode, a damaged file) is not used: the ordinary
imports run. A module is served from the bundle only while its source file is the one bundled, as
Python checks a ``.pyc``: the same size, and not changed since pip wrote the install record (which it
writes after every file); otherwise its ordinary import runs. Each module keeps its ``__file__``,
``__path__`` and the file names in its tracebacks.

File layout: ``MAGIC`` (the interpreter's bytecode magic, then ``FORMAT``), the index's length (4 bytes,
little-endian), the index (marshal: module name -> one int packing whether it is a package, the source's
size, the code's length and offset: ``entry``), then each module's marshalled code object at its
offset."""

# No `from __future__ import annotations` here: this module is imported the ordinary way, before the bundle
# serves the rest, and nothing else a run loads imports `__future__` (its annotations are all valid at run time).
import sys
from marshal import loads
from posix import pread, stat  # os's own (importing os would cost 1 ms: see cupcake/lean_os)

BUNDLE_NAME = "modules.bundle"
FORMAT = b"CCB2"
HEAD = 8  # the interpreter's magic (4 bytes) and FORMAT
_CODE = sys._getframe().f_code.__class__  # the code object type (``types`` costs an import)
_MODULE = sys.__class__  # the module type
_FIRST_READ = 1 << 14  # one read holds the index (12 KB for 320 modules); a larger one takes a second


def entry_of(package: bool, size: int, length: int, offset: int) -> int:
    """A module's index entry, one int (a dict of tuples took twice as long to unmarshal, on every run)."""
    if not (size < 1 << 24 and length < 1 << 24 and offset >= 0):
        raise ValueError("a module too large for the bundle's index")
    return package | size << 1 | length << 25 | offset << 49


def _fields(entry: int) -> tuple:
    """(is a package, the source's size, the code's length, its offset) of an index entry."""
    return entry & 1, (entry >> 1) & 0xFFFFFF, (entry >> 25) & 0xFFFFFF, entry >> 49


def entry(venv):
    """The console script's ``main``. ``venv``: the folder the launcher guessed the package from, as pip
    lays out a virtual environment (``VENV/lib/pythonX.Y/site-packages``); it is the installation only
    when this interpreter is that environment's and the environment keeps to its own site-packages, and
    otherwise None is returned: the launcher then searches every layout (and the dependencies' folders)
    itself. ``venv`` None: the launcher's search has set the path."""
    if venv is not None:
        if sys.executable.rpartition("/")[0].rpartition("/")[0] != venv:
            return None
        try:
            with open(venv + "/pyvenv.cfg", "rb") as f:
                if b"include-system-site-packages = true" in f.read().lower():
                    return None
        except OSError:
            return None
        sys.prefix = sys.exec_prefix = venv  # as `site` sets it for a virtual environment (-S skips that)
    try:
        install(fast=sys.argv[1:2] == ["run"])  # the package's modules from one file, cupcake/modules.bundle
    except Exception:  # no bundle, or one this Python cannot read: the ordinary imports run
        pass
    from cupcake.cli.entry import main

    return main


def finish(code):
    """End the process with ``code``. A hook call's answer is written and flushed by then, and every file
    it wrote is closed (the stores write with ``with`` blocks or raw descriptors): tearing down the
    interpreter (every module's objects freed one by one) would cost about 2 ms more of every call, for
    nothing anyone reads."""
    if sys.argv[1:2] == ["run"] and type(code) is int:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        from posix import _exit

        _exit(code)
    sys.exit(code)


def install(package_dir: str = "", fast: bool = False) -> bool:
    """Put the bundle's finder first on ``sys.meta_path`` if ``package_dir`` (by default this package's
    folder) holds a bundle this interpreter can read; False (nothing changed) otherwise. ``fast`` (a
    hook call, which starts no thread): the import system's ``_find_and_load`` loads the bundle's
    modules itself (``_Finder.find_and_load``)."""
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
        head = pread(fd, _FIRST_READ, 0)
        size = int.from_bytes(head[HEAD : HEAD + 4], "little")
        if head[:HEAD] != magic:
            raise ValueError("another interpreter's bundle")
        start = HEAD + 4
        index = loads(head[start : start + size] if start + size <= len(head) else pread(fd, size, start))
        if not isinstance(index, dict):
            raise ValueError("not a bundle")
    except (OSError, ValueError, EOFError, TypeError):
        close(fd)
        return False
    finder = _Finder(fd, index, root, installed, _fix_co_filename, package_dir + "/" + BUNDLE_NAME)
    sys.meta_path.insert(0, finder)
    if fast:
        finder.take_over_loading()
    return True


class _Finder:
    """Finds and loads the modules the bundle holds (``importlib``'s finder and loader protocols)."""

    def __init__(self, fd: int, index: dict, root: str, installed: int, fix, path: str) -> None:
        self._fd, self._index, self._root, self._installed, self._fix = fd, index, root, installed, fix
        self._path = path
        self._spec = sys.modules["_frozen_importlib"].ModuleSpec
        self._ordinary = self.find_and_load  # importlib's own, once take_over_loading replaced it

    def find_spec(self, name, path=None, target=None):
        entry = self._index.get(name)
        if entry is None:
            return None
        package, size, _, _ = _fields(entry)
        relative = name.replace(".", "/")
        origin = f"{self._root}/{relative}/__init__.py" if package else f"{self._root}/{relative}.py"
        try:  # as Python checks a .pyc against its source: the source as bundled, or its own import
            st = stat(origin)
        except OSError:
            return None
        if st.st_size != size or st.st_mtime_ns > self._installed:
            return None
        spec = self._spec(name, self, origin=origin, is_package=bool(package))
        if package:
            spec.submodule_search_locations = [origin.rpartition("/")[0]]
        spec.has_location = True  # __file__ is the module's source file, as with the ordinary loader
        spec.cached = self._path  # where its compiled code comes from (and importlib computes no .pyc name)
        return spec

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module) -> None:
        spec = module.__spec__
        _, _, length, offset = _fields(self._index[spec.name])
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

    # ## A hook call's imports, without the import system's machinery ##############################
    # Importing a module the ordinary way runs about 40 lines of importlib's Python before its own code
    # (a lock per module, the finders in turn, the spec's attributes one by one): about 9 µs a module,
    # 0.5-0.7 ms of the 55-80 modules a hook call imports. The interpreter asks
    # ``_frozen_importlib._find_and_load`` for every module not yet in ``sys.modules``, by name each
    # time; during a hook call, which starts no thread (so needs no module lock), that name is this
    # method: a module of the bundle whose source is the one bundled is made, registered and run here,
    # with the attributes the ordinary loader gives it; any other name goes to the ordinary function.

    def take_over_loading(self) -> None:
        if sys.implementation.name != "cpython" or not (3, 11) <= sys.version_info < (3, 15):
            return  # an interpreter whose importlib was not read for this: its own machinery
        bootstrap = vars(sys.modules["_frozen_importlib"])
        self._ordinary = bootstrap["_find_and_load"]  # called (name, import_) by CPython 3.11 to 3.14
        bootstrap["_find_and_load"] = self.find_and_load

    def find_and_load(self, name, import_):
        modules = sys.modules
        parent, _, child = name.rpartition(".")
        if parent and parent not in modules:
            import_(parent)  # as importlib does: the parent first (it may import this module itself)
            if name in modules:
                return modules[name]
        spec = self.find_spec(name)
        if spec is None:
            return self._ordinary(name, import_)
        module = _MODULE(name)
        attributes = vars(module)  # what importlib's _init_module_attrs gives a module with a location
        attributes.update(__spec__=spec, __loader__=self, __file__=spec.origin, __cached__=self._path)
        if spec.submodule_search_locations is not None:
            attributes.update(__path__=spec.submodule_search_locations, __package__=name)
        else:
            attributes["__package__"] = parent
        spec._initializing = True
        modules[name] = module
        try:
            self.exec_module(module)
        except BaseException:
            modules.pop(name, None)
            raise
        finally:
            spec._initializing = False
        module = modules[name]  # what the module put there, as importlib returns it
        if parent:
            setattr(modules[parent], child, module)
        return module
