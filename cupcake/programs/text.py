"""Programs that transform text or data or apply patches, and write where their options say: xxd,
patch, yq, tidy, xmllint, sdiff, dos2unix, the formatters that rewrite the files they are given, and
the coreutils that write their output to a file (``sort -o``, ``split``, ``dd of=``, ``uniq IN OUT``)."""

from __future__ import annotations

from cupcake.programs.spec import INTO, POSIX, READS, STDIN_CODE, TOOL, WRITES, program
from cupcake.shell.words import ONE, Word


def _xxd(r) -> None:
    """``xxd [IN [OUT]]`` writes OUT (a dump, or with ``-r`` the bytes back)."""
    r.drop(READS, WRITES)
    if r.operands and r.operands[0].value != "-":
        r.add(READS, r.operands[0], "xxd")
    if len(r.operands) > 1:
        r.add(WRITES, r.operands[1], "xxd -r" if r.has("-r", "-revert") else "xxd")


def _patch(r) -> None:
    """``patch [ORIGFILE [PATCHFILE]]``: the files the patch names (read from PATCHFILE, ``-i``
    or standard input), under ``-d``; ORIGFILE when given; nothing with ``--dry-run``."""
    r.drop(READS, WRITES)
    if r.has("--dry-run", "-C", "--check"):
        return
    if r.has("-e", "--ed"):
        r.add(STDIN_CODE, None, "patch -e").language = "ed"
        return
    source = r.get("-i", "--input") or (r.operands[1] if len(r.operands) > 1 else None)
    if len(r.operands) > 1:
        r.add(READS, r.operands[1], "patch")
    if r.operands and r.operands[0].value != "-":
        r.add(WRITES, r.operands[0], "patch")
        return
    effect = r.add(INTO, Word("."), "patch", tree=True)
    effect.language = "patch"
    effect.source = () if source is None else (source,)  # none: standard input
    strip = r.get("-p", "--strip")
    if strip is not None:
        effect.what = f"patch -p{strip.value}"


def _apply_patch(r) -> None:
    """Codex's ``apply_patch``: the patch (its argument, or standard input) names the files it adds,
    updates, deletes and moves to."""
    effect = r.add(INTO, Word("."), "apply_patch", tree=True)
    effect.language = "codex-patch"
    effect.source = tuple(r.operands[:1])


def _in_place(flags: tuple, what: str):
    """A formatter that rewrites its file operands when one of ``flags`` is given."""

    def handler(r) -> None:
        r.drop(READS)
        if r.has(*flags):
            for word in r.operands:
                r.add(WRITES, word, what)
        else:
            for word in r.operands:
                r.add(READS, word, r.path[0])

    return handler


def _unless(flags: tuple, what: str):
    """A formatter that rewrites its file operands unless one of ``flags`` is given."""

    def handler(r) -> None:
        r.drop(READS, WRITES)
        for word in r.operands:
            r.add(READS if r.has(*flags) else WRITES, word, what)

    return handler


def _dos2unix(r) -> None:
    """In place, or ``-n IN OUT`` pairs (the second of each pair is written)."""
    r.drop(WRITES)
    pairs = r.has("-n", "--newfile")
    for k, word in enumerate(r.operands):
        if pairs and k % 2 == 0:
            r.add(READS, word, r.path[0])
        else:
            r.add(WRITES, word, r.path[0])


def _dd_words(words):
    """``dd if=a of=b``: each ``key=value`` operand as the option ``--key=value``."""
    out = [words[0]]
    for word in words[1:]:
        if word.value[:1] != "-" and "=" in word.value[:8]:
            out.append(
                Word(
                    "--" + word.value,
                    "--" + word.raw,
                    word.known,
                    word.glob,
                    word.quoted,
                    None if word.tokens is None else ["-", "-", *word.tokens],
                )
            )
        else:
            out.append(word)
    return out


def _split(r) -> None:
    """``split [FILE [PREFIX]]``: files PREFIXaa, PREFIXab, … (``x`` when no prefix is given)."""
    r.drop(WRITES)
    prefix = r.operands[1] if len(r.operands) > 1 else Word("x")
    suffix = r.get("--additional-suffix")
    pattern = prefix.pattern() + [ONE, ONE] + (suffix.pattern() if suffix is not None else [])
    r.add(
        WRITES,
        Word(prefix.value + "??" + (suffix.value if suffix else ""), known=prefix.known, glob=True, tokens=pattern),
        "split",
    )


def _csplit(r) -> None:
    prefix = r.get("-f", "--prefix") or Word("xx")
    r.add(
        WRITES, Word(prefix.value + "??", known=prefix.known, glob=True, tokens=prefix.pattern() + [ONE, ONE]), "csplit"
    )


def _uniq(r) -> None:
    r.drop(READS, WRITES)
    if r.operands:
        r.add(READS, r.operands[0], "uniq")
    if len(r.operands) > 1:
        r.add(WRITES, r.operands[1], "uniq")


SPECS = (
    program(
        "xxd",
        TOOL,
        options="-a,-autoskip -b,-bits -C,-capitalize -c,-cols= -E,-EBCDIC -e -g,-groupsize= -h,-help -i,-include "
        "-l,-len= -n,-name= -o,-offset= -p,-ps,-postscript,-plain -r,-revert -d -R= -s,-seek= -u -v,-version",
        style=POSIX,
        single_dash=True,
        handler=_xxd,
        examples=(
            "xxd -r dump out => reads dump; writes out",
            "xxd f => reads f",
            "xxd -revert d o => reads d; writes o",
        ),
    ),
    program(
        "patch",
        TOOL,
        options="-b,--backup -B,--prefix= --backup-if-mismatch --no-backup-if-mismatch -c,--context -C,--check "
        "-d,--directory=:chdir -D,--ifdef= --dry-run -e,--ed -E,--remove-empty-files -f,--force -F,--fuzz= "
        "-g,--get= -i,--input=:reads -l,--ignore-whitespace --merge=? -n,--normal -N,--forward -o,--output=:writes "
        "-p,--strip= --posix --quoting-style= -r,--reject-file=:writes --read-only= --reject-format= -R,--reverse "
        "-s,--quiet,--silent -t,--batch -T,--set-time -u,--unified -V,--version-control= --verbose "
        "-x,--debug= -Y,--basename-prefix= -z,--suffix= -Z,--set-utc --follow-symlinks --binary",
        handler=_patch,
        examples=(
            "patch -p1 => into . (tree)",
            "patch -p1 -i fix.diff => reads fix.diff; into . (tree)",
            "patch -d src -p0 => into . (tree)",
            "patch --dry-run -p1 => passes",
            "patch f.c fix.diff => reads fix.diff; writes f.c",
            "patch -o out.c f.c d => writes out.c; reads d; writes f.c",
        ),
    ),
    program(
        "apply_patch",
        TOOL,
        aliases=("applypatch",),
        operands="value",
        handler=_apply_patch,
        examples=("apply_patch => into . (tree)",),
    ),
    program(
        "yq",
        TOOL,
        options="-i,--inplace -o,--output-format= -p,--input-format= -e,--exit-status -n,--null-input -r,--unwrapQuote "
        "-s,--split-exp= -C,--colors -M,--no-colors -I,--indent= --from-file=:reads -P,--prettyPrint --front-matter= "
        "--expression=",
        subcommands={"eval": ("eval", TOOL, {}), "e": "eval", "eval-all": ("eval-all", TOOL, {}), "ea": "eval-all"},
        handler=None,
        complete=False,
        examples=("yq -i '.a = 1' f.yaml => passes",),
    ),
    program(
        "tidy",
        TOOL,
        options="-o,-output=:writes -config=:reads -f,-file=:writes -m,-modify -q,-quiet -i,-indent -w,-wrap= "
        "-xml -asxml -asxhtml -ashtml -utf8 -e,-errors -c,-clean -b,-bare -n,-numeric",
        single_dash=True,
        complete=False,
        handler=_in_place(("-m", "-modify"), "tidy -m"),
        examples=(
            "tidy -m index.html => writes index.html",
            "tidy -o out.html in.html => writes out.html; reads in.html",
        ),
    ),
    program(
        "xmllint",
        TOOL,
        options="--output=:writes -o --format --noout --xpath= --schema=:reads --relaxng=:reads --dtdvalid=:reads "
        "--encode= --noblanks --recover --nonet --path= --xinclude --valid --html",
        operands="reads...",
        complete=False,
        examples=("xmllint --format --output out.xml in.xml => writes out.xml; reads in.xml",),
    ),
    program(
        "sdiff",
        TOOL,
        options="-o,--output=:writes -i -b -W -Z -E -B -d -H -I= -l -s -t -w= --strip-trailing-cr --diff-program=:runs "
        "--ignore-case --ignore-all-space --ignore-space-change --ignore-tab-expansion --ignore-blank-lines "
        "--ignore-matching-lines= --left-column --suppress-common-lines --expand-tabs --width= --minimal "
        "--speed-large-files --text -a --tabsize=",
        operands="reads...",
        language="sh",
        examples=("sdiff -o merged a b => writes merged; reads a; reads b",),
    ),
    program(
        "dos2unix",
        TOOL,
        aliases=("unix2dos", "mac2unix", "unix2mac"),
        options="-n,--newfile -o,--oldfile -k,--keepdate -q,--quiet -f,--force -c,--convmode= -l,--newline "
        "-b,--keep-bom -r,--remove-bom -s,--safe -v,--verbose -i,--info=? --allow-chown --no-allow-chown "
        "-u,--keep-utf16 -ul -ub -m,--add-bom",
        handler=_dos2unix,
        examples=("dos2unix a.txt => writes a.txt", "dos2unix -n in out => reads in; writes out"),
    ),
    program(
        "black",
        TOOL,
        options="--check --diff --color --no-color -c,--code=:code -l,--line-length= -t,--target-version= --pyi --ipynb "
        "-S,--skip-string-normalization -C,--skip-magic-trailing-comma --preview --unstable --fast --safe "
        "--include= --exclude= --extend-exclude= --force-exclude= --stdin-filename= -W,--workers= -q,--quiet "
        "-v,--verbose --config=:reads --required-version= --python-cell-magics=",
        handler=_unless(("--check", "--diff"), "black"),
        complete=False,
        examples=("black src => writes src", "black --check src => reads src"),
    ),
    program(
        "isort",
        TOOL,
        options="--check-only,--check,-c --diff -q -v --profile= --settings-path=,--sp= -l,--line-length= --atomic",
        handler=_unless(("--check-only", "--diff"), "isort"),
        complete=False,
        examples=("isort . => writes .", "isort --check . => reads ."),
    ),
    program(
        "autopep8",
        TOOL,
        aliases=("yapf", "clang-format", "gofmt", "goimports", "shfmt", "rubocop", "standardrb"),
        options="-i,--in-place -w,--write -a,--aggressive,--autocorrect,-A,--autocorrect-all -r,--recursive "
        "-d,--diff -l,--list -s,--simplify --style= -j,--jobs= -p,--parallel --max-line-length= -x",
        handler=_in_place(("-i", "--in-place", "-w", "--write", "-a", "--autocorrect", "-A"), "formatter"),
        complete=False,
        examples=("gofmt -w main.go => writes main.go", "clang-format -i a.c => writes a.c", "gofmt -l . => reads ."),
    ),
    program(
        "rustfmt",
        TOOL,
        options="--check --emit= --edition= --config-path=:reads --config= -l,--files-with-diff -v -q",
        handler=_unless(("--check",), "rustfmt"),
        complete=False,
        examples=("rustfmt src/main.rs => writes src/main.rs",),
    ),
    program(
        "dd",
        TOOL,
        options="--if=:reads --of=:writes --ibs= --obs= --bs= --cbs= --skip= --seek= --count= --conv= "
        "--iflag= --oflag= --status= --iseek= --oseek=",
        preparse=_dd_words,
        examples=("dd if=/dev/zero of=x count=1 => reads /dev/zero; writes x",),
    ),
    program(
        "split",
        TOOL,
        options="-a,--suffix-length= --additional-suffix= -b,--bytes= -C,--line-bytes= -d --numeric-suffixes=? "
        "-x --hex-suffixes=? -e,--elide-empty-files --filter=:runs -l,--lines= -n,--number= -t,--separator= "
        "-u,--unbuffered --verbose",
        operands="reads",
        handler=_split,
        language="sh",
        numeric=True,
        examples=(
            "split -l 10 f part. => reads f; writes part.??",
            "split --filter='rm x' f => runs rm x; reads f; writes x??",
        ),
    ),
    program(
        "csplit",
        TOOL,
        options="-b,--suffix-format= -f,--prefix= -k,--keep-files -n,--digits= -s,--quiet,--silent "
        "-z,--elide-empty-files --suppress-matched",
        operands="reads",
        handler=_csplit,
        examples=("csplit f /x/ => reads f; writes xx??",),
    ),
    program(
        "shuf",
        TOOL,
        options="-e,--echo -i,--input-range= -n,--head-count= -o,--output=:writes --random-source=:reads "
        "-r,--repeat -z,--zero-terminated",
        operands="reads...",
        examples=("shuf -o out in => writes out; reads in",),
    ),
    program(
        "sort",
        TOOL,
        options="-b,--ignore-leading-blanks -d,--dictionary-order -f,--ignore-case -g,--general-numeric-sort "
        "-i,--ignore-nonprinting -M,--month-sort -h,--human-numeric-sort -n,--numeric-sort -R,--random-sort "
        "--random-source=:reads -r,--reverse --sort= -V,--version-sort --batch-size= -c --check=? -C "
        "--compress-program=:runs --debug --files0-from=:reads -k,--key= -m,--merge -o,--output=:writes "
        "-s,--stable -S,--buffer-size= -t,--field-separator= -T,--temporary-directory= --parallel= -u,--unique "
        "-z,--zero-terminated",
        operands="reads...",
        language="sh",
        examples=(
            "sort -o out in => writes out; reads in",
            "sort --out=out in => writes out; reads in",
            "sort --compress-program=gzip in => runs gzip; reads in",
        ),
    ),
    program(
        "uniq",
        TOOL,
        options="-c,--count -d,--repeated -D --all-repeated=? -f,--skip-fields= --group=? -i,--ignore-case "
        "-s,--skip-chars= -u,--unique -z,--zero-terminated -w,--check-chars=",
        handler=_uniq,
        examples=("uniq in out => reads in; writes out",),
    ),
    program(
        "iconv",
        TOOL,
        options="-f,--from-code= -t,--to-code= -o,--output=:writes -c -s,--silent -l,--list --verbose",
        operands="reads...",
        examples=("iconv -f latin1 -t utf8 -o out in => writes out; reads in",),
    ),
    program(
        "base64",
        TOOL,
        aliases=("base32", "basenc"),
        options="-d,--decode -i,--ignore-garbage -w,--wrap= --base64 --base64url --base32 --base32hex --base16 "
        "--base2msbf --base2lsbf --z85",
        operands="reads",
        style=POSIX,
        examples=("base64 -d f => reads f",),
    ),
)
