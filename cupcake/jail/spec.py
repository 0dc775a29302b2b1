"""What the jail protects, written as a content-addressed file under ``.cupcake/jail/`` (the hook's side,
when ``command`` finds no sealed index entry for it: after a change, about 2 ms).

The records come from the protected set the policies were compiled with (``protected_paths``) and
from ``runtime``, and hold each policy file's state as the hook saw it; the file's name is the digest
of its bytes, so the launcher can tell a changed or planted file from the one the hook meant, and the
same set always gives the same file.

Which locations become directories: Cupcake's own (``.cupcake/``, each agent's hook directory that
exists, the settings folders its installer guards whole: ``settings_dirs``) are kept read-only whole,
so that a file created beside a hook file (a new personal settings file) or a file replaced by renaming
stays covered; a policy file in
the project root is kept read-only by itself. An agent's directory that does not exist is created as
an empty placeholder only for the agent that runs (the others' would litter every project and home
with empty folders of agents the person does not use); its files are guarded by the hook layer."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.jail import JAIL_DIR, Unjailable, launch

EMPTY_FILE = "empty"
EMPTY_DIR = "empty.d"
# Spec files and index entries older than this are removed when a new one is written.
KEEP_SECONDS = 24 * 3600


def _dedicated(directory: str, root: str, home: str) -> bool:
    """Whether ``directory`` belongs to one program's configuration (``.codex``, ``/etc/gemini-cli``):
    never the project root, the home directory, ``/etc`` or ``/``."""
    if directory in (root, home, os.sep, "/etc") or not directory:
        return False
    name = os.path.basename(directory)
    return name.startswith(".") or os.path.dirname(directory) == "/etc"


def protected_records(protected: dict, root: str, env, running_agent: str = "") -> list[tuple[str, str]]:
    """(kind, path) records for the protected set: policy files, Cupcake's directories, the agents'
    hook directories, import folders and the secrets."""
    home = (env.get("HOME") or os.path.expanduser("~")).rstrip("/") or "/"
    out: list[tuple[str, str]] = []

    def add(kind: str, path: str) -> None:
        if (kind, path) not in out:
            out.append((kind, path))

    for path in protected.get("files", ()):
        if (launch.POLICY, path) not in out:
            out += [(launch.POLICY, path), (launch.STATE, launch.file_state(path))]
    for path in protected.get("dirs", ()):
        add(launch.DIR, path)
    own = _own_dirs(running_agent, root, home, env)
    for path in protected.get("settings_dirs", ()):
        add(launch.DIR if os.path.isdir(path) or path in own else launch.EXISTING, path)
    for path in protected.get("agent_config", ()):
        kind, where = _agent_config(path, root, home)
        if kind == launch.EXISTING and where in own:
            kind = launch.DIR
        add(kind, where)
    for prefix, parts, _pattern in protected.get("globs", ()):
        if _policy_folder(prefix, parts, root, home):
            add(launch.DIR, prefix)
    for path in _secrets(protected, env):
        add(launch.HIDE, path)
        parent = os.path.dirname(path)
        if "cupcake" in os.path.basename(parent):
            add(launch.DIR, parent)
    known = {"files", "dirs", "settings_dirs", "agent_config", "globs", "inodes", "secrets"}
    for key, paths in protected.items():  # a kind of protected path added later: read-only as it is
        if key not in known and isinstance(paths, (list, tuple)):
            for path in paths:
                if isinstance(path, str) and path.startswith("/"):
                    add(launch.FILE, path)
    return out


def _agent_config(path: str, root: str, home: str) -> tuple[str, str]:
    """An agent's hook file or directory as a record: the agent's own directory whole where it has
    one (``.gemini/``, ``~/.codex/``), else the path itself; EXISTING when that directory is missing."""
    if os.path.isdir(path):
        return launch.DIR, path
    parent = os.path.dirname(path)
    if "." in os.path.basename(path) and _dedicated(parent, root, home):
        return (launch.DIR if os.path.isdir(parent) else launch.EXISTING), parent
    if "." not in os.path.basename(path):
        return launch.EXISTING, path  # a directory of hooks (Copilot's .github/hooks) not there yet
    return (launch.FILE if os.path.isdir(parent) else launch.EXISTING), path


def _own_dirs(agent: str, root: str, home: str, env) -> set:
    """The hook directories of the agent that runs: they get placeholders when missing."""
    if not agent:
        return set()
    from cupcake.agents.installers import installer

    try:
        install = installer(agent)
        paths = list(install.protected_paths(root, env))
        whole = set(install.settings_dirs(root, env))  # directories whose every settings file is guarded
    except Exception:
        return set()
    found = set()
    for path in paths:
        kind, where = _agent_config(path, root, home)
        found.add(where)
        if os.path.dirname(path) in whole or kind != launch.EXISTING:
            found.add(os.path.dirname(path))
    return found


def _policy_folder(prefix: str, parts, root: str, home: str) -> bool:
    """Whether an imports glob's folder holds nothing but the files it imports (then it is kept
    read-only whole, so no new policy file appears there); the project root and home never are."""
    if prefix in (root, home, os.sep) or (root + os.sep).startswith(prefix.rstrip(os.sep) + os.sep):
        return False
    from cupcake.shell.globmatch import match_path

    try:
        for count, (dirpath, dirnames, filenames) in enumerate(os.walk(prefix)):
            if count > 200:
                return False
            rel = os.path.relpath(dirpath, prefix)
            base = [] if rel == "." else rel.split(os.sep)
            for name in filenames:
                if not match_path(parts, base + [name]):
                    return False
    except OSError:
        return False
    return True


def _secrets(protected: dict, env) -> list[str]:
    from cupcake.stores.user_secret import secret_path

    found = [secret_path(env)]
    for path in protected.get("secrets", ()):
        if isinstance(path, str) and path.startswith("/") and path not in found:
            found.append(path)
    return found


def spec_path(root: str, records) -> str:
    """The spec file for ``records`` under the project's ``.cupcake/jail/`` (written if missing)."""
    directory = os.path.join(root, JAIL_DIR)
    empty_file = os.path.join(directory, EMPTY_FILE)
    empty_dir = os.path.join(directory, EMPTY_DIR)
    data = launch.encode([*records, (launch.EMPTY_FILE, empty_file), (launch.EMPTY_DIR, empty_dir)])
    path = os.path.join(directory, launch.digest(data) + ".spec")
    if not os.path.exists(path):
        _write(directory, path, data, empty_file, empty_dir)
    return path


def _write(directory: str, path: str, data: bytes, empty_file: str, empty_dir: str) -> None:
    from cupcake.stores.atomic_write import write_atomically
    from cupcake.stores.safe_files import ensure_dir

    try:
        ensure_dir(directory)
        if not os.path.lexists(empty_dir):
            os.mkdir(empty_dir, 0o555)
        if not os.path.lexists(empty_file):
            write_atomically(empty_file, b"")
            os.chmod(empty_file, 0o444)
        write_atomically(path, data)
        _prune(directory, os.path.basename(path))
    except OSError as exc:
        raise Unjailable(f"Cupcake could not write the jail's description under {JAIL_DIR}/ ({exc})") from None


def _prune(directory: str, keep: str) -> None:
    import time

    cutoff = time.time() - KEEP_SECONDS
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if entry.name.endswith((".spec", ".index")) and entry.name != keep:
            try:
                if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                    os.unlink(entry.path)
            except OSError:
                pass


def computed(protected: dict, root: str, env, agent: str) -> tuple[str, str, str]:
    """(interpreter, launcher, spec path), computed afresh."""
    from cupcake.jail import runtime

    records = protected_records(protected, root, env, agent) + runtime.records()
    return runtime.interpreter(), runtime.launcher(), spec_path(root, records)
