"""Self-protection beyond Bash and the file tools: secrets, MCP tools, and hard links to protected files.

- No tool but Bash (read by ``cupcake.protection.bash``) may name a secret Cupcake relies on
  (``protected["secrets"]``: the key that seals the policy cache): a tool that reads files, MCP
  included, may not read it, nor search a folder that holds it; Glob and LS only list names and may.

- An MCP tool (``mcp__<server>__<tool>``) whose input names a protected path is blocked unless its name
  says it only reads (``read_file``, ``list_directory``, ``search_files``, ``get_…``). A path is named
  by a path-like key (``path``, ``file_path``, ``filename``, ``destination``, ``target``, ``source``,
  …, also in lists and nested tables) or by any short one-line string value that, taken as a path from
  the agent's working directory, is a protected path.
- A write to an existing file that has other hard links (``st_nlink > 1``) is checked against the
  protected files' ``(st_dev, st_ino)``: the policy files, Claude Code's settings files and everything
  under ``.cupcake/`` (and the eval folder), looked at live. When there are too many files to look at,
  it is a block: a decision Cupcake cannot make safely.
"""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.lean_os import S_ISREG
from cupcake.protection.protected_set import in_secret  # (there: the Bash reader's check needs no more of this module)

PATH_KEYS = frozenset(
    {
        "path",
        "paths",
        "file_path",
        "file_paths",
        "absolute_path",
        "dir_path",
        "dirpath",
        "target_file",
        "destination_path",
        "dest_path",
        "output_file",
        "filepath",
        "file",
        "files",
        "filename",
        "file_name",
        "notebook_path",
        "destination",
        "dest",
        "target",
        "target_path",
        "source",
        "src",
        "source_path",
        "new_path",
        "old_path",
        "from",
        "to",
        "directory",
        "dir",
        "output",
        "output_path",
        "uri",
    }
)
# the value names something that goes away (moved or deleted): a folder holding a protected path counts
_TAKES_AWAY = frozenset({"source", "src", "source_path", "old_path", "from"})
_REMOVING = ("delete", "remove", "move", "rename", "unlink", "rm", "mv")
_READ_ONLY = (
    "read",
    "get",
    "list",
    "search",
    "find",
    "view",
    "show",
    "stat",
    "info",
    "tree",
    "query",
    "fetch",
    "glob",
    "grep",
    "describe",
    "directory_tree",
)
MAX_VALUES = 512  # string values looked at in one tool input
MAX_DEPTH = 8
MAX_LINK_SCAN = 5000  # files under the protected folders compared for a hard link


def reads_only(tool: str) -> bool:
    name = tool.rsplit("__", 1)[-1].lower()
    return name.startswith(_READ_ONLY) and not any(verb in name for verb in ("write", "edit", "set", "put"))


def _values(node, key, depth, out):
    if len(out) >= MAX_VALUES or depth > MAX_DEPTH:
        return
    if isinstance(node, str):
        out.append((key, node))
    elif isinstance(node, dict):
        for k, v in node.items():
            _values(v, k.lower() if isinstance(k, str) else key, depth + 1, out)
    elif isinstance(node, list):
        for v in node:
            _values(v, key, depth + 1, out)


def _as_path(value: str, cwd: str, home: str):
    if value.startswith("file://"):
        value = value[7:]
    if value.startswith("~/") and home:
        value = os.path.join(home, value[2:])
    return os.path.normpath(os.path.join(cwd, value))


def mcp_violation(view, protected, ctx, classify, describe, person: str):
    tool = view.tool
    if reads_only(tool):
        return None
    cwd = view.cwd if isinstance(view.cwd, str) and view.cwd.startswith("/") else ctx.root
    home = ctx.env.get("HOME") or ""
    removing = any(verb in tool.rsplit("__", 1)[-1].lower() for verb in _REMOVING)
    found_values: list[tuple[str | None, str]] = []  # (key, value)
    _values(view.tool_input, None, 0, found_values)
    for key, value in found_values:
        pathish = key in PATH_KEYS
        if not value or "\0" in value or "\n" in value or len(value) > 4096:
            continue
        if not pathish and "/" not in value and not value.startswith(".") and "cupcake" not in value.lower():
            continue
        literal, real, forms = _named(value, cwd, home)
        for form in forms:
            found = classify(form, protected, ancestors=pathish and (removing or key in _TAKES_AWAY))
            if found:
                return f"Cupcake self-protection: {describe(literal, found, ctx, tool)}. {person}"
        if pathish:
            linked = hard_link_violation(real, protected, ctx)
            if linked:
                return f"Cupcake self-protection: {linked} {person}"
    return None


def hard_link_violation(path: str, protected, ctx):
    """A sentence when the existing file ``path`` is a hard link to a protected file, else None."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not S_ISREG(st.st_mode):
        return None
    key = (st.st_dev, st.st_ino)
    if key in [tuple(i) for i in protected.get("inodes") or ()]:
        return f"{path} is the same file as a Cupcake policy file (a hard link)."
    if st.st_nlink <= 1:
        return None
    live, complete = _protected_inodes(protected)
    if key in live:
        return f"{path} is the same file as {live[key]}, which Cupcake protects (a hard link)."
    if not complete:
        return (
            f"{path} has other hard links, and there are too many protected files to check that none of them "
            "is one; Cupcake cannot make this decision safely."
        )
    return None


def _protected_inodes(protected):
    """{(dev, ino): path} of the protected files as they are now, and whether the scan was complete."""
    found: dict[tuple[int, int], str] = {}
    seen = 0

    def add(path):
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            return
        found.setdefault((st.st_dev, st.st_ino), path)

    for path in protected.get("files") or ():
        add(path)
    for directory in protected.get("settings_dirs") or ():
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for name in names:
            if name.startswith("settings") and name.endswith(".json"):
                add(os.path.join(directory, name))
    for directory in protected.get("dirs") or ():
        for folder, _dirs, names in os.walk(directory):
            for name in names:
                seen += 1
                if seen > MAX_LINK_SCAN:
                    return found, False
                add(os.path.join(folder, name))
    return found, True


def _named(value: str, cwd: str, home: str) -> tuple[str, str, list[str]]:
    """The path a tool's value names: as written, as the kernel reaches it, and both (once each)."""
    literal = _as_path(value, cwd, home)
    try:
        real = os.path.realpath(literal)
    except (OSError, ValueError):
        real = literal
    return literal, real, [literal] if real == literal else [literal, real]


def _same_file_as_a_secret(path: str, secrets) -> bool:
    """Whether ``path`` is another name (a hard link) of a secret: one stat, and only for a file with
    other links is each secret looked at."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return False
    if st.st_nlink <= 1 or not S_ISREG(st.st_mode):
        return False
    for secret in secrets:
        try:
            other = os.stat(secret)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return True
    return False


def secret_is(secret: str) -> str:
    """What a secret is, for the agent's note."""
    if secret.endswith("/"):
        return "an agent's session transcripts, which hold the approval codes shown to the person"
    return "the key that seals its policy cache"


# Tools that read files but never their folders' contents: the secret itself is theirs to refuse only.
_ONE_FILE_READERS = frozenset({"Read", "NotebookRead"})
_NAME_LISTERS = frozenset({"Glob", "LS"})
_SEARCHERS = frozenset({"Grep"})  # with no path, they search the working directory


def secret_violation(view, protected, ctx, display):
    """A block text when this (non-Bash) tool call names a secret, or a folder holding one for a tool
    that could read the whole folder; else None."""
    secrets = protected.get("secrets") or ()
    if not secrets:
        return None
    tool = view.tool
    cwd = view.cwd if isinstance(view.cwd, str) and view.cwd.startswith("/") else ctx.root
    home = ctx.env.get("HOME") or ""
    found_values: list[tuple[str | None, str]] = []
    _values(view.tool_input, None, 0, found_values)
    if tool in _SEARCHERS and not isinstance(view.tool_input.get("path"), str):
        found_values.append(("path", cwd))
    folders = tool not in _ONE_FILE_READERS and tool not in _NAME_LISTERS
    for key, value in found_values:
        if not value or "\0" in value or "\n" in value or len(value) > 4096:
            continue
        if key not in PATH_KEYS and "/" not in value and not value.startswith((".", "~")):
            continue
        literal, real, forms = _named(value, cwd, home)
        if tool in _ONE_FILE_READERS and _same_file_as_a_secret(real, secrets):
            forms.append(real)
            secrets = [*secrets, real]  # a hard link to the secret is the secret
        for form in forms:
            for secret in secrets:
                inside = in_secret(form, (secret,))
                if inside or (folders and secret.startswith(form.rstrip("/") + "/")):
                    what = display(secret.rstrip("/"), ctx)
                    via = "" if inside else f" ({display(literal, ctx)} holds it)"
                    return (
                        f"Cupcake self-protection: this {tool} call would read {what}{via}, a secret Cupcake "
                        f"relies on ({secret_is(secret)}). Agents may not read it; nothing in "
                        "the project needs it. Search a narrower folder if that is what you meant."
                    )
    return None
