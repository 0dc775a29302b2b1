"""The pinned agent CLIs: each installed once from the npm registry into a cache directory.

Install scripts are never run (``--ignore-scripts``): every client works without them, and
``@factory/cli``'s postinstall would otherwise try to download a binary from outside the registry.
"""

from __future__ import annotations

import os
import platform
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..claude_client import ClientUnavailable, install_lock


class AgentUnavailable(ClientUnavailable):
    """The agent's client cannot be had on this machine (no node/npm, unsupported platform, failed install)."""


@dataclass(frozen=True)
class Pin:
    agent: str
    version: str  # what `--version` must report
    packages: tuple[str, ...]  # npm specs, exact versions
    executable: str  # relative to the install prefix


GEMINI = Pin("gemini", "0.61.0", ("@google/gemini-cli@0.61.0",), "node_modules/.bin/gemini")
CODEX = Pin("codex", "0.169.0", ("@openai/codex@0.169.0",), "node_modules/.bin/codex")
COPILOT = Pin("copilot", "1.0.102", ("@github/copilot@1.0.102",), "node_modules/.bin/copilot")
# @factory/cli 0.225.1 names the binary package @factory/cli-linux-x64@0.225.1, which was never
# published; 0.225.2 was. Install that one beside it and run its binary directly.
DROID = Pin(
    "droid",
    "0.225.2",
    ("@factory/cli@0.225.1", "@factory/cli-linux-x64@0.225.2"),
    "node_modules/@factory/cli-linux-x64/bin/droid",
)
PINS = {pin.agent: pin for pin in (GEMINI, CODEX, COPILOT, DROID)}

_VERSION = re.compile(r"\d+\.\d+\.\d+")


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "cupcake-tests"


def install_dir(pin: Pin, cache: Path | None = None) -> Path:
    return (cache or cache_root()) / f"{pin.agent}-{pin.version}"


def runtime_cache(executable: Path) -> Path:
    """A cache the agent may share between runs (Copilot unpacks its 235 MB runtime there on first start)."""
    node_modules = next((p for p in executable.parents if p.name == "node_modules"), executable.parent)
    return node_modules.parent / "runtime-cache"


def reported_version(executable: Path, home: Path | None = None) -> str:
    """The first x.y.z that ``<executable> --version`` prints, run with a minimal environment."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home or executable.parent),
        "XDG_CACHE_HOME": str(runtime_cache(executable)),
    }
    try:
        done = subprocess.run(
            [str(executable), "--version"],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    found = _VERSION.search(done.stdout)
    return found.group(0) if found else ""


def ensure_agent(pin: Pin, cache: Path | None = None) -> Path:
    """The path of the pinned executable, installed into the cache on first use."""
    prefix = install_dir(pin, cache)
    with install_lock(prefix):
        return _ensure_agent(pin, prefix)


def _ensure_agent(pin: Pin, prefix: Path) -> Path:
    executable = prefix / pin.executable
    probe_home = prefix / "version-probe-home"  # --version of some clients writes into HOME
    if executable.exists() and reported_version(executable, probe_home) == pin.version:
        return executable
    if pin is DROID and (platform.system(), platform.machine()) != ("Linux", "x86_64"):
        raise AgentUnavailable("the pinned Factory droid binary package exists for linux-x64 only")
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        raise AgentUnavailable(f"node and npm are needed to install {' '.join(pin.packages)}")
    probe_home.mkdir(parents=True, exist_ok=True)
    command = [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--ignore-scripts", *pin.packages]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise AgentUnavailable(f"`{shlex.join(command)}` did not finish in 15 minutes") from None
    version = reported_version(executable, probe_home) if executable.exists() else ""
    if done.returncode != 0 or version != pin.version:
        raise AgentUnavailable(
            f"`{shlex.join(command)}` exited {done.returncode}; `{pin.executable} --version` reported {version!r}\n"
            f"{done.stderr[-2000:]}"
        )
    return executable


def ensure_gemini(cache: Path | None = None) -> Path:
    return ensure_agent(GEMINI, cache)


def ensure_codex(cache: Path | None = None) -> Path:
    return ensure_agent(CODEX, cache)


def ensure_copilot(cache: Path | None = None) -> Path:
    return ensure_agent(COPILOT, cache)


def ensure_droid(cache: Path | None = None) -> Path:
    return ensure_agent(DROID, cache)
