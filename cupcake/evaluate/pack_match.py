"""Evaluating the packs' conditions (``path``, ``secret``, ``sql``, ``hidden_code``; see
``cupcake.compile.pack_conditions``) on a warm run, for every tool: the file tools' paths and
contents, a Bash line as the reader and the registry of programs read it, an MCP tool's arguments.

Cheap first: a Bash line is read only when it holds one of the condition's literal pieces (the
``command`` condition's prefilter, by the same rule), and the secret scanner is imported only when
there is text to scan."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.evaluate.command_match import may_hold_names
from cupcake.evaluate.glob_match import any_fits
from cupcake.evaluate.pack_prefilter import CLIENT_NAMES, may_hold_secret, writes_text

READ_TOOLS = ("Read", "Grep", "Glob", "LS", "NotebookRead")
WRITE_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")
_PATH_KEYS = ("file_path", "notebook_path", "path")
# An MCP tool's arguments: the keys that name paths, hold shell commands, SQL, or text written.
MCP_PATH_KEYS: tuple[str, ...] = ("path", "file_path", "filepath", "file", "filename", "source", "destination")
MCP_PATH_KEYS += ("target", "dir", "directory", "paths", "files", "src", "dest", "uri")
MCP_SQL_KEYS = ("sql", "query", "statement", "statements")
MCP_WRITE_VERBS: tuple[str, ...] = (
    "write",
    "edit",
    "create",
    "update",
    "delete",
    "remove",
    "move",
    "rename",
    "put",
    "upload",
)
MCP_WRITE_VERBS += ("save", "append", "patch", "insert")
MAX_MCP_STRINGS = 200


def holds(cond, view) -> bool:
    kind = cond[0]
    if kind == "path":
        return _path(cond, view)
    if kind == "secret":
        return _secret(cond, view)
    if kind == "sql":
        return _sql(cond, view)
    if kind == "project_file":
        return _project_file(cond, view)
    if kind == "hidden_code":
        line = view.line()
        if line is None or not may_hold_names(cond[1], *line):
            return False
        return bool(view.facts().hidden)
    raise ValueError(f"unknown condition {kind!r}")


def describe(cond) -> str:
    kind = cond[0]
    if kind == "path":
        return f"path(access={cond[1]!r}, where={cond[4]!r})"
    if kind == "secret":
        return f"secret(kinds={list(cond[1])!r})"
    if kind == "sql":
        return f"sql(statements={list(cond[1])!r}, unseen={cond[2]!r})"
    return kind + "()"


# ## paths ##


def _path(cond, view) -> bool:
    _kind, access, globs, excepted, where, needles = cond
    tool = view.tool or ""
    for path in _tool_paths(view, tool, access):
        if _path_matches(path, globs, excepted, where, view):
            return True
    if view.command is not None and (tool == "Bash" or tool.startswith("mcp__")):
        if needles and not may_hold_names(needles, *view.line()):
            return False
        facts = view.facts(full=access != "write")
        if access in ("read", "any"):
            for path in _line_paths(view, facts, "read"):
                if _path_matches(path, globs, excepted, where, view):
                    return True
        if access in ("write", "any"):
            for path in _line_paths(view, facts, "write"):
                if _path_matches(path, globs, excepted, where, view):
                    return True
    return False


def _line_paths(view, facts, access: str) -> list:
    """The paths the Bash line reads or writes (as ``facts`` says), made once per reading of the line:
    the packs' path conditions each ask for them."""
    key = _READS if access == "read" else _WRITES
    made = view.pack_memo.get(key)
    if made is not None and made[0] is facts:
        return made[1]
    if key == _READS:
        paths = [_word_path(word, cwd or view.root) for word, cwd in facts.reads]
    else:
        paths = [w.path if w.path is not None else w.pattern for w in facts.writes]
    paths = [p for p in paths if p]
    view.pack_memo[key] = (facts, paths)
    return paths


def _tool_paths(view, tool: str, access: str):
    tool_input = view.tool_input
    if tool in READ_TOOLS:
        if access == "write":
            return
        keys: tuple[str, ...] = _PATH_KEYS
    elif tool in WRITE_TOOLS:
        if access == "read":
            return
        keys = _PATH_KEYS + ("file_paths",)
    elif tool.startswith("mcp__"):
        writes = any(v in tool.lower() for v in MCP_WRITE_VERBS)
        if (access == "read" and writes) or (access == "write" and not writes):
            return
        keys = MCP_PATH_KEYS
    else:
        return
    for key in keys:
        value = tool_input.get(key)
        values = value if isinstance(value, list) else [value]
        for v in values[:MAX_MCP_STRINGS]:
            if isinstance(v, str) and v and "\0" not in v:
                if v.startswith("file://"):
                    v = v[len("file://") :]
                yield _absolute(v, view.cwd if isinstance(view.cwd, str) else view.root)


def _absolute(value: str, base: str) -> str:
    """The absolute path, normalised as the Bash reader's ``normpath`` does (without loading the reader
    for a file tool's path): POSIX keeps a leading "//", the reader does not."""
    if value.startswith("~"):
        value = os.path.expanduser(value)
    if not value.startswith("/"):
        value = (base or "/").rstrip("/") + "/" + value
    path = os.path.normpath(value)
    return "/" + path.lstrip("/") if path.startswith("//") else path


def _word_path(word, cwd: str):
    value = word.value
    if not value or value.startswith("-") or "\0" in value:
        return None
    return _absolute(value, cwd)


def _forms(path: str, view) -> dict:
    """The spellings of ``path`` the globs are matched against (``glob_form``), made once per run."""
    memo = view.pack_memo
    forms = memo.get(path)
    if forms is not None:
        return forms
    home = memo.get(_HOME)
    if home is None:
        home = memo[_HOME] = os.path.expanduser("~").rstrip("/")
    name = path.rstrip("/").rsplit("/", 1)[-1]
    forms = memo[path] = {"abs": path, "any": path, "base": name, "home": None}
    if home and path.startswith(home + "/"):
        forms["home"] = "~/" + path[len(home) + 1 :]
    elif home and path == home:
        forms["home"] = "~/"
    return forms


# ``EventView.pack_memo``: a path's spellings under the path (a string), and under these keys the home
# directory and the line's reads and writes (with the facts they come from: a full reading replaces them).
_HOME, _READS, _WRITES = 0, 1, 2


def _inside(path: str, root: str) -> bool:
    root = root.rstrip("/") or "/"
    return root == "/" or path == root or path.startswith(root + "/")


def _path_matches(path: str, globs, excepted, where, view) -> bool:
    if where is not None:
        inside = _inside(path, view.root)
        if inside != (where == "project"):
            return False
    forms = _forms(path, view)
    if not _any_glob(forms, globs, view):
        return False
    return not _any_glob(forms, excepted, view)


def _any_glob(forms: dict, globs, view) -> bool:
    for form, shapes in globs:  # ``pack_conditions.by_form``
        text = forms[form]
        if text is not None and any_fits(shapes, text, view.patterns):
            return True
    return False


# ## the project's files ##

MAX_LISTED = 4096  # entries of the project's top directory looked at
MAX_GITIGNORE = 256 * 1024


def _project_file(cond, view) -> bool:
    _kind, globs, excepted, unignored = cond
    try:
        with os.scandir(view.root) as entries:
            names = [e.name for _n, e in zip(range(MAX_LISTED), entries)]
    except OSError:
        return False
    patterns = view.patterns
    found = [n for n in names if any_fits(globs, n, patterns) and not any_fits(excepted, n, patterns)]
    if not found or not unignored:
        return bool(found)
    ignored = _gitignore(view.root)
    return any(not _ignored(name, ignored, view) for name in found)


def _gitignore(root: str) -> list:
    try:
        with open(os.path.join(root, ".gitignore"), encoding="utf-8", errors="replace") as f:
            text = f.read(MAX_GITIGNORE)
    except OSError:
        return []
    return [
        line.strip().lstrip("/").rstrip("/") for line in text.splitlines() if line.strip() and not line.startswith("#")
    ]


def _ignored(name: str, lines: list, view) -> bool:
    """Whether a line of .gitignore excludes the top-level ``name`` (a later ``!name`` takes it back)."""
    result = False
    for line in lines:
        negate = line.startswith("!")
        pattern = line[1:] if negate else line
        pattern = pattern[3:] if pattern.startswith("**/") else pattern
        if "/" in pattern:
            continue
        if view.patterns.regex(glob_regex(pattern)).match(name):
            result = not negate
    return result


# ## secrets ##


def written_texts(view) -> list:
    """The text the call writes: file tools' contents, an MCP tool's string arguments, what a Bash
    line sends into files."""
    tool = view.tool or ""
    if tool in WRITE_TOOLS:
        return list(view.contents)
    if tool.startswith("mcp__"):
        return _mcp_strings(view.tool_input)
    if tool == "Bash" and view.command is not None:
        text = view.command
        if not writes_text(text):
            return []
        return view.facts().contents
    return []


def _mcp_strings(value, out=None) -> list:
    if out is None:
        out = []
    if len(out) >= MAX_MCP_STRINGS:
        return out
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _mcp_strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _mcp_strings(v, out)
    return out


def _secret(cond, view) -> bool:
    texts = written_texts(view)
    if not texts or not may_hold_secret(cond, texts):
        return False  # nothing a pattern could find: the scanner is not even loaded
    from cupcake.evaluate.secret_scan import find

    path = view.tool_input.get("file_path")
    return find(cond, texts, view.patterns, path if isinstance(path, str) else "") is not None


# ## SQL ##


def _sql(cond, view) -> bool:
    _kind, wanted, unseen = cond
    tool = view.tool or ""
    texts: list = []
    if tool.startswith("mcp__"):
        for key in MCP_SQL_KEYS:
            value = view.tool_input.get(key)
            if isinstance(value, str):
                texts.append(value)
    if view.command is not None and (tool == "Bash" or tool.startswith("mcp__")):
        if may_hold_names(CLIENT_NAMES, *view.line()):
            texts.extend(text for text, _what in view.facts(full=True).sql)
    if not texts:
        return False
    from cupcake.evaluate.sql_text import kinds_of

    for text in texts:
        if text is None:
            if unseen:
                return True
            continue
        if kinds_of(text) & set(wanted):
            return True
    return False


ANY_DEPTH = "(?s:.*/)?"  # any folders, or none (``**/``)


def glob_regex(glob: str) -> str:
    """A glob as a regex over a path (``**`` crosses directories, ``*`` does not; ``{a,b}``). ``**``
    crosses every character, a newline too (``(?s:…)``): a file name may hold one."""
    return _glob_body(glob) + "\\Z"


def _glob_body(glob: str) -> str:
    out = []
    k = 0
    while k < len(glob):
        ch = glob[k]
        if glob.startswith("**", k):
            out.append("(?s:.*)")
            k += 2
            if glob.startswith("/", k):
                out[-1] = ANY_DEPTH
                k += 1
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "{" and "}" in glob[k:]:
            end = glob.index("}", k)
            out.append("(?:" + "|".join(_glob_body(p) for p in glob[k + 1 : end].split(",")) + ")")
            k = end
        elif ch == "[" and set_end(glob, k) > 0:
            end = set_end(glob, k)
            first = k + 1 + (glob[k + 1] in "!^")
            inner = glob[first:end].replace("\\", "\\\\").replace("[", "\\[")
            out.append(("[^" if first > k + 1 else "[") + inner + "]")
            k = end
        else:
            out.append("\\" + ch if ch in ".^$+()|\\[" else ch)
        k += 1
    return "".join(out)


def set_end(glob: str, k: int) -> int:
    """Where the set that opens at ``glob[k]`` ("[") closes, or -1 when that bracket opens none (a set
    holds a character, negated by a leading ! or ^: "[]" and "[!]" are characters)."""
    first = k + 1 + (glob[k + 1 : k + 2] in ("!", "^"))
    return glob.find("]", first + 1)
