"""Compiling the conditions the rule packs are written with (cold path); any policy may use them.

- ``{ type = "path", access = "read" | "write" | "any", paths = ["~/.ssh/**", "*.pem"],
  except = ["*.pub"], where = "project" | "outside" }``: the call reads or writes such a path —
  a file tool's path, what a Bash line reads (the registry of programs says which operands and
  options are files read) or writes (the Bash reader's writes), the paths an MCP tool is given.
  A glob with no ``/`` matches the file name; ``~/…`` is under the home directory; ``/…`` is
  absolute; any other glob matches at any depth (``.ssh/id_*``). ``**`` crosses directories.
- ``{ type = "secret", kinds = ["key", "keyword", "entropy"] }``: text the call writes (Write and
  Edit contents, an MCP tool's arguments, a here-document or ``echo`` sent to a file) holds a
  secret by detect-secrets' patterns (``cupcake.packs.secret_patterns``): a key format, a secret
  assigned to a secret-sounding name, a high-entropy quoted string. ``kinds`` default: ["key"].
- ``{ type = "sql", statements = ["drop", "truncate", "delete-without-where", …], unseen = true }``:
  SQL a database client would run (``-c``, ``-e``, ``-f FILE``, standard input from a pipe, a
  here-document or a file, an MCP tool's ``sql``/``query``) has a statement of one of these kinds;
  ``unseen``: SQL Cupcake cannot see counts too.
- ``{ type = "hidden_code" }``: the Bash line hides what it runs (code built or decoded at run
  time, words split by a changed IFS, names looked up with ``getattr``…).
- ``{ type = "project_file", paths = [".env", "*.pem"], except = […], unignored = true }``: the
  project's top directory holds such a file (``unignored``: one no line of its ``.gitignore``
  excludes). Read only when the other conditions of the policy held (list it last)."""

from __future__ import annotations

import re
from re import _parser  # type: ignore[attr-defined]  # private, not in typeshed

from cupcake.compile.glob_shapes import regexes, shape
from cupcake.evaluate.pack_match import ANY_DEPTH, set_end
from cupcake.evaluate.pack_match import glob_regex as _regex
from cupcake.evaluate.secret_scan import QUOTED, literal_patterns  # noqa: E402
from cupcake.problems import suggestion

ACCESS = ("read", "write", "any")
WHERE = ("project", "outside")
SECRET_KINDS = ("key", "keyword", "entropy")
# Substrings one of which a Bash line must hold for it to hide code (the prefilter of hidden_code).
HIDDEN_NEEDLES = (
    "eval",
    "ifs",
    "trap",
    "alias",
    "[$(",
    "[`",
    "base64",
    "xxd",
    "openssl",
    "rev",
    "python",
    "perl",
    "ruby",
    "node",
    "php",
    "deno",
    "bun",
    "gunzip",
    "zcat",
    "printf",
    "echo -e",
    "mapfile",
    "readarray",
    "compgen",
    "source",
    ". ",
    "git",
    "bash",
    "sh ",
)
KEYS = {
    "path": ("type", "access", "paths", "except", "where"),
    "secret": ("type", "kinds"),
    "sql": ("type", "statements", "unseen"),
    "hidden_code": ("type",),
    "project_file": ("type", "paths", "except", "unignored"),
}
TYPES = tuple(KEYS)


def compile_pack_condition(cond: dict, report):
    kind = cond["type"]
    for key in cond:
        if key not in KEYS[kind]:
            report(f"condition {kind}: unknown key `{key}`{suggestion(key, KEYS[kind])}", "conditions")
            return None
    if kind == "hidden_code":
        return ("hidden_code", HIDDEN_NEEDLES)
    if kind == "project_file":
        paths = _strings(cond.get("paths"), "paths", kind, report)
        excepted = _strings(cond.get("except", []), "except", kind, report, empty=True)
        unignored = cond.get("unignored", False)
        if not isinstance(unignored, bool):
            report("condition project_file: `unignored` is true or false", "conditions")
            return None
        if paths is None or excepted is None or not _readable(paths + excepted, kind, report):
            return None
        return ("project_file", _shapes(paths), _shapes(excepted), unignored)
    if kind == "sql":
        from cupcake.evaluate.sql_text import KINDS

        wanted = _strings(cond.get("statements"), "statements", kind, report, KINDS)
        unseen = cond.get("unseen", False)
        if wanted is None or not isinstance(unseen, bool):
            if not isinstance(unseen, bool):
                report("condition sql: `unseen` is true or false", "conditions")
            return None
        return ("sql", wanted, unseen)
    if kind == "secret":
        kinds = _strings(cond.get("kinds", ["key"]), "kinds", kind, report, SECRET_KINDS)
        if kinds is None:
            return None
        return _secret(kinds, report)
    access = cond.get("access", "any")
    if access not in ACCESS:
        report(f"condition path: `access` is one of {', '.join(ACCESS)} (got {access!r})", "conditions")
        return None
    where = cond.get("where")
    if where is not None and where not in WHERE:
        report(f"condition path: `where` is one of {', '.join(WHERE)} (got {where!r})", "conditions")
        return None
    paths = _strings(cond.get("paths"), "paths", kind, report)
    excepted = _strings(cond.get("except", []), "except", kind, report, empty=True)
    if paths is None or excepted is None or not _readable(paths + excepted, kind, report):
        return None
    return ("path", access, by_form(paths), by_form(excepted), where, needles(paths))


def _readable(globs, kind: str, report) -> bool:
    """Whether every glob makes a regex (``[z-a]`` does not): reported here, never an error of a run."""
    for glob in globs:
        try:
            re.compile(glob_form(glob)[0])
        except re.error as exc:
            report(f"condition {kind}: the glob {glob!r} cannot be read ({exc})", "conditions")
            return False
    return True


def _strings(value, key, kind, report, choices=None, empty=False):
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or (not value and not empty) or not all(isinstance(v, str) and v for v in value):
        report(f"condition {kind}: `{key}` is a non-empty array of strings", "conditions")
        return None
    for v in value:
        if choices is not None and v not in choices:
            report(f"condition {kind}: unknown {key[:-1]} {v!r}{suggestion(v, choices)}", "conditions")
            return None
    return tuple(value)


def _secret(kinds: tuple, report):
    try:
        from cupcake.packs import secret_patterns
    except ImportError:  # pragma: no cover - a dependency of the package
        report("condition secret: detect-secrets is not installed (pip install detect-secrets)", "conditions")
        return None
    try:
        from cupcake.compile.literals import anchor, required_literals, starts

        keys = secret_patterns.key_patterns() if "key" in kinds else ()
        keys = tuple((t, p, c, _literals(p, required_literals), () if c else anchor(p), _fewest(p)) for t, p, c in keys)
        code, config = secret_patterns.keyword_patterns() if "keyword" in kinds else ((), ())
        code, config = (tuple((p, g, starts(p)) for p, g in found) for found in (code, config))
        entropy = secret_patterns.entropy_settings() if "entropy" in kinds else ()
    except Exception as exc:  # a detect-secrets release that moved its detectors
        report(f"condition secret: cannot read detect-secrets' patterns ({type(exc).__name__}: {exc})", "conditions")
        return None
    return ("secret", kinds, keys, code, config, entropy)


def _fewest(pattern: str) -> int:
    """The fewest characters a match of ``pattern`` holds: a shorter text is not scanned with it."""
    return _parser.parse(pattern).getwidth()[0]


def _literals(pattern: str, required_literals) -> tuple:
    """The literals every match of ``pattern`` holds, lower-cased when the pattern ignores case
    (the scan checks those against the lower-cased text): most key formats are skipped without
    running their pattern over a large file."""
    for flags in ("(?ix)", "(?i)"):
        if pattern.startswith(flags):
            return tuple(lit.lower() for lit in required_literals(pattern[len(flags) :]) if lit.isascii())
    return tuple(required_literals(pattern))


def glob_form(glob: str) -> tuple:
    """(regex, form): ``form`` says which spelling of a path the regex is matched against —
    "base" (the file name), "home" (``~/…``), "abs" (absolute) or "any" (absolute, at any depth)."""
    if "/" not in glob.rstrip("/"):
        return _regex(glob), "base"
    if glob.startswith("~/"):
        return "~/" + _regex(glob[2:]), "home"
    if glob.startswith("/"):
        return _regex(glob), "abs"
    body = glob[3:] if glob.startswith("**/") else glob
    return ANY_DEPTH + _regex(body), "any"


def by_form(globs) -> tuple:
    """The globs' regexes as shapes (``glob_shapes``), grouped by the spelling of a path each is matched
    against: ``((form, shapes), …)``, forms in the order the globs first name them. A run spells each
    path once per form, and asks whether any shape of the form matches."""
    grouped: dict = {}
    for glob in globs:
        regex, form = glob_form(glob)
        grouped.setdefault(form, []).append(shape(regex))
    return tuple((form, tuple(shapes)) for form, shapes in grouped.items())


def _shapes(globs) -> tuple:
    return tuple(shape(_regex(g)) for g in globs)


def needles(globs) -> tuple:
    """For each glob, its longest literal piece (lower case), one per name of a choice (``{a,b}``): a
    Bash line naming such a path holds one of them (unless it spells the name with an expansion, which
    is always read). A set (``[rd]``) is no literal piece; () when a glob has none (no prefilter)."""
    found = []
    for glob in globs:
        spelled = _choices(glob)
        if not spelled:
            return ()
        for one in spelled:
            best = _longest_literal(one.lstrip("~"))
            if not best:
                return ()
            found.append(best.lower())
    return tuple(dict.fromkeys(found))


MAX_CHOICES = 64  # spellings of one glob's choices looked at for the prefilter (more: no prefilter)


def _choices(glob: str) -> list:
    """The glob once per combination of its choices, as ``glob_regex`` reads them (a "{" closed by the
    next "}"); [] past ``MAX_CHOICES`` choices or past as many braces (no prefilter, the safe answer)."""
    if glob.count("{") > MAX_CHOICES:
        return []
    at = glob.find("{")
    while at >= 0 and "}" not in glob[at:]:
        at = glob.find("{", at + 1)
    if at < 0:
        return [glob]
    end = glob.index("}", at)
    out: list = []
    for name in glob[at + 1 : end].split(","):
        out += _choices(glob[:at] + name + glob[end + 1 :])
        if len(out) > MAX_CHOICES:
            return []
    return out


def _longest_literal(glob: str) -> str:
    best = ""
    piece: list[str] = []
    k = 0
    while k <= len(glob):
        ch = glob[k] if k < len(glob) else "*"
        if ch in "*?[]{},/":
            text = "".join(piece)
            if len(text) > len(best):
                best = text
            piece = []
            if ch == "[" and set_end(glob, k) > 0:
                k = set_end(glob, k)  # a set: one character of several, no literal
        else:
            piece.append(ch)
        k += 1
    return best


def patterns_of(cond) -> list:
    """The regexes a compiled pack condition evaluates (cached in the policy cache)."""
    kind = cond[0]
    if kind == "path":
        return [r for _form, shapes in cond[2] + cond[3] for r in regexes(shapes)]
    if kind == "secret":
        return (
            [p for _t, p, _c, _l, _a, _f in cond[2]]
            + [p for p, _g, _s in cond[3] + cond[4]]
            + list(QUOTED)
            + literal_patterns(cond)
        )
    if kind == "project_file":
        return regexes(cond[1] + cond[2])
    return []
