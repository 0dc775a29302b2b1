"""git: its global options, its subcommands and what each writes, runs or brings into the worktree.

A subcommand that rewrites the worktree (switching, merging, stashing, resetting…) is an ``into``
effect on ``.`` (the directory git runs in, after ``-C``) with ``language`` "git": which files it
changes depends on commits the reader does not hold, so a caller that needs to know asks git
(``cupcake.protection.git_states``). Settings that name a program (``-c core.pager=…``,
``alias.x=!…``) are ``config`` effects; ``ext::`` URLs and ``--upload-pack``/``--exec`` values run.
"""

from __future__ import annotations

from cupcake.programs.reading import literal_prefix
from cupcake.programs.spec import CONFIG, DELETES, INTO, READER, READS, RUNS, TOOL, WRITES, program
from cupcake.shell.words import Word

# Settings whose value git runs (or that make git run something): a ``*`` is any subsection.
CODE_KEYS = (
    "alias.*",
    "core.fsmonitor",
    "core.pager",
    "core.editor",
    "core.sshcommand",
    "core.hookspath",
    "core.askpass",
    "core.gitproxy",
    "core.worktree",
    "core.alternaterefscommand",
    "diff.external",
    "diff.*.command",
    "diff.*.textconv",
    "difftool.*.cmd",
    "difftool.*.path",
    "merge.*.driver",
    "mergetool.*.cmd",
    "mergetool.*.path",
    "filter.*.clean",
    "filter.*.smudge",
    "filter.*.process",
    "credential.helper",
    "credential.*.helper",
    "sequence.editor",
    "gpg.program",
    "gpg.*.program",
    "pager.*",
    "uploadpack.packobjectshook",
    "include.path",
    "includeif.*.path",
    "remote.*.uploadpack",
    "remote.*.receivepack",
    "remote.*.vcs",
    "protocol.allow",
    "protocol.*.allow",
    "web.browser",
    "browser.*.cmd",
    "browser.*.path",
    "man.*.cmd",
    "man.*.path",
    "sendemail.*cmd",
    "sendemail.smtpserver",
    "instaweb.httpd",
    "submodule.*.update",
    "interactive.difffilter",
    "init.templatedir",
    "ssh.variant",
    "receive.procreceiverefs",
    "trace2.*",
    "bisect.*",
)


def code_key(key: str) -> bool:
    """Whether setting ``key`` (``section.sub.name``, any case) names a program git may run."""
    key = key.lower()
    if "." not in key:
        return True  # not a key: git refuses it, or it is not what it seems
    return any(_star(pattern, key) for pattern in CODE_KEYS)


def _star(pattern: str, text: str) -> bool:
    """``*`` matches any run of characters (dots too); nothing else is special."""
    pieces = pattern.split("*")
    if len(pieces) == 1:
        return pattern == text
    if not text.startswith(pieces[0]) or not text.endswith(pieces[-1]):
        return False
    at = len(pieces[0])
    for piece in pieces[1:-1]:
        found = text.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return at <= len(text) - len(pieces[-1])


def _config_values(r) -> None:
    """``-c key=value`` / ``--config-env=key=VAR``: a setting that names a program is code."""
    kept = []
    for effect in r.effects:
        if effect.tag == CONFIG:
            key = effect.word.value.split("=", 1)[0]
            if effect.word.known and not code_key(key):
                continue
        kept.append(effect)
    r.effects = kept


def _urls(r, words) -> None:
    """An ``ext::`` URL runs its command (``%`` escapes a space, ``%s`` is the service name)."""
    for word in words:
        if word.value.startswith("ext::"):
            r.add(RUNS, Word(_ext_command(word.value[5:]), known=word.known), "git ext:: remote")
        elif not word.known and literal_prefix(word) in ("", "e", "ex", "ext", "ext:"):
            r.add(RUNS, Word(word.value, known=False, tokens=[3]), "git remote (not written out)")


def _ext_command(text: str) -> str:
    """git's ext:: argument list as a shell line (each argument single-quoted)."""
    args, current, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == "%" and i + 1 < len(text):
            nxt = text[i + 1]
            current.append({" ": " ", "%": "%", "s": "git-upload-pack", "S": "upload-pack"}.get(nxt, "%" + nxt))
            i += 2
            continue
        if ch == " ":
            if current:
                args.append("".join(current))
                current = []
        else:
            current.append(ch)
        i += 1
    if current:
        args.append("".join(current))
    return " ".join("'" + a.replace("'", "'\\''") + "'" for a in args)


def _worktree(what: str):
    def handler(r) -> None:
        _tree(r, what)

    return handler


def _tree(r, what: str):
    """An ``into`` effect on the worktree git runs in (``-C``, ``--work-tree`` taken in)."""
    work = r.get("--work-tree")
    effect = r.add(INTO, work if work is not None else Word("."), what, tree=True, index=len(r.words))
    effect.language = "git"
    return effect


def _each(r, words, what: str, tag: str = WRITES) -> None:
    for word in words:
        r.add(tag, word, what, tree=True, index=len(r.words))


def _split(r):
    """Operands before and after ``--`` (None when there is no ``--``)."""
    words = r.words
    if not any(w.known and w.value == "--" for w in words):
        return r.operands, None
    cut = next(k for k, w in enumerate(words) if w.known and w.value == "--")
    before = [w for w, at in zip(r.operands, r.where) if at < cut]
    after = [w for w, at in zip(r.operands, r.where) if at > cut]
    return before, after


_CREATING = ("-b", "-B", "--orphan", "-c", "-C", "--create", "--force-create")


def _checkout(r) -> None:
    before, paths = _split(r)
    sub = r.path[-1]
    if paths is not None:
        _each(r, paths, "git " + sub)
        return
    creating = r.has(*_CREATING)
    if sub == "switch" or creating:
        if creating and not before:
            return  # a new branch at HEAD: the worktree stays as it is
        _tree(r, "git switch" if sub == "switch" else "git checkout (switch)")
        return
    if r.get("--pathspec-from-file") is not None:
        _tree(r, "git checkout")
        return
    if len(before) >= 2:
        _each(r, before[1:], "git checkout")
        return
    _tree(r, "git checkout (switch)")


def _restore(r) -> None:
    if r.has("--staged", "-S") and not r.has("--worktree", "-W"):
        return
    before, paths = _split(r)
    _each(r, (paths if paths is not None else before) or [Word(".")], "git restore")


def _reset(r) -> None:
    if r.has("--hard", "--merge", "--keep"):
        _tree(r, "git reset --hard")


def _stash(r) -> None:
    """``git stash [push]`` and ``pop``/``apply`` change the worktree; list/show/drop do not."""
    action = r.path[-1] if len(r.path) > 2 else "push"
    if action in ("list", "show", "drop", "clear", "create", "store"):
        return
    if action == "branch":
        _tree(r, "git stash branch")
        return
    before, paths = _split(r)
    if action in ("push", "save") and paths:
        _each(r, paths, "git stash")
        return
    _tree(r, "git stash " + action)


def _clean(r) -> None:
    if r.has("-n", "--dry-run"):
        return
    before, paths = _split(r)
    chosen = (paths or []) + list(before)
    if chosen:
        _each(r, chosen, "git clean", DELETES)
    else:
        _tree(r, "git clean")


def _rm(r) -> None:
    if r.has("--cached", "-n", "--dry-run"):
        return
    before, paths = _split(r)
    _each(r, (paths or []) + list(before), "git rm", DELETES)


def _mv(r) -> None:
    if r.has("-n", "--dry-run"):
        return
    _each(r, r.operands, "git mv")


def _clone(r) -> None:
    _config_values(r)  # its own -c
    ops = r.operands
    _urls(r, ops[:1])
    if len(ops) >= 2:
        r.add(WRITES, ops[1], "git clone", tree=True, index=len(r.words))
    elif ops:
        url = ops[0].value.split("?", 1)[0].rstrip("/")
        name = url.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
        name = name[:-4] if name.endswith(".git") else name
        word = Word(name or "…", known=ops[0].known and bool(name))
        if not word.known:
            word.tokens = [3]
        r.add(WRITES, word, "git clone", tree=True, index=len(r.words))


def _apply(r) -> None:
    """``git apply``: the files the patch names (``--check``/``--stat``/``--cached`` touch none)."""
    r.drop(READS)
    for word in r.operands:
        r.add(READS, word, "git apply")
    if r.has("--check", "--stat", "--numstat", "--summary", "--cached") and not r.has("--apply", "--index"):
        return
    effect = _tree(r, "git apply")
    effect.language = "patch"
    effect.source = tuple(r.operands)  # none: the patch comes on standard input


def _am(r) -> None:
    if r.has("--abort", "--quit", "--show-current-patch"):
        return
    effect = _tree(r, "git am")
    effect.language = "mbox"
    effect.source = tuple(r.operands)


def _bisect(r) -> None:
    ops = r.operands
    if ops and ops[0].value == "run":
        r.inner = ops[1:]
        return
    if ops and ops[0].value in ("log", "visualize", "view", "terms", "help"):
        return
    _tree(r, "git bisect")


def _merge_file(r) -> None:
    if not r.has("-p", "--stdout") and r.operands:
        r.add(WRITES, r.operands[0], "git merge-file")


def _worktree_sub(r) -> None:
    ops = r.operands
    if not ops:
        return
    action = ops[0].value
    if action == "add" and len(ops) > 1:
        r.add(WRITES, ops[1], "git worktree add", tree=True, index=len(r.words))
    elif action == "remove" and len(ops) > 1:
        r.add(DELETES, ops[1], "git worktree remove", tree=True, index=len(r.words))
    elif action == "move" and len(ops) > 2:
        r.add(DELETES, ops[1], "git worktree move", tree=True, index=len(r.words))
        r.add(WRITES, ops[2], "git worktree move", tree=True, index=len(r.words))


def _bundle(r) -> None:
    if r.operands and r.operands[0].value == "create" and len(r.operands) > 1:
        r.add(WRITES, r.operands[1], "git bundle create")


def _config(r) -> None:
    """``git config [--file F] KEY VALUE`` (or ``git config set KEY VALUE``): a key that names a
    program is code; ``--file``/``-f`` names the file written."""
    ops = list(r.operands)
    if ops and ops[0].value in ("set", "unset", "get", "list", "edit", "rename-section", "remove-section"):
        if ops[0].value != "set":
            return
        ops = ops[1:]
    reading = r.has("--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--unset", "--unset-all")
    if r.has("-e", "--edit"):
        r.add(RUNS, Word("$EDITOR"), "git config --edit")  # the editor git names: not known
        return
    if len(ops) >= 2 and not reading:
        key = ops[0]
        if not key.known or code_key(key.value):
            r.add(CONFIG, Word(key.value + "=" + ops[1].value, known=key.known and ops[1].known), "git config")
        if key.known and key.value.lower().startswith("remote.") and key.value.lower().endswith(".url"):
            _urls(r, ops[1:2])


def _remote(r) -> None:
    ops = r.operands
    if ops and ops[0].value in ("add", "set-url") and len(ops) >= 3:
        _urls(r, ops[-1:])


def _submodule(r) -> None:
    ops = r.operands
    if ops and ops[0].value == "foreach":
        text = " ".join(w.value for w in ops[1:] if not (w.known and w.value == "--recursive"))
        r.add(RUNS, Word(text, known=all(w.known for w in ops[1:])), "git submodule foreach")
    elif ops and ops[0].value == "add":
        _urls(r, ops[1:2])


def _fetching(r) -> None:
    _urls(r, r.operands[:1])  # the repository; the rest are refspecs


def _pull(r) -> None:
    _fetching(r)
    _tree(r, "git pull")


def _grep(r) -> None:
    if r.has("-O", "--open-files-in-pager"):
        value = r.get("-O", "--open-files-in-pager")
        r.add(RUNS, value if value is not None else Word("$PAGER"), "git grep -O")


_LOG_OUTPUT = "--output=:writes --ext-diff --no-ext-diff --textconv --no-textconv -p -u --name-only --name-status"
_PATHSPEC = "--pathspec-from-file=:reads --pathspec-file-nul"

SUBCOMMANDS = {
    "rev-parse": ("rev-parse", READER, {"complete": False, "operands": "value..."}),
    "ls-files": ("ls-files", READER, {"complete": False, "operands": "value..."}),
    "shortlog": ("shortlog", READER, {"complete": False, "operands": "value..."}),
    "add": (
        "add",
        TOOL,
        {
            "options": "-n,--dry-run -v,--verbose -f,--force -i,--interactive -p,--patch -e,--edit -u,--update -A,--all --no-all --ignore-removal --no-ignore-removal -N,--intent-to-add --refresh --ignore-errors --ignore-missing --renormalize --chmod= --sparse "
            + _PATHSPEC,
            "operands": "reads...",
        },
    ),
    "am": (
        "am",
        TOOL,
        {
            "options": "-s,--signoff -k,--keep --keep-non-patch --keep-cr --no-keep-cr -c,--scissors --no-scissors --quoted-cr= -q,--quiet -u,--utf8 --no-utf8 -3,--3way --no-3way --rerere-autoupdate --no-rerere-autoupdate --ignore-space-change --ignore-whitespace --whitespace= -C= -p= --directory= --exclude= --include= --reject --patch-format= -i,--interactive --committer-date-is-author-date --ignore-date --skip -S,--gpg-sign=? --no-gpg-sign --continue,-r,--resolved --resolvemsg= --abort --quit --show-current-patch=? --empty= -m,--message-id --no-message-id --no-verify",
            "handler": _am,
        },
    ),
    "apply": (
        "apply",
        TOOL,
        {
            "options": "--stat --numstat --summary --check --index --cached --intent-to-add -3,--3way --ours --theirs --union --build-fake-ancestor=:writes -R,--reverse --reject -z -p= -C= --unidiff-zero --apply --no-add --allow-binary-replacement,--binary --exclude= --include= --ignore-space-change,--ignore-whitespace --whitespace= --inaccurate-eof -v,--verbose -q,--quiet --recount --directory= --unsafe-paths --allow-empty",
            "handler": _apply,
        },
    ),
    "archive": (
        "archive",
        TOOL,
        {
            "options": "-o,--output=:writes --format= --prefix= --add-file=:reads --add-virtual-file= --worktree-attributes -l,--list -v,--verbose --remote= --exec=:runs -0 -1 -2 -3 -4 -5 -6 -7 -8 -9"
        },
    ),
    "bisect": ("bisect", TOOL, {"operands": "value...", "handler": _bisect}),
    "blame": (
        "blame",
        READER,
        {
            "options": "-L= -l -t -S=:reads --reverse= --first-parent -p,--porcelain --line-porcelain --incremental --encoding= --contents=:reads --date= --progress --no-progress -M=? -C=? --ignore-rev= --ignore-revs-file=:reads --color-lines --color-by-age -h -c --score-debug -f,--show-name -n,--show-number -s -e,--show-email -w --abbrev=? --root"
        },
    ),
    "branch": (
        "branch",
        TOOL,
        {
            "options": "-d,--delete -D -f,--force -m,--move -M -c,--copy -C -l,--list -a,--all -r,--remotes -v,-vv,--verbose -q,--quiet --color=? --no-color --column=? --sort= --merged=? --no-merged=? --contains=? --no-contains=? --points-at= --format= -t,--track=? --no-track -u,--set-upstream-to= --unset-upstream --edit-description --show-current --abbrev= --omit-empty --create-reflog -i,--ignore-case --recurse-submodules"
        },
    ),
    "bundle": ("bundle", TOOL, {"options": "-q,--quiet --progress --all --version=", "handler": _bundle}),
    "checkout": (
        "checkout",
        TOOL,
        {
            "options": "-q,--quiet --progress --no-progress -f,--force --ours --theirs -b= -B= -t,--track=? --no-track --guess --no-guess -l --detach --orphan= --ignore-skip-worktree-bits -m,--merge --conflict= -p,--patch --ignore-other-worktrees --overwrite-ignore --no-overwrite-ignore --recurse-submodules=? --no-recurse-submodules --overlay --no-overlay "
            + _PATHSPEC,
            "handler": _checkout,
        },
    ),
    "cherry-pick": (
        "cherry-pick",
        TOOL,
        {
            "options": "-e,--edit --cleanup= -x -r -m,--mainline= -n,--no-commit -s,--signoff -S,--gpg-sign=? --no-gpg-sign --ff --allow-empty --allow-empty-message --empty= --keep-redundant-commits --strategy= -X,--strategy-option= --rerere-autoupdate --no-rerere-autoupdate --continue --skip --quit --abort",
            "handler": _worktree("git cherry-pick"),
        },
    ),
    "clean": (
        "clean",
        TOOL,
        {"options": "-d -f,--force -i,--interactive -n,--dry-run -q,--quiet -e,--exclude= -x -X", "handler": _clean},
    ),
    "clone": (
        "clone",
        TOOL,
        {
            "options": "-l,--local --no-hardlinks -s,--shared --dissociate -q,--quiet -v,--verbose --progress --server-option=,-o= -n,--no-checkout --bare --mirror -o,--origin= -b,--branch= --revision= -u,--upload-pack=:runs --template=:runs -c,--config=:config --depth= --shallow-since= --shallow-exclude= --single-branch --no-single-branch --no-tags --tags --recurse-submodules=? --shallow-submodules --no-shallow-submodules --remote-submodules --no-remote-submodules --separate-git-dir=:writes --ref-format= -j,--jobs= --reference= --reference-if-able= --filter= --also-filter-submodules --sparse --bundle-uri= --reject-shallow --no-reject-shallow",
            "handler": _clone,
        },
    ),
    "commit": (
        "commit",
        TOOL,
        {
            "options": "-a,--all -p,--patch -C,--reuse-message= -c,--reedit-message= --fixup= --squash= --reset-author --short --branch --porcelain --long -z,--null -F,--file=:reads --author= --date= -m,--message= -t,--template=:reads -s,--signoff --trailer= -n,--no-verify --verify --allow-empty --allow-empty-message --cleanup= -e,--edit --no-edit --amend --no-post-rewrite -i,--include -o,--only -u,--untracked-files=? -v,--verbose -q,--quiet --dry-run --status --no-status -S,--gpg-sign=? --no-gpg-sign "
            + _PATHSPEC
        },
    ),
    "config": (
        "config",
        TOOL,
        {
            "options": "--global --system --local --worktree -f,--file=:writes --blob= --get --get-all --get-regexp --get-urlmatch --replace-all --add --unset --unset-all --rename-section --remove-section -l,--list --fixed-value --type= --bool --int --bool-or-int --path --expiry-date --no-type -z,--null --name-only --show-origin --show-scope --get-color --get-colorbool -e,--edit --includes --no-includes --default= --all --regexp --value= --comment=",
            "handler": _config,
        },
    ),
    "describe": (
        "describe",
        READER,
        {
            "options": "--dirty=? --broken=? --all --tags --contains --abbrev= --candidates= --exact-match --debug --long --match= --exclude= --always --first-parent"
        },
    ),
    "diff": (
        "diff",
        READER,
        {
            "options": _LOG_OUTPUT
            + " --stat=? --cached --staged --no-index --merge-base -R --exit-code --quiet -M=? -C=? -U,--unified= -W,--function-context --word-diff=? --color=? --no-color --relative=? -a,--text --diff-filter= -S= -G= --find-object= -O= --src-prefix= --dst-prefix= --no-prefix --ignore-submodules=? --submodule=? --stat-width= --dirstat=? --shortstat --numstat --summary --patch-with-stat -z --abbrev=? --full-index --binary --minimal --patience --histogram --anchored= --diff-algorithm= --ignore-space-change,-b --ignore-all-space,-w --ignore-blank-lines --ignore-cr-at-eol -I= --inter-hunk-context= --raw --check --ws-error-highlight= --line-prefix= --ita-invisible-in-index --ita-visible-in-index --output-indicator-new= --output-indicator-old= --output-indicator-context= -B=? -D,--irreversible-delete -l= --rename-empty --no-renames --default-prefix"
        },
    ),
    "difftool": (
        "difftool",
        TOOL,
        {
            "options": "-d,--dir-diff -y,--no-prompt --prompt --rotate-to= --skip-to= -t,--tool= --tool-help --symlinks --no-symlinks -x,--extcmd=:runs -g,--gui --no-gui --trust-exit-code --no-trust-exit-code --cached --staged",
            "language": "sh",
        },
    ),
    "fetch": (
        "fetch",
        TOOL,
        {
            "options": "--all -a,--append --atomic --depth= --deepen= --shallow-since= --shallow-exclude= --unshallow --update-shallow --negotiation-tip= --negotiate-only --dry-run --porcelain --write-fetch-head --no-write-fetch-head -f,--force -k,--keep --multiple --auto-maintenance,--auto-gc --no-auto-maintenance --write-commit-graph -p,--prune -P,--prune-tags -n,--no-tags --refetch --refmap= -t,--tags --recurse-submodules=? -j,--jobs= --no-recurse-submodules --set-upstream --submodule-prefix= --recurse-submodules-default= -u,--update-head-ok --upload-pack=:runs -q,--quiet -v,--verbose --progress -o,--server-option= --show-forced-updates --no-show-forced-updates -4,--ipv4 -6,--ipv6 --filter=",
            "handler": _fetching,
        },
    ),
    "filter-branch": (
        "filter-branch",
        TOOL,
        {
            "options": "--setup=:runs --subdirectory-filter= --env-filter=:runs --tree-filter=:runs --index-filter=:runs --parent-filter=:runs --msg-filter=:runs --commit-filter=:runs --tag-name-filter=:runs --prune-empty --original= -d= --state-branch= -f,--force",
            "handler": _worktree("git filter-branch"),
            "language": "sh",
        },
    ),
    "format-patch": (
        "format-patch",
        TOOL,
        {
            "options": "-o,--output-directory=:into --output=:writes -n,--numbered -N,--no-numbered --start-number= --numbered-files -k,--keep-subject -s,--signoff --stdout --cover-letter --attach=? --inline=? --thread=? --in-reply-to= --to= --cc= --from=? --subject-prefix= --rfc --suffix= -v,--reroll-count= --base= --notes=?"
        },
    ),
    "grep": (
        "grep",
        TOOL,
        {
            "options": "--cached --no-index --untracked --no-exclude-standard --exclude-standard --recurse-submodules -a,--text --textconv --no-textconv -i,--ignore-case -I --max-depth= -r,--recursive --no-recursive -w,--word-regexp -v,--invert-match -h -H --full-name -E,--extended-regexp -G,--basic-regexp -P,--perl-regexp -F,--fixed-strings -n,--line-number --column -l,--files-with-matches --name-only -L,--files-without-match -O,--open-files-in-pager=? -z,--null -o,--only-matching -c,--count --color=? --no-color --break --heading -p,--show-function -A,--after-context= -B,--before-context= -C,--context= -W,--function-context -m,--max-count= --threads= -f=:reads -e= --and --or --not --all-match -q,--quiet",
            "handler": _grep,
        },
    ),
    "init": (
        "init",
        TOOL,
        {
            "options": "-q,--quiet --bare --object-format= --ref-format= --template=:runs --separate-git-dir=:writes -b,--initial-branch= --shared=?",
            "operands": "writes",
        },
    ),
    "log": (
        "log",
        READER,
        {
            "options": _LOG_OUTPUT
            + " --follow --no-decorate --decorate=? --decorate-refs= --source --mailmap --use-mailmap --full-diff --log-size -L= -n,--max-count= --skip= --since=,--after= --until=,--before= --author= --committer= --grep= --all-match --invert-grep -i,--regexp-ignore-case --merges --no-merges --first-parent --all --branches=? --tags=? --remotes=? --glob= --exclude= --reflog --oneline --pretty=? --format= --abbrev-commit --graph --date= --reverse --walk-reflogs,-g --color=? --no-color -z --topo-order --date-order --author-date-order --stat=? --shortstat --numstat --patch-with-stat --cherry-pick --cherry-mark --left-right --boundary --simplify-by-decoration --ancestry-path=? --show-signature --notes=? --no-notes -S= -G= --pickaxe-all --pickaxe-regex -M=? -C=? --diff-filter= --relative=? -m --cc -c --no-walk=? --do-walk --not --encoding= --expand-tabs=? --no-expand-tabs --abbrev=? --no-abbrev-commit -U,--unified= --word-diff=?"
        },
    ),
    "ls-remote": (
        "ls-remote",
        TOOL,
        {
            "options": "-h,--heads -t,--tags -b,--branches --refs --upload-pack=:runs -q,--quiet --exit-code --get-url --sort= --symref -o,--server-option=",
            "handler": _fetching,
        },
    ),
    "merge": (
        "merge",
        TOOL,
        {
            "options": "--commit --no-commit -e,--edit --no-edit --cleanup= --ff --no-ff --ff-only -S,--gpg-sign=? --no-gpg-sign --log=? --no-log --signoff --no-signoff --stat -n --no-stat --squash --no-squash --verify --no-verify -s,--strategy= -X,--strategy-option= --verify-signatures --no-verify-signatures -q,--quiet -v,--verbose --progress --no-progress --autostash --no-autostash --allow-unrelated-histories -m= -F,--file=:reads --into-name= --rerere-autoupdate --no-rerere-autoupdate --overwrite-ignore --no-overwrite-ignore --abort --quit --continue",
            "handler": _worktree("git merge"),
        },
    ),
    "merge-file": (
        "merge-file",
        TOOL,
        {
            "options": "-p,--stdout -q,--quiet --diff3 --zdiff3 --ours --theirs --union -L= --marker-size= --object-id --diff-algorithm=",
            "handler": _merge_file,
        },
    ),
    "mergetool": (
        "mergetool",
        TOOL,
        {
            "options": "-t,--tool= --tool-help -y,--no-prompt --prompt -g,--gui --no-gui -O=",
            "handler": _worktree("git mergetool"),
        },
    ),
    "mv": ("mv", TOOL, {"options": "-f,--force -k -n,--dry-run -v,--verbose --sparse", "handler": _mv}),
    "pull": (
        "pull",
        TOOL,
        {
            "options": "-q,--quiet -v,--verbose --recurse-submodules=? --no-recurse-submodules --commit --no-commit -e,--edit --no-edit --cleanup= --ff --no-ff --ff-only -S,--gpg-sign=? --no-gpg-sign --log=? --no-log --signoff --no-signoff --stat -n,--no-stat --squash --no-squash --verify --no-verify -s,--strategy= -X,--strategy-option= --verify-signatures --no-verify-signatures --summary --no-summary --autostash --no-autostash --allow-unrelated-histories -r,--rebase=? --no-rebase --all -a,--append --upload-pack=:runs -f,--force -t,--tags -p,--prune -j,--jobs= --dry-run -k,--keep --depth= --deepen= --shallow-since= --shallow-exclude= --unshallow --update-shallow --refmap= -o,--server-option= -4,--ipv4 -6,--ipv6 --progress --set-upstream",
            "handler": _pull,
        },
    ),
    "push": (
        "push",
        TOOL,
        {
            "options": "--all --branches --prune --mirror -n,--dry-run --porcelain -d,--delete --tags --follow-tags --signed=? --no-signed --atomic --no-atomic -o,--push-option= --receive-pack,--exec=:runs --repo= -f,--force --force-with-lease=? --no-force-with-lease --force-if-includes -u,--set-upstream --thin --no-thin -q,--quiet -v,--verbose --progress --recurse-submodules= --no-recurse-submodules --verify --no-verify -4,--ipv4 -6,--ipv6",
            "handler": _fetching,
        },
    ),
    "read-tree": (
        "read-tree",
        TOOL,
        {
            "options": "-m --reset -u -i -n,--dry-run -v --trivial --aggressive --prefix= --index-output=:writes --no-sparse-checkout --empty -q,--quiet --recurse-submodules=?",
            "handler": lambda r: _tree(r, "git read-tree -u") if r.has("-u") else None,
        },
    ),
    "rebase": (
        "rebase",
        TOOL,
        {
            "options": "--onto= --keep-base --continue --abort --quit --edit-todo --show-current-patch --skip --apply -m,--merge --empty= --no-keep-empty --keep-empty --reapply-cherry-picks --no-reapply-cherry-picks --allow-empty-message -s,--strategy= -X,--strategy-option= --rerere-autoupdate --no-rerere-autoupdate -S,--gpg-sign=? --no-gpg-sign -q,--quiet -v,--verbose --stat -n,--no-stat --no-verify --verify -C= --ignore-whitespace --whitespace= --committer-date-is-author-date --ignore-date,--reset-author-date --signoff -i,--interactive -r,--rebase-merges=? --no-rebase-merges -x,--exec=:runs --root --autosquash --no-autosquash --autostash --no-autostash --reschedule-failed-exec --no-reschedule-failed-exec --update-refs --no-update-refs --fork-point --no-fork-point -f,--force-rebase,--no-ff",
            "handler": _worktree("git rebase"),
            "language": "sh",
        },
    ),
    "reflog": ("reflog", TOOL, {"operands": "value..."}),
    "remote": (
        "remote",
        TOOL,
        {
            "options": "-v,--verbose -f -t= -m= --tags --no-tags --mirror=? --push --add --delete --all -n --dry-run",
            "handler": _remote,
        },
    ),
    "reset": (
        "reset",
        TOOL,
        {
            "options": "--soft --mixed --hard --merge --keep -N -q,--quiet --no-quiet -p,--patch --recurse-submodules=? --no-recurse-submodules --refresh --no-refresh "
            + _PATHSPEC,
            "handler": _reset,
        },
    ),
    "restore": (
        "restore",
        TOOL,
        {
            "options": "-s,--source= -p,--patch -W,--worktree -S,--staged -q,--quiet --progress --no-progress --ours --theirs -m,--merge --conflict= --ignore-unmerged --ignore-skip-worktree-bits --recurse-submodules=? --no-recurse-submodules --overlay --no-overlay "
            + _PATHSPEC,
            "handler": _restore,
        },
    ),
    "revert": (
        "revert",
        TOOL,
        {
            "options": "-e,--edit --no-edit --cleanup= -m,--mainline= -n,--no-commit -S,--gpg-sign=? --no-gpg-sign -s,--signoff --strategy= -X,--strategy-option= --rerere-autoupdate --no-rerere-autoupdate --reference --continue --skip --quit --abort",
            "handler": _worktree("git revert"),
        },
    ),
    "rm": (
        "rm",
        TOOL,
        {
            "options": "-f,--force -n,--dry-run -r --cached --ignore-unmatch --sparse -q,--quiet " + _PATHSPEC,
            "handler": _rm,
        },
    ),
    "send-email": (
        "send-email",
        TOOL,
        {
            "options": "--to-cmd=:runs --cc-cmd=:runs --header-cmd=:runs --sendmail-cmd=:runs --smtp-server= --identity= --to= --cc= --bcc= --from= --subject= --in-reply-to= --annotate --compose --confirm= --dry-run --quiet",
            "complete": False,
            "language": "sh",
        },
    ),
    "show": (
        "show",
        READER,
        {
            "options": _LOG_OUTPUT
            + " --pretty=? --format= --abbrev-commit --oneline --color=? --no-color -s,--no-patch -q,--quiet --stat=? --encoding= --notes=? --show-signature -U,--unified= -W -M=? -C=? --diff-filter= --word-diff=? -m --cc -c --first-parent"
        },
    ),
    "sparse-checkout": (
        "sparse-checkout",
        TOOL,
        {
            "handler": lambda r: (
                _tree(r, "git sparse-checkout")
                if r.operands and r.operands[0].value not in ("list", "check-rules")
                else None
            )
        },
    ),
    "stash": (
        "stash",
        TOOL,
        {
            "options": "-p,--patch -S,--staged -k,--keep-index --no-keep-index -u,--include-untracked --no-include-untracked -a,--all -q,--quiet -m,--message= --index "
            + _PATHSPEC,
            "subcommands": {
                name: (name, TOOL, {})
                for name in (
                    "push",
                    "save",
                    "pop",
                    "apply",
                    "list",
                    "show",
                    "drop",
                    "clear",
                    "create",
                    "store",
                    "branch",
                )
            },
            "default": "push",
            "handler": _stash,
        },
    ),
    "status": (
        "status",
        READER,
        {
            "options": "-s,--short -b,--branch --show-stash --porcelain=? --long -v,--verbose -u,--untracked-files=? --ignore-submodules=? --ignored=? -z --column=? --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames=?"
        },
    ),
    "submodule": (
        "submodule",
        TOOL,
        {
            "options": "-q,--quiet --recursive --init --remote --cached --force --depth= -b,--branch= --name= --reference= -N,--no-fetch --checkout --merge --rebase --jobs=",
            "handler": _submodule,
            "language": "sh",
        },
    ),
    "switch": (
        "switch",
        TOOL,
        {
            "options": "-c,--create= -C,--force-create= --orphan= -d,--detach -f,--force,--discard-changes -m,--merge --conflict= -q,--quiet --progress --no-progress -t,--track=? --no-track --guess --no-guess --ignore-other-worktrees --recurse-submodules=? --no-recurse-submodules",
            "handler": _checkout,
        },
    ),
    "tag": (
        "tag",
        TOOL,
        {
            "options": "-a,--annotate -s,--sign --no-sign -u,--local-user= -f,--force -d,--delete -v,--verify -n= -l,--list --sort= --color=? -i,--ignore-case --omit-empty --column=? --contains=? --no-contains=? --merged=? --no-merged=? --points-at= --format= --create-reflog -m,--message= -F,--file=:reads --trailer= -e,--edit --cleanup="
        },
    ),
    "worktree": (
        "worktree",
        TOOL,
        {
            "options": "-f,--force --detach --checkout --no-checkout --guess-remote --no-guess-remote --track --no-track --lock --reason= -q,--quiet -b= -B= --orphan -v,--verbose --expire= --porcelain -z",
            "handler": _worktree_sub,
        },
    ),
    "checkout-index": (
        "checkout-index",
        TOOL,
        {
            "options": "-u,--index -q,--quiet -a,--all -f,--force -n,--no-create --prefix=:into --stage= --temp --ignore-skip-worktree-bits --stdin -z",
            "handler": lambda r: _tree(r, "git checkout-index"),
        },
    ),
}

SPECS = (
    program(
        "git",
        TOOL,
        options="-C=:chdir -c=:config --config-env=:config --exec-path=?:unknown --git-dir= --work-tree= --namespace= "
        "--super-prefix= -p,--paginate -P,--no-pager --bare --no-replace-objects --literal-pathspecs "
        "--glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks --no-advice --no-lazy-fetch "
        "--list-cmds= --attr-source= -v,--version -h,--help --html-path --man-path --info-path",
        style="posix",
        subcommands=SUBCOMMANDS,
        language="sh",
        handler=_config_values,
        examples=(
            "git status => passes",
            "git -C src checkout -- a.txt => writes a.txt (tree)",
            "git checkout . => into . (tree)",
            "git checkout -b feature => passes",
            "git checkout main => into . (tree)",
            "git stash => into . (tree)",
            "git stash pop => into . (tree)",
            "git stash list => passes",
            "git reset --hard => into . (tree)",
            "git clean -n => passes",
            "git clean -fdx => into . (tree)",
            "git diff --output=out.txt => writes out.txt",
            "git diff --out=out.txt => passes",
            "git archive -o a.tar HEAD => writes a.tar",
            "git bundle create b.bundle HEAD => writes b.bundle",
            "git merge-file a base b => writes a",
            "git worktree add ../wt => writes ../wt (tree)",
            "git -c core.pager='rm x' log => config core.pager=rm x",
            "git -c user.name=me commit -m x => passes",
            "git -c alias.x='!rm y' x => config alias.x=!rm y",
            "git clone 'ext::sh -c rm% x' d => runs 'sh' '-c' 'rm x'; writes d (tree)",
            "git rebase -x 'rm x' main => runs rm x; into . (tree)",
            "git config core.fsmonitor 'rm x' => config core.fsmonitor=rm x",
            "git config user.email a@b => passes",
            "git submodule foreach 'rm x' => runs rm x",
            "git apply --check p.diff => reads p.diff",
            "git apply p.diff => reads p.diff; into . (tree)",
            "git pull => into . (tree)",
            "git rm --cached a => passes",
            "git rm a => deletes a (tree)",
        ),
    ),
)
