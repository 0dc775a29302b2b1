"""What the jail itself stands on, kept read-only inside it: a command run as root (or as the owner of
a Python installed in the home directory, pyenv's or uv's) could otherwise change the programs that
build the next jail, or run Cupcake's next hook, and switch the layer off from outside.

- bubblewrap, found at a fixed place (never on the agent's PATH), and the libraries it loads;
- the interpreter that runs the hook and the launcher, its standard library (every entry of its
  module path, a zip that does not exist yet included) and the shared libraries it loads;
- the environment Cupcake runs from (a virtual environment whole: its ``bin/``, ``pyvenv.cfg`` and
  site-packages with their ``.pth`` files) and Cupcake's package directory;
- the dynamic loader's configuration (``/etc/ld.so.preload``, ``ld.so.conf``, ``ld.so.cache``).

The base installation's site-packages stays writable when Cupcake does not run from it, so that
``pip install`` into that Python still works inside the jail. On the warm path: a few ``stat`` calls
and one read of ``/proc/self/maps``."""

from __future__ import annotations

import os
import sys

from cupcake.jail import BWRAP_PLACES, launch

# Libraries the interpreter and bubblewrap load by name, kept read-only where they are found.
_LIBRARY_NAMES = ("ld-linux", "libc.so", "libm.so", "libpython", "libpthread", "libdl.so", "libutil.so", "libz.so")
_BWRAP_LIBRARIES = ("libselinux.so.1", "libcap.so.2", "libpcre2-8.so.0")
_LOADER_FILES = ("/etc/ld.so.preload", "/etc/ld.so.conf", "/etc/ld.so.cache")
_LOADER_DIRS = ("/etc/ld.so.conf.d",)
ENV_PLACES = ("/usr/bin/env", "/bin/env")


def bwrap() -> str:
    """bubblewrap's absolute path (the first of the fixed places that holds it, resolved), or the
    first place when there is none (the launcher then says it is not installed there)."""
    for place in BWRAP_PLACES:
        if os.path.isfile(place) and os.access(place, os.X_OK):
            return os.path.realpath(place)
    return BWRAP_PLACES[0]


def interpreter() -> str:
    """The interpreter that runs this hook, resolved (a virtual environment's link leads to it)."""
    return os.path.realpath(sys.executable)


def launcher() -> str:
    """The launcher to run: its compiled form when that is current (Python compiles a script on every
    start, about 4 ms for this one), else its source."""
    source = os.path.realpath(launch.__file__)
    cached = getattr(launch, "__cached__", None)
    if cached and _current(source, cached):
        return os.path.realpath(cached)
    return source


def _current(source: str, cached: str) -> bool:
    """Whether the compiled file was made from the source as it is (its header names the source's
    modification time and size), for this interpreter."""
    from _frozen_importlib_external import MAGIC_NUMBER  # loaded at start already (importlib.util is not)

    try:
        with open(cached, "rb") as f:
            header = f.read(16)
        st = os.stat(source)
    except OSError:
        return False
    if len(header) < 16 or header[:4] != MAGIC_NUMBER or int.from_bytes(header[4:8], "little") != 0:
        return False
    mtime = int.from_bytes(header[8:12], "little")
    size = int.from_bytes(header[12:16], "little")
    return mtime == (int(st.st_mtime) & 0xFFFFFFFF) and size == (st.st_size & 0xFFFFFFFF)


def package_dir() -> str:
    return os.path.dirname(os.path.dirname(os.path.realpath(launch.__file__)))


def _disables_userns(path: str) -> bool:
    """Whether this bubblewrap has ``--disable-userns`` (0.8 and later): its help text is in the binary."""
    try:
        with open(path, "rb") as f:
            return b"--disable-userns" in f.read(4 << 20)
    except OSError:
        return False


def env_tool() -> str | None:
    """An env(1) that resets signal handling (coreutils 8.31 and later), at a fixed place, or None."""
    for place in ENV_PLACES:
        if os.path.isfile(place) and os.access(place, os.X_OK):
            try:
                with open(place, "rb") as f:
                    if b"default-signal" in f.read(4 << 20):
                        return os.path.realpath(place)
            except OSError:
                pass
    return None


def _libraries() -> list[str]:
    """The shared libraries this interpreter has loaded that it needs at every start."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    found: list[str] = []
    for line in lines:
        parts = line.split(None, 5)
        if len(parts) == 6 and parts[5].startswith("/"):
            name = os.path.basename(parts[5])
            if name.startswith(_LIBRARY_NAMES) and parts[5] not in found:
                found.append(parts[5])
    libc_dir = next((os.path.dirname(p) for p in found if os.path.basename(p).startswith("libc.so")), None)
    if libc_dir:
        for name in _BWRAP_LIBRARIES:
            path = os.path.join(libc_dir, name)
            if path not in found and os.path.exists(path):
                found.append(path)
    return sorted(found)


def _module_path() -> tuple[list[str], str | None]:
    """(the base interpreter's own module path: zip, stdlib, lib-dynload; its site-packages)."""
    base = os.path.realpath(sys.base_prefix)
    own, site = [], None
    for entry in sys.path:
        if not entry or not os.path.isabs(entry):
            continue
        real = os.path.realpath(entry)
        if not (real == base or real.startswith(base + os.sep)):
            continue
        if os.path.basename(real) in ("site-packages", "dist-packages"):
            site = site or real
        elif real not in own:
            own.append(real)
    return own, site


def records() -> list[tuple[str, str]]:
    """The jail's own (kind, path) records."""
    out: list[tuple[str, str]] = []
    found = bwrap()
    out.append((launch.BWRAP, found))
    if _disables_userns(found):
        out.append((launch.OPTION, "--disable-userns"))
    out.append((launch.FILE, found))
    env = env_tool()
    if env:
        out += [(launch.ENV, env), (launch.FILE, env)]
    out.append((launch.FILE, interpreter()))
    own, base_site = _module_path()
    for entry in own:
        out.append((launch.DIR if os.path.isdir(entry) or not entry.endswith(".zip") else launch.FILE, entry))
    prefix = os.path.realpath(sys.prefix)
    if prefix != os.path.realpath(sys.base_prefix):
        out.append((launch.DIR, prefix))  # a virtual environment, whole
        stdlib = os.path.dirname(os.path.realpath(os.__file__))
        base_site = base_site or os.path.join(stdlib, "site-packages")
        if os.path.isdir(base_site):
            out.append((launch.WRITABLE, base_site))  # not on Cupcake's path: pip may still install there
    elif base_site:
        out.append((launch.DIR, base_site))  # Cupcake runs from the base installation's site-packages
    out.append((launch.DIR, package_dir()))
    out.extend((launch.FILE, path) for path in _libraries())
    out.extend((launch.FILE, path) for path in _LOADER_FILES)
    out.extend((launch.DIR, path) for path in _LOADER_DIRS)
    return out
