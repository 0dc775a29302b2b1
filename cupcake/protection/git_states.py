"""Whether a git command that moves the worktree between committed states leaves Cupcake's files
as they are: git is asked (``diff-tree`` between two commits, ``rev-list`` of what a rebase
replays, the blobs of a commit against the files on disk), with everything that could make git run
a program the agent wrote switched off — fsmonitor, hooks, external diff, textconv, filters, the
pager, any transport — and bounded in time. ``check(cmd, write, protected)`` gives None when the
protected files stay as they are, else why not (the caller tells the person to run it themselves).

What cannot be known before it runs is never allowed: a pull (the commits arrive during it), a
bisect, a command after another git command in the same line that may move a branch.
"""

from __future__ import annotations

import hashlib
import subprocess

from cupcake import lean_os as os
from cupcake.protection.protected_set import _display, _text, _what

_TIMEOUT = 3.0
_SAFE = (
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.useBuiltinFSMonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.pager=cat",
    "-c",
    "diff.external=",
    "-c",
    "protocol.allow=never",
    "-c",
    "core.untrackedCache=false",
    "-c",
    "core.alternateRefsCommand=",
    "--no-pager",
    "--no-replace-objects",
    "--literal-pathspecs",
)


class _Git:
    def __init__(self, top: str):
        self.top = top
        self.exe = _executable()

    def run(self, *args) -> str | None:
        if self.exe is None:
            return None
        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}
        env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "HOME": "/nonexistent"})
        try:
            done = subprocess.run(
                [self.exe, *_SAFE, "-C", self.top, *args],
                capture_output=True,
                timeout=_TIMEOUT,
                env=env,
                stdin=subprocess.DEVNULL,
                check=False,
            )
        except (OSError, subprocess.SubprocessError, ValueError):
            return None
        if done.returncode != 0:
            return None
        return done.stdout.decode("utf-8", "replace")

    def commit(self, rev: str) -> str | None:
        out = self.run("rev-parse", "--verify", "-q", "--end-of-options", rev + "^{commit}")
        return out.strip() if out else None

    def same(self, a: str, b: str, pathspecs) -> bool | None:
        out = self.run(
            "diff-tree", "-r", "--name-only", "--no-renames", "--no-ext-diff", "--no-textconv", a, b, "--", *pathspecs
        )
        return None if out is None else out.strip() == ""

    def untouched(self, a: str, b: str, pathspecs) -> bool | None:
        out = self.run("rev-list", f"{a}..{b}", "--", *pathspecs)
        return None if out is None else out.strip() == ""

    def tree(self, rev: str, pathspecs) -> dict | None:
        """{path: (mode, object id)} of the protected paths in ``rev``."""
        out = self.run("ls-tree", "-r", "--full-tree", rev, "--", *pathspecs)
        if out is None:
            return None
        found = {}
        for line in out.splitlines():
            meta, _tab, path = line.partition("\t")
            parts = meta.split()
            if len(parts) == 3:
                found[path] = (parts[0], parts[2])
        return found

    def untracked(self, pathspecs, ignored: bool, standard: bool) -> bool | None:
        args = ["ls-files", "--others", "-z"]
        if ignored:
            args += ["--ignored", "--exclude-standard"]
        elif standard:
            args.append("--exclude-standard")
        out = self.run(*args, "--", *pathspecs)
        return None if out is None else out.strip("\0") != ""

    def object_format(self) -> str:
        out = self.run("rev-parse", "--show-object-format")
        return (out or "sha1").strip() or "sha1"


def _executable():
    for directory in ("/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"):
        candidate = os.path.join(directory, "git")
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def top_of(path: str):
    """The worktree holding ``path`` (a directory holding ``.git``), or None."""
    current = path.rstrip("/") or "/"
    for _ in range(64):
        if os.path.lexists(current + "/.git"):
            return current
        if current == "/":
            return None
        current = current.rsplit("/", 1)[0] or "/"
    return None


def pathspecs(top: str, protected: dict) -> list:
    """The protected paths inside the worktree ``top``, relative to it (an import glob by its directory)."""
    inside = top.rstrip("/") + "/"
    found = []
    candidates = (
        list(protected.get("files", ())) + list(protected.get("dirs", ())) + list(protected.get("settings_dirs", ()))
    )
    candidates += list(protected.get("agent_config", ())) + [prefix for prefix, _p, _e in protected.get("globs", ())]
    for path in candidates:
        if path.startswith(inside) and path[len(inside) :] not in found:
            found.append(path[len(inside) :])
    return found


MAX_CHECKS = 4  # git commands checked for one Bash call (each costs a few calls of git)


def check(cmd, write, protected: dict, moved_before: bool):
    """None when this git command leaves the protected files of its worktree as they are, else why not."""
    top = top_of(write.path) if write.path is not None else None
    if top is None:
        return "the worktree is not known"
    specs = pathspecs(top, protected)
    if not specs:
        return None
    if moved_before:
        return "another git command earlier in this line may move the branch it starts from"
    reading = cmd.reading
    sub = reading.path[1] if reading is not None and len(reading.path) > 1 else ""
    handler = _CHECKS.get(sub)
    if handler is None:
        return f"Cupcake does not check what `git {sub}` brings in"
    git = _Git(top)
    try:
        return handler(git, reading, specs)
    except Exception as exc:  # a git that misbehaves: the answer is "not known"
        return f"git could not be asked ({exc.__class__.__name__})"


def _revs(reading) -> list:
    """The revisions named (operands before ``--``, not options)."""
    words = reading.words
    cut = next((k for k, w in enumerate(words) if w.known and w.value == "--"), len(words))
    return [w for w, at in zip(reading.operands, reading.where) if at < cut]


def _switch(git, reading, specs):
    revs = _revs(reading)
    start = reading.get("-b", "-B", "--orphan", "-c", "-C", "--create", "--force-create")
    target = revs[0] if revs else None
    if start is not None and not revs:
        return None  # a new branch at HEAD
    if target is None or not target.known:
        return "the commit it switches to is not written out"
    return _moves_to(git, target.value, specs, reading.has("-f", "--force", "--discard-changes", "-m", "--merge"))


def _moves_to(git, rev: str, specs, force: bool):
    head, other = git.commit("HEAD"), git.commit(rev)
    if head is None or other is None:
        return f"git cannot resolve {rev!r} here"
    same = git.same(head, other, specs)
    if same is None:
        return "git could not compare the two commits"
    if not same:
        return f"{rev} holds other versions of Cupcake's files"
    if force:
        return _worktree_is(git, head, specs)
    return None


def _worktree_is(git, rev: str, specs):
    """None when the files on disk are exactly ``rev``'s (so replacing them by it changes nothing)."""
    tree = git.tree(rev, specs)
    if tree is None:
        return "git could not list the commit"
    algorithm = git.object_format()
    for path, (mode, oid) in tree.items():
        if _blob(os.path.join(git.top, path), mode, algorithm) != oid:
            return f"{path} differs from the committed version"
    return None


def _blob(path: str, mode: str, algorithm: str):
    try:
        if mode == "120000":
            data = os.readlink(path).encode()
        else:
            with open(path, "rb") as handle:
                data = handle.read(16 * 1024 * 1024)
    except OSError:
        return None
    digest = hashlib.sha256 if algorithm == "sha256" else hashlib.sha1
    return digest(b"blob %d\0" % len(data) + data).hexdigest()


def _merge(git, reading, specs):
    if reading.has("--abort", "--quit", "--continue"):
        return _worktree_is(git, "HEAD", specs)
    revs = _revs(reading) or [None]
    for rev in revs:
        if rev is not None and not rev.known:
            return "the commit it merges is not written out"
        found = _moves_to(git, rev.value if rev is not None else "@{upstream}", specs, False)
        if found:
            return found
    return None


def _rebase(git, reading, specs):
    if reading.has("--continue", "--abort", "--quit", "--skip", "--edit-todo", "--show-current-patch"):
        return "a rebase in progress replays commits Cupcake did not check"
    onto = reading.get("--onto")
    revs = _revs(reading)
    upstream = revs[0] if revs else None
    if upstream is not None and not upstream.known or onto is not None and not onto.known:
        return "the commit it rebases onto is not written out"
    base = upstream.value if upstream is not None else "@{upstream}"
    target = onto.value if onto is not None else base
    head = git.commit("HEAD")
    base_id, target_id = git.commit(base), git.commit(target)
    if head is None or base_id is None or target_id is None:
        return "git cannot resolve the commits of this rebase"
    untouched = git.untouched(base_id, head, specs)
    if not untouched:
        return "the commits it replays change Cupcake's files"
    return _moves_to(git, target_id, specs, False)


def _pick(git, reading, specs):
    if reading.has("--continue", "--abort", "--quit", "--skip"):
        return "a cherry-pick in progress applies commits Cupcake did not check"
    for rev in _revs(reading):
        if not rev.known:
            return "a commit it applies is not written out"
        if ".." in rev.value:
            a, _dots, b = rev.value.partition("..")
            a_id, b_id = git.commit(a or "HEAD"), git.commit(b.lstrip(".") or "HEAD")
            if a_id is None or b_id is None or not git.untouched(a_id, b_id, specs):
                return f"{rev.value} changes Cupcake's files"
            continue
        commit = git.commit(rev.value)
        parent = git.commit(rev.value + "^") if commit else None
        if commit is None or parent is None or not git.same(parent, commit, specs):
            return f"{rev.value} changes Cupcake's files"
    return None


def _stash(git, reading, specs):
    action = reading.path[2] if len(reading.path) > 2 else "push"
    if action in ("push", "save"):
        found = _worktree_is(git, "HEAD", specs)
        if found:
            return found
        if reading.has("-a", "--all") and git.untracked(specs, True, True) is not False:
            return "it would put away ignored files Cupcake keeps"
        if reading.has("-u", "--include-untracked") and git.untracked(specs, False, True) is not False:
            return "it would put away untracked Cupcake files"
        return None
    revs = _revs(reading)
    stash = revs[0].value if revs and revs[0].known else "stash@{0}"
    base, top = git.commit(stash + "^1"), git.commit(stash)
    if base is None or top is None:
        return "git cannot find that stash"
    if not git.same(base, top, specs):
        return "the stash holds changes to Cupcake's files"
    parents = (git.run("rev-parse", stash + "^@") or "").split()
    if len(parents) > 2 and git.tree(parents[2], specs) != {}:  # the untracked files it put away
        return "the stash holds Cupcake files"
    return None


def _reset(git, reading, specs):
    revs = _revs(reading)
    rev = revs[0].value if revs and revs[0].known else ("HEAD" if not revs else None)
    if rev is None:
        return "the commit it resets to is not written out"
    current = git.tree("HEAD", specs)
    target = git.tree(rev, specs)
    if current is None or target is None:
        return "git could not list the commits"
    algorithm = git.object_format()
    for path in set(current) | set(target):
        after = target.get(path)
        now = _blob(os.path.join(git.top, path), (after or current[path])[0], algorithm)
        if (after[1] if after else None) != now:
            return f"{path} would change"
    return None


def _clean(git, reading, specs):
    """Untracked files go (``-x``: ignored ones too, ``-X``: only those): none may be protected."""
    ignored_only = reading.has("-X")
    every = reading.has("-x")
    found = [git.untracked(specs, ignored_only, not every)]
    if every:
        found.append(git.untracked(specs, True, True))
    if any(f is not False for f in found):
        return "it would remove Cupcake files git does not track"
    return None


def _pull(git, reading, specs):
    return "a pull brings commits Cupcake cannot see before they arrive (run `git fetch`, then `git merge`)"


_CHECKS = {
    "checkout": _switch,
    "switch": _switch,
    "merge": _merge,
    "rebase": _rebase,
    "cherry-pick": _pick,
    "revert": _pick,
    "stash": _stash,
    "reset": _reset,
    "clean": _clean,
    "pull": _pull,
}


def worktree_block(checker, write, moved: bool):
    """Self-protection's block when git would move the worktree of a protected path and cannot show the
    protected files stay as they are (``checker``: the ``bash.Check`` of the line), else None."""
    top = top_of(write.path) if write.path is not None else None
    if top is None and write.path is not None:
        if not any(c.program == "git" and c.subcommand() in ("init", "clone") for c in checker.script.commands):
            return None  # not in a repository: git fails
        top = write.path  # a repository this command makes would start here
    holds = [(p, f) for p, f in checker.candidates() if top is None or p == top or p.startswith(top.rstrip("/") + "/")]
    if not holds:
        return None
    if write.command not in checker._git:
        checker._git.append(write.command)
    if top is None:
        why = "the worktree is not known"
    elif len(checker._git) > MAX_CHECKS:
        why = "this line holds more git commands than Cupcake checks in one call; run them one at a time"
    else:
        why = check(write.command, write, checker.protected, moved)
    if why is None:
        return None
    path, found = holds[0]
    shown = "an unknown directory" if top is None else _display(top, checker.ctx) or "."
    if shown == checker.root:
        shown = "the project"
    return _text(
        f"this command ({write.kind}) may rewrite or remove files anywhere in the git worktree of {shown}, "
        f"including {_what(path, found, checker.ctx)}, and Cupcake cannot show they stay as they are ({why}). "
        "Ask the user to run this git command themselves"
    )
