"""The compiled-module bundle (cupcake/bundle.py): the same modules, with their own files and names, and
the ordinary imports whenever the bundle is not exactly the installed sources."""

from __future__ import annotations

import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cupcake import __version__
from cupcake.bundle import BUNDLE_NAME, build
from cupcake.start import _fields
from tests.conftest import installed_package

CHECKOUT = Path(__file__).resolve().parents[1] / "cupcake"

# Run in a fresh `python -I -S` (as the launcher starts it): install the bundle found beside the package
# in SITE, import two modules, say where each came from.
PROBE = """
import sys
sys.path.insert(0, {site!r})
from cupcake.start import install
print(install(fast={fast}))
import cupcake.protection.hook as hook, cupcake.shell.lexer as lexer, cupcake.shell as shell
for module in (hook, lexer):
    print(module.__name__, type(module.__spec__.loader).__name__, module.__file__)
print(shell.__path__[0])
print(hook.violation.__code__.co_filename)
"""


def fake_install(tmp_path: Path, record: bool = True, extra: dict | None = None) -> Path:
    """A site-packages holding a copy of the checkout's package (with the ``extra`` modules: file name ->
    source), its bundle and (with ``record``) an install record written after every file, as pip leaves
    them."""
    site = tmp_path / "site-packages"
    shutil.copytree(CHECKOUT, site / "cupcake", ignore=shutil.ignore_patterns("__pycache__", BUNDLE_NAME))
    for name, source in (extra or {}).items():
        (site / "cupcake" / name).write_text(source)
    build(str(site / "cupcake"), str(site / "cupcake" / BUNDLE_NAME))
    if record:
        info = site / f"cupcake-{__version__}.dist-info"
        info.mkdir()
        (info / "RECORD").write_text("")
    return site


@pytest.fixture(params=[False, True], ids=["importlib", "fast"])
def fast(request) -> bool:
    """Whether the bundle's modules are loaded by importlib through the finder, or by the finder itself
    (as during a hook call: ``install(fast=True)``)."""
    return request.param


def probe(site: Path, fast: bool = False, code: str = PROBE) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code.format(site=str(site), fast=fast)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_modules_come_from_the_bundle_with_their_own_files_and_names(tmp_path, fast):
    site = fake_install(tmp_path)
    lines = probe(site, fast)
    package = site / "cupcake"
    assert lines == [
        "True",
        f"cupcake.protection.hook _Finder {package / 'protection' / 'hook.py'}",
        f"cupcake.shell.lexer _Finder {package / 'shell' / 'lexer.py'}",
        str(package / "shell"),
        str(package / "protection" / "hook.py"),  # tracebacks name the installed file
    ]


def test_a_module_changed_after_the_install_is_imported_from_its_source(tmp_path, fast):
    site = fake_install(tmp_path)
    hook = site / "cupcake" / "protection" / "hook.py"
    record = site / f"cupcake-{__version__}.dist-info" / "RECORD"
    mark = record.stat().st_mtime_ns
    os.utime(hook, ns=(mark + 10**9, mark + 10**9))  # same size, changed a second after the record
    lines = probe(site, fast)
    assert lines[1].startswith("cupcake.protection.hook SourceFileLoader ")
    assert lines[2].startswith("cupcake.shell.lexer _Finder ")


def test_a_module_of_another_size_is_imported_from_its_source(tmp_path, fast):
    site = fake_install(tmp_path)
    record = site / f"cupcake-{__version__}.dist-info" / "RECORD"
    hook = site / "cupcake" / "protection" / "hook.py"
    hook.write_text(hook.read_text() + "\nEDITED = True\n")
    os.utime(record)  # even with the record rewritten after it: the size says it is not what was bundled
    lines = probe(site, fast)
    assert lines[1].startswith("cupcake.protection.hook SourceFileLoader ")


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"\x00\x00\x00\x00" + data[4:],  # another interpreter's bytecode magic
        lambda data: data[:6],  # cut short
        lambda data: data[:12] + b"\xff" * 40 + data[52:],  # the index unreadable
    ],
)
def test_a_bundle_this_python_cannot_read_is_not_used(tmp_path, damage, fast):
    site = fake_install(tmp_path)
    bundle = site / "cupcake" / BUNDLE_NAME
    bundle.write_bytes(damage(bundle.read_bytes()))
    lines = probe(site, fast)
    assert lines[0] == "False"
    assert lines[1].startswith("cupcake.protection.hook SourceFileLoader ")


def test_a_damaged_module_in_the_bundle_is_read_from_its_source(tmp_path, fast):
    site = fake_install(tmp_path)
    bundle = site / "cupcake" / BUNDLE_NAME
    data = bytearray(bundle.read_bytes())
    size = int.from_bytes(data[8:12], "little")
    _, _, length, offset = _fields(marshal.loads(bytes(data[12 : 12 + size]))["cupcake.shell.lexer"])
    data[offset : offset + length] = b"\xff" * length  # the index intact, the module's code not
    bundle.write_bytes(bytes(data))
    lines = probe(site, fast)
    assert lines[0] == "True"
    assert lines[1].startswith("cupcake.protection.hook _Finder ")
    assert lines[2].startswith("cupcake.shell.lexer _Finder ")  # found in the bundle, executed from source


def test_without_an_install_record_the_ordinary_imports_run(tmp_path, fast):
    lines = probe(fake_install(tmp_path, record=False), fast)
    assert lines[0] == "False"
    assert lines[1].startswith("cupcake.protection.hook SourceFileLoader ")


# What a module is given, from every side a caller may look at it.
ATTRIBUTES_PROBE = """
import sys
sys.path.insert(0, {site!r})
from cupcake.start import install
install(fast={fast})
import _frozen_importlib
print(type(getattr(_frozen_importlib._find_and_load, "__self__", None)).__name__)
from cupcake.shell import lexer  # a package's module, by `from`
import cupcake.protection.hook  # a module whose parent is not loaded yet
import importlib
importlib.import_module("cupcake.agents.claude")  # by a computed name
import json  # not Cupcake's: the ordinary import
for name in ("cupcake", "cupcake.shell", "cupcake.shell.lexer", "cupcake.protection", "cupcake.protection.hook",
             "cupcake.agents.claude", "json"):
    m = sys.modules[name]
    spec = m.__spec__
    print(name, m.__name__, m.__package__, m.__file__, m.__cached__, getattr(m, "__path__", None),
          type(m.__loader__).__name__, m.__loader__ is spec.loader, spec.name, spec.origin, spec.parent,
          spec.has_location, spec.submodule_search_locations, spec.cached, getattr(spec, "_initializing", False))
print(cupcake.shell.lexer is lexer, cupcake.protection.hook is sys.modules["cupcake.protection.hook"])
"""


def test_a_hook_calls_imports_give_each_module_what_importlib_gives_it(tmp_path):
    """During a hook call the finder loads the bundle's modules itself, without importlib's machinery:
    every module has the same name, package, file, spec and loader as importlib gives it, and a module
    that is not Cupcake's is imported the ordinary way."""
    site = fake_install(tmp_path)
    ordinary = probe(site, False, ATTRIBUTES_PROBE)
    fast = probe(site, True, ATTRIBUTES_PROBE)
    assert ordinary[0] == "NoneType" and fast[0] == "_Finder"  # the fast path is on only when asked
    assert fast[1:] == ordinary[1:]
    assert fast[-2].startswith("json json json ") and "SourceFileLoader" in fast[-2]
    assert fast[-1] == "True True"


FAILING_PROBE = """
import sys
sys.path.insert(0, {site!r})
from cupcake.start import install
install(fast={fast})
for attempt in (1, 2):
    try:
        import cupcake.fails_on_purpose
    except RuntimeError as exc:
        print(attempt, exc, "cupcake.fails_on_purpose" in sys.modules, hasattr(sys.modules["cupcake"], "fails_on_purpose"))
import cupcake.imports_itself as partial
print(partial.SEEN)
"""


def test_a_module_that_raises_while_it_loads_is_not_left_half_made(tmp_path, fast):
    """As importlib does: a module whose code raises is taken out of sys.modules (the next import runs it
    again), and a module that imports itself while it loads gets itself, as it is so far."""
    site = fake_install(
        tmp_path,
        extra={
            "fails_on_purpose.py": "X = 1\nraise RuntimeError('on purpose')\n",
            "imports_itself.py": "A = 1\nimport cupcake.imports_itself as me\nSEEN = sorted(k for k in vars(me) if k.isupper())\n",
        },
    )
    assert probe(site, fast, FAILING_PROBE) == ["1 on purpose False False", "2 on purpose False False", "['A']"]


def test_a_regular_install_ships_the_bundle_and_runs_from_it():
    package = Path(installed_package())
    if (package.parent / f"cupcake-{__version__}.dist-info").is_dir() and not str(package).startswith(str(CHECKOUT)):
        assert (package / BUNDLE_NAME).is_file(), "the wheel was built without the bundle (setup.py)"
        assert probe(package.parent)[1].startswith("cupcake.protection.hook _Finder ")
    else:
        assert not (CHECKOUT / BUNDLE_NAME).exists(), "an editable install must never have a bundle"


DOCS_PROBE = """
import sys
sys.path.insert(0, {site!r})
from cupcake.start import install
install()
import cupcake.pipeline.runner as runner, cupcake.cli.run as command, cupcake.compile.literals as compiler
print(runner.__doc__ is None, runner.run_plan.__doc__ is None, runner.Failure.__doc__ is None)
print(bool(command.__doc__), bool(compiler.__doc__))
print(runner.__cached__.endswith({name!r}), runner.__file__.endswith("runner.py"))
print("__future__" in sys.modules, "annotations" in vars(runner), type(runner.run_plan.__annotations__["ctx"]).__name__)
"""


def test_the_bundle_leaves_out_docstrings_no_run_reads(tmp_path):
    """Docstrings are code a run unmarshals and never reads, except typer's help and pydantic's schema:
    the bundle drops them elsewhere; a module's own file still holds them. And `from __future__ import
    annotations` is the compiler's flag there, not an import every module runs."""
    site = fake_install(tmp_path)
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", DOCS_PROBE.format(site=str(site), name=BUNDLE_NAME)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    # postponed annotations, set as the compiler's flag: nothing imports __future__ at run time
    assert done.stdout.splitlines() == ["True True True", "True True", "True True", "False False str"]
    assert '"""Run a plan over a context' in (site / "cupcake" / "pipeline" / "runner.py").read_text()
