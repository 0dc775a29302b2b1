"""Self-protection: the agent may not change what governs it (DESIGN.md "Self-protection").

Protected: the policy files (``cupcake.toml``, ``~/.claude/cupcake.toml``, every imported file and
any new file an ``imports`` glob would pick up), everything under ``.cupcake/``, and Claude Code's
``settings*.json`` in ``<root>/.claude/`` and ``~/.claude/`` (where the hooks are). Write, Edit,
MultiEdit and NotebookEdit on those paths are blocked, and so is a Bash command that could change
one or runs Cupcake's own set-up (see ``cupcake.protection.bash``). Reading is fine.

The protected set is computed when policies are compiled and cached with them (``protected_paths``,
cold); a run only compares strings and, for a Write to an existing file, one ``stat`` (a hard link
to a policy file is the same file). A Bash command is read with ``cupcake.shell`` unless it is
plainly a single reading command (``bash.quick_pass``)."""

from __future__ import annotations

import os
import sys

WRITE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
GUARDED_EVENTS = frozenset({"PreToolUse", "PermissionRequest"})
POLICY_NAME = "Cupcake self-protection"

_PATH_KEYS = ("file_path", "notebook_path", "path")
_FOLD = sys.platform == "darwin"  # APFS and HFS+ are case-insensitive by default

POLICY = "policy"
WORKDIR = "workdir"
SETTINGS = "settings"
IMPORT_GLOB = "glob"
AGENT_CONFIG = "agent"

_WHAT = {
    POLICY: "a Cupcake policy file",
    WORKDIR: "Cupcake's own data (.cupcake/)",
    SETTINGS: "Claude Code's settings, where Cupcake's hooks are installed",
    AGENT_CONFIG: "an agent's hook configuration, where Cupcake's hooks are installed",
}
_PERSON = "Agents may not change it: a person must make this change, so ask the user to do it."


def applies(ctx) -> bool:
    """Cheap: whether this event could be a change to a protected path that self-protection stops."""
    if ctx.event not in GUARDED_EVENTS or ctx.policies is None or ctx.incoming is None:
        return False
    if ctx.settings.get("self_protection") is False:  # only an explicit false turns it off
        return False
    tool = ctx.incoming.tool
    if tool == "Bash" or tool in WRITE_TOOLS or (isinstance(tool, str) and tool.startswith("mcp__")):
        return True
    return _agent_tool_kind(ctx) is not None


def _agent_tool_kind(ctx):
    """ "shell" or "write" when the agent's own name for the tool is one of its shell or file-writing
    tools (a tool the adapter has no canonical name for, such as Cursor's Delete), else None."""
    payload = getattr(ctx.incoming, "payload", None)
    agent = getattr(ctx, "agent", None)
    tool = payload.get("agent_tool") if isinstance(payload, dict) else None
    if agent is None or not isinstance(tool, str):
        return None
    if tool in getattr(agent, "SHELL_TOOLS", ()):
        return "shell"
    if tool in getattr(agent, "FILE_WRITE_TOOLS", ()):
        return "write"
    return None


def violation(ctx, view):
    """The block text when this tool call would change a protected path, else None."""
    protected = ctx.policies.get("protected") or protected_defaults(ctx.root, ctx.env)
    if view.tool == "Bash" or (view.tool not in WRITE_TOOLS and _agent_tool_kind(ctx) == "shell"):
        return _bash(view, protected, ctx)
    if view.tool not in WRITE_TOOLS and _agent_tool_kind(ctx) != "write":  # an MCP tool (see ``other_tools``)
        from cupcake.protection.other_tools import mcp_violation

        return mcp_violation(view, protected, ctx, classify, _describe, _PERSON)
    found = _write(view, protected, ctx)
    if found is None:
        paths = view.tool_input.get("file_paths")  # a patch (Codex apply_patch) names every file it touches
        if isinstance(paths, list):
            for path in paths[:256]:
                if isinstance(path, str) and path:
                    found = _write(_OnePath(view, path), protected, ctx)
                    if found:
                        break
    return found


class _OnePath:
    """The view of one more file a tool call writes (the same event, another path)."""

    __slots__ = ("tool_input", "cwd", "file_path")

    def __init__(self, view, path: str):
        from cupcake.project import shown_path

        self.tool_input = {"file_path": path}
        self.cwd = view.cwd
        self.file_path = shown_path(path, view.root, view.cwd) if "\0" not in path else path


# ## Warm: is this path protected? #################################################################


def _write(view, protected, ctx):
    raw = None
    for key in _PATH_KEYS:
        value = view.tool_input.get(key)
        if isinstance(value, str) and value and "\0" not in value:
            raw = value
            break
    if raw is None:
        return None
    cwd = _cwd(view.cwd, ctx.root)
    literal = os.path.normpath(os.path.join(cwd, raw))
    shown = view.file_path  # resolved, symlinks followed; relative to the root when inside it
    resolved = shown if shown.startswith("/") else os.path.normpath(os.path.join(ctx.root, shown))
    for form in (literal, resolved):
        found = classify(form, protected)
        if found:
            return f"Cupcake self-protection: {_describe(literal, found, ctx)}. {_PERSON}"
    from cupcake.protection.other_tools import hard_link_violation  # also .cupcake/ and settings files

    linked = hard_link_violation(resolved, protected, ctx)
    if linked:
        return f"Cupcake self-protection: {linked.replace(resolved, _display(literal, ctx), 1)} {_PERSON}"
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
    for prefix, parts, entry in protected["globs"]:
        if path.startswith(prefix + "/"):
            from cupcake.shell.globmatch import match_path

            if match_path(parts, path[len(prefix) + 1 :].split("/")):
                return (IMPORT_GLOB, entry)
    if ancestors:
        inside = path.rstrip("/") + "/"
        for kind, paths in (
            (POLICY, protected["files"]),
            (WORKDIR, protected["dirs"]),
            (SETTINGS, protected["settings_dirs"]),
            (AGENT_CONFIG, protected.get("agent_config", ())),
        ):
            for held in paths:
                if held.startswith(inside):
                    return (kind, held)
    return None


def _describe(literal: str, found, ctx, by: str = "") -> str:
    """What the path is: "cupcake.toml is a Cupcake policy file", or with ``by`` (a command kind)
    "this command (rm) would change cupcake.toml, a Cupcake policy file"."""
    kind, detail = found
    shown = _display(literal, ctx)
    if kind == IMPORT_GLOB:
        what = f'would be imported as a Cupcake policy file (imports "{detail}")'
    elif detail:  # a directory holding a protected path
        what = f"holds {_display(detail, ctx)}, {_WHAT[kind]}"
    else:
        what = _WHAT[kind]
    verb = kind == IMPORT_GLOB or detail  # "what" starts with a verb: "holds …", "would be …"
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


# ## Warm: Bash ####################################################################################


def _bash(view, protected, ctx):
    from cupcake.protection.bash import violation as bash_violation  # the reader is imported only when needed

    return bash_violation(view.command, _cwd(view.cwd, ctx.root), ctx.root, ctx.env, protected, ctx)


# ## Cold: what is protected #######################################################################


def protected_paths(root: str, env, top_files, imported_files, import_patterns, extra_dirs=()) -> dict:
    """The protected set for this root and home, in the plain form the cache stores. ``extra_dirs``:
    directories protected like ``.cupcake/`` (the evaluator's eval folder, which gates the agent)."""
    from cupcake.agents.installers import settings_dirs as agent_settings_dirs
    from cupcake.project import PROJECT_FILE, WORK_DIR, user_policy_file
    from cupcake.shell.globmatch import has_magic

    policy_files = [os.path.join(root, PROJECT_FILE), user_policy_file(env), *top_files, *imported_files]
    files = _forms(policy_files)
    dirs = _forms([os.path.join(root, WORK_DIR), *(os.path.join(root, d) for d in extra_dirs)])
    agent_dirs = agent_settings_dirs(root, env)
    settings_dirs = _forms(agent_dirs)
    globs = []
    for base, pattern in import_patterns:
        parts = pattern.split("/")
        literal = 0
        while literal < len(parts) and not has_magic(parts[literal]):
            literal += 1
        if literal == len(parts):
            continue  # a plain file: protected as a policy file
        rest = [p.lower() for p in parts[literal:]] if _FOLD else parts[literal:]
        for prefix in _forms([os.path.join(base, *parts[:literal])]):
            globs.append((prefix, rest, pattern))
    agent_config = _forms(agent_config_paths(root, env))
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
        "agent_config": agent_config,
        "globs": globs,
        "inodes": inodes,
    }


def agent_config_paths(root: str, env) -> list:
    """Every agent's own hook configuration (files, or a directory of hook files), project and user:
    whichever agent runs, it may not rewrite which hooks the agents run."""
    from cupcake.agents import NAMES, adapter
    from cupcake.agents.managed import guarded_paths
    from cupcake.project import managed_dir

    found: list = [managed_dir(env)]  # the organisation's policy folder: nothing may be created or changed there
    for name in NAMES:
        found.extend(p for p in guarded_paths(name, env) if p not in found)  # the organisation's hooks
        if name == "claude":
            continue  # Claude Code's settings are guarded by name in its settings directories
        try:
            install = __import__(adapter(name).__name__ + ".install", fromlist=("protected_paths",))
            paths = install.protected_paths(root, env)
        except Exception:  # an adapter that cannot say: the others still count
            continue
        found.extend(p for p in paths if p not in found)
    return found


def protected_defaults(root: str, env) -> dict:
    """The protected set without imports (a compiled set that predates ``protected``)."""
    return protected_paths(root, env, [], [], [])


def _forms(paths) -> list:
    """Each path as written (normalised) and with symlinks resolved; folded where names are."""
    out = []
    for path in paths:
        for form in (os.path.normpath(os.path.abspath(path)), os.path.realpath(path)):
            form = form.lower() if _FOLD else form
            if form not in out:
                out.append(form)
    return out
