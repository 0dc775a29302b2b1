"""Programs that remove, move, copy, link, create or re-mode files (coreutils and kin): the everyday
file tools. ``find`` is ``finding``'s; the tools below them (special files, mounts, attributes, batch
renames, overwriting) are ``filesystem``'s; the data transformers that write files (``sort -o``,
``split``, ``dd``) are ``text``'s."""

from __future__ import annotations

from cupcake.programs import paths
from cupcake.programs.spec import DELETES, LINKS, MODE, READS, TOOL, WRITES, program
from cupcake.shell.words import Word


def _rm(r) -> None:
    tree = r.has("-r", "--recursive")
    r.drop(DELETES)
    for word in r.operands:
        r.add(DELETES, word, "rm", tree=tree)


def _rmdir(r) -> None:
    if r.has("-p", "--parents"):  # rmdir -p a/b/c removes c, then b, then a
        for word in list(r.operands):
            parts = word.value.rstrip("/").split("/")
            for k in range(1, len(parts)):
                r.add(DELETES, Word("/".join(parts[:k]), known=word.known), "rmdir -p")


def _mv(r) -> None:
    paths.copy(r, "mv", tree=True, sources_effect=DELETES)


def _cp(r) -> None:
    tree = r.has("-r", "-R", "--recursive", "-a", "--archive")
    linking = r.has("-l", "--link", "-s", "--symbolic-link")
    paths.copy(r, "cp onto", tree, sources_effect=LINKS if linking else READS)


def _install(r) -> None:
    if r.has("-d", "--directory"):
        for word in r.operands:
            r.add(WRITES, word, "install -d")
        return
    paths.copy(r, "install", False, sources_effect=READS)


def _ln(r) -> None:
    ops = r.operands
    target = r.get("-t", "--target-directory")
    if target is None and len(ops) == 1:  # ln SOURCE: a link named like SOURCE, here
        r.add(LINKS, ops[0], "ln source")
        r.add(WRITES, paths.last(ops[0]), "ln")
        return
    paths.copy(r, "ln", False, sources_effect=LINKS, pour=False)


def _link(r) -> None:
    if len(r.operands) == 2:
        r.add(LINKS, r.operands[0], "link source")
        r.add(WRITES, r.operands[1], "link")


def _mode(r) -> None:
    """chmod/chown/chgrp: the first operand is the mode or owner unless ``--reference`` is given."""
    ops = r.operands if r.has("--reference") else r.operands[1:]
    ops = [w for w in ops if w.value != "MODE"]
    tree = r.has("-R", "--recursive")
    name = r.path[0]
    for word in ops:
        r.add(MODE, word, name, tree=tree)


def _mode_first(words):
    """``chmod -w file``: a mode that starts with ``-`` is the mode, not an option (GNU chmod reads
    it so); it is replaced by a placeholder operand, which ``_mode`` skips."""
    out = list(words)
    for k in range(1, len(out)):
        value = out[k].value
        if out[k].known and len(value) > 1 and value[0] == "-" and value[1] in "rwxXstugoa":
            if all(c in "rwxXstugoa=+-,01234567" for c in value[1:]):
                out[k] = Word("MODE")
                break
    return out


def _mktemp(r) -> None:
    """A new file of a random name: it replaces nothing. Said as its pattern (``tmp.??????????``)."""
    r.drop(WRITES)


_CP = (
    "-a,--archive --attributes-only --backup=? -b --copy-contents -d -f,--force -i,--interactive -H -l,--link "
    "-L,--dereference -n,--no-clobber -P,--no-dereference -p --preserve=? --no-preserve= --parents -R,-r,--recursive "
    "--reflink=? --remove-destination --sparse= --strip-trailing-slashes -s,--symbolic-link -S,--suffix= "
    "-t,--target-directory= -T,--no-target-directory -u --update=? -v,--verbose --keep-directory-symlink "
    "-x,--one-file-system -Z --context=? --debug"
)


SPECS = (
    program(
        "rm",
        TOOL,
        aliases=("grm", "srm"),
        options="-f,--force -i -I --interactive=? --one-file-system --no-preserve-root --preserve-root=? "
        "-r,-R,--recursive -d,--dir -v,--verbose",
        operands="deletes...",
        handler=_rm,
        examples=(
            "rm -rf build => deletes build (tree)",
            "rm -fr a b => deletes a (tree); deletes b (tree)",
            "rm -- -f => deletes -f",
            "rm --recur x => deletes x (tree)",
            "rm x.txt => deletes x.txt",
        ),
    ),
    program(
        "rmdir",
        TOOL,
        options="--ignore-fail-on-non-empty -p,--parents -v,--verbose",
        operands="deletes...",
        handler=_rmdir,
        examples=("rmdir a => deletes a", "rmdir -p a/b => deletes a/b; deletes a"),
    ),
    program("unlink", TOOL, operands="deletes", examples=("unlink x => deletes x",)),
    program(
        "mv",
        TOOL,
        aliases=("gmv",),
        options="--backup=? -b --debug --exchange -f,--force -i,--interactive -n,--no-clobber --no-copy "
        "--strip-trailing-slashes -S,--suffix= -t,--target-directory= -T,--no-target-directory -u --update=? "
        "-v,--verbose -Z,--context",
        handler=_mv,
        examples=(
            "mv a b => deletes a (tree); writes b (tree); writes b/a (tree)",
            "mv a b dir/ => deletes a (tree); deletes b (tree); writes dir/a (tree); writes dir/b (tree)",
            "mv -t dir a => deletes a (tree); writes dir/a (tree)",
            "mv --targ=dir a => deletes a (tree); writes dir/a (tree)",
        ),
    ),
    program(
        "cp",
        TOOL,
        aliases=("gcp",),
        options=_CP,
        handler=_cp,
        examples=(
            "cp a b => reads a; writes b; writes b/a",
            "cp -r t/. . => reads t/. (tree); into . (tree)",
            "cp -l a b => links a; writes b; writes b/a",
            "cp --targ=d a => reads a; writes d/a",
            "cp -rT src dst => reads src (tree); writes dst (tree)",
        ),
    ),
    program(
        "install",
        TOOL,
        options="--backup=? -b -c -C,--compare -d,--directory -D -g,--group= -m,--mode= -o,--owner= "
        "-p,--preserve-timestamps -s,--strip --strip-program=:runs -S,--suffix= -t,--target-directory= "
        "-T,--no-target-directory -v,--verbose --preserve-context -Z --context=?",
        handler=_install,
        language="sh",
        examples=("install -d out => writes out", "install -m 755 a bin/a => reads a; writes bin/a; writes bin/a/a"),
    ),
    program(
        "ln",
        TOOL,
        options="--backup=? -b -d,-F,--directory -f,--force -i,--interactive -L,--logical -n,--no-dereference "
        "-P,--physical -r,--relative -s,--symbolic -S,--suffix= -t,--target-directory= -T,--no-target-directory "
        "-v,--verbose",
        handler=_ln,
        examples=(
            "ln -s /tmp/x link => links /tmp/x; writes link; writes link/x",
            "ln cupcake.toml => links cupcake.toml; writes cupcake.toml",
        ),
    ),
    program("link", TOOL, handler=_link, examples=("link a b => links a; writes b",)),
    program(
        "touch",
        TOOL,
        options="-a -c,--no-create -d,--date= -f -h,--no-dereference -m -r,--reference=:reads -t= --time=",
        operands="writes...",
        examples=("touch a b => writes a; writes b", "touch -r ref a => reads ref; writes a"),
    ),
    program(
        "truncate",
        TOOL,
        options="-c,--no-create -o,--io-blocks -r,--reference=:reads -s,--size=",
        operands="writes...",
        examples=("truncate -s 0 x => writes x",),
    ),
    program(
        "tee",
        TOOL,
        options="-a,--append -i,--ignore-interrupts -p --output-error=?",
        operands="writes...",
        examples=("tee -a log => writes log",),
    ),
    program(
        "sponge",
        TOOL,
        options="-a",
        operands="writes",
        examples=("sponge f => writes f",),
    ),
    program(
        "chmod",
        TOOL,
        options="-c,--changes -f,--silent,--quiet -v,--verbose --no-preserve-root --preserve-root "
        "-R,--recursive --reference=:reads",
        preparse=_mode_first,
        handler=_mode,
        examples=("chmod 000 x => mode x", "chmod -R 755 d => mode d (tree)", "chmod -w x => mode x"),
    ),
    program(
        "chown",
        TOOL,
        aliases=("chgrp",),
        options="-c,--changes -f,--silent,--quiet -v,--verbose --dereference -h,--no-dereference --from= "
        "--no-preserve-root --preserve-root -R,--recursive --reference=:reads -H -L -P",
        handler=_mode,
        examples=("chown me x => mode x", "chown -R me:me d => mode d (tree)"),
    ),
    program(
        "mkdir",
        TOOL,
        options="-m,--mode= -p,--parents -v,--verbose -Z --context=?",
        operands="writes...",
        examples=("mkdir -p a/b => writes a/b",),
    ),
    program(
        "mktemp",
        TOOL,
        options="-d,--directory -u,--dry-run -q,--quiet --suffix= -p= --tmpdir=? -t",
        handler=_mktemp,
        examples=("mktemp => passes", "mktemp -d -t x.XXXX => passes"),
    ),
)
