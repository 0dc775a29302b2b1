"""Layer 1 of self-protection: Claude Code's own protections for Cupcake's files.

``cupcake sync`` writes, beside the hooks:

- ``permissions.deny``: an ``Edit(//<absolute path>)`` rule for each protected path. Claude Code
  applies ``Edit`` rules to every built-in tool that edits files (Edit, Write, MultiEdit,
  NotebookEdit), even when the hook does not run; ``//`` anchors the path at the filesystem root and a
  directory names its whole subtree.
- ``sandbox.filesystem.denyWrite``: the same paths, absolute and resolved. While Claude Code's
  sandbox is on, a Bash command cannot write them whatever its shell syntax (the kernel refuses:
  "Read-only file system"); hooks run outside the sandbox, so Cupcake still writes ``.cupcake/``.
- with ``--sandbox``: ``sandbox.enabled = true``, after checking the sandbox can run here.

``autoAllowBashIfSandboxed`` is never written: it makes Claude Code run sandboxed Bash commands
without asking, which widens what the agent may do unasked. Cupcake only ever adds restrictions; a
user who wants fewer prompts sets it themselves.

What sync added is recorded beside the settings file (``.cupcake-sync.<name>``), so that
``--uninstall`` removes exactly that: an entry the user had already written is never recorded, and
every other byte of the file stays as it was (the in-place editor of ``jsonedit``)."""

from __future__ import annotations

import json
import os
import shutil
import sys

from cupcake.agents.jsonedit import Document, New

RECORD_PREFIX = ".cupcake-sync."
SANDBOX_PROGRAMS = ("bwrap", "socat")  # Claude Code's sandbox on Linux: bubblewrap, and socat for its proxy
INSTALL_HINT = "sudo apt-get install bubblewrap socat"


class ProtectionShapeError(ValueError):
    """A key Cupcake must edit holds something it cannot edit safely."""


def record_path(settings_path: str) -> str:
    directory, name = os.path.split(settings_path)
    return os.path.join(directory, RECORD_PREFIX + name)


def installed_package_paths() -> list[str]:
    """Cupcake's installed files: its package directory and this installation's launcher."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # …/cupcake
    paths = [here]
    launcher = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "cupcake")
    if os.path.exists(launcher):
        paths.append(launcher)
    return paths


def protected_targets(scope: str, root: str, env, protected: dict, settings: dict | None = None) -> dict:
    """``{"deny": [...], "deny_write": [...]}`` for a settings scope.

    The user scope's hooks run in every project, so only the user's own files are named there."""
    home = env.get("HOME") or os.path.expanduser("~")
    home_claude = os.path.join(home, ".claude")
    if scope == "user":
        files = [os.path.join(home_claude, "cupcake.toml")]
        dirs: list[str] = []
        settings_dirs = [home_claude]
    else:
        files = [os.path.join(root, "cupcake.toml")] + [
            f for f in protected.get("files", ()) if f != os.path.join(home_claude, "cupcake.toml")
        ]
        files.append(os.path.join(home_claude, "cupcake.toml"))
        dirs = list(protected.get("dirs", ()))
        for prefix, _parts, _pattern in protected.get("globs", ()):
            dirs.append(prefix)
        settings_dirs = [os.path.join(root, ".claude"), home_claude]
    deny: list[str] = []
    for path in _resolved(files):
        _add(deny, f"Edit(/{path})")
    for path in _resolved(dirs):
        _add(deny, f"Edit(/{path})")
    for path in _resolved(settings_dirs):
        _add(deny, f"Edit(/{path}/settings*.json)")
        _add(deny, f"Edit(/{path}/{RECORD_PREFIX}*)")
    deny_write: list[str] = []
    # The settings directories whole: creating settings.local.json, or moving the directory, is a change too.
    for path in _resolved(files + dirs + settings_dirs + installed_package_paths()):
        _add(deny_write, path)
    return {"deny": deny, "deny_write": deny_write}


def _resolved(paths) -> list[str]:
    out: list[str] = []
    for path in paths:
        for form in (os.path.normpath(os.path.abspath(path)), os.path.realpath(path)):
            _add(out, form)
    return out


def _add(items: list, value) -> None:
    if value not in items:
        items.append(value)


# ## Sandbox prerequisites ###########################################################################


def sandbox_missing(env) -> list[str]:
    """The programs Claude Code's sandbox needs that are not on PATH (Linux only; none elsewhere)."""
    if not sys.platform.startswith("linux"):
        return []
    path = env.get("PATH", os.defpath)
    return [p for p in SANDBOX_PROGRAMS if shutil.which(p, path=path) is None]


# ## Editing #########################################################################################


def _member(node, key: str):
    found = node.find(key)
    if len(found) > 1:
        raise ProtectionShapeError(f'"{key}" appears {len(found)} times; keep one, then run this again')
    return found[0] if found else None


def _step(text: str, keys: tuple, values: list, record: dict, what: str) -> str:
    """Add ``values`` (missing ones) to the array at ``keys``, creating containers on the way.
    One edit per call: containers created here are recorded in ``record["created"]``."""
    doc = Document(text)
    node = doc.root
    for depth, key in enumerate(keys):
        if node.kind != "object":
            raise ProtectionShapeError(f'"{".".join(keys[:depth])}" is not an object; Cupcake leaves it as it is')
        member = _member(node, key)
        if member is None:
            rest = keys[depth + 1 :]
            value: list | dict = list(values)
            for inner in reversed(rest):
                value = {inner: value}
            doc.rewrite(node, node.members + [New(key, value)])
            for end in range(depth + 1, len(keys) + 1):
                record["created"].append(".".join(keys[:end]))
            record[what].extend(values)
            return doc.render()
        node = member.value
    if node.kind != "array":
        raise ProtectionShapeError(f'"{".".join(keys)}" is not a list; Cupcake leaves it as it is')
    have = [doc.value(item) for item in node.items]
    missing = [v for v in values if v not in have]
    if not missing:
        return text
    doc.rewrite(node, node.items + [New(None, v) for v in missing])
    record[what].extend(missing)
    return doc.render()


def _enable(text: str, record: dict) -> str:
    doc = Document(text)
    sandbox = _member(doc.root, "sandbox")
    if sandbox is None or sandbox.value.kind != "object":
        raise ProtectionShapeError('"sandbox" is not an object; Cupcake leaves it as it is')
    enabled = _member(sandbox.value, "enabled")
    if enabled is None:
        doc.rewrite(sandbox.value, sandbox.value.members + [New("enabled", True)])
        record["created"].append("sandbox.enabled")
        return doc.render()
    value = doc.value(enabled.value)
    if value is True:
        return text
    record["enabled_was"] = [value]
    doc.replace(enabled.value, True)
    return doc.render()


def apply(text: str, targets: dict, sandbox: bool, previous: dict | None) -> tuple[str, dict]:
    """The settings text with the protections in, and the record of what this sync added (merged
    with what an earlier sync had added and is still there)."""
    record: dict[str, list[str]] = {"created": [], "deny": [], "deny_write": []}
    text = _step(text, ("permissions", "deny"), targets["deny"], record, "deny")
    text = _step(text, ("sandbox", "filesystem", "denyWrite"), targets["deny_write"], record, "deny_write")
    if sandbox:
        text = _enable(text, record)
    if previous:
        for key in ("created", "deny", "deny_write"):
            record[key] = list(previous.get(key, [])) + [v for v in record[key] if v not in previous.get(key, [])]
        if "enabled_was" in previous:
            record["enabled_was"] = previous["enabled_was"]
    return text, record


def remove(text: str, record: dict) -> str:
    """The settings text without what ``record`` says sync added; everything else byte for byte."""
    text = _drop(text, ("permissions", "deny"), record.get("deny", []))
    text = _drop(text, ("sandbox", "filesystem", "denyWrite"), record.get("deny_write", []))
    created = record.get("created", [])
    if "sandbox.enabled" in created:
        text = _drop_member(text, ("sandbox",), "enabled", only_if_empty=False)
    elif record.get("enabled_was"):
        doc = Document(text)
        node = _walk(doc, ("sandbox", "enabled"))
        if node is not None:
            doc.replace(node, record["enabled_was"][0])
            text = doc.render()
    # Containers sync created go when nothing else was put in them since (deepest first).
    for dotted in sorted(created, key=lambda d: -d.count(".")):
        if dotted == "sandbox.enabled":
            continue
        *outer, key = dotted.split(".")
        text = _drop_member(text, tuple(outer), key, only_if_empty=True)
    return text


def _walk(doc: Document, keys: tuple):
    node = doc.root
    for key in keys:
        if node.kind != "object":
            return None
        member = _member(node, key)
        if member is None:
            return None
        node = member.value
    return node


def _drop(text: str, keys: tuple, values: list) -> str:
    if not values:
        return text
    doc = Document(text)
    node = _walk(doc, keys)
    if node is None or node.kind != "array":
        return text
    gone = list(values)
    kept = []
    for item in node.items:
        value = doc.value(item)
        if value in gone:
            gone.remove(value)
            continue
        kept.append(item)
    if len(kept) == len(node.items):
        return text
    doc.rewrite(node, kept)
    return doc.render()


def _drop_member(text: str, outer: tuple, key: str, only_if_empty: bool) -> str:
    doc = Document(text)
    node = _walk(doc, outer)
    if node is None or node.kind != "object":
        return text
    member = _member(node, key)
    if member is None:
        return text
    if only_if_empty and (member.value.kind == "scalar" or member.value.children()):
        return text
    doc.rewrite(node, [m for m in node.members if m is not member])
    return doc.render()


# ## The record ######################################################################################


def read_record(settings_path: str):
    try:
        with open(record_path(settings_path), "rb") as f:
            data = json.loads(f.read().decode("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_record(settings_path: str, record: dict) -> None:
    from cupcake.agents.settings_file import replace

    data = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    replace(record_path(settings_path), data.encode("utf-8"), 0o644)


def delete_record(settings_path: str) -> None:
    try:
        os.unlink(record_path(settings_path))
    except FileNotFoundError:
        pass


# ## What is in force ###############################################################################


def level(root: str, env) -> tuple[str, list[str]]:
    """("sandboxed" | "hook only", reasons): whether Claude Code's sandbox makes the project's
    policy file and ``.cupcake/`` read-only to Bash, judged from the settings files as written."""
    home = env.get("HOME") or os.path.expanduser("~")
    files = [
        os.path.join(home, ".claude", "settings.json"),
        os.path.join(root, ".claude", "settings.json"),
        os.path.join(root, ".claude", "settings.local.json"),
    ]
    enabled = None
    denied: list[str] = []
    for path in files:  # later files win, as in Claude Code
        try:
            with open(path, "rb") as f:
                value = json.loads(f.read().decode("utf-8"))
        except (OSError, ValueError):
            continue
        sandbox = value.get("sandbox") if isinstance(value, dict) else None
        if not isinstance(sandbox, dict):
            continue
        if "enabled" in sandbox:
            enabled = sandbox["enabled"] is True
        fs = sandbox.get("filesystem")
        if isinstance(fs, dict) and isinstance(fs.get("denyWrite"), list):
            denied.extend(p for p in fs["denyWrite"] if isinstance(p, str))
    reasons = []
    if not enabled:
        reasons.append("Claude Code's sandbox is not enabled")
    needed = [os.path.realpath(os.path.join(root, "cupcake.toml")), os.path.realpath(os.path.join(root, ".cupcake"))]
    if [p for p in needed if p not in denied]:
        reasons.append("the sandbox's denyWrite does not list cupcake.toml and .cupcake/")
    missing = sandbox_missing(env)
    if missing:
        reasons.append(f"{' and '.join(missing)} not on PATH, so the sandbox cannot run")
    return ("sandboxed" if not reasons else "hook only"), reasons
