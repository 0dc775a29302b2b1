"""Cupcake's own commands that only a person may run: run through an agent's tools they are blocked
by self-protection (``cupcake.protection.bash``), and the operating-system layer keeps what they
write read-only to the agent. Data, so the reader needs no list of its own: the subcommand, the word
after it that makes it so (None: any), and what it does. And ``names_cupcake``: whether a package
tool's requirement (``pip uninstall NAME``, ``pip install .``) could be Cupcake itself."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.protection.install import running

PERSON_ONLY = {
    "init": (None, "replaces Cupcake's policies and hooks"),
    "sync": (None, "removes or replaces Cupcake's hooks"),
    "allow": (None, "lets through a call a policy blocked, which only a person may grant"),
    "shadow": ("promote", "replaces the enforced policies with the shadow candidate"),
}


def person_only(args: list) -> tuple[str, str] | None:
    """(the command as shown, what it does) when ``args`` (after ``cupcake``) is one of them, else None."""
    words = [a for a in args if not a.startswith("-")]
    if not words or words[0] not in PERSON_ONLY:
        return None
    second, what = PERSON_ONLY[words[0]]
    if second is not None and (len(words) < 2 or words[1] != second):
        return None
    start = args.index(words[0])
    return " ".join(["cupcake", *args[start:]]), what


def names_cupcake(name: str, cwd) -> bool:
    """Whether a requirement could be Cupcake: by name, or a local project (``.``, ``./x``) whose
    packaging names it (or cannot be read)."""
    from cupcake.shell import could_match

    base = name.split("[", 1)[0]
    for sep in ("==", ">=", "<=", "~=", "!=", ">", "<", "@", ";"):
        base = base.split(sep, 1)[0]
    base = base.strip()
    if base in (".", "..") or base.startswith(("./", "../", "/", "~")) or base.endswith("/"):
        named = base.rstrip("/").rsplit("/", 1)[-1].lower()
        return could_match(named, "cupcake") or "cupcake" in named or _local_project_is_cupcake(base, cwd)
    base = base.rstrip("/").rsplit("/", 1)[-1].lower()
    return base == "cupcake" or could_match(base, "cupcake") or "cupcake" in base


def _local_project_is_cupcake(path: str, cwd) -> bool:
    if cwd is None and not path.startswith("/"):
        return True
    directory = os.path.normpath(os.path.join(cwd or "/", os.path.expanduser(path)))
    package, _launcher = running()
    if package.startswith(directory.rstrip("/") + "/"):
        return True  # the installed package lives in this project (an editable install)
    for name in ("pyproject.toml", "setup.cfg", "setup.py"):
        try:
            with open(os.path.join(directory, name), "rb") as handle:
                text = handle.read(256 * 1024).decode("utf-8", "replace").lower()
        except FileNotFoundError:
            continue
        except OSError:
            return True
        for line in text.splitlines():
            key, eq, value = line.partition("=")
            if eq and key.strip() == "name" and value.strip().strip(",").strip("\"'").replace("_", "-") == "cupcake":
                return True
    return False
