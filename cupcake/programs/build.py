"""Build tools, compilers, formatters and linters: where their outputs go, which of them rewrite the
files they are given, and which options run commands or load code (``make --eval``, ``go
-toolexec``, ``cmake -E``, ``gcc -wrapper``). What a Makefile or a build script does is not read:
those are programs the reader cannot see into (the operating-system layer's part)."""

from __future__ import annotations

from cupcake.programs.spec import CODE, POSIX, READS, STDIN_CODE, TOOL, WRITES, program
from cupcake.shell.words import Word


def _make(r) -> None:
    """``make -f -`` reads the makefile from stdin; ``VAR=value`` operands are make code (they
    override what recipes run); ``-t`` touches the targets."""
    if any(v.value == "-" for v in r.values("-f", "--file", "--makefile")):
        r.effects = [e for e in r.effects if not (e.tag == "script" and e.word.value == "-")]
        r.add(STDIN_CODE, None, "make -f -").language = "make"
    for word in r.operands:
        if word.known and "=" in word.value and word.value.split("=", 1)[0].strip().replace("_", "a").isalnum():
            r.add(CODE, word, "make VAR=value").language = "make"
        elif r.has("-t", "--touch"):
            r.add(WRITES, word, "make -t")


# cmake -E TOOL ARGS: the portable file tools, said as the commands they stand for.
_CMAKE_TOOLS = {
    "rm": ["rm"],
    "remove": ["rm", "-f"],
    "remove_directory": ["rm", "-rf"],
    "copy": ["cp"],
    "copy_if_different": ["cp"],
    "copy_if_newer": ["cp"],
    "copy_directory": ["cp", "-r"],
    "copy_directory_if_different": ["cp", "-r"],
    "rename": ["mv"],
    "touch": ["touch"],
    "touch_nocreate": ["touch", "-c"],
    "make_directory": ["mkdir", "-p"],
    "create_symlink": ["ln", "-s"],
    "create_hardlink": ["ln"],
    "tar": ["tar"],
    "cat": ["cat"],
    "echo": ["echo"],
    "echo_append": ["echo"],
    "env": ["env"],
    "time": ["time"],
    "true": ["true"],
    "false": ["false"],
    "sleep": ["sleep"],
    "md5sum": ["md5sum"],
    "sha256sum": ["sha256sum"],
    "compare_files": ["cmp"],
}


def _cmake(r) -> None:
    words = r.words
    cut = next((k for k, w in enumerate(words) if w.known and w.value == "-E"), None)
    if cut is None or cut + 1 >= len(words):
        return
    tool = words[cut + 1]
    rest = list(words[cut + 2 :])
    r.drop(READS, WRITES, options=True)
    if tool.known and tool.value == "chdir" and rest:
        r.add("chdir", rest[0], "cmake -E chdir")
        r.inner = rest[1:] or None
        return
    if tool.known and tool.value == "copy_directory" and len(rest) >= 2:  # the directories' contents
        rest = [Word(w.value.rstrip("/") + "/.", known=w.known) for w in rest[:-1]] + rest[-1:]
    translated = _CMAKE_TOOLS.get(tool.value) if tool.known else None
    if translated is None:
        r.unknown.append(f"`cmake -E {tool.value}` is a tool Cupcake does not know")
        return
    r.inner = [Word(w) for w in translated] + rest


def _go(r) -> None:
    if r.path[-1] == "env" and r.has("-w"):
        for word in r.operands:
            if (
                word.value.upper().startswith(("GOFLAGS=", "CC=", "CXX=", "GOTOOLCHAIN=", "GOENV=", "GOROOT="))
                or not word.known
            ):
                r.add("config", word, "go env -w")


def _format_operands(write_flags: tuple, check_flags: tuple = ()):
    """A formatter or fixer: with a write flag (or without a check flag when ``check_flags`` is
    given) its file operands are rewritten, else read."""

    def handler(r) -> None:
        r.drop(READS, WRITES)
        rewriting = r.has(*write_flags) if write_flags else not r.has(*check_flags)
        for word in r.operands:
            r.add(WRITES if rewriting else READS, word, " ".join(r.path) + (", which rewrites it" if rewriting else ""))

    return handler


_GCC = (
    "-o=:writes -MF=:writes -MQ= -MT= -D= -U= -I= -L= -l= -x= -std= -include=:reads -imacros=:reads "
    "-fplugin=:code -specs=:reads -wrapper=:runs -B= --sysroot= -isystem= -iquote= -idirafter= -Xlinker= "
    "-Xassembler= -Xpreprocessor= -c -S -E -g -O -O0 -O1 -O2 -O3 -Os -Wall -Wextra -Werror -shared -static -pipe "
    "-pthread -v -M -MM -MD -MMD -MP -save-temps=? -dumpdir= -dumpbase= -aux-info=:writes -fdump-rtl-all --help --version"
)

SPECS = (
    program(
        "make",
        TOOL,
        aliases=("gmake", "bmake", "remake"),
        options="-b -m -B,--always-make -C,--directory=:chdir -d --debug=? -e,--environment-overrides -E,--eval=:code "
        "-f,--file,--makefile=:script -h,--help -i,--ignore-errors -I,--include-dir= -j,--jobs=? --jobserver-auth= "
        "--jobserver-style= -k,--keep-going -l,--load-average,--max-load=? -L,--check-symlink-times "
        "-n,--just-print,--dry-run,--recon --no-print-directory -o,--old-file,--assume-old= -O,--output-sync=? "
        "-p,--print-data-base -q,--question -r,--no-builtin-rules -R,--no-builtin-variables --shuffle=? "
        "-s,--silent,--quiet --no-silent -S,--no-keep-going,--stop -t,--touch --trace -v,--version "
        "-w,--print-directory --warn-undefined-variables -W,--what-if,--new-file,--assume-new=",
        operands="value...",
        language="make",
        handler=_make,
        examples=(
            "make -j4 all => passes",
            "make --eval='x: rm y' x => code x: rm y",
            "make -C src => passes",
            "make -f - => stdin code",
            "make CC='rm x' => code CC=rm x",
        ),
    ),
    program(
        "cmake",
        TOOL,
        options="-S= -B= -D= -U= -C=:script -G= -T= -A= -P=:script -E --build= --install= --preset= --fresh "
        "--target= -t= -j,--parallel=? --config= --prefix= --component= --clean-first -v,--verbose -N "
        "-L -LA -LH -LAH --graphviz=:writes --system-information=? --log-level= --trace --warn-uninitialized "
        "--toolchain= --install-prefix= --workflow --list-presets=? -Wdev -Wno-dev -Werror= --debug-output",
        operands="value...",
        handler=_cmake,
        complete=False,
        examples=(
            "cmake -E rm -rf build => deletes build (tree)",
            "cmake -S . -B build => passes",
            "cmake -P x.cmake => script x.cmake",
        ),
    ),
    program(
        "ninja",
        TOOL,
        aliases=("samu",),
        options="-C=:chdir -f=:script -j= -k= -l= -n -v,--verbose -d= -t= -w= --version --quiet",
        operands="value...",
        examples=("ninja -C build => passes",),
    ),
    program(
        "meson",
        TOOL,
        options="-C=:chdir --prefix= -D= --buildtype= --wipe --reconfigure",
        operands="value...",
        complete=False,
        examples=("meson setup build => passes",),
    ),
    program(
        "go",
        TOOL,
        options="-C=:chdir",
        style=POSIX,
        subcommands={
            name: (
                name,
                TOOL,
                {
                    "options": "-o=:writes -toolexec=:runs -exec=:runs -C=:chdir -n -x -v -a -race -cover -work -mod= -modfile= -overlay=:reads -pgo= -tags= -ldflags= -gcflags= -asmflags= -trimpath -buildmode= -buildvcs= -coverprofile=:writes -cpuprofile=:writes -memprofile=:writes -blockprofile=:writes -mutexprofile=:writes -trace=:writes -outputdir= -run= -bench= -count= -timeout= -short -json -c -i -w -u -d -t -l -e -p= -f= -fmt",
                    "single_dash": True,
                    "complete": False,
                    "handler": _go,
                    "language": "sh",
                },
            )
            for name in (
                "build",
                "run",
                "test",
                "install",
                "vet",
                "get",
                "mod",
                "generate",
                "fmt",
                "env",
                "work",
                "clean",
                "list",
                "doc",
                "version",
                "tool",
                "fix",
            )
        },
        examples=(
            "go build -o bin/app . => writes bin/app",
            "go test -exec 'rm x' ./... => runs rm x",
            "go env -w GOFLAGS=-toolexec=x => config GOFLAGS=-toolexec=x",
        ),
    ),
    program(
        "cargo",
        TOOL,
        options="-C=:chdir --manifest-path= --config=:config -Z= --color= --frozen --locked --offline -q,--quiet -v,--verbose -V,--version --list -h,--help",
        style=POSIX,
        subcommands={
            name: (
                name,
                TOOL,
                {
                    "options": "--manifest-path= -p,--package= --target= --target-dir= --release -r --all-features --features= -F= --no-default-features -j,--jobs= --bin= --example= --test= --bench= --lib --bins --tests --examples --benches --all-targets --workspace --exclude= --profile= --message-format= --fix --allow-dirty --allow-staged --allow-no-vcs --broken-code --edition --edition-idioms --check --all --no-run --no-fail-fast --doc --open --path= --git= --branch= --tag= --rev= --root= --force --dry-run --locked --offline --frozen -q -v --color= --config=:config -Z=",
                    "complete": False,
                },
            )
            for name in (
                "build",
                "b",
                "check",
                "c",
                "test",
                "t",
                "run",
                "r",
                "bench",
                "doc",
                "clean",
                "fmt",
                "clippy",
                "fix",
                "install",
                "uninstall",
                "add",
                "remove",
                "update",
                "new",
                "init",
                "publish",
                "package",
                "tree",
                "metadata",
                "search",
                "fetch",
                "vendor",
                "generate-lockfile",
                "login",
                "owner",
                "yank",
                "nextest",
                "watch",
                "expand",
            )
        },
        examples=(
            "cargo build --release => passes",
            'cargo --config \'target.x.runner="rm y"\' run => config target.x.runner="rm y"',
        ),
    ),
    program(
        "gcc",
        TOOL,
        aliases=("cc", "c++", "g++", "clang", "clang++", "tcc", "icc", "icx", "gfortran", "zig-cc", "emcc"),
        options=_GCC,
        single_dash=True,
        operands="reads...",
        complete=False,
        language="sh",
        examples=("gcc -O2 -c a.c -o a.o => writes a.o; reads a.c", "gcc -wrapper 'rm,x' a.c => runs rm,x; reads a.c"),
    ),
    program(
        "rustc",
        TOOL,
        options="-o=:writes --out-dir=:into --emit= --crate-type= --crate-name= --edition= -C,--codegen= -L= -l= --cfg= -O -g --target= --test -Z= --extern= --sysroot= -W= -A= -D= -F=",
        operands="reads...",
        complete=False,
        examples=("rustc -o app main.rs => writes app; reads main.rs",),
    ),
    program(
        "javac",
        TOOL,
        options="-d=:into -s=:into -h=:into -cp,-classpath,--class-path= -sourcepath,--source-path= -source,--source= -target,--target= --release= -encoding= -g -nowarn -verbose -Xlint=? -processor= -processorpath= -J= -A=",
        single_dash=True,
        operands="reads...",
        complete=False,
        examples=("javac -d out A.java => into out; reads A.java",),
    ),
    program(
        "tsc",
        TOOL,
        options="--outDir=:into --outFile=:writes -p,--project= -b,--build --declarationDir=:into --noEmit -w,--watch --target= --module= --strict --incremental --tsBuildInfoFile=:writes --rootDir= --listFiles --pretty",
        operands="reads...",
        complete=False,
        examples=("tsc -p . => passes", "tsc --outFile out.js a.ts => writes out.js; reads a.ts"),
    ),
    program(
        "esbuild",
        TOOL,
        options="--outfile=:writes --outdir=:into --bundle --minify --platform= --format= --target= --sourcemap=? --watch --serve=? --define= --external= --loader= --metafile=:writes --log-level= --jsx= --tsconfig=",
        operands="reads...",
        complete=False,
        examples=("esbuild a.ts --bundle --outfile=out.js => writes out.js; reads a.ts",),
    ),
    program(
        "prettier",
        TOOL,
        options="-w,--write -c,--check -l,--list-different --config=:reads --no-config --ignore-path= --plugin=:code --parser= --stdin-filepath= --cache --cache-location=:writes --log-level= -u,--ignore-unknown --no-error-on-unmatched-pattern --print-width= --tab-width= --use-tabs --no-semi --single-quote --trailing-comma= --end-of-line=",
        handler=_format_operands(("-w", "--write")),
        complete=False,
        examples=("prettier --write src => writes src", "prettier --check src => reads src"),
    ),
    program(
        "eslint",
        TOOL,
        options="--fix --fix-dry-run --fix-type= -o,--output-file=:writes -c,--config=:code --no-config-lookup --rulesdir=:code --plugin= --resolve-plugins-relative-to= --cache --cache-location=:writes -f,--format= --ext= --max-warnings= --quiet --no-eslintrc --env= --global= --parser= --parser-options= --ignore-path= --ignore-pattern= --no-ignore --report-unused-disable-directives --debug --stdin --stdin-filename=",
        handler=_format_operands(("--fix",)),
        complete=False,
        examples=("eslint --fix src => writes src", "eslint src => reads src"),
    ),
    program(
        "ruff",
        TOOL,
        options="--config=:reads --isolated -q,--quiet -v,--verbose -s,--silent",
        subcommands={
            "check": (
                "check",
                TOOL,
                {
                    "options": "--fix --no-fix --unsafe-fixes --no-unsafe-fixes --diff --watch --show-fixes --exit-zero --exit-non-zero-on-fix --select= --ignore= --extend-select= --extend-ignore= --per-file-ignores= --output-format= -o,--output-file=:writes --target-version= --preview --config=:reads --statistics --add-noqa --show-files --show-settings --cache-dir= --no-cache --line-length= --stdin-filename= -n",
                    "handler": _format_operands(("--fix", "--add-noqa")),
                    "complete": False,
                },
            ),
            "format": (
                "format",
                TOOL,
                {
                    "options": "--check --diff --config=:reads --line-length= --target-version= --preview --no-cache --cache-dir= --stdin-filename= --exit-non-zero-on-format -n --range=",
                    "handler": _format_operands((), ("--check", "--diff")),
                    "complete": False,
                },
            ),
            "rule": ("rule", TOOL, {}),
            "clean": ("clean", TOOL, {}),
            "version": ("version", TOOL, {}),
        },
        examples=(
            "ruff check --fix src => writes src",
            "ruff format src => writes src",
            "ruff format --check src => reads src",
            "ruff check . => reads .",
        ),
    ),
    program(
        "biome",
        TOOL,
        subcommands={
            name: (
                name,
                TOOL,
                {
                    "options": "--write --apply --apply-unsafe --fix --unsafe --config-path= --reporter= --staged --changed --since=",
                    "handler": _format_operands(("--write", "--apply", "--fix", "--apply-unsafe")),
                    "complete": False,
                },
            )
            for name in ("format", "check", "lint", "ci")
        },
        examples=("biome format --write src => writes src",),
    ),
    program(
        "pytest",
        TOOL,
        aliases=("py.test",),
        options="--junitxml=:writes --junit-xml=:writes --basetemp= -p=:code --rootdir= -c=:reads --confcutdir= -o,--override-ini= --cov= --cov-report= --html=:writes --result-log=:writes --lf --ff -x -k= -m= -v -q -s --tb= -n= --maxfail= --durations= -W= --log-file=:writes --import-mode= --deselect= --ignore= --co --collect-only --no-header -r= --capture= --pdb --setup-show --runxfail --cache-clear -l",
        operands="reads...",
        complete=False,
        examples=("pytest -q tests => reads tests", "pytest --junitxml=r.xml => writes r.xml"),
    ),
    program(
        "mypy",
        TOOL,
        aliases=(
            "pyright",
            "basedpyright",
            "pylint",
            "flake8",
            "bandit",
            "vulture",
            "pyflakes",
            "pycodestyle",
            "tox",
            "nox",
        ),
        options="--cache-dir= --junit-xml=:writes --html-report= --txt-report= --config-file=:reads -p,--package= -m,--module= --strict --ignore-missing-imports -o,--output= -c,--config= -e,--env= --rcfile=:reads --output-file=:writes",
        operands="reads...",
        complete=False,
        examples=("mypy src => reads src",),
    ),
)
