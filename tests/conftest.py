"""Fixtures shared by every test: an isolated project and home, and ways to send Cupcake an event."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from cupcake.project import SYSTEM_ROOT_MARKER, SYSTEM_ROOT_VARIABLE

FIXTURES = Path(__file__).parent / "fixtures"
PAYLOADS = FIXTURES / "payloads"
REPO = Path(__file__).parent.parent
ACME = REPO / "examples" / "acme-cupcake"


def cupcake_executable() -> str:
    """The installed console script (as Claude Code runs it)."""
    found = shutil.which("cupcake", path=str(Path(sys.executable).parent)) or shutil.which("cupcake")
    if not found:
        raise RuntimeError("the `cupcake` console script is not installed in this environment")
    return found


class Installation:
    """A throwaway installation of this Cupcake, for tests that change what is installed. The launcher
    runs Python isolated (no PYTHONPATH, no .pth, no sitecustomize), so a test cannot slip code in
    through the environment: it makes another installation instead, as pip lays one out. bin/cupcake is
    a copy of the launcher, bin/python3 runs this venv's Python, and lib/pythonX.Y/site-packages holds
    the package (a link to the installed one, or a copy to change) and whatever else the test links in;
    the launcher reads that folder before the venv's own site-packages."""

    def __init__(self, root: Path):
        self.root = root
        self.bin = root / "bin"
        self.site = root / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
        self.site.mkdir(parents=True)
        self.bin.mkdir()
        shutil.copy(cupcake_executable(), self.bin / "cupcake")
        python = self.bin / "python3"
        python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')  # sys.prefix stays this venv's
        python.chmod(0o755)
        (self.site / "cupcake").symlink_to(Path(installed_package()))

    @property
    def executable(self) -> str:
        return str(self.bin / "cupcake")

    def copy_package(self, record: bool = False) -> Path:
        """A copy of the installed package to change (and, with ``record``, its install record); the
        folder that holds it."""
        from cupcake import __version__

        (self.site / "cupcake").unlink()
        shutil.copytree(installed_package(), self.site / "cupcake", ignore=shutil.ignore_patterns("__pycache__"))
        if record:
            info = f"cupcake-{__version__}.dist-info"
            shutil.copytree(Path(installed_package()).parent / info, self.site / info)
        return self.site

    def link(self, folder: Path) -> None:
        """Everything in ``folder`` (packages, modules, .dist-info) installed here too."""
        for child in folder.iterdir():
            if child.name != "__pycache__" and not (self.site / child.name).exists():
                (self.site / child.name).symlink_to(child)


def installed_package() -> str:
    """The folder of the `cupcake` package the installed executable runs: in this venv's site-packages
    (a regular install, as CI has it), else the one this process imports (an editable install). Tests
    run from the checkout import its source, which a regular install does not run."""
    import sysconfig

    site = os.path.join(sysconfig.get_paths()["purelib"], "cupcake")
    if os.path.isfile(os.path.join(site, "__init__.py")):
        return site
    import cupcake

    return os.path.dirname(os.path.abspath(cupcake.__file__))


class Project:
    """A throwaway project directory and home, and the events an agent sends from there."""

    def __init__(self, root: Path, home: Path):
        self.root = root
        self.home = home
        self.cwd = root
        self.use_project_dir_env = True
        self.session_id = "8f14e45f-ceea-467e-9e2e-2a1b3c4d5e6f"
        self.system = root.parent / "system"  # the stand-in for / where Cupcake looks for system-wide files
        self.managed = self.system / "etc" / "cupcake"  # the organisation's folder (/etc/cupcake on Linux)
        self.python_path: list[str] = []  # what a `cupcake` process finds installed beyond its own venv
        self._installation: Installation | None = None
        self.extra_env: dict[str, str] = {}  # more of the environment the agent's client gives its hooks

    @property
    def installation(self) -> Installation:
        """This project's own installation of Cupcake (made on first use), for tests that change what is
        installed: `send_process` and `executable` use it from then on."""
        if self._installation is None:
            self._installation = Installation(self.root.parent / "installation")
        return self._installation

    def executable(self) -> str:
        """The `cupcake` executable this project's processes run: the installed one, or the project's
        own installation once the test asked for one (or installed packages beside it)."""
        for folder in self.python_path:
            self.installation.link(Path(folder))
        return self._installation.executable if self._installation is not None else cupcake_executable()

    # files
    def write_policy(self, text: str) -> Path:
        path = self.root / "cupcake.toml"
        path.write_text(text)
        return path

    def write_managed_policy(self, text: str) -> Path:
        """The organisation's policy file, in this test's stand-in for /etc/cupcake."""
        self.managed.mkdir(parents=True, exist_ok=True)
        path = self.managed / "cupcake.toml"
        path.write_text(text)
        return path

    def write_user_policy(self, text: str) -> Path:
        path = self.home / ".claude" / "cupcake.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    @property
    def bin(self) -> Path:
        """A directory first on the PATH Cupcake sees: stand-ins for test runners live here."""
        path = self.home / "bin"
        path.mkdir(exist_ok=True)
        return path

    def env(self) -> dict:
        env = {"HOME": str(self.home), "PATH": f"{self.home / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
        env[SYSTEM_ROOT_VARIABLE] = str(self.system)  # never this machine's /etc
        # typer: `--show-completion SHELL` names the shell, rather than the processes above the command
        # (a suite started in the background has no shell above it, and the shell named was then ignored)
        env["_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION"] = "1"
        if self.use_project_dir_env:
            env["CLAUDE_PROJECT_DIR"] = str(self.root)
        env.update(self.extra_env)
        return env

    # events
    def payload(self, event: str, **fields) -> dict:
        base = {
            "session_id": self.session_id,
            "transcript_path": str(self.home / ".claude" / "projects" / "p" / f"{self.session_id}.jsonl"),
            "cwd": str(self.cwd),
            "permission_mode": "default",
            "hook_event_name": event,
        }
        base.update(fields)
        return base

    def tool_call(self, tool: str, tool_input: dict, event: str = "PreToolUse") -> dict:
        return self.payload(event, tool_name=tool, tool_input=tool_input, tool_use_id="toolu_01")

    def path(self, relative: str) -> str:
        return str(self.root / relative)

    def place(self, written: str, base: Path | None = None) -> Path:
        """A path as a feature writes it: ``~/…`` under the home, absolute as is, else under ``base``
        (the project root by default)."""
        if written.startswith("~/"):
            return self.home / written[2:]
        if written.startswith("/"):
            return Path(written)
        return (base or self.root) / written

    def send(self, payload, event=None) -> Answer:
        """In process, through the same entry the console script uses (fast)."""
        from cupcake.cli.run import execute

        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        event = event or (payload.get("hook_event_name") if isinstance(payload, dict) else None)
        args = ["--event", event] if event else []
        ctx = execute(raw, args, self.env())
        answer = Answer(*ctx.envelope)
        answer.ctx = ctx  # what the run recorded beyond its answer (e.g. notes for the audit trail)
        return answer

    def send_process(self, payload, event=None, args=None, timeout=30) -> Answer:
        """As Claude Code does it: the installed executable, stdin, exact bytes and exit code."""
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        event = event or (payload.get("hook_event_name") if isinstance(payload, dict) else None)
        argv = [self.executable(), "run"] + (args if args is not None else ["--event", event])
        done = subprocess.run(argv, input=raw, capture_output=True, cwd=self.cwd, env=self.env(), timeout=timeout)
        return Answer(done.stdout, done.stderr, done.returncode)


class Answer:
    """What Cupcake printed: stdout, stderr, exit code, and the JSON (or None when nothing)."""

    def __init__(self, stdout: bytes, stderr: bytes, code: int):
        self.ctx = None  # the run's context, when it ran in process
        self.stdout = stdout
        self.stderr = stderr
        self.code = code
        self.json = json.loads(stdout) if stdout.strip() else None

    def __repr__(self) -> str:
        return f"Answer(code={self.code}, stdout={self.stdout!r}, stderr={self.stderr!r})"

    @property
    def specific(self) -> dict:
        return (self.json or {}).get("hookSpecificOutput", {})

    def model_text(self) -> str:
        """The text the model is shown for this answer (what Claude Code passes on)."""
        j = self.json or {}
        spec = self.specific
        if spec.get("permissionDecision") == "deny":
            return spec["permissionDecisionReason"]
        if j.get("decision") == "block":
            return j["reason"]
        if "additionalContext" in spec:
            return spec["additionalContext"]
        raise AssertionError(f"the model is shown nothing by {self!r}")


# Every process of the test session (the controller and each xdist worker import this module) looks for
# system-wide files under an empty stand-in root of its own, whatever environment a test hands Cupcake:
# this machine's /etc/cupcake never changes a test, and no test can create one.
os.environ.setdefault(SYSTEM_ROOT_VARIABLE, tempfile.mkdtemp(prefix="cupcake-tests-system-"))


def _installed_packages() -> set[Path]:
    """The cupcake package these tests import, and the one the `cupcake` executable imports."""
    found = subprocess.run(
        [sys.executable, "-c", "import cupcake, os; print(os.path.dirname(cupcake.__file__))"],
        capture_output=True,
        text=True,
        cwd=os.path.dirname(sys.executable),
        check=True,
    ).stdout.strip()
    return {REPO / "cupcake", Path(found)}


def pytest_sessionstart(session):
    """While the tests run, every installation they use puts its system-wide paths under
    CUPCAKE_TEST_SYSTEM_ROOT (see ``cupcake.project``); the marker that allows it is removed at the end.
    Done once, by the process that runs the session (with pytest-xdist: the controller, not each worker).

    Every process (workers too): Ctrl-C reaches the commands the tests start as it reaches a command a
    person runs in a terminal. A suite started in the background by a shell without job control
    (``pytest &`` in a script) inherits the interrupt signal ignored, and so would every command it
    starts: the tests that press Ctrl-C would fail for a reason that is not Cupcake's."""
    import signal

    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(session.config, "workerinput"):
        return
    created = []
    for package in _installed_packages():
        marker = package / SYSTEM_ROOT_MARKER
        if not marker.exists():
            marker.touch()
            created.append(marker)
    session.config.stash[_MARKERS] = created


def pytest_sessionfinish(session, exitstatus):
    for marker in session.config.stash.get(_MARKERS, []):
        marker.unlink(missing_ok=True)


_MARKERS = pytest.StashKey[list]()


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    home = tmp_path / "home"
    root.mkdir()
    home.mkdir()
    return Project(root, home)


def give_cache_secret(home: Path) -> Path:
    """The per-user secret that seals the policy cache, as `cupcake sync` leaves it: without one, no
    run writes or trusts a cache (every run compiles)."""
    folder = home / ".cache" / "cupcake"
    folder.mkdir(parents=True, mode=0o700, exist_ok=True)
    path = folder / "cache-secret"
    path.write_bytes(os.urandom(32))
    path.chmod(0o600)
    return path


def captured_payload(name: str, project: Project) -> dict:
    """A payload Claude Code really sent, moved into the test project."""
    text = (PAYLOADS / f"{name}.json").read_text()
    text = text.replace("/home/dev/project", str(project.root)).replace("/home/dev", str(project.home))
    return json.loads(text)


# Integrators' packages ###############################################################################


def install_on_path(monkeypatch, project: Project, *paths: Path) -> None:
    """Make ``paths`` importable, in this process and in the `cupcake` processes a test starts."""
    for path in paths:
        monkeypatch.syspath_prepend(str(path))
        project.python_path.append(str(path))


def forget_modules(prefix: str) -> None:
    """Drop ``prefix`` and its submodules from ``sys.modules``: the next import reads them again."""
    for name in [n for n in sys.modules if n == prefix or n.startswith(prefix + ".")]:
        del sys.modules[name]


@pytest.fixture(scope="session")
def acme_site(tmp_path_factory) -> Path:
    """The example integrator package as an installed distribution: a ``.dist-info`` built from its
    own pyproject.toml (so its entry points cannot drift), next to its sources. Faster and sturdier
    than ``pip install`` (no build, no network)."""
    import tomli

    project = tomli.loads((ACME / "pyproject.toml").read_text())["project"]
    site = tmp_path_factory.mktemp("site")
    info = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    lines = []
    for group, entries in project["entry-points"].items():
        lines.append(f"[{group}]")
        lines.extend(f"{name} = {value}" for name, value in entries.items())
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    (info / "top_level.txt").write_text("acme_cupcake\n")
    return site


@pytest.fixture
def acme_installed(monkeypatch, project, acme_site) -> Project:
    """acme-cupcake is installed (for this test only): its entry points are discoverable."""
    install_on_path(monkeypatch, project, ACME / "src", acme_site)
    forget_modules("acme_cupcake")
    yield project
    forget_modules("acme_cupcake")
