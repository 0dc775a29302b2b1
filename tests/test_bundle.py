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
from tests.conftest import installed_package

CHECKOUT = Path(__file__).resolve().parents[1] / "cupcake"

# Run in a fresh `python -I -S` (as the launcher starts it): install the bundle found beside the package
# in SITE, import two modules, say where each came from.
PROBE = """
import sys
sys.path.insert(0, {site!r})
from cupcake.bundle import install
print(install())
import cupcake.protection.hook as hook, cupcake.shell.lexer as lexer, cupcake.shell as shell
for module in (hook, lexer):
    print(module.__name__, type(module.__spec__.loader).__name__, module.__file__)
print(shell.__path__[0])
print(hook.violation.__code__.co_filename)
"""


def fake_install(tmp_path: Path, record: bool = True) -> Path:
    """A site-packages holding a copy of the checkout's package, its bundle and (with ``record``) an
    install record written after every file, as pip leaves them."""
    site = tmp_path / "site-packages"
    shutil.copytree(CHECKOUT, site / "cupcake", ignore=shutil.ignore_patterns("__pycache__", BUNDLE_NAME))
    build(str(site / "cupcake"), str(site / "cupcake" / BUNDLE_NAME))
    if record:
        info = site / f"cupcake-{__version__}.dist-info"
        info.mkdir()
        (info / "RECORD").write_text("")
    return site


def probe(site: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PROBE.format(site=str(site))], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_modules_come_from_the_bundle_with_their_own_files_and_names(tmp_path):
    site = fake_install(tmp_path)
    lines = probe(site)
    package = site / "cupcake"
    assert lines == [
        "True",
        f"cupcake.protection.hook _Finder {package / 'protection' / 'hook.py'}",
        f"cupcake.shell.lexer _Finder {package / 'shell' / 'lexer.py'}",
        str(package / "shell"),
        str(package / "protection" / "hook.py"),  # tracebacks name the installed file
    ]


def test_a_module_changed_after_the_install_is_imported_from_its_source(tmp_path):
    site = fake_install(tmp_path)
    hook = site / "cupcake" / "protection" / "hook.py"
    record = site / f"cupcake-{__version__}.dist-info" / "RECORD"
    mark = record.stat().st_mtime_ns
    os.utime(hook, ns=(mark + 10**9, mark + 10**9))  # same size, changed a second after the record
    lines = probe(site)
    assert lines[1].startswith("cupcake.protection.hook SourceFileLoader ")
    assert lines[2].startswith("cupcake.shell.lexer _Finder ")


def test_a_module_of_another_size_is_imported_from_its_source(tmp_path):
    site = fake_install(tmp_path)
    record = site / f"cupcake-{__version__}.dist-info" / "RECORD"
    hook = site / "cupcake" / "protection" / "hook.py"
    hook.write_text(hook.read_text() + "\nEDITED = True\n")
    os.utime(record)  # even with the record rewritten after it: the size says it is not what was bundled
    lines = probe(site)
    assert lines[1].startswith("cupcake.protection.hook SourceFileLoader ")


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"\x00\x00\x00\x00" + data[4:],  # another interpreter's bytecode magic
        lambda data: data[:6],  # cut short
        lambda data: data[:12] + b"\xff" * 40 + data[52:],  # the index unreadable
    ],
)
def test_a_bundle_this_python_cannot_read_is_not_used(tmp_path, damage):
    site = fake_install(tmp_path)
    bundle = site / "cupcake" / BUNDLE_NAME
    bundle.write_bytes(damage(bundle.read_bytes()))
    lines = probe(site)
    assert lines[0] == "False"
    assert lines[1].startswith("cupcake.protection.hook SourceFileLoader ")


def test_a_damaged_module_in_the_bundle_is_read_from_its_source(tmp_path):
    site = fake_install(tmp_path)
    bundle = site / "cupcake" / BUNDLE_NAME
    data = bytearray(bundle.read_bytes())
    size = int.from_bytes(data[8:12], "little")
    _, offset, length, _ = marshal.loads(bytes(data[12 : 12 + size]))["cupcake.shell.lexer"]
    data[offset : offset + length] = b"\xff" * length  # the index intact, the module's code not
    bundle.write_bytes(bytes(data))
    lines = probe(site)
    assert lines[0] == "True"
    assert lines[1].startswith("cupcake.protection.hook _Finder ")
    assert lines[2].startswith("cupcake.shell.lexer _Finder ")  # found in the bundle, executed from source


def test_without_an_install_record_the_ordinary_imports_run(tmp_path):
    lines = probe(fake_install(tmp_path, record=False))
    assert lines[0] == "False"
    assert lines[1].startswith("cupcake.protection.hook SourceFileLoader ")


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
from cupcake.bundle import install
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
