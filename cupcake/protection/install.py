"""What the hook runs, as paths the agent may not change.

`cupcake run` starts as ``python -I -S`` through the shell launcher ``bin/cupcake``: no PYTHON*
variable, no user site, no ``.pth`` file, no ``sitecustomize``/``usercustomize`` runs first (see
docs/security-model-hook.md). What is left is what Python then reads, and what the launcher picks:

- the folder holding the ``cupcake`` package (site-packages: the package, its install record, its
  dependencies and every module the hook could import), or for an editable install the package itself;
- the launcher as it was called and as it resolves, and ``cupcake-python`` beside it (which names the
  interpreter);
- the interpreter: ``sys.executable`` and its target, the virtual environment's ``pyvenv.cfg`` (its
  ``home`` picks the standard library) and the ``python*`` names beside ``sys.executable``;
- the standard library, when this user can write it (a Python of pyenv's or uv's, in the home folder);
- the start-up files other Pythons of this interpreter would run: ``*.pth``, ``sitecustomize``,
  ``usercustomize`` in site-packages and in the user site (the hook ignores them; a plain ``python``
  the user runs does not).

This describes the running process, not the policy files, so it is not part of the compiled form (which
must be the same bytes in any process): each run adds it to the protected set it checks (``with_install``),
with a dozen system calls and no import."""

from __future__ import annotations

import sys

from cupcake import __version__
from cupcake import lean_os as os
from cupcake.protection.path_forms import forms as _forms
from cupcake.resolve import realpath as _realpath

STARTUP_NAMES = ("*.pth", "sitecustomize*", "usercustomize*")
_VERSION = "python%d.%d" % sys.version_info[:2]


def _stdlib() -> str:
    """The standard library's folder (where ``os`` is, without importing it: see ``cupcake/lean_os``)."""
    return getattr(sys, "_stdlib_dir", None) or os.path.dirname(__import__("os").__file__)


def with_install(protected: dict, env) -> dict:
    """The protected set with this installation's ``install`` and ``install_names`` (see the module),
    worked out the first time a check asks for them: most tool calls never get that far."""
    return _WithInstall(protected, env)


class _WithInstall(dict):
    """The protected set, whose two installation keys are computed on first use (the paths cost a few
    dozen system calls, a tenth of a millisecond or more, which a harmless `ls` need not pay)."""

    _KEYS = ("install", "install_names")

    def __init__(self, protected: dict, env):
        super().__init__(protected)
        self._env = env

    def _fill(self) -> None:
        if "install" not in self:
            resolved: dict = {}  # the paths share most of their folders: each resolved once
            trees, names = installation_paths(self._env, resolved)
            dict.__setitem__(self, "install", _forms(trees, resolved))
            folders = {folder: _forms([folder], resolved) for folder in dict.fromkeys(f for f, _p in names)}
            dict.__setitem__(
                self, "install_names", [[f, pattern] for folder, pattern in names for f in folders[folder]]
            )

    def get(self, key, default=None):
        if key in self._KEYS:
            self._fill()
        return dict.get(self, key, default)

    def __getitem__(self, key):
        if key in self._KEYS:
            self._fill()
        return dict.__getitem__(self, key)


def installation_paths(env, resolved: dict | None = None) -> tuple[list, list]:
    """(trees, names): paths protected with everything under them, and [folder, name pattern] pairs
    for the start-up files directly in a folder. ``resolved``: folders already resolved
    (``cupcake.resolve``), shared with the forms made of these paths."""
    trees: list[str] = []
    names: list[list[str]] = []
    package, launcher = running()
    site_dir = os.path.dirname(package)
    sites = [site_dir]
    if os.path.isdir(os.path.join(site_dir, f"cupcake-{__version__}.dist-info")):
        trees.append(site_dir)
    else:  # an editable install: the checkout is the developer's project, the package alone is protected
        trees.append(package)
        sites = []
    if launcher:
        trees.append(launcher)
        real = _realpath(launcher, {} if resolved is None else resolved)
        trees.append(os.path.join(os.path.dirname(real), "cupcake-python"))
    if sys.executable:
        executable = os.path.abspath(sys.executable)
        trees.append(executable)
        bin_dir = os.path.dirname(executable)
        names.append([bin_dir, "python*"])
        names.append([bin_dir, "cupcake*"])  # the launcher and cupcake-python, however this process started
        for venv in (bin_dir, os.path.dirname(bin_dir)):
            if os.path.isfile(os.path.join(venv, "pyvenv.cfg")):
                trees.append(os.path.join(venv, "pyvenv.cfg"))
                sites.append(os.path.join(venv, "lib", _VERSION, "site-packages"))
                break
    stdlib = _stdlib()
    if os.access(stdlib, os.W_OK):  # a Python in the home folder (pyenv, uv): its library is the user's to change
        trees.append(stdlib)
    home = env.get("HOME") or os.path.expanduser("~")
    sites.append(os.path.join(home, ".local", "lib", _VERSION, "site-packages"))  # the user site
    names.extend([site, pattern] for site in dict.fromkeys(sites) for pattern in STARTUP_NAMES)
    return trees, names


def running() -> tuple:
    """(the installed package's directory, the launcher that runs this process or None)."""
    import cupcake

    package = os.path.dirname(os.path.abspath(cupcake.__file__))
    launcher = None
    argv0 = sys.argv[0] if sys.argv else ""
    if argv0 and os.path.basename(argv0).startswith("cupcake"):
        launcher = os.path.abspath(argv0)
    return package, launcher
