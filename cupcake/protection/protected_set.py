"""The protected set: which paths self-protection keeps the agent off, and how a path is named in a
block. Below both the hook's dispatch (``cupcake.protection.hook``) and the Bash reader's protection
(``cupcake.protection.bash``), which both classify paths against it.

The protected set (``protected_paths``, computed when policies are compiled and cached with them; every
path absolute, as written and resolved, lower-cased where names fold), key by key:

- ``files``: the policy files (``cupcake.toml``, ``~/.claude/cupcake.toml``, every imported file);
- ``policy_names``: ``[folder, name]``: a ``cupcake.toml`` anywhere below the root (outside a git
  worktree it would become the root for an agent started in its folder: ``project.find_root``);
- ``dirs``: ``.cupcake/`` (and the evaluator's eval folder), everything under them;
- ``settings_dirs``: Claude Code's settings folders, whose ``settings*.json`` hold the hooks;
- ``agent_config``: every other agent's hook configuration (files, or folders of them);
- ``globs``: ``(prefix, parts, entry)`` of each import glob: a path under ``prefix`` matching
  ``parts`` would be imported; a folder that could lead to such a path is protected too;
- ``import_dirs``: ``[folder, entry]``, each folder an import goes through to its files;
- ``inodes``: ``(st_dev, st_ino)`` of the policy files (a hard link to one is that file);
- ``secrets``: files no tool of the agent may read or replace (the key that seals the policy cache); an
  entry ending in ``/`` is a folder, everything under it (the agents' session transcripts, which hold
  the approval codes shown to the person: ``in_secret``);
- ``install`` and ``install_names``: what the hook runs (its package, launcher, Python and the Python
  start-up files beside them: ``cupcake.protection.install``), added by each run, never cached.

``classify`` says which of them a path is; ``cupcake.protection.hook`` and ``cupcake.protection.bash``
block what would change one, in the words made here (``_text``, ``_describe``, ``_display``…)."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.protection.path_forms import FOLD as _FOLD
from cupcake.protection.path_forms import forms as _forms

POLICY = "policy"
WORKDIR = "workdir"
SETTINGS = "settings"
IMPORT_GLOB = "glob"
IMPORT_DIR = "import-dir"  # a folder an import goes through: removing or locking it changes the rules
IMPORT_INSIDE = "import-inside"  # under an import glob's folder: a new file or folder could change what it imports
AGENT_CONFIG = "agent"
SECRET = "secret"
INSTALL = "install"
NESTED_POLICY = "nested-policy"  # a cupcake.toml below the root: it would govern an agent started there

_WHAT = {
    POLICY: "a Cupcake policy file",
    WORKDIR: "Cupcake's own data (.cupcake/)",
    SETTINGS: "Claude Code's settings, where Cupcake's hooks are installed",
    AGENT_CONFIG: "an agent's hook configuration, where Cupcake's hooks are installed",
    IMPORT_DIR: "a folder Cupcake reads policy files from",
    SECRET: "a secret Cupcake relies on (the key that seals its policy cache, or an agent's session transcripts)",
    INSTALL: "part of the installed Cupcake package or of what runs it (its launcher, its Python, a Python start-up file)",
    NESTED_POLICY: "where Cupcake would read the policies of an agent started in that folder",
}
_PERSON = "Agents may not change it: a person must make this change, so ask the user to do it."


PREFIX = "Cupcake self-protection: "


def _text(reason: str, tail: str = _PERSON) -> str:
    return f"{PREFIX}{reason}. {tail}"


def _piece(cmd) -> str:
    """The simple command as it would run (shortened), for the block text."""
    text = " ".join(cmd.argv)
    return text if len(text) <= 120 else text[:117] + "..."


def _what(path: str, found, ctx) -> str:
    kind, detail = found
    shown = _display(path, ctx)
    if kind == "installed":
        return f"{shown}, part of the installed Cupcake"
    if kind == IMPORT_GLOB:
        return f'a file imported as a Cupcake policy file (imports "{detail}")'
    if kind == SETTINGS and not path.endswith(".json"):
        return f"{shown}, the directory of {_WHAT[kind]}"
    return f"{shown}, {_WHAT.get(kind, 'a file Cupcake protects')}"


def in_secret(path: str, secrets) -> str | None:
    """The secret ``path`` is, or lies in (an entry ending in ``/`` is a folder), else None."""
    inside = path.rstrip("/") + "/"
    for secret in secrets:
        if path == secret or (secret.endswith("/") and inside.startswith(secret)):
            return secret
    return None


def classify(path: str, protected, ancestors: bool = False):
    """(kind, detail) when the absolute ``path`` is protected; with ``ancestors``, also when it is
    a directory that holds something protected (removing or moving it would take that along)."""
    if _FOLD:
        path = path.lower()
    if path in protected["files"]:
        return (POLICY, None)
    for directory in protected["dirs"]:
        if path == directory or path.startswith(directory + "/"):
            return (WORKDIR, None)
    parent, _, name = path.rpartition("/")
    if parent in protected["settings_dirs"] and name.startswith("settings") and name.endswith(".json"):
        return (SETTINGS, None)
    for held in protected.get("agent_config", ()):
        if path == held or path.startswith(held + "/"):
            return (AGENT_CONFIG, None)
    secrets = protected.get("secrets", ())
    inside = path.rstrip("/") + "/"  # in a secret folder (``in_secret``), the same test
    if path in secrets or any(s.endswith("/") and inside.startswith(s) for s in secrets):
        return (SECRET, None)  # replaced by a key the agent knows, a forged cache would pass
    if _installed(path, protected):
        return (INSTALL, None)
    for held, entry in protected.get("import_dirs", ()):
        if path == held:
            return (IMPORT_DIR, entry)
    for folder, name in protected.get("policy_names", ()):
        if path.startswith(folder + "/") and path.endswith("/" + name):
            return (NESTED_POLICY, None)
    for prefix, parts, entry in protected["globs"]:
        if path.startswith(prefix + "/"):
            from cupcake.shell.globmatch import could_lead, match_path

            names = path[len(prefix) + 1 :].split("/")
            if match_path(parts, names):
                return (IMPORT_GLOB, entry)
            if could_lead(parts, names):
                return (IMPORT_INSIDE, entry)
    if ancestors:
        inside = path.rstrip("/") + "/"
        for kind, paths in (
            (POLICY, protected["files"]),
            (WORKDIR, protected["dirs"]),
            (SETTINGS, protected["settings_dirs"]),
            (AGENT_CONFIG, protected.get("agent_config", ())),
            (SECRET, protected.get("secrets", ())),
            (IMPORT_DIR, [d for d, _entry in protected.get("import_dirs", ())]),
            (INSTALL, protected.get("install", ())),
        ):
            for held in paths:
                if held.startswith(inside):
                    return (kind, held)
    return None


def _installed(path: str, protected) -> bool:
    """Whether ``path`` is part of what the hook runs: the installation's trees and start-up files."""
    for held in protected.get("install", ()):
        if path == held or path.startswith(held + "/"):
            return True
    for folder, pattern in protected.get("install_names", ()):
        if path.startswith(folder + "/"):
            from cupcake.shell.globmatch import match_name

            if match_name(pattern, path[len(folder) + 1 :].split("/", 1)[0]):
                return True
    return False


def _describe(literal: str, found, ctx, by: str = "") -> str:
    """What the path is: "cupcake.toml is a Cupcake policy file", or with ``by`` (a command kind)
    "this command (rm) would change cupcake.toml, a Cupcake policy file"."""
    kind, detail = found
    shown = _display(literal, ctx)
    if kind == IMPORT_GLOB:
        what = f'would be imported as a Cupcake policy file (imports "{detail}")'
    elif kind == IMPORT_DIR and not (detail or "").startswith("/"):
        what = f'is a folder Cupcake reads policy files from (imports "{detail}")'
    elif kind == IMPORT_INSIDE:
        what = f'is where imports "{detail}" looks for policy files: a new file or folder there changes what it reads'
    elif detail:  # a directory holding a protected path
        what = f"holds {_display(detail, ctx)}, {_WHAT[kind]}"
    else:
        what = _WHAT[kind]
    verb = kind in (IMPORT_GLOB, IMPORT_DIR, IMPORT_INSIDE) or detail  # "what" starts with a verb: "holds …"
    if by:
        return f"this command ({by}) would change {shown}, {'which ' if verb else ''}{what}"
    return f"{shown} {what}" if verb else f"{shown} is {what}"


def _display(path: str, ctx, resolve: bool = True) -> str:
    """The path relative to the root, or under ``~/``, else absolute (the root is resolved, so a
    path written through a symbolic link, such as macOS's /tmp, is tried resolved too)."""
    root = ctx.root.rstrip("/") + "/"
    if path.startswith(root):
        return path[len(root) :]
    home = (ctx.env.get("HOME") or "").rstrip("/")
    if home and path.startswith(home + "/"):
        return "~/" + path[len(home) + 1 :]
    if resolve:
        real = os.path.realpath(path)
        if real != path:
            shown = _display(real, ctx, resolve=False)
            if shown != real:
                return shown
    return path


def _cwd(cwd, root: str) -> str:
    return cwd if isinstance(cwd, str) and cwd.startswith("/") else root


# ## Cold: what is protected #######################################################################


def protected_paths(root: str, env, top_files, imported_files, import_patterns, extra_dirs=()) -> dict:
    """The protected set for this root and home, in the plain form the cache stores. ``extra_dirs``:
    directories protected like ``.cupcake/`` (the evaluator's eval folder, which gates the agent)."""
    from cupcake.agents.installers import hook_config_paths, transcript_dirs
    from cupcake.agents.installers import settings_dirs as agent_settings_dirs
    from cupcake.agents.installers import settings_names as agent_settings_names
    from cupcake.project import PROJECT_FILE, WORK_DIR, user_policy_file
    from cupcake.shell.globmatch import has_magic

    policy_files = [os.path.join(root, PROJECT_FILE), user_policy_file(env), *top_files, *imported_files]
    files = _forms(policy_files)
    dirs = _forms([os.path.join(root, WORK_DIR), *(os.path.join(root, d) for d in extra_dirs)])
    agent_dirs = agent_settings_dirs(root, env)
    settings_dirs = _forms(agent_dirs)
    globs = []
    import_dirs: list = []  # [folder, entry]: each folder an import goes through to its files
    for base, pattern in import_patterns:
        parts = pattern.split("/")
        literal = 0
        while literal < len(parts) and not has_magic(parts[literal]):
            literal += 1
        for depth in range(1, min(literal, len(parts) - 1) + 1):
            for folder in _forms([os.path.join(base, *parts[:depth])]):
                if [folder, pattern] not in import_dirs:
                    import_dirs.append([folder, pattern])
        if literal == len(parts):
            continue  # a plain file: protected as a policy file
        rest = [p.lower() for p in parts[literal:]] if _FOLD else parts[literal:]
        for prefix in _forms([os.path.join(base, *parts[:literal])]):
            globs.append((prefix, rest, pattern))
    agent_config = _forms(hook_config_paths(root, env))
    from cupcake.stores.user_secret import secret_path

    # unreadable to the agent's tools (and not to be replaced); a folder's entry ends in "/"
    secrets = _forms([secret_path(env)]) + [form + "/" for form in _forms(transcript_dirs(env))]
    inodes = []
    for path in policy_files:
        try:
            st = os.stat(path)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) not in inodes:
            inodes.append((st.st_dev, st.st_ino))
    return {
        "files": files,
        "dirs": dirs,
        "settings_dirs": settings_dirs,
        "settings_names": agent_settings_names(root, env),  # their hook files' usual names
        "agent_config": agent_config,
        "globs": globs,
        "inodes": inodes,
        "secrets": secrets,
        "import_dirs": import_dirs,
        # A cupcake.toml made below the root would be the root for an agent that starts in its folder
        # and names no project folder, outside a git worktree (project.find_root): [folder, name].
        "policy_names": [[form, PROJECT_FILE] for form in _forms([root])],
    }


def protected_defaults(root: str, env) -> dict:
    """The protected set without imports (a compiled set that predates ``protected``)."""
    return protected_paths(root, env, [], [], [])
