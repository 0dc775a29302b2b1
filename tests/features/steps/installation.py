"""What the hook runs: start-up files and PYTHON* variables that would change it, and its own files."""

from __future__ import annotations

import sys
from pathlib import Path

from pytest_bdd import given, parsers, then, when

from tests.features.steps.helpers import _send

_VERSION = f"python{sys.version_info[0]}.{sys.version_info[1]}"


def _ender(mark: Path) -> str:
    """Python that leaves a mark and ends the process at once: answered nothing, the agent's call goes through."""
    return f"import os; open({str(mark)!r}, 'a').write('ran\\n'); os._exit(0)\n"


@given("a .pth file and a sitecustomize.py that end every Python are in the installation's site-packages")
def startup_files(project, tmp_path):
    """In the site-packages folder of the Cupcake installation the hook runs (a copy of this one)."""
    site = project.installation.site
    (site / "zz-end.pth").write_text(_ender(tmp_path / "mark"))
    (site / "sitecustomize.py").write_text(_ender(tmp_path / "mark"))
    user_site = project.home / ".local" / "lib" / _VERSION / "site-packages"
    user_site.mkdir(parents=True, exist_ok=True)
    (user_site / "usercustomize.py").write_text(_ender(tmp_path / "mark"))


@given("the hook's environment points PYTHONPATH and PYTHONSTARTUP at more of them, and sets PYTHONINSPECT")
def python_variables(project, tmp_path):
    """What the agent's client might pass its hooks, set by whoever wrote its environment."""
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "sitecustomize.py").write_text(_ender(tmp_path / "mark"))
    project.extra_env.update(PYTHONPATH=str(evil), PYTHONSTARTUP=str(evil / "sitecustomize.py"), PYTHONINSPECT="1")


@then("none of them ran")
def none_ran(tmp_path):
    """No start-up file or variable ran any code in the hook's Python."""
    assert not (tmp_path / "mark").exists()


def _part(name: str) -> Path:
    """A file of the installation the step's run uses: it runs in this process, so the package is the
    one this process imports."""
    import cupcake
    from tests.conftest import cupcake_executable

    venv = Path(sys.prefix)
    return {
        "package": Path(cupcake.__file__).parent / "protection" / "hook.py",
        "launcher": Path(cupcake_executable()),
        "cupcake-python": Path(cupcake_executable()).parent / "cupcake-python",
        "pyvenv.cfg": venv / "pyvenv.cfg",
        "site-packages .pth": venv / "lib" / _VERSION / "site-packages" / "zz-end.pth",
        "sitecustomize.py": venv / "lib" / _VERSION / "site-packages" / "sitecustomize.py",
    }[name]


@when(parsers.parse("the agent asks to write the installation's {part}"))
def write_installation(project, run, part):
    """The Write tool on a file of the Cupcake installation the hook runs (package, launcher, its Python's files)."""
    target = _part(part)
    _send(project, run, project.tool_call("Write", {"file_path": str(target), "content": "import os; os._exit(0)\n"}))
